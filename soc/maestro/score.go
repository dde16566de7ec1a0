package maestro

import (
	"fmt"
	"gnnsim/internal/refset"
	"io"
	"math"
	"strings"
)

// Stats summarise absolute percentage errors against the reference.
type Stats struct {
	N        int     `json:"n"`
	Median   float64 `json:"median_abs_pct_err"`
	P90      float64 `json:"p90_abs_pct_err"`
	Max      float64 `json:"max_abs_pct_err"`
	Exact    int     `json:"exact"` // values reproduced exactly
	Worst    string  `json:"worst,omitempty"`
	worstErr float64
	errs     []float64
}

func (s *Stats) add(got, want float64, what string) {
	e := absPctErr(got, want)
	s.errs = append(s.errs, e)
	if e == 0 {
		s.Exact++
	}
	if e > s.worstErr {
		s.worstErr = e
		s.Worst = fmt.Sprintf("%s: %.6g, MAESTRO %.6g", what, got, want)
	}
}

func (s *Stats) finish() {
	s.N = len(s.errs)
	if s.N == 0 {
		return
	}
	s.Median, s.P90, s.Max, _ = refset.Summary(s.errs)
}

// absPctErr is |got - want| / want in percent; an error against a zero
// reference is 0 if got is 0 too, else 100.
func absPctErr(got, want float64) float64 {
	if want == 0 {
		if got == 0 {
			return 0
		}
		return 100
	}
	return math.Abs(got-want) / math.Abs(want) * 100
}

// quantile is numpy's default quantile of sorted x, as accel/omegaref
// scores (refset.Quantile).
var quantile = refset.Quantile

// DataflowScore is the agreement on the rows of one dataflow (or all).
type DataflowScore struct {
	Dataflow string `json:"dataflow"`
	// Scored rows: status = ok and macs_ok = 1.
	Rows     int   `json:"rows"`
	Runtime  Stats `json:"runtime_cycles"`
	MACs     Stats `json:"macs"`
	L2Reads  Stats `json:"l2_reads"`  // summed over the three tensors
	L2Writes Stats `json:"l2_writes"` // summed over the three tensors
	L1Reads  Stats `json:"l1_reads"`
	L1Writes Stats `json:"l1_writes"`
	Energy   Stats `json:"energy"`
	// Rows MAESTRO rejected (status != ok) and how many of them Analyze
	// rejects too.
	MaestroErrors    int `json:"maestro_errors"`
	ErrorsReproduced int `json:"maestro_errors_reproduced"`
	// Rows whose MAC count MAESTRO got wrong (macs_ok = 0), not scored,
	// and how many of them Analyze reproduces exactly (cycles and MACs).
	BadMACRows       int `json:"bad_mac_rows"`
	BadMACReproduced int `json:"bad_mac_rows_reproduced"`
}

// compared returns the quantities Score compares, ours (res) and
// MAESTRO's (row), in the order of DataflowScore.stats and LongMetrics:
// cycles, MACs, L2 reads and writes, L1 reads and writes (each summed over
// the tensors), energy in MACs.
func compared(res *Result, row *RefRow) (ours, theirs [7]float64) {
	ours = [7]float64{float64(res.Cycles), float64(res.MACs), float64(res.L2Reads.Total()), float64(res.L2Writes.Total()),
		float64(res.L1Reads.Total()), float64(res.L1Writes.Total()), res.EnergyMACs}
	theirs = [7]float64{float64(row.Cycles), float64(row.MACs), float64(row.L2Reads.Total()), float64(row.L2Writes.Total()),
		float64(row.L1Reads.Total()), float64(row.L1Writes.Total()), row.EnergyMACs}
	return ours, theirs
}

func (d *DataflowScore) stats() []*Stats {
	return []*Stats{&d.Runtime, &d.MACs, &d.L2Reads, &d.L2Writes, &d.L1Reads, &d.L1Writes, &d.Energy}
}

// Report is the outcome of Score.
type Report struct {
	Dir       string          `json:"reference"`
	RefRows   int             `json:"reference_rows"`
	Dataflows []DataflowScore `json:"dataflows"`
	All       DataflowScore   `json:"all"`
	// Failures lists rows where Analyze and MAESTRO disagree on whether the
	// row can be analysed at all.
	Failures []string `json:"failures,omitempty"`
}

// Score runs every reference row through Analyze and compares cycles,
// MACs, L1 and L2 accesses and energy. Rows with status != ok must fail
// in Analyze too; rows with macs_ok = 0 are counted apart.
func Score(ref *Reference) *Report {
	rep := &Report{Dir: ref.Dir, RefRows: len(ref.Rows), All: DataflowScore{Dataflow: "all"}}
	byName := map[string]*DataflowScore{}
	names := ref.DataflowNames()
	rep.Dataflows = make([]DataflowScore, len(names))
	for i, n := range names {
		rep.Dataflows[i].Dataflow = n
		byName[n] = &rep.Dataflows[i]
	}
	for i := range ref.Rows {
		row := &ref.Rows[i]
		ds := byName[row.Dataflow]
		res, err := Analyze(row.Layer, ref.Dataflows[row.Dataflow], row.Hardware())
		if row.Status != "ok" {
			ds.MaestroErrors++
			rep.All.MaestroErrors++
			if err != nil {
				ds.ErrorsReproduced++
				rep.All.ErrorsReproduced++
			} else {
				rep.Failures = append(rep.Failures, fmt.Sprintf("line %d %s: MAESTRO failed (%s), gnnsim did not", row.Line, row, row.Status))
			}
			continue
		}
		if err != nil {
			rep.Failures = append(rep.Failures, fmt.Sprintf("line %d %s: %v", row.Line, row, err))
			continue
		}
		if !row.MACsOK {
			ds.BadMACRows++
			rep.All.BadMACRows++
			if res.Cycles == row.Cycles && res.MACs == row.MACs {
				ds.BadMACReproduced++
				rep.All.BadMACReproduced++
			}
			continue
		}
		what := fmt.Sprintf("line %d %s", row.Line, row)
		ours, theirs := compared(&res, row)
		for _, d := range []*DataflowScore{ds, &rep.All} {
			d.Rows++
			for m, st := range d.stats() {
				st.add(ours[m], theirs[m], what)
			}
		}
	}
	for i := range rep.Dataflows {
		for _, s := range rep.Dataflows[i].stats() {
			s.finish()
		}
	}
	for _, s := range rep.All.stats() {
		s.finish()
	}
	return rep
}

// LastLine is the one-line summary over all scored rows:
//
//	median_abs_pct_err=X p90_abs_pct_err=Y l2_rd_p90_abs_pct_err=Z l2_wr_p90_abs_pct_err=W rows=N
func (r *Report) LastLine() string {
	a := &r.All
	return fmt.Sprintf("median_abs_pct_err=%.4f p90_abs_pct_err=%.4f l2_rd_p90_abs_pct_err=%.4f l2_wr_p90_abs_pct_err=%.4f rows=%d",
		a.Runtime.Median, a.Runtime.P90, a.L2Reads.P90, a.L2Writes.P90, a.Rows)
}

// Write prints the per-dataflow table, the failures and LastLine.
func (r *Report) Write(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%-12s %5s %9s %9s %9s %6s %9s %9s %9s %9s %9s %7s %7s\n", "dataflow", "rows",
		"cyc_med%", "cyc_p90%", "cyc_max%", "exact", "l2rd_p90%", "l2wr_p90%", "l1_p90%", "macs_p90%", "enrg_p90%", "mae_err", "badmac")
	row := func(d *DataflowScore) {
		fmt.Fprintf(&b, "%-12s %5d %9.4f %9.4f %9.4f %6d %9.4f %9.4f %9.4f %9.4f %9.4f %3d/%-3d %3d/%-3d\n", d.Dataflow, d.Rows,
			d.Runtime.Median, d.Runtime.P90, d.Runtime.Max, d.Runtime.Exact, d.L2Reads.P90, d.L2Writes.P90,
			max(d.L1Reads.P90, d.L1Writes.P90), d.MACs.P90, d.Energy.P90,
			d.ErrorsReproduced, d.MaestroErrors, d.BadMACReproduced, d.BadMACRows)
	}
	for i := range r.Dataflows {
		row(&r.Dataflows[i])
	}
	row(&r.All)
	b.WriteString("\nrows: status=ok and macs_ok=1; exact: cycles equal; mae_err: MAESTRO's failed rows that fail here too;\n" +
		"badmac: rows where MAESTRO miscounts MACs (macs_ok=0), reproduced exactly / total\n")
	if w := r.All.Runtime.Worst; w != "" {
		fmt.Fprintf(&b, "worst cycles: %s\n", w)
	}
	for _, f := range r.Failures {
		fmt.Fprintf(&b, "failed: %s\n", f)
	}
	b.WriteString(r.LastLine())
	b.WriteByte('\n')
	_, err := io.WriteString(w, b.String())
	return err
}
