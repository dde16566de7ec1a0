package omegaref

import (
	"maps"
	"slices"

	"gnnsim/internal/refset"
)

// LongRow is one compared quantity of one reference run: a row of the
// long table 'gnnsim omega validate --out' writes.
type LongRow struct {
	Graph     string   `parquet:"graph"`
	Tiling    string   `parquet:"tiling"`
	P         int64    `parquet:"P"`
	Quantity  string   `parquet:"quantity"`
	Ours      int64    `parquet:"ours"`
	Theirs    int64    `parquet:"theirs"`
	AbsPctErr *float64 `parquet:"abs_pct_err,optional"` // null when theirs is 0
	Error     string   `parquet:"error"`                // why the run could not be simulated
}

// LongRows flattens runs into rows, in run order and, per run,
// quantity-name order; a failed run is one row with its error.
func LongRows(runs []RunResult) []LongRow {
	var out []LongRow
	for i := range runs {
		r := &runs[i]
		if r.Err != "" {
			out = append(out, LongRow{Graph: r.Graph, Tiling: r.Tiling, P: int64(r.P), Error: r.Err})
			continue
		}
		for _, q := range slices.Sorted(maps.Keys(r.Values)) {
			v := r.Values[q]
			out = append(out, LongRow{Graph: r.Graph, Tiling: r.Tiling, P: int64(r.P), Quantity: q,
				Ours: v.Ours, Theirs: v.Theirs, AbsPctErr: refset.Finite(v.ErrPct)})
		}
	}
	return out
}
