package omegaref

import (
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strings"

	"gonum.org/v1/gonum/stat"

	"gnnsim/accel"
	"gnnsim/dataflow"
	"gnnsim/internal/refset"
	"gnnsim/workload"
)

// Quantities are the compared quantities, in report order.
var Quantities = []string{"agg", "comb", "seq", "sp", "pp"}

// Stats summarise absolute percentage errors.
type Stats struct {
	N                int
	Median, P90, Max float64
	Mean             float64
	Exact            int // values reproduced exactly
	worst            string
	worstErr         float64
	errs             []float64
}

// Worst names the run with the largest error.
func (s *Stats) Worst() string { return s.worst }

func (s *Stats) add(err float64, what string) {
	s.errs = append(s.errs, err)
	if err == 0 {
		s.Exact++
	}
	if err > s.worstErr || s.worst == "" {
		s.worstErr, s.worst = err, what
	}
}

func (s *Stats) finish() {
	s.N = len(s.errs)
	if s.N == 0 {
		return
	}
	var x []float64
	s.Median, s.P90, s.Max, x = refset.Summary(s.errs)
	s.Mean = stat.Mean(x, nil)
}

// quantile is numpy's default quantile of sorted x (refset.Quantile).
var quantile = refset.Quantile

// Report is the outcome of Score.
type Report struct {
	Runs       int               // reference runs simulated
	ByQuantity map[string]*Stats // "agg", "comb", "seq", "sp", "pp"
	BySource   map[string]*Stats // seq, sp and pp errors per source category
	Overall    Stats             // seq, sp and pp errors together
	GB         Stats             // global-buffer accesses (seq and sp, P = 512 runs)

	Graphs         int
	Top1           float64 // share of graphs whose best configuration agrees
	SpearmanMedian float64
	TileMismatches int // runs whose tile sizes differ from gnnsim's resolution

	Failures []string // runs that could not be simulated

	// Results holds every run's comparison, in the reference's order.
	Results []RunResult
}

type graphLat struct {
	ours, ref [dataflow.NumConfigs]int64
	have      [dataflow.NumConfigs]bool
}

// Score simulates every run of ref in omega mode on hw (whose PE count is
// set per run: P for seq and sp, 2P split evenly for pp) and compares.
// Runs that cannot be simulated are listed in Report.Failures.
func Score(ref *Reference, hw accel.HW, opts accel.Options) *Report {
	rep := &Report{ByQuantity: map[string]*Stats{}, BySource: map[string]*Stats{}}
	for _, q := range Quantities {
		rep.ByQuantity[q] = &Stats{}
	}
	lat := map[string]*graphLat{}
	prepared := map[[2]int]*accel.Prepared{} // by (F, G), reused per graph
	var curGraph string
	for i := range ref.Runs {
		r := &ref.Runs[i]
		if r.Graph != curGraph {
			clear(prepared)
			curGraph = r.Graph
		}
		rep.Runs++
		res := RunResult{Graph: r.Graph, Source: r.Source, Tiling: r.Tiling, P: r.P, Tiles: tileSizes(r.Tiles), Values: map[string]Value{}}
		if err := scoreRun(ref, r, hw, opts, rep, lat, prepared, &res); err != nil {
			rep.Failures = append(rep.Failures, fmt.Sprintf("%s tiling %s P=%d: %v", r.Graph, r.Tiling, r.P, err))
			res.Err = err.Error()
		}
		rep.Results = append(rep.Results, res)
	}
	for _, s := range rep.ByQuantity {
		s.finish()
	}
	for _, s := range rep.BySource {
		s.finish()
	}
	rep.Overall.finish()
	rep.GB.finish()

	var rhos []float64
	agree := 0
	for _, name := range ref.graphOrder() {
		l := lat[name]
		if l == nil {
			continue
		}
		complete := true
		for _, h := range l.have {
			complete = complete && h
		}
		if !complete {
			continue
		}
		rep.Graphs++
		if argmin(l.ours[:]) == argmin(l.ref[:]) {
			agree++
		}
		rhos = append(rhos, spearman(l.ours[:], l.ref[:]))
	}
	if rep.Graphs > 0 {
		rep.Top1 = float64(agree) / float64(rep.Graphs)
		slices.Sort(rhos)
		rep.SpearmanMedian = quantile(rhos, 0.5)
	}
	return rep
}

func scoreRun(ref *Reference, r *Run, hw accel.HW, opts accel.Options, rep *Report, lat map[string]*graphLat, prepared map[[2]int]*accel.Prepared, res *RunResult) error {
	g := ref.Graphs[r.Graph]
	if g == nil {
		return fmt.Errorf("graph not loaded")
	}
	layer := workload.Layer{Kind: workload.GCN, F: r.F, G: r.G}
	key := [2]int{r.F, r.G}
	p := prepared[key]
	if p == nil {
		var err error
		if p, err = accel.Prepare(g, layer); err != nil {
			return err
		}
		prepared[key] = p
	}
	tl, err := dataflow.Named(r.Tiling)
	if err != nil {
		return err
	}
	ti := strings.Index(dataflow.TilingNames, strings.ToLower(r.Tiling))
	d := p.Dims()
	l := lat[r.Graph]
	if l == nil {
		l = &graphLat{}
		lat[r.Graph] = l
	}
	cat := r.Category()
	src := rep.BySource[cat]
	if src == nil {
		src = &Stats{}
		rep.BySource[cat] = src
	}
	what := fmt.Sprintf("%s/%s/P=%d", r.Graph, r.Tiling, r.P)
	cmp := func(q string, ours, want int64) {
		e := pctErr(ours, want)
		res.Values[q] = Value{Ours: ours, Theirs: want, ErrPct: e}
		rep.ByQuantity[q].add(e, what)
		if q == "seq" || q == "sp" || q == "pp" {
			rep.Overall.add(e, what+"/"+q)
			src.add(e, what+"/"+q)
		}
	}
	h := hw
	var phase dataflow.Config
	switch {
	case r.P == hw.PEs:
		// seq and sp on P PEs.
		h.PEs, h.PPAggPEs = r.P, 0
		seqC, err := tl.Config(dataflow.Seq, d, r.P, 0)
		if err != nil {
			return err
		}
		phase = seqC
		seqR, err := p.Run(seqC, h, opts)
		if err != nil {
			return err
		}
		spC := seqC
		spC.Inter = dataflow.SP
		spR, err := p.Run(spC, h, opts)
		if err != nil {
			return err
		}
		cmp("agg", seqR.AggCycles, r.Agg)
		cmp("comb", seqR.CombCycles, r.Comb)
		cmp("seq", seqR.Cycles, r.Seq)
		cmp("sp", spR.Cycles, r.SP)
		for _, gb := range []struct {
			name       string
			ours, want int64
		}{{"gb_seq", seqR.GB.Accesses(), r.GBSeq}, {"gb_sp", spR.GB.Accesses(), r.GBSP}} {
			e := pctErr(gb.ours, gb.want)
			res.Values[gb.name] = Value{Ours: gb.ours, Theirs: gb.want, ErrPct: e}
			rep.GB.add(e, what+"/"+strings.TrimPrefix(gb.name, "gb_"))
		}
		res.Configs = []string{seqC.Name(), spC.Name()}
		l.ours[ti], l.ref[ti], l.have[ti] = seqR.Cycles, r.Seq, true
		l.ours[8+ti], l.ref[8+ti], l.have[8+ti] = spR.Cycles, r.SP, true
	case 2*r.P == hw.PEs:
		// pp on P + P PEs; its phases are those of a P-PE machine.
		h.PEs, h.PPAggPEs = 2*r.P, r.P
		ppC, err := tl.Config(dataflow.PP, d, 2*r.P, r.P)
		if err != nil {
			return err
		}
		phase = ppC
		ppR, err := p.Run(ppC, h, opts)
		if err != nil {
			return err
		}
		cmp("agg", ppR.AggCycles, r.Agg)
		cmp("comb", ppR.CombCycles, r.Comb)
		cmp("pp", ppR.Cycles, r.PPSafe)
		res.Configs = []string{ppC.Name()}
		l.ours[16+ti], l.ref[16+ti], l.have[16+ti] = ppR.Cycles, r.PPSafe, true
	default:
		return fmt.Errorf("P = %d is neither the hardware's %d PEs (seq, sp) nor half of them (pp)", r.P, hw.PEs)
	}
	got := phase.Tiles
	got.NReducedFrom = 0
	if got != r.Tiles {
		rep.TileMismatches++
		return fmt.Errorf("tiles %v, reference %v", got, r.Tiles)
	}
	return nil
}

func pctErr(ours, ref int64) float64 {
	if ref == 0 {
		if ours == 0 {
			return 0
		}
		return math.Inf(1)
	}
	return math.Abs(float64(ours-ref)) / math.Abs(float64(ref)) * 100
}

// argmin returns the index of the smallest value, the first on ties.
func argmin(x []int64) int {
	b := 0
	for i, v := range x {
		if v < x[b] {
			b = i
		}
	}
	return b
}

// spearman returns the rank correlation of a and b (average ranks for
// ties); 0 when either is constant.
func spearman(a, b []int64) float64 {
	ra, rb := ranks(a), ranks(b)
	c := stat.Correlation(ra, rb, nil)
	if math.IsNaN(c) {
		return 0
	}
	return c
}

func ranks(x []int64) []float64 {
	idx := make([]int, len(x))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(i, j int) bool { return x[idx[i]] < x[idx[j]] })
	r := make([]float64, len(x))
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && x[idx[j+1]] == x[idx[i]] {
			j++
		}
		avg := float64(i+j)/2 + 1
		for k := i; k <= j; k++ {
			r[idx[k]] = avg
		}
		i = j + 1
	}
	return r
}

// LastLine is the summary line `gnnsim validate omega` ends with.
func (r *Report) LastLine() string {
	return fmt.Sprintf("median_abs_pct_err=%.4f p90_abs_pct_err=%.4f top1_agreement=%.4f spearman_median=%.4f rows=%d",
		r.Overall.Median, r.Overall.P90, r.Top1, r.SpearmanMedian, r.Runs)
}

// Write prints the per-quantity and per-source tables and the last line.
func (r *Report) Write(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%-22s %6s %9s %9s %9s %9s %7s  %s\n", "quantity", "n", "median%", "p90%", "mean%", "max%", "exact", "worst")
	row := func(name string, s *Stats) {
		fmt.Fprintf(&b, "%-22s %6d %9.4f %9.4f %9.4f %9.4f %7d  %s\n", name, s.N, s.Median, s.P90, s.Mean, s.Max, s.Exact, s.worst)
	}
	for _, q := range Quantities {
		row(q, r.ByQuantity[q])
	}
	row("gb_accesses", &r.GB)
	row("seq+sp+pp", &r.Overall)
	fmt.Fprintf(&b, "\n%-22s %6s %9s %9s %9s %9s %7s  %s\n", "source (seq,sp,pp)", "n", "median%", "p90%", "mean%", "max%", "exact", "worst")
	cats := make([]string, 0, len(r.BySource))
	for c := range r.BySource {
		cats = append(cats, c)
	}
	slices.Sort(cats)
	for _, c := range cats {
		row(c, r.BySource[c])
	}
	fmt.Fprintf(&b, "\ngraphs=%d top1_agreement=%.4f spearman_median=%.4f tile_mismatches=%d failures=%d\n",
		r.Graphs, r.Top1, r.SpearmanMedian, r.TileMismatches, len(r.Failures))
	for _, f := range r.Failures {
		fmt.Fprintf(&b, "failed: %s\n", f)
	}
	b.WriteString(r.LastLine())
	b.WriteByte('\n')
	_, err := io.WriteString(w, b.String())
	return err
}
