package seed002

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"gnnsim/dataflow"
	"gnnsim/internal/par"
	"gnnsim/predict"
	"gnnsim/sched"
	"gnnsim/workload"
)

// This file glues a data set directory (a sweep's graphs and runs tables)
// and a latency predictor to package sched: the cases of the data set become
// jobs, the runs' cycles the truth table, the predictor's outputs the
// predicted table, and package workload releases the jobs over time.

// InferenceCycles is seed 002's predictor inference time: 2,311.88 ns
// per prediction of all 24 configurations (lleaves on a Ryzen 9 5900X, the
// 24 models in parallel), about 2,312 cycles of a 1 GHz accelerator. It is
// the default charge because a measured charge would depend on the host and
// make results irreproducible; MeasureInference gives this host's figure.
const InferenceCycles = 2312

// ScheduleSeeds are the five seeded runs of seed 002's figures.
var ScheduleSeeds = []uint64{1, 2, 3, 4, 5}

// Machines returns seed 002's multi-accelerator system (its Figure 4,
// section 4.2): three accelerators, one per inter-phase dataflow (seq, sp,
// pp), each free to run any of the eight tilings a..h per job.
func Machines() []sched.Machine {
	ms, err := ParseMachines("seq,sp,pp")
	if err != nil {
		panic(err) // a constant spec
	}
	return ms
}

// ParseMachines reads a machine list: comma-separated DATAFLOW[:TILINGS]
// items, where DATAFLOW is seq, sp or pp and TILINGS a string of tiling
// letters from a..h (default all eight, chosen per job; one letter is a
// fixed tiling). "seq,sp,pp" is seed 002's system; "sp:c,pp:ab" two
// machines, sp fixed at tiling c and pp choosing between a and b. A
// dataflow may appear more than once. A machine's mappings are the names
// of its configurations ("sp-a", ..., as predict.ConfigNames), in the
// order of the letters.
func ParseMachines(s string) ([]sched.Machine, error) {
	var out []sched.Machine
	seen := map[string]int{}
	for item := range strings.SplitSeq(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			return nil, fmt.Errorf("seed002: machines %q: empty item", s)
		}
		df, tl, hasT := strings.Cut(item, ":")
		inter, err := dataflow.ParseInter(df)
		if err != nil {
			return nil, fmt.Errorf("seed002: machines %q: %w", s, err)
		}
		var m sched.Machine
		if !hasT {
			tl = dataflow.TilingNames
		}
		if tl == "" {
			return nil, fmt.Errorf("seed002: machines %q: %s has no tilings after ':'", s, df)
		}
		for _, r := range tl {
			if !strings.ContainsRune(dataflow.TilingNames, r) {
				return nil, fmt.Errorf("seed002: machines %q: tiling %q is not one of %s", s, r, dataflow.TilingNames)
			}
			cfg := inter.String() + "-" + string(r)
			if slices.Contains(m.Mappings, cfg) {
				return nil, fmt.Errorf("seed002: machines %q: tiling %c listed twice for %s", s, r, df)
			}
			m.Mappings = append(m.Mappings, cfg)
		}
		m.Name = item
		seen[item]++
		if seen[item] > 1 {
			m.Name = fmt.Sprintf("%s#%d", item, seen[item])
		}
		out = append(out, m)
	}
	return out, nil
}

// CasePredictor is what scheduling needs of a latency predictor: the
// predicted cycles of the 24 configurations of a case, in
// predict.ConfigNames order. *predict.Predictor and *predict.Fitted
// satisfy it.
type CasePredictor interface {
	PredictSample(s *predict.Sample, out []float64) (int, error)
}

// JobSet is the arrival-independent part of a scheduling experiment: the
// cases of a data set (graph, F, G on one hardware point; predict.Sample as
// ReadDataset returns them), the machines, and every case's true latency
// (the runs table's cycles) and, with a predictor, predicted latency in all
// 24 configurations. Predictions are made once here and shared by every
// trace, seed and policy. A JobSet is read-only once built.
type JobSet struct {
	Cases    []predict.Sample
	Machines []sched.Machine
	configs  [][]int   // per machine and mapping: the configuration index
	truth    []int64   // case*24 + config
	pred     []float64 // case*24 + config; nil without a predictor
	byName   map[string]int
}

// NewJobSet builds the job set of cases on machines; p may be nil (then
// only policies that need no prediction can run).
func NewJobSet(cases []predict.Sample, machines []sched.Machine, p CasePredictor) (*JobSet, error) {
	if len(cases) == 0 {
		return nil, errors.New("seed002: no cases to schedule")
	}
	if len(machines) == 0 {
		return nil, errors.New("seed002: no machines")
	}
	configs := make([][]int, len(machines))
	for i, m := range machines {
		if len(m.Mappings) == 0 {
			return nil, fmt.Errorf("seed002: machine %d (%s) has no configurations", i, m.Name)
		}
		for _, name := range m.Mappings {
			c := slices.Index(predict.ConfigNames(), name)
			if c < 0 {
				return nil, fmt.Errorf("seed002: machine %d (%s): mapping %q is not one of the %d configurations", i, m.Name, name, predict.NumConfigs)
			}
			configs[i] = append(configs[i], c)
		}
	}
	js := &JobSet{
		Cases:    cases,
		Machines: slices.Clone(machines),
		configs:  configs,
		truth:    make([]int64, len(cases)*predict.NumConfigs),
		byName:   make(map[string]int, len(cases)),
	}
	for i := range cases {
		s := &cases[i]
		if s.Graph == nil {
			return nil, fmt.Errorf("seed002: case %d (%s graph %d) has no graph", i, s.Dataset, s.GraphID)
		}
		for c, l := range s.Latency {
			if !(l >= 1) || l > math.MaxInt64/4 || l != math.Trunc(l) {
				return nil, fmt.Errorf("seed002: case %d (%s graph %d): latency of %s is %v cycles, want a positive integer", i, s.Dataset, s.GraphID, predict.ConfigNames()[c], l)
			}
			js.truth[i*predict.NumConfigs+c] = int64(l)
		}
		if _, dup := js.byName[s.Graph.Name]; dup {
			js.byName[s.Graph.Name] = -1 // ambiguous: several cases of one name
		} else {
			js.byName[s.Graph.Name] = i
		}
	}
	if p == nil {
		return js, nil
	}
	js.pred = make([]float64, len(cases)*predict.NumConfigs)
	if err := js.predictAll(p); err != nil {
		return nil, err
	}
	return js, nil
}

// predictAll fills js.pred on up to one goroutine per 256 cases (a case's
// 24 predictions take some 25 us; fewer cases are not worth a goroutine).
// Each prediction depends only on its case, so the result is the same for
// any number of workers; a failure reports the lowest failing case.
func (js *JobSet) predictAll(p CasePredictor) error {
	n := len(js.Cases)
	return par.For(n, min(runtime.GOMAXPROCS(0), max(1, n/256)), func(i int) error {
		s := &js.Cases[i]
		out := js.pred[i*predict.NumConfigs : (i+1)*predict.NumConfigs]
		if _, err := p.PredictSample(s, out); err != nil {
			return fmt.Errorf("seed002: predicting case %d (%s graph %d): %w", i, s.Dataset, s.GraphID, err)
		}
		return nil
	})
}

// HasPredictions reports whether the set was built with a predictor.
func (js *JobSet) HasPredictions() bool { return js.pred != nil }

// TrueCycles returns case i's true latency on configuration c
// (predict.ConfigNames order).
func (js *JobSet) TrueCycles(i, c int) int64 { return js.truth[i*predict.NumConfigs+c] }

// config returns the configuration index machine m runs with its mapping k.
func (js *JobSet) config(m, k int) int { return js.configs[m][k] }

// ArrivalOptions describe how jobs are released: a generated trace, whose
// mean inter-arrival gap is set so that the jobs offer the target
// utilisation to the machines (workload.MeanGap with
// sched.ReferenceService: each job's best-tiling latency averaged over the
// machines), or a replayed one.
type ArrivalOptions struct {
	// Process of the gaps; zero means workload.Pareto (seed 002).
	Process workload.Process
	// Shape of Pareto/Lomax gaps; zero means workload.DefaultParetoShape.
	Shape float64
	// Utilisation is the target offered load; zero means
	// workload.DefaultUtilisation (85 %, seed 002).
	Utilisation float64
	// Exact rescales each seed's gaps so that it offers exactly the target
	// load (see workload.ArrivalSpec.Exact). With heavy-tailed gaps a trace
	// of a few thousand jobs otherwise strays far from it.
	Exact bool
	// Jobs is the trace length. Zero releases every case once, in an order
	// shuffled by the seed (seed 002: each graph is a job); n > 0 draws n
	// jobs' cases uniformly with replacement.
	Jobs int
	// Trace, when not nil, replays a trace (workload.ReadTrace) instead:
	// its arrival times and job ids, each job naming its case by
	// graph_index (an index into the job set's cases, the order of the
	// runs table; a graph name given too must match) or, without one, by
	// graph (the name of a graph with a single case in the set). The
	// trace's sizes, widths and kinds are ignored: cases carry them.
	Trace []workload.Job
}

// MaxJobs bounds ArrivalOptions.Jobs: a trace's tables take a few hundred
// bytes per job and policy, so far longer traces exhaust memory.
const MaxJobs = 1_000_000

// DefaultArrivals returns seed 002's arrivals: Pareto gaps of the default
// shape at 85 % utilisation, every case once, each seed offering exactly
// that load.
func DefaultArrivals() ArrivalOptions {
	return ArrivalOptions{Process: workload.Pareto, Utilisation: workload.DefaultUtilisation, Exact: true}
}

// Instance is one scheduling problem built from a job set: the jobs of one
// seed's trace with their tables.
type Instance struct {
	Problem *sched.Problem
	// Case is the job set case of every job.
	Case []int
	// MeanGap is the target mean inter-arrival gap in cycles (0 for a
	// replayed trace).
	MeanGap float64
	// Offered is the load the trace offers when every job runs at its best
	// tiling (workload.OfferedUtilisation of the reference service).
	Offered float64
	// OfferedRandom is the load it offers when every job runs at a
	// uniformly random tiling of a uniformly random machine, as scenario
	// 1's baselines roughly do: the reason their queues can grow without
	// bound at an 85 % target.
	OfferedRandom float64
}

// Stream ids of the PCG generators seeded by a trace seed.
const (
	jobOrderStream = 0x6a6f626f72646572 // "joborder"
)

// TraceJobs is the number of jobs of every seed's trace under a: the
// replayed trace's, or a.Jobs, or every case once when a.Jobs is 0.
func (js *JobSet) TraceJobs(a ArrivalOptions) int {
	switch {
	case a.Trace != nil:
		return len(a.Trace)
	case a.Jobs == 0:
		return len(js.Cases)
	}
	return a.Jobs
}

// Instance builds the scheduling problem of one trace seed.
func (js *JobSet) Instance(a ArrivalOptions, seed uint64) (*Instance, error) {
	var cases []int
	var ids []int64
	var times []int64
	if a.Trace != nil {
		var err error
		if cases, err = js.traceCases(a.Trace); err != nil {
			return nil, err
		}
		ids = make([]int64, len(a.Trace))
		times = make([]int64, len(a.Trace))
		for k := range a.Trace {
			ids[k], times[k] = a.Trace[k].ID, a.Trace[k].Arrival
		}
	} else {
		if a.Jobs < 0 || a.Jobs > MaxJobs {
			return nil, fmt.Errorf("seed002: %d jobs requested, want 0 to %d", a.Jobs, MaxJobs)
		}
		rng := rand.New(rand.NewPCG(seed, jobOrderStream))
		if a.Jobs == 0 {
			cases = rng.Perm(len(js.Cases))
		} else {
			cases = make([]int, a.Jobs)
			for k := range cases {
				cases[k] = rng.IntN(len(js.Cases))
			}
		}
	}
	n, M := len(cases), len(js.Machines)
	if n == 0 {
		return nil, errors.New("seed002: empty trace")
	}
	truth, err := sched.NewTable(n, js.Machines)
	if err != nil {
		return nil, err
	}
	for j, c := range cases {
		for m := range js.Machines {
			for k := range js.configs[m] {
				truth.Set(j, m, k, js.truth[c*predict.NumConfigs+js.config(m, k)])
			}
		}
	}
	svc, err := sched.ReferenceService(truth)
	if err != nil {
		return nil, err
	}
	inst := &Instance{Case: cases}
	if a.Trace == nil {
		spec := workload.ArrivalSpec{Process: cmp.Or(a.Process, workload.Pareto), Shape: a.Shape, Exact: a.Exact}
		util := cmp.Or(a.Utilisation, workload.DefaultUtilisation)
		if spec.MeanGap, err = workload.MeanGap(svc, M, util); err != nil {
			return nil, fmt.Errorf("seed002: %w", err)
		}
		if times, err = spec.Times(n, seed); err != nil {
			return nil, fmt.Errorf("seed002: %w", err)
		}
		inst.MeanGap = spec.MeanGap
	}
	jobs := make([]workload.Job, n)
	for j, c := range cases {
		s := &js.Cases[c]
		jobs[j] = workload.Job{
			ID: int64(j), Graph: s.Graph.Name, GraphIndex: c,
			Nodes: int64(s.Graph.NumNodes()), Edges: int64(s.Graph.NumEdges()),
			F: s.F, G: s.G, Kind: workload.GCN, Arrival: times[j],
		}
		if ids != nil {
			jobs[j].ID = ids[j]
		}
	}
	var pred sched.Predictor
	if js.pred != nil {
		pred = sched.PredictorFunc(func(job, m, k int) (float64, error) {
			return js.pred[cases[job]*predict.NumConfigs+js.config(m, k)], nil
		})
	}
	if inst.Problem, err = sched.NewProblem(jobs, js.Machines, truth, pred); err != nil {
		return nil, fmt.Errorf("seed002: %w", err)
	}
	inst.Offered = workload.OfferedUtilisation(svc, times, M)
	rnd := make([]int64, n)
	for j := range rnd {
		var sum float64
		for m := range js.Machines {
			var s float64
			for k := range js.configs[m] {
				s += float64(truth.At(j, m, k))
			}
			sum += s / float64(len(js.configs[m]))
		}
		rnd[j] = int64(math.Round(sum / float64(M)))
	}
	inst.OfferedRandom = workload.OfferedUtilisation(rnd, times, M)
	return inst, nil
}

// traceCases maps the jobs of a replayed trace to cases.
func (js *JobSet) traceCases(trace []workload.Job) ([]int, error) {
	cases := make([]int, len(trace))
	for k := range trace {
		j := &trace[k]
		switch {
		case j.GraphIndex >= 0:
			if j.GraphIndex >= len(js.Cases) {
				return nil, fmt.Errorf("seed002: trace job %d: graph_index %d outside the %d cases", j.ID, j.GraphIndex, len(js.Cases))
			}
			if j.Graph != "" && j.Graph != js.Cases[j.GraphIndex].Graph.Name {
				return nil, fmt.Errorf("seed002: trace job %d: graph_index %d is graph %q, not %q", j.ID, j.GraphIndex, js.Cases[j.GraphIndex].Graph.Name, j.Graph)
			}
			cases[k] = j.GraphIndex
		case j.Graph != "":
			c, ok := js.byName[j.Graph]
			if !ok {
				return nil, fmt.Errorf("seed002: trace job %d: no graph named %q in the data set", j.ID, j.Graph)
			}
			if c < 0 {
				return nil, fmt.Errorf("seed002: trace job %d: graph %q has several cases (F, G); name the case by graph_index", j.ID, j.Graph)
			}
			cases[k] = c
		default:
			return nil, fmt.Errorf("seed002: trace job %d names no case (give graph_index or graph)", j.ID)
		}
	}
	return cases, nil
}

// ScheduleOptions configure JobSet.Schedule.
type ScheduleOptions struct {
	Arrivals ArrivalOptions
	// Policies are standard policy names (sched.ByName); nil means the
	// seven of sched.Standard, in its order.
	Policies []string
	// Scenarios to run; nil means both.
	Scenarios []Scenario
	// Seeds of the runs; nil means ScheduleSeeds. Each seed draws
	// its own trace (arrival times and job order) and drives the runs'
	// random choices.
	Seeds []uint64
	// InferenceCycles is charged to predictive policies per job (see
	// sched.Options).
	InferenceCycles int64
	// Workers is the number of seeds run at once; <= 0 means
	// runtime.GOMAXPROCS(0). It never changes the results.
	Workers int
	// KeepRecords keeps every run's per-job records in the result.
	KeepRecords bool
	// Records, when not nil, is handed every run in Runs' order as soon
	// as it and the runs before it have ended, and the run is then
	// dropped (never kept in Results): the job records of any number of
	// runs stream out in bounded memory (issue 38 item 2). An error it
	// returns stops the schedule and is returned as it is.
	Records func(*sched.Result) error
	// Context, when not nil, stops the schedule with its error once it is
	// done (a SIGTERM): no run starts after that, and the runs going stop
	// within a few thousand events.
	Context context.Context
}

// ScheduleResult holds the outcome of JobSet.Schedule.
type ScheduleResult struct {
	// Runs has the metrics of every run: scenario-major, then seed, then
	// policy in the order given.
	Runs []sched.Metrics
	// Mean averages Runs over seeds, per (scenario, policy), same order.
	Mean []sched.Metrics
	// Results holds the runs themselves (with KeepRecords), in Runs' order.
	Results []*sched.Result
	// Instances are the seeds' traces, in Seeds order, without their
	// Problem (a run's Result keeps it): the job tables of every seed
	// are not held to the end.
	Instances []*Instance
	Seeds     []uint64
}

// Schedule runs every policy on every seed's trace in every scenario.
// Scenarios run one after another, each on Workers seeds at a time, so
// memory holds the problems and runs of Workers seeds, whatever the
// number of seeds (each seed's trace is drawn again per scenario: the
// same trace, as it depends on the seed alone).
func (js *JobSet) Schedule(o ScheduleOptions) (*ScheduleResult, error) {
	names := o.Policies
	if names == nil {
		for _, p := range sched.Standard() {
			names = append(names, p.Info().Name)
		}
	}
	if len(names) == 0 {
		return nil, errors.New("seed002: no policies")
	}
	for _, nm := range names {
		p, err := sched.ByName(nm)
		if err != nil {
			return nil, fmt.Errorf("seed002: %w", err)
		}
		if info := p.Info(); (info.Predictive || info.Mapping == sched.MappingPredicted) && js.pred == nil {
			return nil, fmt.Errorf("seed002: policy %s needs a latency predictor (give --models DIR, a predictor trained by gnnsim predict train, or leave SJF-Predicted out of --policies)", info.Name)
		}
	}
	scen := o.Scenarios
	if scen == nil {
		scen = []Scenario{Scenario1, Scenario2}
	}
	seeds := o.Seeds
	if seeds == nil {
		seeds = ScheduleSeeds
	}
	if len(seeds) == 0 || len(scen) == 0 {
		return nil, errors.New("seed002: no seeds or no scenarios")
	}
	r := &ScheduleResult{Instances: make([]*Instance, len(seeds)), Seeds: slices.Clone(seeds)}
	for _, sc := range scen {
		if err := js.scheduleScenario(o, r, sc, names); err != nil {
			return nil, err
		}
	}
	r.Mean = sched.Average(r.Runs)
	return r, nil
}

// scheduleScenario runs scenario sc on every seed of r and appends the
// runs to r in seed, then policy order (handing them to o.Records when
// set). The (seed, policy) runs go to Workers goroutines in that order;
// a seed's problem is built by its first run and dropped after its last,
// a run that ends before those ahead of it waits in a reorder buffer, and
// no run starts 2 x Workers runs ahead of the next to hand on: memory
// holds a few problems and at most 2 x Workers runs, whatever the seeds. Every
// seed runs even when one fails, so that the error names all the failing
// seeds.
func (js *JobSet) scheduleScenario(o ScheduleOptions, r *ScheduleResult, sc Scenario, names []string) error {
	seeds, np := r.Seeds, len(names)
	type seedState struct {
		once sync.Once
		inst *Instance
		left atomic.Int32 // runs of the seed still to end
	}
	state := make([]seedState, len(seeds))
	for k := range state {
		state[k].left.Store(int32(np))
	}
	errs := make([]error, len(seeds))
	var mu sync.Mutex // guards errs, the buffer, next and r
	ahead := sync.NewCond(&mu)
	pending := map[int]*sched.Result{}
	next := 0 // the run to hand on next
	// A run starts only within window runs of next: a slow run does not
	// let the others pile up behind it.
	window := o.Workers
	if window <= 0 {
		window = runtime.GOMAXPROCS(0)
	}
	window *= 2
	var sinkErr error
	emit := func(i int, res *sched.Result) {
		mu.Lock()
		defer mu.Unlock()
		pending[i] = res
		for ; pending[next] != nil || next < len(seeds)*np && errs[next/np] != nil; next++ {
			res := pending[next]
			delete(pending, next)
			if res == nil || sinkErr != nil || errors.Join(errs...) != nil {
				continue // nothing to hand on once a seed failed
			}
			r.Runs = append(r.Runs, res.Metrics())
			switch {
			case o.Records != nil:
				sinkErr = o.Records(res)
			case o.KeepRecords:
				r.Results = append(r.Results, res)
			}
		}
		ahead.Broadcast()
	}
	fail := func(k int, err error) {
		mu.Lock()
		if errs[k] == nil {
			errs[k] = fmt.Errorf("seed %d: %w", seeds[k], err)
		}
		mu.Unlock()
	}
	par.For(len(seeds)*np, o.Workers, func(i int) error {
		mu.Lock()
		for i >= next+window {
			ahead.Wait()
		}
		mu.Unlock()
		k := i / np
		if o.Context != nil && o.Context.Err() != nil {
			fail(k, o.Context.Err()) // hands the seed's runs on unrun
			emit(i, nil)
			return nil
		}
		st := &state[k]
		defer func() {
			if st.left.Add(-1) == 0 {
				st.inst = nil // the seed's last run: drop its problem
			}
		}()
		st.once.Do(func() {
			inst, err := js.Instance(o.Arrivals, seeds[k])
			if err != nil {
				fail(k, err)
				return
			}
			st.inst = inst
			light := *inst
			light.Problem = nil
			r.Instances[k] = &light // distinct k write distinct elements
		})
		if st.inst == nil {
			emit(i, nil)
			return nil
		}
		pol, _ := sched.ByName(names[i%np]) // checked by Schedule; fresh per run
		res, err := sched.Run(st.inst.Problem, pol, sched.Options{Baselines: sc.Baselines(), Seed: seeds[k], InferenceCycles: o.InferenceCycles, Context: o.Context})
		if err != nil {
			fail(k, err)
		}
		emit(i, res)
		return nil
	})
	if sinkErr != nil {
		return sinkErr
	}
	if o.Context != nil && o.Context.Err() != nil {
		return o.Context.Err()
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("seed002: %w", err)
	}
	return nil
}
