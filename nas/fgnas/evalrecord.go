package fgnas

import (
	"fmt"
	"io"

	"gnnsim/accel/fpga"
)

// StageRow is one stage of one layer of an fpga eval result.
type StageRow struct {
	Layer   int    `json:"layer" parquet:"layer"`
	Stage   string `json:"stage" parquet:"stage"`
	Work    int64  `json:"work" parquet:"work"`
	Latency int64  `json:"latency" parquet:"latency"`
	Cycles  int64  `json:"cycles" parquet:"cycles"`
	LUT     int64  `json:"lut" parquet:"lut"`
	FF      int64  `json:"ff" parquet:"ff"`
	DSP     int64  `json:"dsp" parquet:"dsp"`
}

// EvalRecord is the FPGA model's report of one design on a data set as
// 'gnnsim fpga eval' gives it: its JSON object and its Parquet row.
type EvalRecord struct {
	Data            string     `json:"data" parquet:"data"`
	Stages          []StageRow `json:"stages" parquet:"stages,list"`
	SummedCycles    int64      `json:"summed_cycles" parquet:"summed_cycles"`
	PipelinedCycles int64      `json:"pipelined_cycles" parquet:"pipelined_cycles"`
	LatencyMS       float64    `json:"latency_ms" parquet:"latency_ms"`
	LUT             int64      `json:"lut" parquet:"lut"`
	FF              int64      `json:"ff" parquet:"ff"`
	DSP             int64      `json:"dsp" parquet:"dsp"`
	BRAM            int64      `json:"bram18" parquet:"bram18"`
	Feasible        bool       `json:"feasible" parquet:"feasible"`
	Over            string     `json:"over,omitempty" parquet:"over"`
}

// NewEvalRecord flattens the report r of a design on ds.
func NewEvalRecord(ds Dataset, r fpga.Report) EvalRecord {
	out := EvalRecord{Data: ds.Name, SummedCycles: r.SummedCycles, PipelinedCycles: r.PipelinedCycles,
		LatencyMS: float64(r.Cost.TimePS) * 1e-9,
		LUT:       r.Resources.LUT, FF: r.Resources.FF, DSP: r.Resources.DSP, BRAM: r.Resources.BRAM,
		Feasible: r.Feasible, Over: r.Over}
	for i, l := range r.Layers {
		for s, st := range l.Stages {
			out.Stages = append(out.Stages, StageRow{Layer: i, Stage: fpga.Stage(s).String(), Work: st.Work, Latency: st.Latency, Cycles: st.Cycles, LUT: st.Use.LUT, FF: st.Use.FF, DSP: st.Use.DSP})
		}
	}
	return out
}

// WriteEval prints the FPGA model's report r of a design on ds as text
// ('gnnsim fpga eval').
func WriteEval(w io.Writer, ds Dataset, r fpga.Report) error {
	fmt.Fprintf(w, "%s: %d nodes, %d adjacency entries, %d features (%d non-zeros), 100 MHz\n",
		ds.Name, ds.Size.Nodes, ds.Size.NNZ, ds.Features, ds.FeatureNNZ)
	fmt.Fprintf(w, "%-5s %-11s %12s %8s %12s %8s %8s %5s\n", "layer", "stage", "work", "depth", "cycles", "LUT", "FF", "DSP")
	for i, l := range r.Layers {
		for s, st := range l.Stages {
			fmt.Fprintf(w, "%-5d %-11s %12d %8d %12d %8d %8d %5d\n", i, fpga.Stage(s), st.Work, st.Latency, st.Cycles, st.Use.LUT, st.Use.FF, st.Use.DSP)
		}
		fmt.Fprintf(w, "%-5d %-11s %12s %8s %12d %8d %8d %5d  BRAM18 %d\n", i, "total", "", "", l.Cycles, l.Use.LUT, l.Use.FF, l.Use.DSP, l.Use.BRAM)
	}
	fmt.Fprintf(w, "summed    %d cycles = %.4f ms\n", r.SummedCycles, float64(r.SummedCycles)/fpga.ClockHz*1e3)
	if r.PipelinedCycles > 0 {
		fmt.Fprintf(w, "pipelined %d cycles = %.4f ms\n", r.PipelinedCycles, float64(r.PipelinedCycles)/fpga.ClockHz*1e3)
	}
	fmt.Fprintf(w, "resources LUT %d, FF %d, DSP %d, BRAM18 %d\n", r.Resources.LUT, r.Resources.FF, r.Resources.DSP, r.Resources.BRAM)
	if r.Feasible {
		fmt.Fprintln(w, "feasible: yes")
	} else {
		fmt.Fprintf(w, "feasible: no (%s over its limit)\n", r.Over)
	}
	return nil
}
