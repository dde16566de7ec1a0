// Package seed000 reproduces MaGNAS (seed 000, Odema et al.): the
// mapping-aware two-tier search of package nas/magnas on the Jetson AGX
// Xavier model and on three MAESTRO DSAs, its Tables 3-5 and Figures 5-10,
// each next to the paper's numbers in report.md, every evaluated candidate
// in seed000.parquet and the figures as PNG.
//
// The GPU / DLA platform is package soc's Xavier as MaGNAS measured it
// (soc.MaGNAS: FP32 GPU engines) through magnas.SoCPlatform, with MaGNAS
// Table 1's GPU, DLA, CPU and EMC clocks; power budgets select the
// nvpmodel power modes of soc.MaGNAS. Accuracy is nas/magnas's proxy (or
// a user table), named in every output.
package seed000

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gnnsim/internal/atomicfile"
	"gnnsim/nas/magnas"
	"gnnsim/repro/claims"
	"gnnsim/soc"
	"gnnsim/workload"
)

// Options configure a run.
type Options struct {
	Out     string // output directory (created)
	Quick   bool   // small budgets: the demo run, within 30 s
	Seed    uint64
	Workers int
	// Accuracy, if set, replaces the proxy (a user table); Dataset names
	// the proxy's data set for the single-data-set experiments (default
	// cifar100, the paper's choice for Tables 3-5 and Figure 7).
	Accuracy magnas.Accuracy
	Dataset  string
}

// Report summarises a run.
type Report struct {
	Dir      string
	Files    []string
	Rows     int
	Findings []string // one line per experiment
}

// budgets are the search sizes of a run.
type budgets struct {
	outerPop, outerGen int
	innerPop, innerGen int
	fig8Gen, fig9Gen   int
	fig10Evals         int
	seeds              int
}

func budgetsFor(quick bool) budgets {
	if quick {
		return budgets{outerPop: 20, outerGen: 4, innerPop: 40, innerGen: 4, fig8Gen: 10, fig9Gen: 10, fig10Evals: 2000, seeds: 5}
	}
	return budgets{outerPop: 100, outerGen: 50, innerPop: 200, innerGen: 10, fig8Gen: 100, fig9Gen: 300, fig10Evals: 5000, seeds: 5}
}

type run struct {
	opts   Options
	b      budgets
	xavier *magnas.Searcher
	dsa    *magnas.Searcher
	rows   []magnas.Row
	md     strings.Builder
	head   string // the report's title and setting, above the ledger
	// affinity summarises the per-block-kind DLA/GPU costs (Table 3's
	// model) for the ledger's notes.
	affinity string
	rep      *Report
	// a0-a3: the nested search's top models by Eq. 12 on the main data set.
	ours []magnas.Arch
	t3   *table3Result
	// fig9Fronts are Figure 9's block-wise and layer-wise fronts.
	fig9Fronts [2][]magnas.Point
	// ledger holds MaGNAS's headline claims as this run measures them;
	// every verdict of the report is read from it.
	ledger claims.Ledger
	// picks are a0-a3 of each data set's nested search (Figure 5).
	picks map[string][]magnas.Candidate
	// frontTop1 is the best top-1 on each data set's nested front.
	frontTop1 map[string]float64
	// modes holds the searchers of the Xavier's power modes (Figure 6).
	modes map[string]*magnas.Searcher
}

// Run executes the reproduction into opts.Out.
func Run(ctx context.Context, opts Options) (*Report, error) {
	if opts.Out == "" {
		return nil, fmt.Errorf("seed000: no output directory")
	}
	if opts.Dataset == "" {
		opts.Dataset = "cifar100"
	}
	// Check the data set before anything is written: a bad name must not
	// leave an empty output directory behind.
	if _, err := magnas.NewProxy(opts.Dataset, workload.MaGNASSpace()); err != nil {
		return nil, fmt.Errorf("seed000: data set (--dataset): %w", err)
	}
	r, err := newRun(opts)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(opts.Out, 0o755); err != nil {
		return nil, fmt.Errorf("seed000: %w", err)
	}
	mode := "full (the paper's budgets)"
	if opts.Quick {
		mode = "quick (reduced budgets; see each section)"
	}
	r.head = fmt.Sprintf("# Seed 000 (MaGNAS) reproduction\n\nMode: %s. Seed %d. GPU/DLA platform: %s (soc's Xavier as MaGNAS measured it, soc.MaGNAS: FP32 GPU engines; GPU, DLA, CPU and memory clocks of MaGNAS Table 1 all priced); DSAs: soc.DefaultDSAs on soc/maestro. Accuracy: %s.\n\n",
		mode, opts.Seed, r.xavier.Costs.P.Name, r.accuracy(opts.Dataset).Source())
	steps := []struct {
		name string
		f    func(context.Context) error
	}{
		{"sizes", r.sizes}, {"table2", r.table2}, {"fig5", r.fig5}, {"table3", r.table3}, {"fig6", r.fig6},
		{"fig7", r.fig7}, {"fig8", r.fig8}, {"fig9", r.fig9}, {"fig10", r.fig10}, {"abstract", r.abstract}, {"conclusions", r.conclusions},
	}
	for _, s := range steps {
		if err := s.f(ctx); err != nil {
			return nil, fmt.Errorf("seed000: %s: %w", s.name, err)
		}
	}
	meta := map[string]string{"seed": strconv.FormatUint(opts.Seed, 10), "quick": strconv.FormatBool(opts.Quick),
		"platform": r.xavier.Costs.P.Name, "accuracy": r.accuracy(opts.Dataset).Source()}
	pq := filepath.Join(opts.Out, "seed000.parquet")
	if err := magnas.WriteRows(pq, r.rows, meta); err != nil {
		return nil, err
	}
	r.rep.Files = append(r.rep.Files, pq)
	r.rep.Rows = len(r.rows)
	if m := r.ledger.Missing(ClaimIDs); len(m) > 0 {
		return nil, fmt.Errorf("seed000: claims not measured: %s", strings.Join(m, ", "))
	}
	cl := filepath.Join(opts.Out, "claims.csv")
	r.ledger.Order(ClaimIDs)
	if err := r.ledger.WriteFile(cl); err != nil {
		return nil, fmt.Errorf("seed000: %w", err)
	}
	r.rep.Files = append(r.rep.Files, cl)
	md := filepath.Join(opts.Out, "report.md")
	if err := atomicfile.WriteFile(md, []byte(r.head+r.ledger.Markdown()+r.md.String())); err != nil {
		return nil, fmt.Errorf("seed000: %w", err)
	}
	r.rep.Files = append(r.rep.Files, md)
	return r.rep, nil
}

// newRun builds the platforms and searchers of a run; it writes nothing.
func newRun(opts Options) (*run, error) {
	xp, err := magnas.SoCPlatform("xavier-soc", soc.MaGNAS(), magnas.XavierTable1Domains())
	if err != nil {
		return nil, err
	}
	xc, err := magnas.NewCosts(xp)
	if err != nil {
		return nil, err
	}
	dsas, err := soc.DefaultDSAs()
	if err != nil {
		return nil, err
	}
	dp, err := magnas.DSAPlatform(dsas)
	if err != nil {
		return nil, err
	}
	dc, err := magnas.NewCosts(dp)
	if err != nil {
		return nil, err
	}
	r := &run{opts: opts, b: budgetsFor(opts.Quick), rep: &Report{Dir: opts.Out}}
	net := workload.MaGNASSpace()
	if r.xavier, err = magnas.NewSearcher(xc, net); err != nil {
		return nil, err
	}
	if r.dsa, err = magnas.NewSearcher(dc, net); err != nil {
		return nil, err
	}
	return r, nil
}

// accuracy returns the user's table or the proxy of dataset.
func (r *run) accuracy(dataset string) magnas.Accuracy {
	if r.opts.Accuracy != nil {
		return r.opts.Accuracy
	}
	p, err := magnas.NewProxy(dataset, workload.MaGNASSpace())
	if err != nil {
		// Run checked Options.Dataset and the others are magnas.Datasets.
		panic(fmt.Sprintf("seed000: unchecked data set: %v", err))
	}
	return p
}

func (r *run) finding(format string, a ...any) {
	s := fmt.Sprintf(format, a...)
	r.rep.Findings = append(r.rep.Findings, s)
}

func (r *run) fig(name string) string {
	p := filepath.Join(r.opts.Out, name)
	r.rep.Files = append(r.rep.Files, p+".png", p+".svg")
	return p
}

// innerCfg returns the inner settings of the run.
func (r *run) innerCfg() magnas.InnerConfig {
	c := magnas.DefaultInner()
	c.PopSize, c.Generations = r.b.innerPop, r.b.innerGen
	c.Workers = r.opts.Workers
	return c
}

func ms(ps float64) float64 { return ps * 1e-9 }
func mj(pj float64) float64 { return pj * 1e-9 }
