package omegaref

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"gnnsim/dataflow"
)

// Value is one compared quantity of a run: gnnsim's value and the
// reference's, and the absolute percentage error.
type Value struct {
	Ours   int64   `json:"ours"`
	Theirs int64   `json:"theirs"`
	ErrPct float64 `json:"abs_pct_err"`
}

// RunResult is the comparison of one reference run (one row of
// omega_reference.csv).
type RunResult struct {
	Graph  string `json:"graph"`
	Source string `json:"source"`
	Tiling string `json:"tiling"`
	P      int    `json:"P"`
	// Configs names gnnsim's configurations the run is compared with:
	// seq-x and sp-x on P PEs, or pp-x on P + P.
	Configs []string  `json:"configs"`
	Tiles   TileSizes `json:"tiles"`
	// Values holds the compared quantities by name: agg, comb, and seq and
	// sp, or pp; gb_seq and gb_sp (global-buffer accesses) for seq/sp runs.
	Values map[string]Value `json:"values"`
	Err    string           `json:"error,omitempty"` // why the run could not be simulated
}

// TileSizes are a run's tile sizes, named as in omega_reference.csv.
type TileSizes struct {
	Va int `json:"T_Va"`
	N  int `json:"T_N"`
	Fa int `json:"T_Fa"`
	Vc int `json:"T_Vc"`
	Gc int `json:"T_Gc"`
	Fc int `json:"T_Fc"`
}

func tileSizes(t dataflow.Tiles) TileSizes {
	return TileSizes{Va: t.Va, N: t.N, Fa: t.Fa, Vc: t.Vc, Gc: t.Gc, Fc: t.Fc}
}

// MaxErr returns the run's largest error and the quantity it is in (the
// first in report order on ties); a failed run has an infinite error.
func (r *RunResult) MaxErr() (q string, pct float64) {
	if r.Err != "" {
		return "", math.Inf(1)
	}
	pct = -1
	for _, name := range valueOrder {
		if v, ok := r.Values[name]; ok && v.ErrPct > pct {
			q, pct = name, v.ErrPct
		}
	}
	return q, max(pct, 0)
}

// valueOrder is the order of a run's quantities in reports.
var valueOrder = []string{"seq", "sp", "pp", "agg", "comb", "gb_seq", "gb_sp"}

// Worst returns the n runs with the largest error (MaxErr), largest first;
// ties keep the reference's order.
func (r *Report) Worst(n int) []RunResult {
	idx := make([]int, len(r.Results))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		_, ea := r.Results[a].MaxErr()
		_, eb := r.Results[b].MaxErr()
		return cmp.Compare(eb, ea)
	})
	n = min(max(n, 0), len(idx))
	out := make([]RunResult, n)
	for i := range n {
		out[i] = r.Results[idx[i]]
	}
	return out
}

// WriteJSON writes runs as a JSON array, one object per run.
func WriteJSON(w io.Writer, runs []RunResult) error {
	if runs == nil {
		runs = []RunResult{}
	}
	b, err := json.MarshalIndent(runs, "", "  ")
	if err != nil {
		return fmt.Errorf("omegaref: %w", err)
	}
	b = append(b, '\n')
	_, err = w.Write(b)
	return err
}

// WriteWorst prints runs (see Worst) as a table: each run's largest error
// with gnnsim's and the reference's value, then every compared quantity as
// ours/theirs.
func WriteWorst(w io.Writer, runs []RunResult) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%-16s %-6s %4s %-8s %10s %10s %9s  %s\n", "graph", "tiling", "P", "worst", "ours", "theirs", "err%", "all (ours/theirs)")
	for i := range runs {
		r := &runs[i]
		q, e := r.MaxErr()
		if r.Err != "" {
			fmt.Fprintf(&b, "%-16s %-6s %4d failed: %s\n", r.Graph, r.Tiling, r.P, r.Err)
			continue
		}
		v := r.Values[q]
		var all []string
		for _, name := range valueOrder {
			if x, ok := r.Values[name]; ok {
				all = append(all, fmt.Sprintf("%s=%d/%d", name, x.Ours, x.Theirs))
			}
		}
		fmt.Fprintf(&b, "%-16s %-6s %4d %-8s %10d %10d %9.4f  %s\n", r.Graph, r.Tiling, r.P, q, v.Ours, v.Theirs, e, strings.Join(all, " "))
	}
	_, err := io.WriteString(w, b.String())
	return err
}
