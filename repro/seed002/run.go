package seed002

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"gnnsim/bench"
	"gnnsim/internal/atomicfile"
	"gnnsim/predict"
	"gnnsim/sched"
)

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
	r, err := newRun(o)
	if err != nil {
		return nil, err
	}
	sum := r.sum
	ds, err := r.simulate(ctx)
	if err != nil {
		return nil, err
	}
	pred, err := r.predictors(ctx, ds)
	if err != nil {
		return nil, err
	}
	sc, err := r.schedule(ctx, ds, pred)
	if err != nil {
		return nil, err
	}
	figs, shares, err := r.writeResults(ds, sc)
	if err != nil {
		return nil, err
	}
	sum.Wall = time.Since(start)
	rep := reportInput{o: o, mode: r.mode, sizes: r.sz, fg: ds.fg, mixes: sc.mixes, sum: sum, sres: sc.sres, shares: shares, glx: ds.glx, real: ds.real,
		realNote: ds.realNote, figs: figs, steps: r.steps, seeds: sc.seeds}
	if err := writeClaims(o.Out, sum.Ledger()); err != nil {
		return nil, err
	}
	if err := atomicfile.Write(sum.Report, rep.write); err != nil {
		return nil, fmt.Errorf("seed002: %w", err)
	}
	r.logf("report: %s (%.1f s in all)", sum.Report, sum.Wall.Seconds())
	return sum, nil
}

// run is one reproduction in progress: its options, normalised sizes,
// the summary it fills and the timed steps for the report.
type run struct {
	o     Options
	mode  string
	sz    Sizes
	sum   *Summary
	meta  map[string]string
	steps []timedStep
}

// newRun checks o, normalises its sizes and creates the output directory.
func newRun(o Options) (*run, error) {
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
	if err := os.MkdirAll(o.Out, 0o755); err != nil {
		return nil, fmt.Errorf("seed002: %w", err)
	}
	return &run{
		o: o, mode: mode, sz: sz,
		sum: &Summary{Out: o.Out, Report: filepath.Join(o.Out, ReportFile)},
		meta: map[string]string{
			"gnnsim.repro": "seed002",
			"gnnsim.seed":  strconv.FormatUint(o.Seed, 10),
			"gnnsim.mode":  mode,
			"gnnsim.quick": strconv.FormatBool(o.Quick),
		},
	}, nil
}

func (r *run) logf(format string, args ...any) {
	if r.o.Log != nil {
		fmt.Fprintf(r.o.Log, "repro: "+format+"\n", args...)
	}
}

// step records that the step name, begun at t0, is done.
func (r *run) step(name string, t0 time.Time) {
	d := time.Since(t0)
	r.steps = append(r.steps, timedStep{name, d})
	r.logf("%s done in %.1f s", name, d.Seconds())
}

// datasets are the simulated data sets of a run.
type datasets struct {
	fg       bench.SizeSpec // the normalized sizes, for the report
	glx      []predict.Sample
	real     []predict.Sample // nil without real data
	realNote string           // why the real data sets were not used
}

// simulate runs step 1: the data sets (graphs x 24 configurations), then
// the (F, G) spread study and the settings search from the labels alone.
func (r *run) simulate(ctx context.Context) (*datasets, error) {
	o, sz, sum := r.o, r.sz, r.sum
	t0 := time.Now()
	ds := &datasets{}
	dsOpts := bench.DatasetOptions{Seed: o.Seed, Mode: r.mode, Sizes: o.FeatureSizes}
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
		ds.fg = spec.Sizes
		dir := filepath.Join(o.Out, "data", "graphlaxy-"+set.preset)
		if err := runSweep(ctx, spec, dir, o, r.logf); err != nil {
			return nil, err
		}
		glxDirs = append(glxDirs, dir)
	}
	realDir := ""
	switch {
	case o.DataDir == "":
		ds.realNote = "no real data directory was given"
	case !isDir(o.DataDir):
		ds.realNote = fmt.Sprintf("the real data directory %s does not exist", o.DataDir)
	default:
		spec, err := bench.RealSpec(o.DataDir, dsOpts)
		if err != nil {
			ds.realNote = err.Error()
			break
		}
		realDir = filepath.Join(o.Out, "data", "real")
		if err := runSweep(ctx, spec, realDir, o, r.logf); err != nil {
			return nil, err
		}
	}
	if ds.realNote != "" {
		r.logf("real data sets not used: %s; generated graphs only", ds.realNote)
	}
	sum.RealData = realDir != ""
	r.step("simulation of the data sets", t0)

	// 1b. The (F, G) spread study, from the labels alone.
	t0 = time.Now()
	spread, err := runSpread(ctx, o, r.mode, r.logf)
	if err != nil {
		return nil, err
	}
	sum.Spread = spread
	if sum.Settings, err = runSettings(ctx, o, r.logf); err != nil {
		return nil, err
	}
	r.step("(F, G) spread study and settings search", t0)

	if ds.glx, err = bench.ReadDatasets(glxDirs); err != nil {
		return nil, err
	}
	if realDir != "" {
		if ds.real, err = bench.ReadDataset(realDir); err != nil {
			return nil, err
		}
	}
	return ds, nil
}

// predictors runs step 2: the four variants of Table 4, trained on the
// Graphlaxy training splits; the full one (+features+log) is the
// predictor of Table 3 and of the scheduler, which it returns.
func (r *run) predictors(ctx context.Context, ds *datasets) (*predict.Predictor, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	o, sum := r.o, r.sum
	t0 := time.Now()
	fo := predict.DefaultFitOptions()
	fo.SplitSeed, fo.Params.Seed, fo.Workers = o.Seed, o.Seed, o.Workers
	modelsDir := filepath.Join(o.Out, "models")
	r.logf("training 4 predictor variants x 24 models on %d Graphlaxy cases (70 %% train, 15 %% validation)", len(ds.glx))
	ablation, err := Ablation(ds.glx, ds.eval(), fo, modelsDir)
	if err != nil {
		return nil, err
	}
	for i := range ablation {
		if rel, err := filepath.Rel(o.Out, ablation[i].Models); err == nil {
			ablation[i].Models = filepath.ToSlash(rel)
		}
	}
	mainVariant := predict.Variant(predict.Full, true)
	for _, row := range ablation {
		if row.Variant == mainVariant {
			sum.Table3 = append(sum.Table3, row)
		}
	}
	sum.Table4 = ablation
	r.step("training and evaluation (Tables 3 and 4)", t0)
	return predict.LoadPredictor(filepath.Join(modelsDir, mainVariant))
}

// eval is the evaluation set: the Graphlaxy cases, then the real ones.
func (ds *datasets) eval() []predict.Sample { return append(slices.Clip(ds.glx), ds.real...) }

// scheduled is what step 3 leaves for the tables and the report.
type scheduled struct {
	sres  *ScheduleResult
	seeds []uint64
	mixes []JobMix
}

// schedule runs step 3: the real-graph jobs, or held-out generated
// graphs, scheduled with and without the inference charge, on a long
// trace, and in the scheduling study.
func (r *run) schedule(ctx context.Context, ds *datasets, pred *predict.Predictor) (*scheduled, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	o, sum := r.o, r.sum
	t0 := time.Now()
	var cases []predict.Sample
	if ds.real != nil {
		cases = ds.real
		sum.JobsFrom = "all the real (non-Graphlaxy) graphs, as seed 002 does"
	} else {
		cases = testSplit(ds.glx, pred)
		sum.JobsFrom = "the Graphlaxy test-split graphs (held out from training), since no real data set was found"
	}
	sum.Jobs = len(cases)
	js, err := NewJobSet(cases, Machines(), pred)
	if err != nil {
		return nil, err
	}
	sc := &scheduled{seeds: make([]uint64, r.sz.ScheduleSeeds)}
	seeds := sc.seeds
	for i := range seeds {
		seeds[i] = o.Seed + uint64(i)
	}
	r.logf("scheduling %d jobs on 3 accelerators (seq, sp, pp): 7 policies x 2 scenarios x %d seeds", len(cases), len(seeds))
	if sc.sres, err = js.Schedule(ScheduleOptions{
		Arrivals:        DefaultArrivals(),
		Seeds:           seeds,
		InferenceCycles: InferenceCycles,
		Workers:         o.Workers,
		KeepRecords:     true,
	}); err != nil {
		return nil, err
	}
	sum.Mean = sc.sres.Mean
	if err := r.speedups(js, seeds, len(cases)); err != nil {
		return nil, err
	}
	// The scheduling study: speed-ups by load, trace length, job mix and
	// charge (first two seeds in a quick run).
	studySeeds := seeds
	if o.Quick {
		studySeeds = seeds[:min(2, len(seeds))]
	}
	sc.mixes = StudyMixes(ds.real, testSplit(ds.glx, pred))
	if sum.Study, err = Study(StudyOptions{Predictor: pred, Mixes: sc.mixes, Seeds: studySeeds, Workers: o.Workers}); err != nil {
		return nil, err
	}
	if d, err := MeasureInference(pred, cases, 2000); err == nil {
		sum.InferenceNs = float64(d.Nanoseconds())
	}
	r.step("scheduling", t0)
	return sc, nil
}

// testSplit returns the Graphlaxy cases of pred's test split (held out
// from its training).
func testSplit(glx []predict.Sample, pred *predict.Predictor) []predict.Sample {
	var out []predict.Sample
	for i, sp := range predict.AssignSplits(glx, pred.Manifest().SplitSeed) {
		if sp == predict.TestSplit {
			out = append(out, glx[i])
		}
	}
	return out
}

// speedups fills the summary's speed-ups of SJF-Predicted: with the
// inference charge (from sum.Mean), without it (the same runs again),
// and in scenario 1 on a ten times longer trace (cases drawn with
// replacement, first seed only: how the speed-ups grow with the trace
// when the baselines are overloaded).
func (r *run) speedups(js *JobSet, seeds []uint64, cases int) error {
	o, sum := r.o, r.sum
	ours := sched.SJFPredicted().Info().Name
	var err error
	if sum.Speedups, err = Speedups(sum.Mean, ours); err != nil {
		return err
	}
	free, err := js.Schedule(ScheduleOptions{Arrivals: DefaultArrivals(), Policies: []string{ours}, Seeds: seeds, Workers: o.Workers})
	if err != nil {
		return err
	}
	sum.NoCharge = free.Mean
	swapped := slices.Clone(sum.Mean)
	for i := range swapped {
		for _, m := range free.Mean {
			if swapped[i].Policy == ours && swapped[i].Baselines == m.Baselines {
				swapped[i] = m
			}
		}
	}
	nc, err := Speedups(swapped, ours)
	if err != nil {
		return err
	}
	for i := range nc {
		nc[i].Policy = NoChargeName
	}
	sum.Speedups = append(sum.Speedups, nc...)
	sum.LongJobs = 10 * cases
	longArrivals := DefaultArrivals()
	longArrivals.Jobs = sum.LongJobs
	long, err := js.Schedule(ScheduleOptions{
		Arrivals:  longArrivals,
		Seeds:     seeds[:min(1, len(seeds))],
		Scenarios: []Scenario{Scenario1}, InferenceCycles: InferenceCycles, Workers: o.Workers,
	})
	if err != nil {
		return err
	}
	sum.LongSpeedups, err = Speedups(long.Mean, ours)
	return err
}

// writeResults runs step 4: the Parquet tables and the figures.
func (r *run) writeResults(ds *datasets, sc *scheduled) (reproFigures, []OptimalShare, error) {
	t0 := time.Now()
	sum := r.sum
	shares := OptimalShares(ds.eval())
	if err := writeReproTables(r.o.Out, sum, sc.sres, shares, r.meta); err != nil {
		return reproFigures{}, nil, err
	}
	figs, err := writeReproFigures(r.o.Out, shares, sc.sres, sum.Spread, sum.Study, ds.real != nil, len(sc.seeds))
	if err != nil {
		return reproFigures{}, nil, err
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
	r.step("tables, figures and report", t0)
	return figs, shares, nil
}
