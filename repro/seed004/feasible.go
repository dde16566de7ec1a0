package seed004

import (
	"math/rand/v2"
	"strings"

	"gnnsim/accel/fpga"
	"gnnsim/nas/fgnas"
)

// FeasibleRow is the share of uniform random designs that meet a
// specification under one timing: how hard the specification is, and
// what random search pays in hardware evaluations per trained design.
type FeasibleRow struct {
	Data      string  `parquet:"data"`
	LatencyMS float64 `parquet:"latency_ms"`
	LUT       int64   `parquet:"lut_ff"`
	DSP       int64   `parquet:"dsp"`
	Timing    string  `parquet:"timing"`
	Draws     int64   `parquet:"draws"`
	Feasible  int64   `parquet:"feasible"`
	// Over counts the designs by the first limit they break (LUT, FF,
	// DSP, then latency: the FPGA model's order).
	OverLatency int64 `parquet:"over_latency"`
	OverLUT     int64 `parquet:"over_lut"`
	OverFF      int64 `parquet:"over_ff"`
	OverDSP     int64 `parquet:"over_dsp"`
	// Breaks counts the designs over each limit, whatever else they
	// break.
	BreaksLatency int64 `parquet:"breaks_latency"`
	BreaksLUT     int64 `parquet:"breaks_lut"`
	BreaksFF      int64 `parquet:"breaks_ff"`
	BreaksDSP     int64 `parquet:"breaks_dsp"`
	// FeasibleReLU counts the designs that would be feasible if each of
	// their activation units cost what a ReLU does (the architecture and
	// everything else unchanged): how much the elu, sigmoid and tanh units'
	// LUTs and DSPs decide.
	FeasibleReLU int64 `parquet:"feasible_relu_priced"`
}

// feasibility draws uniform designs of d's joint space and judges them
// against every specification under the published timing and ours.
func feasibility(d fgnas.Dataset, limits []fgnas.Limits, draws int, seed uint64) ([]FeasibleRow, error) {
	sp, err := fgnas.NewSpace(2, d.Classes)
	if err != nil {
		return nil, err
	}
	var acts []int // the activation genes
	for i := range sp.Joint().Len() {
		if strings.HasSuffix(sp.Joint().Var(i).Name, ".act") {
			acts = append(acts, i)
		}
	}
	relu := make([]int, sp.Joint().Len())
	var out []FeasibleRow
	for _, pub := range []bool{true, false} {
		name := "ours"
		if pub {
			name = "published"
		}
		for _, l := range limits {
			p := &fgnas.Problem{Space: sp, Data: d, Limits: l, Timing: fpga.Options{Published: pub}}
			r := rand.New(rand.NewPCG(seed, 0x66656173)) // the same designs for every row
			row := FeasibleRow{Data: d.Name, LatencyMS: l.LatencyMS, LUT: l.LUT, DSP: l.DSP, Timing: name, Draws: int64(draws)}
			for range draws {
				g := sp.Joint().Sample(r)
				_, s, err := p.Hardware(g)
				if err != nil {
					return nil, err
				}
				// The hardware of the same design with ReLU units: the
				// activation genes' choice 0 (relu, in the fpga order).
				copy(relu, g)
				for _, i := range acts {
					relu[i] = int(fpga.ReLU)
				}
				_, sr, err := p.Hardware(relu)
				if err != nil {
					return nil, err
				}
				if sr.Feasible {
					row.FeasibleReLU++
				}
				for _, b := range []struct {
					n    *int64
					over bool
				}{{&row.BreaksLatency, s.LatencyMS > l.LatencyMS}, {&row.BreaksLUT, s.Use.LUT > l.LUT},
					{&row.BreaksFF, s.Use.FF > l.LUT}, {&row.BreaksDSP, s.Use.DSP > l.DSP}} {
					if b.over {
						*b.n++
					}
				}
				switch s.Over {
				case "":
					row.Feasible++
				case "latency":
					row.OverLatency++
				case "LUT":
					row.OverLUT++
				case "FF":
					row.OverFF++
				case "DSP":
					row.OverDSP++
				}
			}
			out = append(out, row)
		}
	}
	return out, nil
}
