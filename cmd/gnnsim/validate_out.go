package main

import (
	"maps"
	"math"
	"slices"

	"gnnsim/accel/fpgaref"
	"gnnsim/accel/omegaref"
)

// omegaValidateRow is one compared quantity of one reference run: the long
// table validate omega --out writes.
type omegaValidateRow struct {
	Graph     string   `parquet:"graph"`
	Tiling    string   `parquet:"tiling"`
	P         int64    `parquet:"P"`
	Quantity  string   `parquet:"quantity"`
	Ours      int64    `parquet:"ours"`
	Theirs    int64    `parquet:"theirs"`
	AbsPctErr *float64 `parquet:"abs_pct_err,optional"` // null when theirs is 0
	Error     string   `parquet:"error"`                // why the run could not be simulated
}

// omegaValidateRows flattens runs into rows, in run order and, per run,
// quantity-name order; a failed run is one row with its error.
func omegaValidateRows(runs []omegaref.RunResult) []omegaValidateRow {
	var out []omegaValidateRow
	for i := range runs {
		r := &runs[i]
		if r.Err != "" {
			out = append(out, omegaValidateRow{Graph: r.Graph, Tiling: r.Tiling, P: int64(r.P), Error: r.Err})
			continue
		}
		for _, q := range slices.Sorted(maps.Keys(r.Values)) {
			v := r.Values[q]
			out = append(out, omegaValidateRow{Graph: r.Graph, Tiling: r.Tiling, P: int64(r.P), Quantity: q,
				Ours: v.Ours, Theirs: v.Theirs, AbsPctErr: finitePtr(v.ErrPct)})
		}
	}
	return out
}

// fgnasValidateRow is one metric of one reference row: the long table fpga
// validate fgnas --out writes.
type fgnasValidateRow struct {
	Line      int64    `parquet:"line"`
	DesignID  string   `parquet:"design_id"`
	Source    string   `parquet:"source"`
	Dataset   string   `parquet:"dataset"`
	Metric    string   `parquet:"metric"`
	Ours      int64    `parquet:"ours"`
	Theirs    int64    `parquet:"theirs"`
	AbsPctErr *float64 `parquet:"abs_pct_err,optional"` // null when theirs is 0
	Error     string   `parquet:"error"`                // why the row could not be priced
}

// fgnasValidateRows flattens the results into rows, in reference order and
// metric order (cycles, LUT, FF, DSP); a failed row is one row with its
// error.
func fgnasValidateRows(rs []fpgaref.Result) []fgnasValidateRow {
	var out []fgnasValidateRow
	for i := range rs {
		r := &rs[i]
		base := fgnasValidateRow{Line: int64(r.Row.Line), DesignID: r.Row.DesignID, Source: r.Row.Source, Dataset: r.Row.Dataset}
		if r.Err != nil {
			base.Error = r.Err.Error()
			out = append(out, base)
			continue
		}
		for m := range fpgaref.NumMetrics {
			x := base
			x.Metric, x.Ours, x.Theirs, x.AbsPctErr = fpgaref.MetricNames[m], r.Ours[m], r.Theirs[m], finitePtr(r.PctErr[m])
			out = append(out, x)
		}
	}
	return out
}

// finitePtr is &v, or nil when v is not finite (an error against 0).
func finitePtr(v float64) *float64 {
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return nil
	}
	return &v
}
