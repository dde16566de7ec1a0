package seed002

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"gnnsim/bench"
	"gnnsim/internal/pqio"
	"gnnsim/predict"
	"gnnsim/sched"
)

// This file is the scheduling study: SJF-Predicted's scenario-1 speed-ups
// over the best feasible baseline (seed 002: 3.17x mean completion, 6.26x
// mean execution, > 1000x mean turnaround) as the load, the trace length,
// the job mix and the predictor charge change, one factor at a time around
// the reproduction's own setting, plus the load x job mix grid.

// Seed 002's scheduling speed-ups (sections 1 and 4.2).
const (
	SeedCompletionSpeedup = 3.17
	SeedExecutionSpeedup  = 6.26
	SeedTurnaroundSpeedup = 1000 // "more than 1000x"
)

// JobMix is a named job set of the study.
type JobMix struct {
	Name, What string
	Cases      []predict.Sample
}

// Study factors: the levels each one takes.
var (
	StudyLoads   = []float64{0.5, 0.7, 0.85, 0.95}
	StudyLengths = []int{1, 3, 10} // trace length in multiples of the job set
	// StudyCharges are predictor charges per job in cycles: none, a tenth
	// of the seed's, the seed's 2,312 (InferenceCycles) and ten times it.
	StudyCharges = []int64{0, InferenceCycles / 10, InferenceCycles, 10 * InferenceCycles}
)

// StudyRow is one setting of the scheduling study, scenario 1 (baselines
// with random tilings), metrics averaged over the seeds.
type StudyRow struct {
	Factor string `parquet:"factor"` // load | trace length | job mix | charge | load x mix
	Mix    string `parquet:"mix"`
	Cases  int64  `parquet:"cases"` // distinct jobs of the mix
	// TraceJobs is the trace length; Length its multiple of Cases (1:
	// every case once, more: drawn with replacement).
	TraceJobs   int64   `parquet:"trace_jobs"`
	Length      int64   `parquet:"length"`
	Utilisation float64 `parquet:"utilisation"` // target offered load at the best tilings
	// OfferedRandom is the load the trace offers when every job runs a
	// random tiling on a random machine (mean over seeds).
	OfferedRandom float64 `parquet:"offered_random"`
	Charge        int64   `parquet:"charge_cycles"`
	Seeds         int64   `parquet:"seeds"`
	// Speed-ups of SJF-Predicted over the best feasible baseline of each
	// metric, and those baselines.
	Completion         float64 `parquet:"completion_speedup"`
	Execution          float64 `parquet:"execution_speedup"`
	Turnaround         float64 `parquet:"turnaround_speedup"`
	CompletionBaseline string  `parquet:"completion_baseline"`
	ExecutionBaseline  string  `parquet:"execution_baseline"`
	TurnaroundBaseline string  `parquet:"turnaround_baseline"`
	// ChargeShare is the charge over SJF-Predicted's mean waiting time, in
	// percent (seed 002: 2,312 of 18,756.49 cycles, 12.3 %).
	ChargeShare float64 `parquet:"charge_share"`
	// Distance measures how far the three speed-ups are from the seed's:
	// |ln(completion/3.17)| + |ln(execution/6.26)| + max(0, ln(1000/
	// turnaround)).
	Distance float64 `parquet:"distance_to_seed"`
}

// StudyFile is the study's table in a reproduction directory.
const StudyFile = "schedule_study.parquet"

// studySetting is one point of the study.
type studySetting struct {
	factor string
	mix    int
	util   float64
	length int
	charge int64
}

// StudyOptions configure Study.
type StudyOptions struct {
	Predictor CasePredictor
	Mixes     []JobMix
	// Base is the index in Mixes of the reproduction's own job set, the
	// centre of the one-factor variations.
	Base    int
	Seeds   []uint64
	Workers int
}

// Study runs the scheduling study with o.Predictor: the load x job mix
// grid at the seed's charge; around the base setting (Mixes[Base], 85 %,
// the job set once, the seed's charge) the trace lengths and the charges;
// last, the grid setting of largest turnaround speed-up on the longest
// trace. Mixes without cases are skipped.
func Study(o StudyOptions) ([]StudyRow, error) {
	if len(o.Seeds) == 0 {
		return nil, errors.New("seed002: study: no seeds")
	}
	if o.Base < 0 || o.Base >= len(o.Mixes) || len(o.Mixes[o.Base].Cases) == 0 {
		return nil, errors.New("seed002: study: the base job mix is empty")
	}
	const baseLoad = 0.85
	var grid, around []studySetting
	for m := range o.Mixes {
		if len(o.Mixes[m].Cases) == 0 {
			continue
		}
		for _, u := range StudyLoads {
			grid = append(grid, studySetting{"load x mix", m, u, 1, InferenceCycles})
		}
	}
	for _, l := range StudyLengths[1:] {
		around = append(around, studySetting{"trace length", o.Base, baseLoad, l, InferenceCycles})
	}
	for _, c := range StudyCharges {
		if c != InferenceCycles {
			around = append(around, studySetting{"charge", o.Base, baseLoad, 1, c})
		}
	}
	sets := make([]*JobSet, len(o.Mixes))
	var policies []string
	for _, pol := range sched.Standard() {
		if info := pol.Info(); info.Name != sched.SJFTruth().Info().Name {
			policies = append(policies, info.Name)
		}
	}
	run := func(settings []studySetting) ([]StudyRow, error) {
		var out []StudyRow
		for _, st := range settings {
			r, err := studyRow(o, sets, policies, st)
			if err != nil {
				return nil, err
			}
			out = append(out, r)
		}
		return out, nil
	}
	out, err := run(grid)
	if err != nil {
		return nil, err
	}
	more, err := run(around)
	if err != nil {
		return nil, err
	}
	out = append(out, more...)
	// The grid's setting of largest turnaround speed-up (the most
	// overloaded baselines) on the longest trace: turnaround grows with
	// the trace there, so this is where it is largest.
	top := 0
	for i := range grid {
		if out[i].Turnaround > out[top].Turnaround {
			top = i
		}
	}
	st := grid[top]
	st.factor, st.length = "longest trace at the largest turnaround", StudyLengths[len(StudyLengths)-1]
	last, err := run([]studySetting{st})
	if err != nil {
		return nil, err
	}
	return append(out, last...), nil
}

// studyRow runs one setting of the study. Traces longer than the job set
// run on the first seed only (they are ten times the work of the others).
func studyRow(o StudyOptions, sets []*JobSet, policies []string, st studySetting) (StudyRow, error) {
	ours := sched.SJFPredicted().Info().Name
	mix := &o.Mixes[st.mix]
	if sets[st.mix] == nil {
		js, err := NewJobSet(mix.Cases, Machines(), o.Predictor)
		if err != nil {
			return StudyRow{}, fmt.Errorf("seed002: study, mix %s: %w", mix.Name, err)
		}
		sets[st.mix] = js
	}
	arr := DefaultArrivals()
	arr.Utilisation = st.util
	seeds := o.Seeds
	if st.length > 1 {
		arr.Jobs = st.length * len(mix.Cases)
		seeds = seeds[:1]
	}
	res, err := sets[st.mix].Schedule(ScheduleOptions{Arrivals: arr, Policies: policies, Scenarios: []Scenario{Scenario1},
		Seeds: seeds, InferenceCycles: st.charge, Workers: o.Workers})
	if err != nil {
		return StudyRow{}, fmt.Errorf("seed002: study, mix %s: %w", mix.Name, err)
	}
	sp, err := Speedups(res.Mean, ours)
	if err != nil {
		return StudyRow{}, err
	}
	trace := len(mix.Cases)
	if arr.Jobs > 0 {
		trace = arr.Jobs
	}
	r := StudyRow{Factor: st.factor, Mix: mix.Name, Cases: int64(len(mix.Cases)), TraceJobs: int64(trace), Length: int64(st.length),
		Utilisation: st.util, Charge: st.charge, Seeds: int64(len(seeds))}
	for _, in := range res.Instances {
		r.OfferedRandom += in.OfferedRandom / float64(len(res.Instances))
	}
	for _, s := range sp {
		switch s.Metric {
		case "completion":
			r.Completion, r.CompletionBaseline = s.Speedup, s.Baseline
		case "execution":
			r.Execution, r.ExecutionBaseline = s.Speedup, s.Baseline
		case "turnaround":
			r.Turnaround, r.TurnaroundBaseline = s.Speedup, s.Baseline
		case "waiting":
			if s.Value > 0 {
				r.ChargeShare = 100 * float64(st.charge) / s.Value
			}
		}
	}
	r.Distance = math.Abs(math.Log(r.Completion/SeedCompletionSpeedup)) + math.Abs(math.Log(r.Execution/SeedExecutionSpeedup)) +
		max(0, math.Log(SeedTurnaroundSpeedup/r.Turnaround))
	return r, nil
}

// ClosestStudy returns the study row nearest the seed's speed-ups (least
// Distance, first on ties).
func ClosestStudy(rows []StudyRow) StudyRow {
	var best StudyRow
	for i, r := range rows {
		if i == 0 || r.Distance < best.Distance {
			best = r
		}
	}
	return best
}

// smallTU are the TU sets of small molecules and proteins (tens of nodes).
var smallTU = []string{"ENZYMES", "PROTEINS", "MUTAG", "AIDS", "NCI1"}

// StudyMixes returns the job mixes of the study from the real cases and
// the held-out Graphlaxy test cases: the reproduction's job set (all real
// graphs; index 0, the base), seed 002's sets that are present, small
// molecules only, larger graphs only (SuiteSparse, Cora and the held-out
// Graphlaxy Medium and Large graphs: 100s to 1000s of nodes), and an even
// mix of molecules and larger graphs. Without real cases the base is the
// Graphlaxy test split.
func StudyMixes(real, heldOut []predict.Sample) []JobMix {
	pick := func(from []predict.Sample, keep func(*predict.Sample) bool) []predict.Sample {
		var out []predict.Sample
		for i := range from {
			if keep(&from[i]) {
				out = append(out, from[i])
			}
		}
		return out
	}
	if len(real) == 0 {
		return []JobMix{{Name: "Graphlaxy test", What: "held-out Graphlaxy graphs of the three presets", Cases: heldOut}}
	}
	inSeed := func(s *predict.Sample) bool {
		rs := bench.RealSetNamed(s.Dataset)
		return rs != nil && rs.InSeed()
	}
	small := func(s *predict.Sample) bool { return slices.Contains(smallTU, s.Dataset) }
	larger := append(pick(real, func(s *predict.Sample) bool { return !small(s) }),
		pick(heldOut, func(s *predict.Sample) bool { return s.Dataset != "Graphlaxy.small" })...)
	mols := pick(real, small)
	// Even mix: every larger graph and as many molecules, spread evenly
	// over the molecule list (deterministic, no draw).
	var even []predict.Sample
	if len(larger) > 0 && len(mols) > 0 {
		n := min(len(larger), len(mols))
		for k := range n {
			even = append(even, mols[k*len(mols)/n])
		}
		even = append(even, larger...)
	}
	return []JobMix{
		{Name: "all real", What: "every real graph (the reproduction's job set)", Cases: real},
		{Name: "seed's sets", What: "seed 002's sets that are present", Cases: pick(real, inSeed)},
		{Name: "molecules", What: "small TU graphs only (" + joinPresent(real, smallTU) + ")", Cases: mols},
		{Name: "larger graphs", What: "SuiteSparse, Cora and held-out Graphlaxy Medium/Large graphs", Cases: larger},
		{Name: "even", What: "as many molecules as larger graphs", Cases: even},
	}
}

// joinPresent lists the names of sets that have cases in samples.
func joinPresent(samples []predict.Sample, sets []string) string {
	var out []string
	for _, n := range sets {
		if slices.ContainsFunc(samples, func(s predict.Sample) bool { return s.Dataset == n }) {
			out = append(out, n)
		}
	}
	if len(out) == 0 {
		return "none present"
	}
	return strings.Join(out, ", ")
}

// WriteStudy writes the study as Parquet.
func WriteStudy(path string, rows []StudyRow, meta map[string]string) error {
	if err := pqio.Write(path, rows, meta); err != nil {
		return fmt.Errorf("seed002: %w", err)
	}
	return nil
}
