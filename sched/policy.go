package sched

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// MappingRule says how a machine with several mappings picks one for a job.
type MappingRule uint8

// The mapping rules. FollowBaselines, the zero value, is only meaningful in
// Info: the policy runs with the run's Options.Baselines rule.
const (
	FollowBaselines  MappingRule = iota // (Info only) the run's rule for baselines
	MappingRandom                       // uniform over the machine's mappings
	MappingOptimal                      // least true latency (not feasible in practice)
	MappingPredicted                    // least predicted latency
)

var mappingNames = [...]string{"baselines", "random", "optimal", "predicted"}

func (r MappingRule) String() string {
	if int(r) < len(mappingNames) {
		return mappingNames[r]
	}
	return fmt.Sprintf("MappingRule(%d)", uint8(r))
}

// Info describes a policy to the harness.
type Info struct {
	Name string
	// Mapping is the policy's own mapping rule; FollowBaselines for a
	// baseline that runs with the run's Options.Baselines rule.
	Mapping MappingRule
	// Predictive policies use predicted latencies: they need a Problem
	// with predictions and pay Options.InferenceCycles per job.
	Predictive bool
	// Oracle policies use true latencies to order or place jobs.
	Oracle bool
	// Holds is set by policies that may leave a free machine idle while
	// jobs are queued (EFT keeps a job for the machine it will finish on
	// first): their Pick may return ok false with jobs queued, and the
	// harness then waits for the next arrival or completion.
	Holds bool
}

// MappingIn returns the mapping rule the policy runs with when baselines
// run with rule baselines.
func (i Info) MappingIn(baselines MappingRule) MappingRule {
	if i.Mapping != FollowBaselines {
		return i.Mapping
	}
	return baselines
}

// Feasible reports whether the policy could run in practice when baselines
// run with rule baselines: it neither knows true latencies nor picks
// optimal mappings (seed 002 marks the others with a diamond).
func (i Info) Feasible(baselines MappingRule) bool {
	return !i.Oracle && i.MappingIn(baselines) != MappingOptimal
}

// Env is what a policy sees of the run.
type Env struct {
	p   *Problem
	rng *rand.Rand
	now func() int64
}

// Problem returns the instance being scheduled.
func (e *Env) Problem() *Problem { return e.p }

// Rand returns the run's seeded generator for the policy's random choices.
func (e *Env) Rand() *rand.Rand { return e.rng }

// Now returns the current cycle.
func (e *Env) Now() int64 { return e.now() }

// AnyMachine returns a free machine chosen uniformly at random: the choice
// of policies without a machine-dependent latency estimate.
func (e *Env) AnyMachine(free []int) int {
	if len(free) == 1 {
		return free[0]
	}
	return free[e.rng.IntN(len(free))]
}

// Policy decides which queued job runs next and on which free machine. The
// harness calls Reset once per run, Enqueue when a job becomes eligible, and
// Pick while a machine is free and at least one job is queued. Users add
// policies by implementing it; a Policy value serves one run at a time.
type Policy interface {
	Info() Info
	// Reset prepares an empty queue for a run on env.
	Reset(env *Env)
	// Enqueue adds job (an index into env.Problem().Jobs()) to the queue.
	Enqueue(job int)
	// Pick removes a queued job from the queue and returns it with one of
	// the free machines (ascending indices, never empty; do not retain
	// it). ok is false only if the queue is empty.
	Pick(free []int) (job, machine int, ok bool)
}

// Standard returns fresh instances of seed 002's seven policies in the
// order of its figures.
func Standard() []Policy {
	return []Policy{Random(), FCFS(), LIFO(), SJFNodes(), SJFEdges(), SJFTruth(), SJFPredicted()}
}

// ByName returns a fresh instance of the standard policy, or EFT, with the
// given name (case-insensitive).
func ByName(name string) (Policy, error) {
	var names []string
	for _, p := range append(Standard(), EFT()) {
		if strings.EqualFold(p.Info().Name, name) {
			return p, nil
		}
		names = append(names, p.Info().Name)
	}
	return nil, fmt.Errorf("sched: unknown policy %q (want one of %s)", name, strings.Join(names, ", "))
}

// Random returns the policy that runs a uniformly random queued job on a
// random free machine.
func Random() Policy { return &randomPolicy{} }

// FCFS returns first come, first served: the earliest-released queued job.
func FCFS() Policy { return &fifoPolicy{} }

// LIFO returns last in, first out: the latest-released queued job.
func LIFO() Policy { return &lifoPolicy{} }

// SJFNodes returns the policy that runs the queued job with the fewest nodes.
func SJFNodes() Policy {
	return &sizePolicy{name: "SJF-Nodes", edges: false}
}

// SJFEdges returns the policy that runs the queued job with the fewest edges.
func SJFEdges() Policy {
	return &sizePolicy{name: "SJF-Edges", edges: true}
}

// SJFTruth returns shortest job first on true latencies with optimal
// mappings: the (job, free machine) pair of least true latency. Not
// feasible in practice.
func SJFTruth() Policy {
	return &pairPolicy{info: Info{Name: "SJF-Truth", Mapping: MappingOptimal, Oracle: true}}
}

// SJFPredicted returns shortest job first on predicted latencies with the
// predicted best mapping: seed 002's method.
func SJFPredicted() Policy {
	return &pairPolicy{info: Info{Name: "SJF-Predicted", Mapping: MappingPredicted, Predictive: true}}
}

type randomPolicy struct {
	env *Env
	q   []int32
}

func (r *randomPolicy) Info() Info     { return Info{Name: "Random"} }
func (r *randomPolicy) Reset(env *Env) { r.env, r.q = env, r.q[:0] }
func (r *randomPolicy) Enqueue(j int)  { r.q = append(r.q, int32(j)) }
func (r *randomPolicy) Pick(free []int) (int, int, bool) {
	if len(r.q) == 0 {
		return 0, 0, false
	}
	i := r.env.rng.IntN(len(r.q))
	j := r.q[i]
	last := len(r.q) - 1
	r.q[i] = r.q[last]
	r.q = r.q[:last]
	return int(j), r.env.AnyMachine(free), true
}

type fifoPolicy struct {
	env  *Env
	q    []int32
	head int
}

func (f *fifoPolicy) Info() Info     { return Info{Name: "FCFS"} }
func (f *fifoPolicy) Reset(env *Env) { f.env, f.q, f.head = env, f.q[:0], 0 }
func (f *fifoPolicy) Enqueue(j int) {
	if f.head > 0 && f.head >= len(f.q)/2 {
		// Slide the live part down so the slice does not grow without bound.
		n := copy(f.q, f.q[f.head:])
		f.q, f.head = f.q[:n], 0
	}
	f.q = append(f.q, int32(j))
}
func (f *fifoPolicy) Pick(free []int) (int, int, bool) {
	if f.head == len(f.q) {
		return 0, 0, false
	}
	j := f.q[f.head]
	f.head++
	return int(j), f.env.AnyMachine(free), true
}

type lifoPolicy struct {
	env *Env
	s   []int32
}

func (l *lifoPolicy) Info() Info     { return Info{Name: "LIFO"} }
func (l *lifoPolicy) Reset(env *Env) { l.env, l.s = env, l.s[:0] }
func (l *lifoPolicy) Enqueue(j int)  { l.s = append(l.s, int32(j)) }
func (l *lifoPolicy) Pick(free []int) (int, int, bool) {
	if len(l.s) == 0 {
		return 0, 0, false
	}
	j := l.s[len(l.s)-1]
	l.s = l.s[:len(l.s)-1]
	return int(j), l.env.AnyMachine(free), true
}

// sizePolicy orders jobs by a machine-independent size.
type sizePolicy struct {
	name  string
	edges bool
	env   *Env
	h     minHeap
	seq   int64
}

func (s *sizePolicy) Info() Info     { return Info{Name: s.name} }
func (s *sizePolicy) Reset(env *Env) { s.env, s.h, s.seq = env, s.h[:0], 0 }
func (s *sizePolicy) Enqueue(j int) {
	job := &s.env.p.jobs[j]
	key := job.Nodes
	if s.edges {
		key = job.Edges
	}
	s.h.push(item{key: float64(key), seq: s.seq, job: int32(j)})
	s.seq++
}
func (s *sizePolicy) Pick(free []int) (int, int, bool) {
	if len(s.h) == 0 {
		return 0, 0, false
	}
	it := s.h.pop()
	return int(it.job), s.env.AnyMachine(free), true
}

// pairPolicy is shortest job first over (job, machine) pairs. Each machine
// keeps a heap of the queued jobs keyed by their estimated latency on it;
// a dispatched job stays in the other heaps until it reaches their top and
// is discarded there (lazy deletion), so Enqueue costs M heap pushes and
// Pick looks only at the tops of the free machines' heaps.
type pairPolicy struct {
	info  Info
	env   *Env
	heaps []minHeap
	gone  []bool // per job: already picked
	seq   int64
}

func (s *pairPolicy) Info() Info { return s.info }

func (s *pairPolicy) Reset(env *Env) {
	s.env, s.seq = env, 0
	M, n := len(env.p.machines), len(env.p.jobs)
	if len(s.heaps) != M {
		s.heaps = make([]minHeap, M)
	}
	for m := range s.heaps {
		s.heaps[m] = s.heaps[m][:0]
	}
	if cap(s.gone) < n {
		s.gone = make([]bool, n)
	}
	s.gone = s.gone[:n]
	clear(s.gone)
}

func (s *pairPolicy) Enqueue(j int) {
	p := s.env.p
	M := len(p.machines)
	for m := range s.heaps {
		var key float64
		if s.info.Predictive {
			key = p.bestPred[j*M+m]
		} else {
			key = float64(p.bestTruth[j*M+m])
		}
		s.heaps[m].push(item{key: key, seq: s.seq, job: int32(j)})
	}
	s.seq++
}

func (s *pairPolicy) Pick(free []int) (int, int, bool) {
	bm := -1
	var best item
	for _, m := range free {
		h := &s.heaps[m]
		for len(*h) > 0 && s.gone[(*h)[0].job] {
			h.pop()
		}
		if len(*h) == 0 {
			continue
		}
		// free is ascending, so a strict comparison leaves ties to the
		// lower machine index.
		if top := (*h)[0]; bm < 0 || top.less(best) {
			bm, best = m, top
		}
	}
	if bm < 0 {
		return 0, 0, false
	}
	s.heaps[bm].pop()
	s.gone[best.job] = true
	return int(best.job), bm, true
}
