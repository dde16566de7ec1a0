package repro

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"gnnsim"
	"gnnsim/accel/fpga"
	"gnnsim/internal/atomicfile"
	"gnnsim/repro/seed000"
	"gnnsim/repro/seed001"
	"gnnsim/repro/seed002"
	"gnnsim/repro/seed003"
	"gnnsim/repro/seed004"
)

// Options configure a reproduction run.
type Options struct {
	// Out is the directory of the reproduction's outputs (created if
	// needed).
	Out  string
	Seed uint64 // seed of every random choice
	// DataDir holds the real data sets (the layout of ../shared/data); when
	// it is absent a reproduction uses generated data only and says so.
	DataDir string
	// Quick asks for the reduced sizes of the demo: seconds, not minutes.
	Quick   bool
	Workers int // <= 0: all CPUs; never changes the results
	// Log receives progress lines (nil: none). They carry wall-clock
	// times, which never reach a result.
	Log io.Writer
}

// Report is what a reproduction produced.
type Report struct {
	Dir    string // Options.Out
	Report string // path of its report.md
	// Figures are its figure files, relative to Dir.
	Figures []string
	// Highlights are a few lines with its headline numbers, for a console
	// and the tour's index.
	Highlights []string
	Wall       time.Duration
}

// Repro is the reproduction of one seed paper.
type Repro struct {
	// Name names the seed ("seed002"): the tour's folder and the
	// 'gnnsim repro' subcommand.
	Name  string
	Title string // the paper, in a few words
	Run   func(ctx context.Context, o Options) (*Report, error)
}

// All returns the reproductions that exist, in seed order. A new seed's
// package adds its entry here, and 'gnnsim demo' runs it.
func All() []Repro {
	return []Repro{
		{
			Name:  "seed000",
			Title: "MaGNAS: mapping-aware graph neural architecture search on a heterogeneous SoC",
			Run:   runSeed000,
		},
		{
			Name:  "seed001",
			Title: "G-CoS: GNN-accelerator co-search on a multi-sub-accelerator template",
			Run:   runSeed001,
		},
		{
			Name:  "seed002",
			Title: "Data-driven dataflow-aware latency prediction and online scheduling (Puigdemont, Russo et al.)",
			Run:   runSeed002,
		},
		{
			Name:  "seed003",
			Title: "HADAS: hardware-aware search of backbones, early exits and DVFS",
			Run:   runSeed003,
		},
		{
			Name:  "seed004",
			Title: "FGNAS: FPGA-aware GNN architecture search with a REINFORCE controller",
			Run:   runSeed004,
		},
	}
}

func runSeed001(ctx context.Context, o Options) (*Report, error) {
	start := time.Now()
	// The co-search trains its candidates on Planetoid Cora; without it the
	// reproduction still runs Figure 8 (sized data sets: no training) and
	// says what it skipped, as seed004 does.
	var notes []string
	fig8Only := false
	if dir, ok := cora(o); !ok {
		fig8Only = true
		notes = append(notes, fmt.Sprintf("skipped: the co-search (Figures 5-7, Table 4) trains its candidates on Planetoid Cora, absent from %s; Figure 8 only (point --data-dir or GNNSIM_DATA at the shared data folder)", dir))
	}
	rep, err := seed001.Run(ctx, seed001.Options{Out: o.Out, Quick: o.Quick, Seed: o.Seed, DataDir: o.DataDir, Workers: o.Workers, Log: o.Log, Fig8Only: fig8Only})
	if err != nil {
		return nil, err
	}
	r := &Report{Dir: rep.Out, Report: rep.ReportPath, Wall: time.Since(start),
		Highlights: append(append(notes, rep.AccuracyFrom...),
			fmt.Sprintf("Figure 8: geometric-mean speed-up %.2fx over HyGCN-like (paper 5.52x), %.2fx over AWB-GCN-like (paper 1.92x)", rep.SpeedupHyGCN, rep.SpeedupAWB),
			fmt.Sprintf("Cora two-layer GCN on its searched accelerator: %.1f us (paper scale 1-50 us)", rep.CoraGCNMicros))}
	figs, err := filepath.Glob(filepath.Join(rep.Out, "fig*.png")) // sorted
	if err != nil {
		return nil, err
	}
	r.Figures = pngs(rep.Out, figs)
	return r, nil
}

func runSeed004(ctx context.Context, o Options) (*Report, error) {
	start := time.Now()
	if dir, ok := cora(o); !ok {
		return skipped(o, "FGNAS trains its candidates on Planetoid Cora, which is absent", dir)
	}
	oracle, err := seed004.TrainedOracle(ctx, o.DataDir, o.Quick, o.Workers)
	if err != nil {
		return nil, err
	}
	// FGNAS's published timing, as 'gnnsim repro seed004' uses by default:
	// the paper's specifications were set for it.
	rep, err := seed004.Run(ctx, seed004.Options{Out: o.Out, Quick: o.Quick, Seed: o.Seed, Oracle: oracle,
		Timing: fpga.Options{Published: true}, ScreenDraws: 2000, Workers: o.Workers, Log: o.Log})
	if err != nil {
		return nil, err
	}
	r := &Report{Dir: o.Out, Report: filepath.Join(o.Out, "report.md"), Wall: time.Since(start)}
	for _, c := range rep.Table3 {
		r.Highlights = append(r.Highlights, fmt.Sprintf("Table 3, %s, %s model, %s, %v: best test accuracy %s (paper's best on Cora 71.5 %%)", c.Data, c.Model, c.Method, c.Limits, c.Verdict()))
	}
	r.Figures = pngs(o.Out, rep.Files)
	return r, nil
}

// cora returns the folder of the Planetoid sets under o.DataDir and
// whether Cora is in it: seed001's co-search and seed004 train on it.
func cora(o Options) (dir string, ok bool) {
	dir = filepath.Join(o.DataDir, "planetoid", "ind")
	_, err := os.Stat(filepath.Join(dir, "ind.cora.graph"))
	return dir, err == nil
}

// pngs returns the PNG files among files, relative to dir.
func pngs(dir string, files []string) []string {
	var out []string
	for _, f := range files {
		if !strings.HasSuffix(f, ".png") {
			continue
		}
		if rel, err := filepath.Rel(dir, f); err == nil {
			f = rel
		}
		out = append(out, f)
	}
	return out
}

// skipped writes a report saying why a reproduction could not run here.
func skipped(o Options, why, missing string) (*Report, error) {
	if err := os.MkdirAll(o.Out, 0o755); err != nil {
		return nil, err
	}
	path := filepath.Join(o.Out, "report.md")
	text := fmt.Sprintf("# Skipped\n\n%s (looked for %s). Point --data-dir or GNNSIM_DATA at the shared data folder.\n", why, missing)
	if err := atomicfile.WriteFile(path, []byte(text)); err != nil {
		return nil, err
	}
	return &Report{Dir: o.Out, Report: path, Highlights: []string{"skipped: " + why}}, nil
}

func runSeed003(ctx context.Context, o Options) (*Report, error) {
	start := time.Now()
	rep, err := seed003.Run(ctx, seed003.Options{Out: o.Out, Quick: o.Quick, Seed: o.Seed, Workers: o.Workers, DataDir: o.DataDir})
	if err != nil {
		return nil, err
	}
	r := &Report{Dir: rep.Dir, Report: filepath.Join(rep.Dir, "report.md"), Highlights: rep.Findings, Wall: time.Since(start)}
	r.Figures = pngs(rep.Dir, rep.Files)
	return r, nil
}

func runSeed000(ctx context.Context, o Options) (*Report, error) {
	start := time.Now()
	rep, err := seed000.Run(ctx, seed000.Options{Out: o.Out, Quick: o.Quick, Seed: o.Seed, Workers: o.Workers})
	if err != nil {
		return nil, err
	}
	r := &Report{Dir: rep.Dir, Report: filepath.Join(rep.Dir, "report.md"), Highlights: rep.Findings, Wall: time.Since(start)}
	r.Figures = pngs(rep.Dir, rep.Files)
	return r, nil
}

func runSeed002(ctx context.Context, o Options) (*Report, error) {
	sum, err := seed002.Run(ctx, seed002.Options{
		Out: o.Out, Seed: o.Seed, DataDir: o.DataDir, Quick: o.Quick, Workers: o.Workers, Log: o.Log,
	})
	if err != nil {
		return nil, err
	}
	return &Report{Dir: sum.Out, Report: sum.Report, Figures: sum.Figures, Highlights: sum.Highlights(), Wall: sum.Wall}, nil
}

// IndexFile is the name of the tour's index in its directory.
const IndexFile = "index.md"

// Tour runs every reproduction of rs with o, each into o.Out/<name>/, and
// writes o.Out/index.md linking every report and figure. It stops at the
// first failure.
func Tour(ctx context.Context, rs []Repro, o Options) ([]*Report, error) {
	if o.Out == "" {
		return nil, errors.New("repro: tour: no output directory")
	}
	var reports []*Report
	for _, r := range rs {
		ro := o
		ro.Out = filepath.Join(o.Out, r.Name)
		rep, err := r.Run(ctx, ro)
		if err != nil {
			return reports, fmt.Errorf("repro: %s: %w", r.Name, err)
		}
		reports = append(reports, rep)
	}
	if err := writeIndex(o, rs, reports); err != nil {
		return reports, err
	}
	return reports, nil
}

// writeIndex writes the tour's index.md. It holds no wall-clock time, so
// it is reproducible like the reports' tables.
func writeIndex(o Options, rs []Repro, reports []*Report) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# gnnsim demo: a tour of the seed reproductions\n\n")
	fmt.Fprintf(&b, "Written by `gnnsim demo --seed %d` (gnnsim %s). Each seed paper's quick reproduction ran into its own folder; its report puts our tables and figures beside the paper's.\n\n", o.Seed, gnnsim.Version)
	b.WriteString("| Seed | Paper | Report | Figures |\n|---|---|---|---|\n")
	rel := func(dir, file string) string {
		p, err := filepath.Rel(o.Out, filepath.Join(dir, file))
		if err != nil {
			p = filepath.Join(dir, file)
		}
		return filepath.ToSlash(p)
	}
	for i, r := range rs {
		rep := reports[i]
		var figs []string
		for _, f := range rep.Figures {
			figs = append(figs, fmt.Sprintf("[%s](%s)", f, rel(rep.Dir, f)))
		}
		fmt.Fprintf(&b, "| %s | %s | [%s](%s) | %s |\n", r.Name, r.Title, filepath.Base(rep.Report), rel(rep.Dir, filepath.Base(rep.Report)), strings.Join(figs, ", "))
	}
	for i, r := range rs {
		fmt.Fprintf(&b, "\n## %s\n\n%s\n\n", r.Name, r.Title)
		for _, h := range reports[i].Highlights {
			fmt.Fprintf(&b, "- %s\n", h)
		}
	}
	if err := os.MkdirAll(o.Out, 0o755); err != nil {
		return fmt.Errorf("repro: %w", err)
	}
	if err := atomicfile.WriteFile(filepath.Join(o.Out, IndexFile), []byte(b.String())); err != nil {
		return fmt.Errorf("repro: %w", err)
	}
	return nil
}

// WriteText prints the reproduction's highlights and where its report is.
func (r *Report) WriteText(w io.Writer) {
	for _, h := range r.Highlights {
		fmt.Fprintln(w, h)
	}
	fmt.Fprintf(w, "report: %s (wall %.1f s)\n", r.Report, r.Wall.Seconds())
}

// Names lists the reproductions of All, in order.
func Names() []string {
	var names []string
	for _, r := range All() {
		names = append(names, r.Name)
	}
	return names
}

// WriteFindings prints a reproduction's one-line findings and where its
// rows and files went.
func WriteFindings(w io.Writer, findings []string, rows, files int, dir string) {
	for _, f := range findings {
		fmt.Fprintln(w, f)
	}
	fmt.Fprintf(w, "wrote %d rows and %d files to %s\n", rows, files, dir)
}
