package seed002

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"gnnsim/bench"
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
