package seed004

import (
	"fmt"
	"slices"
	"strings"

	"gnnsim/internal/atomicfile"
	"gnnsim/internal/pqio"
	"gnnsim/nas/fgnas"
	"gnnsim/repro/claims"
)

// Published figures of FGNAS, for the report only: Table 3 (Cora; best
// test accuracy in %, search time in GPU hours) in Table3Limits order,
// joint / random / separate.
var (
	published3Acc = [12][3]float64{
		{66.2, 61.8, 62.6}, {62.9, 60.0, 63.8}, {67.8, 62.9, 64.6}, {68.7, 64.0, 68.5},
		{68.1, 68.0, 66.0}, {69.2, 68.9, 69.0}, {68.8, 69.0, 68.0}, {70.2, 69.5, 69.6},
		{68.1, 67.8, 66.0}, {70.1, 69.0, 69.9}, {68.8, 69.2, 69.0}, {71.5, 69.9, 69.9},
	}
	published3Hours = [12][3]float64{
		{0.56, 1.12, 1.87}, {0.87, 1.22, 1.65}, {0.88, 1.12, 1.55}, {0.89, 0.95, 1.40},
		{0.69, 1.19, 1.32}, {1.17, 1.20, 1.50}, {0.99, 1.44, 1.69}, {0.88, 1.44, 1.70},
		{0.72, 1.23, 1.38}, {1.33, 1.40, 1.44}, {1.19, 1.66, 1.77}, {1.48, 1.55, 1.60},
	}
	// Table 4: best accuracy per data set, joint / random / separate.
	published4 = map[string][3]float64{
		"cora": {71.5, 69.9, 69.9}, "citeseer": {72.4, 72.0, 68.5}, "pubmed": {82.4, 80.0, 65.6},
	}
)

// SampleRow is one searched design: a row of samples.parquet.
type SampleRow struct {
	Data      string  `parquet:"data"`
	Model     string  `parquet:"model"`
	Limits    string  `parquet:"limits"`
	Method    string  `parquet:"method"`
	Run       int32   `parquet:"run"`
	Index     int32   `parquet:"index"`
	Episode   int32   `parquet:"episode"`
	Phase     int32   `parquet:"phase"`
	Genome    string  `parquet:"genome"`
	LatencyMS float64 `parquet:"latency_ms"`
	LUT       int64   `parquet:"lut"`
	FF        int64   `parquet:"ff"`
	DSP       int64   `parquet:"dsp"`
	BRAM      int64   `parquet:"bram18"`
	Feasible  bool    `parquet:"feasible"`
	Over      string  `parquet:"over"`
	Trained   bool    `parquet:"trained"`
	Val       float64 `parquet:"val_acc"`
	Test      float64 `parquet:"test_acc"`
}

// CellRow is one table entry: a row of table3.parquet / table4.parquet.
type CellRow struct {
	Data         string  `parquet:"data"`
	Model        string  `parquet:"model"`
	LatencyMS    float64 `parquet:"latency_ms"`
	LUT          int64   `parquet:"lut_ff"`
	DSP          int64   `parquet:"dsp"`
	Method       string  `parquet:"method"`
	Runs         int32   `parquet:"runs"`
	BestTest     float64 `parquet:"best_test_acc"`
	MeanBestTest float64 `parquet:"mean_best_test_acc"`
	MeanBestVal  float64 `parquet:"mean_best_val_acc"`
	SDBestVal    float64 `parquet:"sd_best_val_acc"`
	Top10Test    float64 `parquet:"top10_test_acc"`
	Trained      int32   `parquet:"trained"`
	Episodes     int32   `parquet:"episodes"`
	Samples      int32   `parquet:"distinct_designs"`
	Feasible     int32   `parquet:"feasible_designs"`
	Found        int32   `parquet:"runs_with_feasible"`
	MeanTestFnd  float64 `parquet:"mean_best_test_acc_found"`
	SDTestFound  float64 `parquet:"sd_best_test_acc_found"`
	Capped       int32   `parquet:"runs_capped"`
}

func cellRows(cs []Cell) []CellRow {
	var out []CellRow
	for _, c := range cs {
		out = append(out, CellRow{Data: c.Data, Model: c.Model, Found: int32(c.Found), MeanTestFnd: c.MeanTestFound, SDTestFound: c.SDTestFound, Capped: int32(c.Capped), LatencyMS: c.Limits.LatencyMS, LUT: c.Limits.LUT, DSP: c.Limits.DSP,
			Method: c.Method, Runs: int32(len(c.Runs)), BestTest: c.BestTest, MeanBestTest: c.MeanBestTest,
			MeanBestVal: c.MeanBestVal, SDBestVal: c.SDBestVal, Top10Test: c.Top10Test, Trained: int32(c.Trained), Episodes: int32(c.Episodes),
			Samples: int32(c.Samples), Feasible: int32(c.Feasible)})
	}
	return out
}

func sampleRows(sp *fgnas.Space, cs []Cell) []SampleRow {
	var out []SampleRow
	for _, c := range cs {
		for k, r := range c.Runs {
			for i, s := range r.Samples {
				out = append(out, SampleRow{Data: c.Data, Model: c.Model, Limits: c.Limits.String(), Method: c.Method, Run: int32(k),
					Index: int32(i), Episode: int32(s.Episode), Phase: int32(s.Phase), Genome: sp.Format(s.Genome),
					LatencyMS: s.LatencyMS, LUT: s.Use.LUT, FF: s.Use.FF, DSP: s.Use.DSP, BRAM: s.Use.BRAM,
					Feasible: s.Feasible, Over: s.Over, Trained: s.Trained, Val: s.Val, Test: s.Test})
			}
		}
	}
	return out
}

func write(opts Options, pl plan, rep *Report) error {
	meta := map[string]string{"seed": fmt.Sprint(opts.Seed), "runs": fmt.Sprint(pl.runs), "quick": fmt.Sprint(opts.Quick),
		"timing": timingName(opts), "train_until": fmt.Sprint(opts.TrainUntil), "screen_draws": fmt.Sprint(opts.ScreenDraws), "joint_episodes": fmt.Sprint(pl.joint),
		"separate_episodes": fmt.Sprintf("%d+%d", pl.arch, pl.hw)}
	add := func(name string) string {
		p := outPath(opts, name)
		rep.Files = append(rep.Files, p)
		return p
	}
	if err := pqio.Write(add("table3.parquet"), cellRows(rep.Table3), meta); err != nil {
		return fmt.Errorf("seed004: %w", err)
	}
	if err := pqio.Write(add("table4.parquet"), cellRows(rep.Table4), meta); err != nil {
		return fmt.Errorf("seed004: %w", err)
	}
	if err := pqio.Write(add("feasibility.parquet"), rep.Feasibility, meta); err != nil {
		return fmt.Errorf("seed004: %w", err)
	}
	var rows []SampleRow
	for _, cs := range [][]Cell{rep.Table3, rep.Table4[len(methodsOf(rep.Table4, "cora")):]} {
		for _, c := range cs {
			sp, err := fgnas.NewSpace(2, classesOf(c.Data))
			if err != nil {
				return err
			}
			rows = append(rows, sampleRows(sp, []Cell{c})...)
		}
	}
	if err := pqio.Write(add("samples.parquet"), rows, meta); err != nil {
		return fmt.Errorf("seed004: %w", err)
	}
	// Figure 3: the tightest specification run (Table 3's first).
	var fig []Cell
	for _, c := range rep.Table3 {
		if c.Limits == rep.Table3[0].Limits && c.Model == rep.Table3[0].Model {
			fig = append(fig, c)
		}
	}
	figBase := add("figure3") // .png and .svg
	rep.Files[len(rep.Files)-1] = figBase + ".png"
	rep.Files = append(rep.Files, figBase+".svg")
	if err := plotFigure3(figBase+".png", fig); err != nil {
		return err
	}
	l := ledger(rep)
	if err := l.WriteFile(add("claims.csv")); err != nil {
		return fmt.Errorf("seed004: %w", err)
	}
	md := reportMarkdown(opts, pl, rep, l)
	if err := atomicfile.WriteFile(add("report.md"), []byte(md)); err != nil {
		return fmt.Errorf("seed004: %w", err)
	}
	return nil
}

func methodsOf(cs []Cell, data string) []Cell {
	var out []Cell
	for _, c := range cs {
		if c.Data == data {
			out = append(out, c)
		}
	}
	return out
}

func classesOf(name string) int {
	d, _ := fgnas.DatasetByName(name)
	return d.Classes
}

func timingName(opts Options) string {
	name := "ours (nodes counted, sparse input, summed stages)"
	if opts.Timing.Published {
		name = "published (FGNAS: linear stage without the node count, dense input, summed stages)"
	}
	if opts.Timing.Pipelined {
		name += ", latency judged on the pipelined time"
	}
	return name
}

func pct(x float64) string { return fmt.Sprintf("%.1f%%", 100*x) }

// share returns the feasible share of uniform designs for a cell's data
// set, specification and model, or "-" when the table has no such row.
func share(rep *Report, c Cell) string {
	for _, f := range rep.Feasibility {
		if f.Data == c.Data && f.Model == c.Model && f.LatencyMS == c.Limits.LatencyMS && f.LUT == c.Limits.LUT && f.DSP == c.Limits.DSP {
			return fmt.Sprintf("%.4f%%", 100*f.Share())
		}
	}
	return "-"
}

func reportMarkdown(opts Options, pl plan, rep *Report, l *claims.Ledger) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Seed 004 (FGNAS) reproduction\n\n")
	b.WriteString(l.Markdown())
	if opts.Quick {
		b.WriteString("A quick run: the full Table 3's figures, from one full run, are in the package documentation of repro/seed004 (go doc gnnsim/repro/seed004).\n\n")
	}
	sep := fmt.Sprintf("separate %d (architecture) + %d (hardware)", pl.arch, pl.hw)
	if !pl.separate {
		sep = "separate not run"
	}
	var names []string
	for _, m := range opts.models() {
		names = append(names, m.name)
	}
	fmt.Fprintf(&b, "Cost models: %s; gnnsim's timing: %s. Runs per cell: %d. Episodes: joint %d; %s; "+
		"random search trains as many designs as the joint run of the same index. Seed %d.", strings.Join(names, ", "), timingName(opts), pl.runs, pl.joint, sep, opts.Seed)
	if opts.TrainUntil > 0 {
		fmt.Fprintf(&b, " Train-until mode (the authors' --gpu-eps): joint search and separate search's hardware phase run until %d designs were trained "+
			"(at most %d episodes; 0 means 10x the phase's).", opts.TrainUntil, opts.MaxEpisodes)
	}
	if opts.ScreenDraws > 0 {
		fmt.Fprintf(&b, " Separate search's hardware phase takes the best architecture with a feasible design among %d uniform hardware draws "+
			"(FGNAS's protocol takes the best, feasible or not).", opts.ScreenDraws)
	}
	if opts.Quick {
		b.WriteString(" **Quick run**: the tightest and loosest specifications, reduced episodes and " +
			"short trainings; not comparable with the paper's budgets.")
	}
	b.WriteString("\n\nAccuracy: networks trained on the CPU by package train and post-training quantised to each design's formats " +
		"(validation accuracy is the reward; test accuracy is reported). Per method: the test accuracy of each run's best-by-validation " +
		"design, mean ± sd over the runs that trained a feasible design (how many, when not all); \"none feasible\" when no run did. " +
		"Search effort is counted in trained designs, not GPU hours. Published numbers are FGNAS's, beside ours.\n\n")
	if len(rep.Skipped) > 0 {
		names := make([]string, 0, len(rep.Skipped))
		for n := range rep.Skipped {
			names = append(names, n)
		}
		slices.Sort(names)
		b.WriteString("Data sets left out:\n\n")
		for _, n := range names {
			fmt.Fprintf(&b, "- %s: %s\n", n, rep.Skipped[n])
		}
		b.WriteString("\n")
	}
	b.WriteString("## Table 3 (Cora)\n\n")
	b.WriteString("| latency | LUT/FF | DSP | model | feasible share (uniform) | joint | random | separate | trained j/r/s | feasible designs j/r/s | paper acc j/r/s | paper hours j/r/s |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	all := Table3Limits()
	for i := 0; i+2 < len(rep.Table3); i += 3 {
		j, r, s := rep.Table3[i], rep.Table3[i+1], rep.Table3[i+2]
		k := slices.Index(all, j.Limits)
		pa, ph := "", ""
		if k >= 0 {
			p, h := published3Acc[k], published3Hours[k]
			pa = fmt.Sprintf("%.1f / %.1f / %.1f", p[0], p[1], p[2])
			ph = fmt.Sprintf("%.2f / %.2f / %.2f", h[0], h[1], h[2])
		}
		fmt.Fprintf(&b, "| %g ms | %d | %d | %s | %s | %s | %s | %s | %d / %d / %d | %d / %d / %d | %s | %s |\n",
			j.Limits.LatencyMS, j.Limits.LUT, j.Limits.DSP, j.Model, share(rep, j), j.Verdict(), r.Verdict(), s.Verdict(),
			j.Trained, r.Trained, s.Trained, j.Feasible, r.Feasible, s.Feasible, pa, ph)
	}
	b.WriteString(jointVsRandom(rep.Table3))
	b.WriteString("\n## Table 4\n\n| data | latency | LUT/FF | DSP | model | feasible share | joint | random | separate | trained j/r/s | paper j/r/s |\n|---|---|---|---|---|---|---|---|---|---|---|\n")
	for i := 0; i+2 < len(rep.Table4); i += 3 {
		j, r, s := rep.Table4[i], rep.Table4[i+1], rep.Table4[i+2]
		p := published4[j.Data]
		fmt.Fprintf(&b, "| %s | %g ms | %d | %d | %s | %s | %s | %s | %s | %d / %d / %d | %.1f / %.1f / %.1f |\n", j.Data, j.Limits.LatencyMS, j.Limits.LUT, j.Limits.DSP,
			j.Model, share(rep, j), j.Verdict(), r.Verdict(), s.Verdict(), j.Trained, r.Trained, s.Trained, p[0], p[1], p[2])
	}
	for _, name := range []string{"citeseer", "pubmed"} {
		if why, ok := rep.Skipped[name]; ok {
			p := published4[name]
			fmt.Fprintf(&b, "| %s | - | - | - | - | - | not run | not run | not run | - | %.1f / %.1f / %.1f |\n", name, p[0], p[1], p[2])
			_ = why
		}
	}
	draws := int64(0)
	if len(rep.Feasibility) > 0 {
		draws = rep.Feasibility[0].Draws
	}
	fmt.Fprintf(&b, "\n## How hard the specifications are\n\nShare of %d uniform random designs of the joint space (per data set) that meet each "+
		"specification, under the FGNAS authors' model (fgnas-code) with the paper's every-limit rule and with their code's any-resource rule, "+
		"and under ours (gnnsim); \"first over\" counts a design by the first limit the model "+
		"checks that it breaks (LUT, FF, DSP, then latency), \"breaks\" counts every design over each limit, and \"ReLU-priced\" "+
		"would be feasible if each activation unit cost what a ReLU does:\n\n"+
		"| data | latency | LUT/FF | DSP | model | feasible | first over LUT / FF / DSP / latency | breaks latency | breaks LUT | breaks FF | breaks DSP | ReLU-priced |\n"+
		"|---|---|---|---|---|---|---|---|---|---|---|---|\n", draws)
	for _, f := range rep.Feasibility {
		fr := func(n int64) string { return fmt.Sprintf("%.4f%%", 100*float64(n)/float64(f.Draws)) }
		fmt.Fprintf(&b, "| %s | %g ms | %d | %d | %s | %s | %s / %s / %s / %s | %s | %s | %s | %s | %s |\n", f.Data, f.LatencyMS, f.LUT, f.DSP, f.Model,
			fr(f.Feasible), fr(f.OverLUT), fr(f.OverFF), fr(f.OverDSP), fr(f.OverLatency),
			fr(f.BreaksLatency), fr(f.BreaksLUT), fr(f.BreaksFF), fr(f.BreaksDSP), fr(f.FeasibleReLU))
	}
	fmt.Fprintf(&b, "\n## Figure 3\n\n![figure 3](figure3.png)\n\nEvery distinct design each method evaluated under the tightest "+
		"specification (Table 3's first row) and the first model (%s), on the LUT-, FF- and DSP-latency planes; the shaded box is the feasible region. "+
		"The separate search's architecture phase has no hardware verdict and is drawn with its designs' usage all the same.\n\n", names[0])
	b.WriteString("Files: table3.parquet, table4.parquet (one row per cell, model and method), samples.parquet (every distinct design of every run), " +
		"feasibility.parquet (the table above).\n")
	return b.String()
}

// jointVsRandom is the report's comparison of joint and random search at
// equal trained samples: per specification the best reward (validation
// accuracy, 0 for a run without a feasible design) of each run, its mean
// and standard deviation, and the share of the distinct designs each
// method drew that were feasible.
func jointVsRandom(t3 []Cell) string {
	var b strings.Builder
	b.WriteString("\n### Joint against random search (best reward per run)\n\n" +
		"The reward is the best validation accuracy of a run's trained designs (0 when it drew no feasible design); random search " +
		"trains as many designs as the joint run of the same index. Feasible share: feasible distinct designs over distinct designs drawn.\n\n" +
		"| latency | LUT/FF | DSP | model | joint mean ± sd | random mean ± sd | joint per run | random per run | trained per run | feasible share j / r |\n" +
		"|---|---|---|---|---|---|---|---|---|---|\n")
	wins, n := 0, 0
	for i := 0; i+2 < len(t3); i += 3 {
		j, r := t3[i], t3[i+1]
		if len(j.Runs) == 0 {
			continue
		}
		per := func(c Cell, f func(*fgnas.RunResult) string) string {
			parts := make([]string, len(c.Runs))
			for k, run := range c.Runs {
				parts[k] = f(run)
			}
			return strings.Join(parts, " ")
		}
		val := func(run *fgnas.RunResult) string { return fmt.Sprintf("%.3f", run.BestVal()) }
		share := func(c Cell) string {
			if c.Samples == 0 {
				return "-"
			}
			return fmt.Sprintf("%.2f%%", 100*float64(c.Feasible)/float64(c.Samples))
		}
		fmt.Fprintf(&b, "| %g ms | %d | %d | %s | %.3f ± %.3f | %.3f ± %.3f | %s | %s | %s | %s / %s |\n",
			j.Limits.LatencyMS, j.Limits.LUT, j.Limits.DSP, j.Model, j.MeanBestVal, j.SDBestVal, r.MeanBestVal, r.SDBestVal,
			per(j, val), per(r, val), per(j, func(run *fgnas.RunResult) string { return fmt.Sprint(run.Trained) }), share(j), share(r))
		n++
		if j.MeanBestVal > r.MeanBestVal {
			wins++
		}
	}
	fmt.Fprintf(&b, "\nJoint search has the higher mean best reward in %d of %d (specification, model) cells.\n", wins, n)
	return b.String()
}
