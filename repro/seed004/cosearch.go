package seed004

import (
	"context"
	"fmt"
	"io"

	"gnnsim/accel/fpga"
	"gnnsim/nas/fgnas"
)

// RunMethod runs the co-search p by method: joint (episodes of the joint
// search), random (trained designs drawn at random; 0: as many as a joint
// run of episodes trains) or separate (architecture first, then hardware).
func RunMethod(ctx context.Context, p *fgnas.Problem, method string, episodes, trained int, seed uint64) (*fgnas.RunResult, error) {
	var res *fgnas.RunResult
	var err error
	switch method {
	case "joint":
		res, err = p.Joint(ctx, episodes, seed)
	case "random":
		if trained == 0 {
			j, err := p.Joint(ctx, episodes, seed)
			if err != nil {
				return nil, err
			}
			trained = j.Trained
		}
		res, err = p.Random(ctx, trained, seed)
	case "separate":
		res, err = p.Separate(ctx, 0, 0, seed)
	default:
		return nil, fmt.Errorf("--method %q: want joint, random or separate", method)
	}
	return res, err
}

// DesignRows lists the distinct designs of res (in space sp) on data.
func DesignRows(res *fgnas.RunResult, sp *fgnas.Space, data string) []DesignRow {
	rows := make([]DesignRow, len(res.Samples))
	for i, x := range res.Samples {
		rows[i] = DesignRow{Method: res.Method, Data: data, Index: i, Episode: x.Episode, Phase: x.Phase,
			Design: sp.Format(x.Genome), LatencyMS: x.LatencyMS, Cycles: x.Cycles,
			LUT: x.Use.LUT, FF: x.Use.FF, DSP: x.Use.DSP, Feasible: x.Feasible, Over: x.Over,
			Trained: x.Trained, Val: x.Val, Test: x.Test, Best: i == res.Best}
	}
	return rows
}

// WriteRun prints a run's summary and its best design under limits lim.
func WriteRun(w io.Writer, res *fgnas.RunResult, data string, lim fgnas.Limits, sp *fgnas.Space) {
	fmt.Fprintf(w, "%s search on %s under %s: %d distinct designs, %d trained\n", res.Method, data, lim, len(res.Samples), res.Trained)
	if res.Best < 0 {
		fmt.Fprintln(w, "no feasible design found")
		return
	}
	b := res.Samples[res.Best]
	fmt.Fprintf(w, "best: val %.1f%%, test %.1f%%, %.4f ms, LUT %d, FF %d, DSP %d\n  %s\n",
		100*b.Val, 100*b.Test, b.LatencyMS, b.Use.LUT, b.Use.FF, b.Use.DSP, sp.Format(b.Genome))
}

// DesignRow is one distinct design of a co-search run as 'gnnsim search
// fgnas' gives it: a JSON object and a Parquet row.
type DesignRow struct {
	Method    string  `json:"method" parquet:"method"`
	Data      string  `json:"data" parquet:"data"`
	Index     int     `json:"index" parquet:"index"`
	Episode   int     `json:"episode" parquet:"episode"`
	Phase     int     `json:"phase" parquet:"phase"`
	Design    string  `json:"design" parquet:"design"`
	LatencyMS float64 `json:"latency_ms" parquet:"latency_ms"`
	Cycles    int64   `json:"cycles" parquet:"cycles"`
	LUT       int64   `json:"lut" parquet:"lut"`
	FF        int64   `json:"ff" parquet:"ff"`
	DSP       int64   `json:"dsp" parquet:"dsp"`
	Feasible  bool    `json:"feasible" parquet:"feasible"`
	Over      string  `json:"over" parquet:"over"`
	Trained   bool    `json:"trained" parquet:"trained"`
	Val       float64 `json:"val" parquet:"val"`
	Test      float64 `json:"test" parquet:"test"`
	Best      bool    `json:"best" parquet:"best"`
}

// Search is one co-search as 'gnnsim search fgnas' gives it: a data set
// whose networks are trained on the Planetoid files at TrainPath, the
// FPGA cost model by name, the limits and the method's budget. Errors
// name that command's flags.
type Search struct {
	Data                              fgnas.Dataset
	TrainPath                         string
	CostModel                         string
	Limits                            fgnas.Limits
	Method                            string
	Episodes, Trained                 int
	TrainUntil, Screen                int
	Seed                              uint64
	AnyResource, Published, Pipelined bool
}

// Run trains the oracle, builds the two-layer space and runs the method,
// returning the result and the space its genomes index.
func (s Search) Run(ctx context.Context) (*fgnas.RunResult, *fgnas.Space, error) {
	oracles, err := TrainedOracleAt(ctx, func(fgnas.Dataset) string { return s.TrainPath }, false, 0)
	if err != nil {
		return nil, nil, err
	}
	oracle, err := oracles(s.Data)
	if err != nil {
		return nil, nil, err
	}
	sp, err := fgnas.NewSpace(2, s.Data.Classes)
	if err != nil {
		return nil, nil, err
	}
	m, err := fpga.ParseModel(s.CostModel)
	if err != nil {
		return nil, nil, fmt.Errorf("--cost-model: %w", err)
	}
	if s.TrainUntil < 0 || s.Screen < 0 {
		return nil, nil, fmt.Errorf("--train-until %d, --screen %d: want >= 0", s.TrainUntil, s.Screen)
	}
	p := &fgnas.Problem{Space: sp, Data: s.Data, Limits: s.Limits, Oracle: oracle, TrainUntil: s.TrainUntil, ScreenDraws: s.Screen,
		Timing: fpga.Options{Model: m, AnyResource: s.AnyResource, Published: s.Published, Pipelined: s.Pipelined}}
	res, err := RunMethod(ctx, p, s.Method, s.Episodes, s.Trained, s.Seed)
	return res, sp, err
}
