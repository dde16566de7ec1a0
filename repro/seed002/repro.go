package seed002

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"gnnsim/bench"
	"gnnsim/internal/atomicfile"
	"gnnsim/predict"
	"gnnsim/sched"
)

// Sizes sets the size of a seed 002 reproduction. Zero fields take
// the defaults of the run (quick or full).
type Sizes struct {
	// Graphs per Graphlaxy set; zero: the preset's count (243, 9,171,
	// 6,381) or, with Quick, QuickSizes'.
	Small, Medium, Large int
	// ScheduleSeeds is the number of seeded scheduling runs (default 5).
	ScheduleSeeds int
	// SpreadGraphs overrides the graphs per preset of the (F, G) spread
	// study (default SpreadGraphs: 100 Medium and 30 Large quick, 600 and
	// 200 full).
	SpreadGraphs int
}

// QuickSizes are the reduced Graphlaxy sets of a quick reproduction. The
// real data sets are always used whole: simulating and predicting them
// takes seconds; training on the large Graphlaxy sets is what takes time.
var QuickSizes = Sizes{Small: 243, Medium: 1500, Large: 600}

// Options configure Run.
type Options struct {
	Out  string // results directory (created if needed)
	Seed uint64 // seed of every random choice
	// DataDir holds the real data sets (the layout of ../shared/data).
	// Empty or absent: generated graphs only, and the report says so.
	DataDir string
	Quick   bool
	// Mode is the accelerator model of the labels: "omega" (default,
	// bench.DatasetMode: STONNE-Omega's numbers, what seed 002 used) or
	// "extended".
	Mode string
	// FeatureSizes are the F and G of every data set's graphs (lists
	// allowed; bench.SizeSpec's modes). Empty: bench.DefaultSizes, graph i
	// F = [16,32,64][i mod 3], G = [16,32][i mod 2]; seed 002 does not
	// state its own. The (F, G) spread study sweeps its own grid
	// (SpreadSizes) whatever this is.
	FeatureSizes bench.SizeSpec
	Workers      int // <= 0: all CPUs; never changes the results
	// Log receives progress lines (nil: none). They carry wall-clock
	// times, which never reach a result table.
	Log io.Writer
	// Sizes overrides the set sizes (tests and small runs).
	Sizes Sizes
}

// Summary is what Run produced.
type Summary struct {
	Out, Report string
	// RealData says whether real data sets were found; without them the
	// scheduling jobs are the Graphlaxy test splits.
	RealData bool
	JobsFrom string // what the scheduling jobs are
	Jobs     int
	Table3   []predict.EvalRow // the predictor of the scheduling study
	Table4   []predict.EvalRow // the four ablation variants
	Mean     []sched.Metrics   // scheduling metrics averaged over seeds
	// NoCharge has SJF-Predicted's metrics without the inference charge
	// (same traces and seeds).
	NoCharge []sched.Metrics
	// Speedups compare SJF-Predicted with the best baseline, with the
	// charge (Policy "SJF-Predicted") and without it (NoChargeName).
	Speedups []Speedup
	// LongSpeedups are SJF-Predicted's scenario-1 speed-ups on a trace of
	// LongJobs jobs (ten times the job set, drawn with replacement; first
	// seed): the trace-length effect the report explains.
	LongJobs     int
	LongSpeedups []Speedup
	// Spread is the (F, G) spread study (SpreadRow): per Graphlaxy preset
	// of SpreadSets, the single settings then the ranges.
	Spread []SpreadRow
	// Settings is the settings search (SettingsRow): R / O by model, PE
	// count, DRAM bandwidth, F and G.
	Settings []SettingsRow
	// Study is the scheduling study (StudyRow): scenario-1 speed-ups by
	// load, trace length, job mix and predictor charge.
	Study []StudyRow
	// InferenceNs is the measured wall time of one prediction of all 24
	// configurations (not reproducible; reported only).
	InferenceNs float64
	// Figures are the figure files written, relative to Out: each figure
	// as PNG, then SVG.
	Figures []string
	Wall    time.Duration
}

// Files of a reproduction directory (besides data/ and models/).
const (
	ReportFile   = "report.md"
	Table3File   = "table3.parquet"
	Table4File   = "table4.parquet"
	OptimalFile  = "optimal_configs.parquet"
	SpeedupsFile = "schedule_speedups.parquet"
)

// NoChargeName labels SJF-Predicted runs without the inference charge in
// a reproduction's speed-ups.
const NoChargeName = "SJF-Predicted (no charge)"

// Seed 002's scheduling figures, for the report: speed-ups of SJF-Predicted
// over the best feasible baseline (section 1 and 4.2).
var seedSpeedups = map[string]string{"completion": "3.17x", "execution": "6.26x", "turnaround": ">1000x", "waiting": "—"}

type timedStep struct {
	name string
	wall time.Duration
}

// Run reproduces seed 002 end to end into o.Out: the Graphlaxy
// sets and, when present, the real sets simulated on the 24 configurations;
// the four predictor variants of Table 4 trained on the Graphlaxy training
// splits; Table 3 and 4 on the Graphlaxy test splits and the real sets; both
// scheduling scenarios with five seeds on the real-graph jobs (held-out
// Graphlaxy graphs without real data); the Parquet tables, report.md and
// the figures. Everything but the wall-clock lines of the report is
// determined by o.Seed, o.Mode, the sizes and the data.
func Run(ctx context.Context, o Options) (*Summary, error) {
	start := time.Now()
	if o.Out == "" {
		return nil, errors.New("seed002: no output directory")
	}
	mode := cmp.Or(o.Mode, bench.DatasetMode)
	if mode != "omega" && mode != "extended" {
		return nil, fmt.Errorf("seed002: mode %q (want omega or extended)", mode)
	}
	sz := o.Sizes
	if o.Quick {
		sz.Small, sz.Medium, sz.Large = cmp.Or(sz.Small, QuickSizes.Small), cmp.Or(sz.Medium, QuickSizes.Medium), cmp.Or(sz.Large, QuickSizes.Large)
	}
	sz.ScheduleSeeds = cmp.Or(sz.ScheduleSeeds, len(ScheduleSeeds))
	if sz.Small < 0 || sz.Medium < 0 || sz.Large < 0 || sz.ScheduleSeeds < 0 {
		return nil, fmt.Errorf("seed002: negative sizes %+v", sz)
	}
	logf := func(format string, args ...any) {
		if o.Log != nil {
			fmt.Fprintf(o.Log, "repro: "+format+"\n", args...)
		}
	}
	var steps []timedStep
	step := func(name string, t0 time.Time) {
		d := time.Since(t0)
		steps = append(steps, timedStep{name, d})
		logf("%s done in %.1f s", name, d.Seconds())
	}
	if err := os.MkdirAll(o.Out, 0o755); err != nil {
		return nil, fmt.Errorf("seed002: %w", err)
	}
	sum := &Summary{Out: o.Out, Report: filepath.Join(o.Out, ReportFile)}
	meta := map[string]string{
		"gnnsim.repro": "seed002",
		"gnnsim.seed":  strconv.FormatUint(o.Seed, 10),
		"gnnsim.mode":  mode,
		"gnnsim.quick": strconv.FormatBool(o.Quick),
	}

	// 1. Data sets: graphs x 24 configurations.
	t0 := time.Now()
	dsOpts := bench.DatasetOptions{Seed: o.Seed, Mode: mode, Sizes: o.FeatureSizes}
	var fg bench.SizeSpec // the normalized sizes, for the report
	var glxDirs []string
	for _, set := range []struct {
		preset string
		n      int
	}{{"small", sz.Small}, {"medium", sz.Medium}, {"large", sz.Large}} {
		spec, err := bench.GraphlaxySpec(set.preset, dsOpts)
		if err != nil {
			return nil, err
		}
		if set.n > 0 {
			spec.Graphs[0].Count = set.n
		}
		fg = spec.Sizes
		dir := filepath.Join(o.Out, "data", "graphlaxy-"+set.preset)
		if err := runSweep(ctx, spec, dir, o, logf); err != nil {
			return nil, err
		}
		glxDirs = append(glxDirs, dir)
	}
	realDir := ""
	realNote := ""
	switch {
	case o.DataDir == "":
		realNote = "no real data directory was given"
	case !isDir(o.DataDir):
		realNote = fmt.Sprintf("the real data directory %s does not exist", o.DataDir)
	default:
		spec, err := bench.RealSpec(o.DataDir, dsOpts)
		if err != nil {
			realNote = err.Error()
			break
		}
		realDir = filepath.Join(o.Out, "data", "real")
		if err := runSweep(ctx, spec, realDir, o, logf); err != nil {
			return nil, err
		}
	}
	if realNote != "" {
		logf("real data sets not used: %s; generated graphs only", realNote)
	}
	sum.RealData = realDir != ""
	step("simulation of the data sets", t0)

	// 1b. The (F, G) spread study, from the labels alone.
	t0 = time.Now()
	spread, err := runSpread(ctx, o, mode, logf)
	if err != nil {
		return nil, err
	}
	sum.Spread = spread
	if sum.Settings, err = runSettings(ctx, o, logf); err != nil {
		return nil, err
	}
	step("(F, G) spread study and settings search", t0)

	glx, err := bench.ReadDatasets(glxDirs)
	if err != nil {
		return nil, err
	}
	var real []predict.Sample
	if realDir != "" {
		if real, err = bench.ReadDataset(realDir); err != nil {
			return nil, err
		}
	}

	// 2. Predictors: the four variants of Table 4, trained on the
	// Graphlaxy training splits; the full one (+features+log) is the
	// predictor of Table 3 and of the scheduler.
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	t0 = time.Now()
	fo := predict.DefaultFitOptions()
	fo.SplitSeed, fo.Params.Seed, fo.Workers = o.Seed, o.Seed, o.Workers
	modelsDir := filepath.Join(o.Out, "models")
	logf("training 4 predictor variants x 24 models on %d Graphlaxy cases (70 %% train, 15 %% validation)", len(glx))
	eval := append(slices.Clip(glx), real...)
	ablation, err := Ablation(glx, eval, fo, modelsDir)
	if err != nil {
		return nil, err
	}
	for i := range ablation {
		if rel, err := filepath.Rel(o.Out, ablation[i].Models); err == nil {
			ablation[i].Models = filepath.ToSlash(rel)
		}
	}
	mainVariant := predict.Variant(predict.Full, true)
	for _, r := range ablation {
		if r.Variant == mainVariant {
			sum.Table3 = append(sum.Table3, r)
		}
	}
	sum.Table4 = ablation
	step("training and evaluation (Tables 3 and 4)", t0)
	pred, err := predict.LoadPredictor(filepath.Join(modelsDir, mainVariant))
	if err != nil {
		return nil, err
	}

	// 3. Scheduling: the real-graph jobs, or held-out generated graphs.
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	t0 = time.Now()
	var cases []predict.Sample
	if real != nil {
		cases = real
		sum.JobsFrom = "all the real (non-Graphlaxy) graphs, as seed 002 does"
	} else {
		man := pred.Manifest()
		for i, sp := range predict.AssignSplits(glx, man.SplitSeed) {
			if sp == predict.TestSplit {
				cases = append(cases, glx[i])
			}
		}
		sum.JobsFrom = "the Graphlaxy test-split graphs (held out from training), since no real data set was found"
	}
	sum.Jobs = len(cases)
	js, err := NewJobSet(cases, Machines(), pred)
	if err != nil {
		return nil, err
	}
	seeds := make([]uint64, sz.ScheduleSeeds)
	for i := range seeds {
		seeds[i] = o.Seed + uint64(i)
	}
	logf("scheduling %d jobs on 3 accelerators (seq, sp, pp): 7 policies x 2 scenarios x %d seeds", len(cases), len(seeds))
	sres, err := js.Schedule(ScheduleOptions{
		Arrivals:        DefaultArrivals(),
		Seeds:           seeds,
		InferenceCycles: InferenceCycles,
		Workers:         o.Workers,
		KeepRecords:     true,
	})
	if err != nil {
		return nil, err
	}
	sum.Mean = sres.Mean
	ours := sched.SJFPredicted().Info().Name
	if sum.Speedups, err = Speedups(sres.Mean, ours); err != nil {
		return nil, err
	}
	// The same runs of SJF-Predicted without the inference charge, to
	// show what the charge costs.
	free, err := js.Schedule(ScheduleOptions{Arrivals: DefaultArrivals(), Policies: []string{ours}, Seeds: seeds, Workers: o.Workers})
	if err != nil {
		return nil, err
	}
	sum.NoCharge = free.Mean
	swapped := slices.Clone(sres.Mean)
	for i := range swapped {
		for _, m := range free.Mean {
			if swapped[i].Policy == ours && swapped[i].Baselines == m.Baselines {
				swapped[i] = m
			}
		}
	}
	nc, err := Speedups(swapped, ours)
	if err != nil {
		return nil, err
	}
	for i := range nc {
		nc[i].Policy = NoChargeName
	}
	sum.Speedups = append(sum.Speedups, nc...)
	// Scenario 1 on a ten times longer trace (cases drawn with
	// replacement), first seed only: how the speed-ups grow with the
	// trace when the baselines are overloaded.
	sum.LongJobs = 10 * len(cases)
	longArrivals := DefaultArrivals()
	longArrivals.Jobs = sum.LongJobs
	long, err := js.Schedule(ScheduleOptions{
		Arrivals:  longArrivals,
		Seeds:     seeds[:min(1, len(seeds))],
		Scenarios: []Scenario{Scenario1}, InferenceCycles: InferenceCycles, Workers: o.Workers,
	})
	if err != nil {
		return nil, err
	}
	if sum.LongSpeedups, err = Speedups(long.Mean, ours); err != nil {
		return nil, err
	}
	// The scheduling study: speed-ups by load, trace length, job mix and
	// charge (first two seeds in a quick run).
	var heldOut []predict.Sample
	for i, sp := range predict.AssignSplits(glx, pred.Manifest().SplitSeed) {
		if sp == predict.TestSplit {
			heldOut = append(heldOut, glx[i])
		}
	}
	studySeeds := seeds
	if o.Quick {
		studySeeds = seeds[:min(2, len(seeds))]
	}
	mixes := StudyMixes(real, heldOut)
	if sum.Study, err = Study(StudyOptions{Predictor: pred, Mixes: mixes, Seeds: studySeeds, Workers: o.Workers}); err != nil {
		return nil, err
	}
	if d, err := MeasureInference(pred, cases, 2000); err == nil {
		sum.InferenceNs = float64(d.Nanoseconds())
	}
	step("scheduling", t0)

	// 4. Tables, figures, report.
	t0 = time.Now()
	shares := OptimalShares(eval)
	if err := writeReproTables(o.Out, sum, sres, shares, meta); err != nil {
		return nil, err
	}
	figs, err := writeReproFigures(o.Out, shares, sres, sum.Spread, sum.Study, real != nil, len(seeds))
	if err != nil {
		return nil, err
	}
	bases := append([]string{figs.fig1, figs.fig5}, figs.sched[Scenario1], figs.sched[Scenario2])
	for _, set := range SpreadSets {
		bases = append(bases, figs.spread[set.Preset])
	}
	bases = append(bases, figs.study)
	for _, base := range bases {
		if base != "" {
			sum.Figures = append(sum.Figures, base+".png", base+".svg")
		}
	}
	step("tables, figures and report", t0)
	sum.Wall = time.Since(start)
	rep := reportInput{o: o, mode: mode, sizes: sz, fg: fg, mixes: mixes, sum: sum, sres: sres, shares: shares, glx: glx, real: real,
		realNote: realNote, figs: figs, steps: steps, seeds: seeds}
	if err := writeClaims(o.Out, sum.Ledger()); err != nil {
		return nil, err
	}
	if err := atomicfile.Write(sum.Report, rep.write); err != nil {
		return nil, fmt.Errorf("seed002: %w", err)
	}
	logf("report: %s (%.1f s in all)", sum.Report, sum.Wall.Seconds())
	return sum, nil
}

// Highlights are the headline lines of a run, for a console: whether real
// data was used, and SJF-Predicted's scenario-1 speed-ups over the best
// feasible baseline, with and without the inference charge.
func (s *Summary) Highlights() []string {
	var out []string
	if !s.RealData {
		out = append(out, "no real data sets found: generated graphs only (the report says so)")
	}
	for _, sp := range s.Speedups {
		if sp.Scenario != int32(Scenario1) {
			continue
		}
		out = append(out, fmt.Sprintf("scenario 1, mean %-11s %s %.4g cycles, %s, %s",
			sp.Metric+":", sp.Policy, sp.Value, sp.Words(), sp.TruthWords()))
	}
	for _, set := range SpreadSets {
		var sel []SpreadRow
		for _, r := range s.Spread {
			if r.Dataset == "Graphlaxy."+set.Preset {
				sel = append(sel, r)
			}
		}
		if len(sel) > 0 {
			_, w := Closest(sel)
			out = append(out, fmt.Sprintf("(F, G) spread, Graphlaxy.%s: at most %.1f %% over a random configuration (%s; seed 002: %.2f %%)",
				set.Preset, w.ImprovementVsRandom, w.Setting(), set.Random))
		}
	}
	if len(s.Study) > 0 {
		c := ClosestStudy(s.Study)
		out = append(out, fmt.Sprintf("scheduling study, nearest the seed: %s, load %.2f, %d jobs: %.3gx completion, %.3gx execution, %.3gx turnaround (seed 002: 3.17x, 6.26x, >1000x)",
			c.Mix, c.Utilisation, c.TraceJobs, c.Completion, c.Execution, c.Turnaround))
	}
	return out
}

// runSweep runs one sweep of the reproduction, resuming finished chunks.
func runSweep(ctx context.Context, spec *bench.Spec, dir string, o Options, logf func(string, ...any)) error {
	plan, err := bench.NewPlan(spec)
	if err != nil {
		return err
	}
	logf("%s: %d graphs x 24 configurations (%s mode) -> %s", spec.Name, plan.NumGraphs(), spec.Mode, dir)
	s, err := plan.Run(ctx, dir, bench.Options{Workers: o.Workers, Progress: o.Log})
	if err != nil {
		return err
	}
	if !s.Complete {
		return fmt.Errorf("seed002: sweep %s did not complete", dir)
	}
	return nil
}

func writeReproTables(out string, sum *Summary, sres *ScheduleResult, shares []OptimalShare, meta map[string]string) error {
	if err := predict.WriteRows(filepath.Join(out, Table3File), sum.Table3, meta); err != nil {
		return err
	}
	if err := predict.WriteRows(filepath.Join(out, Table4File), sum.Table4, meta); err != nil {
		return err
	}
	if err := WriteOptimalShares(filepath.Join(out, OptimalFile), shares, meta); err != nil {
		return err
	}
	if err := WriteSchedule(out, sres, meta); err != nil {
		return err
	}
	if err := WriteSpread(filepath.Join(out, SpreadFile), sum.Spread, meta); err != nil {
		return err
	}
	if err := WriteStudy(filepath.Join(out, StudyFile), sum.Study, meta); err != nil {
		return err
	}
	if err := writeSettingsTable(out, sum.Settings, meta); err != nil {
		return err
	}
	return WriteSpeedups(filepath.Join(out, SpeedupsFile), sum.Speedups, meta)
}

// reproFigures names the figure files (without extension) of a run.
type reproFigures struct {
	fig1, fig1Set, fig5 string
	sched               map[Scenario]string
	spread              map[string]string // per Graphlaxy preset
	study               string
}

func writeReproFigures(out string, shares []OptimalShare, sres *ScheduleResult, spread []SpreadRow, study []StudyRow, haveReal bool, nseeds int) (reproFigures, error) {
	f := reproFigures{fig5: "fig5_optimal_configs", sched: map[Scenario]string{}, spread: map[string]string{}}
	if len(study) > 0 {
		f.study = "fig_schedule_study"
		if err := PlotStudy(filepath.Join(out, f.study), study); err != nil {
			return f, err
		}
	}
	for _, set := range SpreadSets {
		base := "fig_fg_spread_" + set.Preset
		if err := PlotSpread(filepath.Join(out, base), "Graphlaxy."+set.Preset, spread, set.Random, set.Best); err != nil {
			return f, err
		}
		f.spread[set.Preset] = base
	}
	// Figure 1 is seed 002's ENZYMES; without it, the first set of shares.
	f.fig1Set = shares[0].Dataset
	if slices.ContainsFunc(shares, func(s OptimalShare) bool { return s.Dataset == "ENZYMES" }) {
		f.fig1Set = "ENZYMES"
	}
	f.fig1 = "fig1_optimal_" + strings.ToLower(strings.ReplaceAll(f.fig1Set, ".", "_"))
	if err := PlotOptimal(filepath.Join(out, f.fig1), f.fig1Set, shares); err != nil {
		return f, err
	}
	if err := PlotOptimalGrid(filepath.Join(out, f.fig5), shares); err != nil {
		return f, err
	}
	jobs := "real-graph jobs"
	if !haveReal {
		jobs = "held-out generated jobs"
	}
	for _, sc := range []struct {
		s    Scenario
		file string
		what string
	}{
		{Scenario1, "fig6_scenario1", "baselines with random tiling"},
		{Scenario2, "fig7_scenario2", "baselines with optimal tiling"},
	} {
		sel := inScenario(sres.Mean, sc.s)
		if len(sel) == 0 {
			continue
		}
		title := fmt.Sprintf("Scenario %d: %s\n3 accelerators (seq, sp, pp), Pareto arrivals at 85 %%, %s, mean of %d seeds", sc.s, sc.what, jobs, nseeds)
		if err := PlotPolicies(filepath.Join(out, sc.file), title, "cycles", sel); err != nil {
			return f, err
		}
		f.sched[sc.s] = sc.file
	}
	return f, nil
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}
