package sched

import (
	"cmp"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"gnnsim/workload"
)

// checkSchedule asserts the invariants every run must satisfy.
func checkSchedule(t *testing.T, res *Result, charge int64) {
	t.Helper()
	p := res.Problem
	M := len(p.machines)
	name := fmt.Sprintf("%s/s%d/seed%d", res.Policy.Name, res.Baselines, res.Seed)
	if len(res.Records) != len(p.jobs) {
		t.Fatalf("%s: %d records for %d jobs", name, len(res.Records), len(p.jobs))
	}
	perMachine := make([][]Record, M)
	busy := make([]int64, M)
	for j, rec := range res.Records {
		job := p.jobs[j]
		if rec.Job != j || rec.Arrival != job.Arrival {
			t.Fatalf("%s: record %d is for job %d arriving %d", name, j, rec.Job, rec.Arrival)
		}
		if rec.Start < rec.Arrival+charge {
			t.Fatalf("%s: job %d starts at %d before it is eligible at %d", name, j, rec.Start, rec.Arrival+charge)
		}
		if rec.Finish <= rec.Start || rec.Finish-rec.Start != rec.TrueCycles {
			t.Fatalf("%s: job %d runs [%d, %d) for %d cycles", name, j, rec.Start, rec.Finish, rec.TrueCycles)
		}
		if rec.Machine < 0 || rec.Machine >= M || rec.Mapping < 0 || rec.Mapping >= len(p.machines[rec.Machine].Mappings) {
			t.Fatalf("%s: job %d on machine %d mapping %d", name, j, rec.Machine, rec.Mapping)
		}
		if rec.TrueCycles != p.TrueCycles(j, rec.Machine, rec.Mapping) {
			t.Fatalf("%s: job %d latency %d is not the table's", name, j, rec.TrueCycles)
		}
		switch res.Mapping {
		case MappingOptimal:
			if _, bt := p.BestTrue(j, rec.Machine); bt != rec.Mapping {
				t.Fatalf("%s: job %d ran mapping %d, optimal is %d", name, j, rec.Mapping, bt)
			}
		case MappingPredicted:
			if _, bt := p.BestPredicted(j, rec.Machine); bt != rec.Mapping {
				t.Fatalf("%s: job %d ran mapping %d, predicted best is %d", name, j, rec.Mapping, bt)
			}
		}
		perMachine[rec.Machine] = append(perMachine[rec.Machine], rec)
		busy[rec.Machine] += rec.TrueCycles
	}
	// One job at a time per machine; each job exactly once (records are
	// indexed by job, and the per-machine lists partition them).
	total := 0
	for m, recs := range perMachine {
		slices.SortFunc(recs, func(a, b Record) int { return cmp.Compare(a.Start, b.Start) })
		for k := 1; k < len(recs); k++ {
			if recs[k].Start < recs[k-1].Finish {
				t.Fatalf("%s: machine %d runs jobs %d and %d at once", name, m, recs[k-1].Job, recs[k].Job)
			}
		}
		total += len(recs)
		if busy[m] != res.Busy[m] {
			t.Fatalf("%s: machine %d busy %d, records say %d", name, m, res.Busy[m], busy[m])
		}
	}
	if total != len(p.jobs) {
		t.Fatalf("%s: %d jobs ran, want %d", name, total, len(p.jobs))
	}
	// Work conservation: while a job waits after becoming eligible, every
	// machine is busy.
	for j, rec := range res.Records {
		from, to := rec.Arrival+charge, rec.Start
		if from >= to {
			continue
		}
		for m, recs := range perMachine {
			at := from
			i, _ := slices.BinarySearchFunc(recs, from, func(r Record, x int64) int {
				if r.Finish <= x {
					return -1
				}
				return 1
			})
			for ; i < len(recs) && at < to; i++ {
				if recs[i].Start > at {
					break
				}
				at = recs[i].Finish
			}
			if at < to {
				t.Fatalf("%s: job %d waits in [%d, %d) while machine %d is idle at %d", name, j, from, to, m, at)
			}
		}
	}
}

func TestScheduleInvariants(t *testing.T) {
	for _, tc := range []struct {
		n        int
		mappings []int
		util     float64
	}{
		{300, []int{8, 8, 8}, 0.85},
		{300, []int{8, 1, 3}, 1.3}, // overloaded, mixed fixed/flexible machines
		{200, []int{4}, 0.6},
		{50, []int{8, 8}, 0}, // everything at cycle 0
	} {
		in := randomInstance(t, tc.n, tc.mappings, tc.util, 0.3, 7)
		// Simultaneous arrivals in the middle of the trace too.
		for j := 10; j < 20 && j < tc.n; j++ {
			in.jobs[j].Arrival = in.jobs[10].Arrival
		}
		p := in.problem(t, true)
		for _, sc := range []MappingRule{MappingRandom, MappingOptimal} {
			for _, charge := range []int64{0, 2312} {
				for seed := uint64(1); seed <= 3; seed++ {
					for _, pol := range Standard() {
						res, err := Run(p, pol, Options{Baselines: sc, Seed: seed, InferenceCycles: charge})
						if err != nil {
							t.Fatal(err)
						}
						c := int64(0)
						if res.Policy.Predictive {
							c = charge
						}
						checkSchedule(t, res, c)
						if res.Policy.Name == "SJF-Truth" || res.Policy.Name == "SJF-Predicted" {
							checkSJFOrder(t, res, c)
						}
					}
				}
			}
		}
	}
}

// SJF over (job, machine) pairs: the first pick of a dispatch goes to the
// pair of least estimate, so with two free machines the job that is fastest
// somewhere goes there, even if another machine would take it too.
func TestSJFPairChoice(t *testing.T) {
	tab, _ := NewTable(2, machines(1, 1))
	tab.Set(0, 0, 0, 10) // A: 10 on m0, 1 on m1
	tab.Set(0, 1, 0, 1)
	tab.Set(1, 0, 0, 20) // B: 20 on m0, 30 on m1
	tab.Set(1, 1, 0, 30)
	jobs := []workload.Job{
		{ID: 0, GraphIndex: -1, Nodes: 2, Edges: 1, F: 1, G: 1, Kind: workload.GCN},
		{ID: 1, GraphIndex: -1, Nodes: 2, Edges: 1, F: 1, G: 1, Kind: workload.GCN},
	}
	ms := machines(1, 1)
	p, err := NewProblem(jobs, ms, tab, tab)
	if err != nil {
		t.Fatal(err)
	}
	for _, pol := range []Policy{SJFTruth(), SJFPredicted()} {
		res, err := Run(p, pol, Options{Baselines: MappingRandom})
		if err != nil {
			t.Fatal(err)
		}
		if a, b := res.Records[0], res.Records[1]; a.Machine != 1 || b.Machine != 0 || a.Finish != 1 || b.Finish != 20 {
			t.Errorf("%s: A on %d finishing %d, B on %d finishing %d; want A on 1 at 1, B on 0 at 20",
				pol.Info().Name, a.Machine, a.Finish, b.Machine, b.Finish)
		}
	}
}

// checkSJFOrder asserts the SJF rule on every machine: when job j starts on
// machine m at t, no job k still queued after that cycle's dispatch had a
// smaller estimate on m (ties go to the earlier release).
func checkSJFOrder(t *testing.T, res *Result, charge int64) {
	t.Helper()
	p := res.Problem
	est := func(j, m int) float64 {
		if res.Policy.Predictive {
			c, _ := p.BestPredicted(j, m)
			return c
		}
		c, _ := p.BestTrue(j, m)
		return float64(c)
	}
	rank := make([]int, len(p.jobs))
	for r, j := range p.order {
		rank[j] = r
	}
	for j, rj := range res.Records {
		for k, rk := range res.Records {
			if rk.Arrival+charge > rj.Start || rk.Start <= rj.Start {
				continue // k not queued at j's dispatch, or dispatched no later
			}
			ej, ek := est(j, rj.Machine), est(k, rj.Machine)
			if ek < ej || (ek == ej && rank[k] < rank[j]) {
				t.Fatalf("%s: job %d (est %v) started on machine %d at %d while job %d (est %v) waited",
					res.Policy.Name, j, ej, rj.Machine, rj.Start, k, ek)
			}
		}
	}
}

// heapPermute calls visit with every permutation of a (Heap's algorithm).
func heapPermute(a []int, visit func([]int)) {
	c := make([]int, len(a))
	visit(a)
	for i := 0; i < len(a); {
		if c[i] < i {
			if i%2 == 0 {
				a[0], a[i] = a[i], a[0]
			} else {
				a[c[i]], a[i] = a[i], a[c[i]]
			}
			visit(a)
			c[i]++
			i = 0
		} else {
			c[i] = 0
			i++
		}
	}
}

// With one machine and every job released at cycle 0, SJF-Truth must reach
// the least possible total (hence mean) completion time: compare with all
// 8! orders, each job at its optimal mapping.
func TestSJFTruthOptimalOnOneMachine(t *testing.T) {
	worse := 0
	for inst := uint64(1); inst <= 12; inst++ {
		in := randomInstance(t, 8, []int{8}, 0, 0.3, inst)
		p := in.problem(t, true)
		best := int64(math.MaxInt64)
		lat := make([]int64, 8)
		for j := range lat {
			lat[j], _ = p.BestTrue(j, 0)
		}
		heapPermute([]int{0, 1, 2, 3, 4, 5, 6, 7}, func(order []int) {
			var now, sum int64
			for _, j := range order {
				now += lat[j]
				sum += now
			}
			best = min(best, sum)
		})
		sum := func(pol Policy) int64 {
			res, err := Run(p, pol, Options{Baselines: MappingOptimal, Seed: inst})
			if err != nil {
				t.Fatal(err)
			}
			var s int64
			for _, r := range res.Records {
				s += r.Finish
			}
			return s
		}
		if got := sum(SJFTruth()); got != best {
			t.Errorf("instance %d: SJF-Truth total completion %d, brute force %d", inst, got, best)
		}
		// The brute force is a real bar: an order-blind policy misses it.
		if sum(Random()) > best {
			worse++
		}
	}
	if worse == 0 {
		t.Error("Random matched the optimum on every instance: the test instances are too easy")
	}
}

func TestDeterminism(t *testing.T) {
	in := randomInstance(t, 400, []int{8, 8, 8}, 0.85, 0.3, 3)
	p := in.problem(t, true)
	for _, sc := range []MappingRule{MappingRandom, MappingOptimal} {
		a, err := RunAll(p, Standard(), Options{Baselines: sc, InferenceCycles: 100}, []uint64{1, 2})
		if err != nil {
			t.Fatal(err)
		}
		b, err := RunAll(p, Standard(), Options{Baselines: sc, InferenceCycles: 100}, []uint64{1, 2})
		if err != nil {
			t.Fatal(err)
		}
		for i := range a {
			if !reflect.DeepEqual(a[i].Records, b[i].Records) || !reflect.DeepEqual(a[i].Metrics(), b[i].Metrics()) {
				t.Errorf("baselines %v, %s seed %d: runs differ", sc, a[i].Policy.Name, a[i].Seed)
			}
		}
		// Seed 1 vs seed 2 of the Random policy must differ.
		if reflect.DeepEqual(a[0].Records, a[7].Records) {
			t.Errorf("baselines %v: Random gave the same schedule for two seeds", sc)
		}
	}
}

// A perfect predictor makes SJF-Predicted schedule exactly like SJF-Truth.
func TestPerfectPredictorEqualsTruth(t *testing.T) {
	in := randomInstance(t, 500, []int{8, 8, 8}, 0.9, 0, 5)
	p, err := NewProblem(in.jobs, in.machines, in.truth, in.truth)
	if err != nil {
		t.Fatal(err)
	}
	a, err := Run(p, SJFTruth(), Options{Baselines: MappingRandom, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Run(p, SJFPredicted(), Options{Baselines: MappingRandom, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for j := range a.Records {
		ra, rb := a.Records[j], b.Records[j]
		if ra.Start != rb.Start || ra.Machine != rb.Machine || ra.Mapping != rb.Mapping {
			t.Fatalf("job %d: truth %+v, predicted %+v", j, ra, rb)
		}
	}
}

// Hand-built queue: a long job occupies the only machine while four jobs
// arrive; each policy must take them in its order.
func TestPolicyOrder(t *testing.T) {
	sizes := []struct{ v, e, lat int64 }{
		{100, 100, 1000}, // blocker, arrives first
		{50, 10, 40},
		{10, 40, 30},
		{30, 20, 10},
		{20, 30, 20},
	}
	jobs := make([]workload.Job, len(sizes))
	tab, _ := NewTable(len(sizes), machines(1))
	for j, s := range sizes {
		jobs[j] = workload.Job{ID: int64(j), GraphIndex: -1, Nodes: s.v, Edges: s.e, F: 1, G: 1, Kind: workload.GCN, Arrival: int64(j)}
		tab.Set(j, 0, 0, s.lat)
	}
	p, err := NewProblem(jobs, machines(1), tab, tab)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]int{
		"FCFS":          {0, 1, 2, 3, 4},
		"LIFO":          {0, 4, 3, 2, 1},
		"SJF-Nodes":     {0, 2, 4, 3, 1},
		"SJF-Edges":     {0, 1, 3, 4, 2},
		"SJF-Truth":     {0, 3, 4, 2, 1},
		"SJF-Predicted": {0, 3, 4, 2, 1},
	}
	for _, pol := range Standard() {
		res, err := Run(p, pol, Options{Baselines: MappingRandom})
		if err != nil {
			t.Fatal(err)
		}
		order := make([]int, len(jobs))
		for j := range order {
			order[j] = j
		}
		slices.SortFunc(order, func(a, b int) int { return cmp.Compare(res.Records[a].Start, res.Records[b].Start) })
		if w, ok := want[pol.Info().Name]; ok && !slices.Equal(order, w) {
			t.Errorf("%s ran %v, want %v", pol.Info().Name, order, w)
		}
	}
}

// Random baselines get the pre-drawn random mapping (the same for every
// baseline), optimal ones the optimal mapping.
func TestBaselineMappings(t *testing.T) {
	in := randomInstance(t, 300, []int{8, 8, 8}, 0.85, 0.3, 11)
	p := in.problem(t, true)
	draws := drawMappings(p, 4)
	nonOptimal := 0
	for _, pol := range []Policy{Random(), FCFS(), LIFO(), SJFNodes(), SJFEdges()} {
		r1, err := Run(p, pol, Options{Baselines: MappingRandom, Seed: 4})
		if err != nil {
			t.Fatal(err)
		}
		r2, err := Run(p, pol, Options{Baselines: MappingOptimal, Seed: 4})
		if err != nil {
			t.Fatal(err)
		}
		if r1.Mapping != MappingRandom || r2.Mapping != MappingOptimal {
			t.Fatalf("%s: mapping rules %v, %v", pol.Info().Name, r1.Mapping, r2.Mapping)
		}
		for j, rec := range r1.Records {
			if rec.Mapping != int(draws[j*3+rec.Machine]) {
				t.Fatalf("%s: job %d mapping %d, drawn %d", pol.Info().Name, j, rec.Mapping, draws[j*3+rec.Machine])
			}
			if _, bt := p.BestTrue(j, rec.Machine); bt != rec.Mapping {
				nonOptimal++
			}
		}
		checkSchedule(t, r2, 0) // checks optimal mappings
	}
	if nonOptimal == 0 {
		t.Error("random mappings were always optimal")
	}
	for _, sc := range []MappingRule{MappingRandom, MappingOptimal} {
		if SJFTruth().Info().MappingIn(sc) != MappingOptimal || SJFPredicted().Info().MappingIn(sc) != MappingPredicted {
			t.Errorf("baselines %v: SJF mapping rules wrong", sc)
		}
		for _, pol := range Standard() {
			want := pol.Info().Name == "SJF-Predicted" || (sc == MappingRandom && pol.Info().Name != "SJF-Truth")
			if got := pol.Info().Feasible(sc); got != want {
				t.Errorf("baselines %v: %s feasible = %v, want %v", sc, pol.Info().Name, got, want)
			}
		}
	}
}

// Predictor inference time: a lone job of a predictive policy starts
// exactly InferenceCycles after it arrives; baselines are not charged.
func TestInferenceCharge(t *testing.T) {
	tab, _ := NewTable(1, machines(1))
	tab.Set(0, 0, 0, 500)
	jobs := []workload.Job{{ID: 1, GraphIndex: -1, Nodes: 3, Edges: 2, F: 1, G: 1, Kind: workload.GIN, Arrival: 1000}}
	p, err := NewProblem(jobs, machines(1), tab, tab)
	if err != nil {
		t.Fatal(err)
	}
	for _, pol := range Standard() {
		res, err := Run(p, pol, Options{Baselines: MappingRandom, InferenceCycles: 2312})
		if err != nil {
			t.Fatal(err)
		}
		want := int64(1000)
		if pol.Info().Predictive {
			want += 2312
		}
		if r := res.Records[0]; r.Start != want || r.Finish != want+500 {
			t.Errorf("%s: job runs [%d, %d), want start %d", pol.Info().Name, r.Start, r.Finish, want)
		}
	}
}

// On homogeneous machines (one latency per job, same everywhere) the
// measured utilisation must equal the load the trace offers, and with an
// exactly calibrated Pareto trace both must come out at the 85 % target:
// the calibration of workload and the accounting here agree.
func TestRealisedUtilisation(t *testing.T) {
	n := 100000
	if testing.Short() {
		n = 20000
	}
	const M = 3
	ms := machines(1, 1, 1)
	tab, _ := NewTable(n, ms)
	jobs := make([]workload.Job, n)
	in := randomInstance(t, 2000, []int{1}, 0, 0, 1)
	for j := range jobs {
		jobs[j] = in.jobs[j%len(in.jobs)]
		jobs[j].ID = int64(j)
		for m := range M {
			tab.Set(j, m, 0, in.truth.At(j%len(in.jobs), 0, 0))
		}
	}
	svc, err := ReferenceService(tab)
	if err != nil {
		t.Fatal(err)
	}
	gap, err := workload.MeanGap(svc, M, workload.DefaultUtilisation)
	if err != nil {
		t.Fatal(err)
	}
	for _, exact := range []bool{false, true} {
		times, err := workload.ArrivalSpec{Process: workload.Pareto, MeanGap: gap, Exact: exact}.Times(n, 1)
		if err != nil {
			t.Fatal(err)
		}
		workload.SetArrivals(jobs, times)
		p, err := NewProblem(jobs, ms, tab, nil)
		if err != nil {
			t.Fatal(err)
		}
		res, err := Run(p, FCFS(), Options{Baselines: MappingOptimal, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		m := res.Metrics()
		var mean float64
		for _, u := range m.Utilisation {
			mean += u / M
		}
		offered := workload.OfferedUtilisation(svc, times, M)
		t.Logf("exact=%v: offered %.4f, measured mean machine utilisation %.4f (%.4f)", exact, offered, mean, m.Utilisation)
		// Busy time is exactly the offered work; the makespan exceeds the
		// last arrival only by the final drain.
		if math.Abs(mean-offered) > 0.01*offered {
			t.Errorf("exact=%v: measured utilisation %.4f, offered %.4f", exact, mean, offered)
		}
		if exact && math.Abs(mean-workload.DefaultUtilisation) > 0.01 {
			t.Errorf("exact trace: measured utilisation %.4f, want 0.85", mean)
		}
	}
}

// badPolicy misbehaves in a chosen way; the harness must report it.
type badPolicy struct {
	mode string
	q    []int
}

func (b *badPolicy) Info() Info     { return Info{Name: "bad-" + b.mode} }
func (b *badPolicy) Reset(env *Env) { b.q = nil }
func (b *badPolicy) Enqueue(j int)  { b.q = append(b.q, j) }
func (b *badPolicy) Pick(free []int) (int, int, bool) {
	switch b.mode {
	case "empty":
		return 0, 0, false
	case "ghost":
		return 99, free[0], true
	case "busy":
		j := b.q[0]
		b.q = b.q[1:]
		return j, 0, true // machine 0 even when it is busy
	}
	return 0, 0, false
}

func TestRunErrors(t *testing.T) {
	in := randomInstance(t, 20, []int{2, 2}, 0, 0, 1)
	p := in.problem(t, false)
	cases := []struct {
		pol  Policy
		opt  Options
		want string
	}{
		{FCFS(), Options{Baselines: 0}, "baselines' mapping rule baselines"},
		{SJFPredicted(), Options{Baselines: MappingRandom}, "needs predictions"},
		{FCFS(), Options{Baselines: MappingRandom, InferenceCycles: -1}, "inference cycles"},
		{&badPolicy{mode: "empty"}, Options{Baselines: MappingRandom}, "returned no job"},
		{&badPolicy{mode: "ghost"}, Options{Baselines: MappingRandom}, "picked job 99"},
		{&badPolicy{mode: "busy"}, Options{Baselines: MappingRandom}, "picked machine 0, which is not free"},
	}
	for _, c := range cases {
		_, err := Run(p, c.pol, c.opt)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", c.pol.Info().Name, err, c.want)
		}
	}
}

func TestNewProblemErrors(t *testing.T) {
	in := randomInstance(t, 4, []int{2, 2}, 0, 0, 1)
	zero, _ := NewTable(4, in.machines)
	small, _ := NewTable(3, in.machines)
	nan := PredictorFunc(func(j, m, t int) (float64, error) { return math.NaN(), nil })
	fail := PredictorFunc(func(j, m, t int) (float64, error) { return 0, fmt.Errorf("model missing") })
	badJobs := slices.Clone(in.jobs)
	badJobs[2].F = 0
	cases := []struct {
		name     string
		jobs     []workload.Job
		machines []Machine
		truth    *Table
		pred     Predictor
		want     string
	}{
		{"no jobs", nil, in.machines, in.truth, nil, "no jobs"},
		{"no machines", in.jobs, nil, in.truth, nil, "no machines"},
		{"nil table", in.jobs, in.machines, nil, nil, "nil truth"},
		{"table size", in.jobs, in.machines, small, nil, "truth table is 3 jobs"},
		{"invalid job", badJobs, in.machines, in.truth, nil, "f = 0"},
		{"zero latency", in.jobs, in.machines, zero, nil, "is 0 cycles"},
		{"no mappings", in.jobs, []Machine{{Mappings: []string{"a", "b"}}, {}}, in.truth, nil, "has no mappings"},
		{"mapping count", in.jobs, machines(2, 3), in.truth, nil, "has 3 mappings, the truth table 2"},
		{"mapping twice", in.jobs, []Machine{{Mappings: []string{"a", "b"}}, {Mappings: []string{"c", "c"}}}, in.truth, nil, "listed twice"},
		{"NaN prediction", in.jobs, in.machines, in.truth, nan, "is NaN"},
		{"predictor error", in.jobs, in.machines, in.truth, fail, "model missing"},
	}
	for _, c := range cases {
		_, err := NewProblem(c.jobs, c.machines, c.truth, c.pred)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", c.name, err, c.want)
		}
	}
	huge, _ := NewTable(2, machines(1))
	huge.Set(0, 0, 0, math.MaxInt64/2)
	huge.Set(1, 0, 0, math.MaxInt64/2)
	jobs := in.jobs[:2]
	if _, err := NewProblem(jobs, machines(1), huge, nil); err == nil || !strings.Contains(err.Error(), "overflow") {
		t.Errorf("overflow: %v", err)
	}
	if _, err := NewTable(0, machines(1)); err == nil {
		t.Error("empty table accepted")
	}
	if _, err := NewTable(1<<30, machines(8, 8, 8, 8, 8, 8, 8, 8)); err == nil {
		t.Error("huge table accepted")
	}
	if _, err := NewTable(1, []Machine{{Name: "x"}}); err == nil || !strings.Contains(err.Error(), "no mappings") {
		t.Errorf("machine without mappings: %v", err)
	}
	if _, err := ByName("sjf-truth"); err != nil {
		t.Error(err)
	}
	if _, err := ByName("EDF"); err == nil {
		t.Error("unknown policy accepted")
	}
}
