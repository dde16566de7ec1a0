package sched

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"gnnsim/sim"
)

// Options configures one run.
type Options struct {
	// Baselines is the mapping rule of the policies that have none of
	// their own (Info.Mapping is FollowBaselines): MappingRandom,
	// MappingOptimal or MappingPredicted. Seed 002's scenarios are two
	// settings of it.
	Baselines MappingRule
	Seed      uint64
	// InferenceCycles delays every job of a Predictive policy by the time
	// to predict its latencies (see the package documentation). 0 disables.
	InferenceCycles int64
	// Context, when not nil, stops the run with its error once it is done
	// (a SIGTERM), checked every cancelEvents events: a run of a million
	// jobs takes seconds.
	Context context.Context
}

// cancelEvents is how many events a run handles between looks at its
// Context.
const cancelEvents = 1 << 14

// runSim runs s until no event is pending, or until ctx (when not nil) is
// done: a run that completes is kept.
func runSim(s *sim.Sim, ctx context.Context) error {
	if ctx == nil {
		s.Run()
		return nil
	}
	for n := 0; s.Step(); n++ {
		if n%cancelEvents == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
	}
	return nil
}

// PCG stream ids: one per use of the run seed, so that e.g. the Random
// policy's draws do not shift the random mappings. The mapping stream's id
// spells "tiling", its name when mappings were seed 002's tilings: runs
// keep their random draws.
const (
	policyStream  = 0x706f6c6963790000 // "policy"
	mappingStream = 0x74696c696e670000 // "tiling"
)

// Sim event priorities: arrivals and completions at a cycle run before the
// dispatch of that cycle.
const (
	prioEvent    = 0
	prioDispatch = 1
)

// Record is what happened to one job in a run. Times are cycles from the
// trace origin.
type Record struct {
	Job     int   // index into Problem.Jobs
	Arrival int64 // release time
	Start   int64 // dispatch time
	Finish  int64 // Start + TrueCycles
	Machine int   // index into Problem.Machines
	Mapping int   // index into the machine's Mappings: what it ran
	// TrueCycles is the latency actually incurred, from the truth table.
	TrueCycles int64
	// PredictedCycles is the predicted latency of the same (machine,
	// mapping), whatever the policy; NaN without predictions.
	PredictedCycles float64
}

// Result is the outcome of one run.
type Result struct {
	Problem   *Problem
	Policy    Info
	Baselines MappingRule // the run's rule for baselines (Options.Baselines)
	Seed      uint64
	Mapping   MappingRule // the rule the policy ran with
	Records   []Record    // indexed by job
	Busy      []int64     // busy cycles per machine
	Events    uint64      // sim events executed
}

// Run simulates policy on p and returns one record per job. It fails if the
// policy needs predictions the problem lacks or misbehaves (returns a job
// that is not queued or a machine that is not free).
func Run(p *Problem, policy Policy, opt Options) (*Result, error) {
	info := policy.Info()
	if opt.Baselines < MappingRandom || opt.Baselines > MappingPredicted {
		return nil, fmt.Errorf("sched: baselines' mapping rule %v, want random, optimal or predicted", opt.Baselines)
	}
	rule := info.MappingIn(opt.Baselines)
	if rule < MappingRandom || rule > MappingPredicted {
		return nil, fmt.Errorf("sched: policy %s: invalid mapping rule %v", info.Name, rule)
	}
	if (info.Predictive || rule == MappingPredicted) && !p.HasPredictions() {
		return nil, fmt.Errorf("sched: policy %s needs predictions; build the problem with a Predictor", info.Name)
	}
	if opt.InferenceCycles < 0 {
		return nil, fmt.Errorf("sched: inference cycles = %d, want >= 0", opt.InferenceCycles)
	}
	charge := int64(0)
	if info.Predictive {
		charge = opt.InferenceCycles
	}
	if charge > math.MaxInt64/2-p.latestFinishUB {
		return nil, errors.New("sched: inference charge overflows the clock")
	}

	n, M := len(p.jobs), len(p.machines)
	r := &runner{
		p:       p,
		policy:  policy,
		s:       sim.New(),
		rule:    rule,
		charge:  charge,
		state:   make([]uint8, n),
		free:    make([]int, M),
		scratch: make([]int, 0, M),
		running: make([]int32, M),
		res: &Result{
			Problem: p, Policy: info, Baselines: opt.Baselines, Seed: opt.Seed, Mapping: rule,
			Records: make([]Record, n),
			Busy:    make([]int64, M),
		},
	}
	for m := range r.free {
		r.free[m] = m
		r.running[m] = -1
	}
	if rule == MappingRandom {
		r.randMapping = drawMappings(p, opt.Seed)
	}
	r.env = Env{p: p, rng: rand.New(rand.NewPCG(opt.Seed, policyStream)), now: r.s.Now}
	r.arriveFn = r.arrive
	r.dispatchFn = r.dispatch
	r.finishFns = make([]func(), M)
	for m := range r.finishFns {
		r.finishFns[m] = func() { r.finish(m) }
	}

	policy.Reset(&r.env)
	r.s.At(r.eligible(p.order[0]), prioEvent, r.arriveFn)
	if err := runSim(r.s, opt.Context); err != nil {
		return nil, err
	}
	return r.res.complete(r.err, r.done, r.s.Events())
}

// complete ends a run: its error, or a check that every job ran.
func (res *Result) complete(err error, done int, events uint64) (*Result, error) {
	if err != nil {
		return nil, err
	}
	if n := len(res.Records); done != n {
		return nil, fmt.Errorf("sched: policy %s: %d of %d jobs never ran", res.Policy.Name, n-done, n)
	}
	res.Events = events
	return res, nil
}

// drawMappings draws the random mapping of every (job, machine) pair, in
// job order, from the seed's mapping stream. A machine with one mapping
// draws nothing.
func drawMappings(p *Problem, seed uint64) []int32 {
	rng := rand.New(rand.NewPCG(seed, mappingStream))
	M := len(p.machines)
	out := make([]int32, len(p.jobs)*M)
	for j := range p.jobs {
		for m := range p.machines {
			if n := len(p.machines[m].Mappings); n > 1 {
				out[j*M+m] = int32(rng.IntN(n))
			}
		}
	}
	return out
}

const (
	stateWaiting uint8 = iota // not yet eligible
	stateQueued
	stateDone // dispatched
)

type runner struct {
	p           *Problem
	policy      Policy
	s           *sim.Sim
	env         Env
	rule        MappingRule
	charge      int64
	randMapping []int32

	state   []uint8
	free    []int // free machines, ascending
	scratch []int // copy of free handed to Pick
	running []int32
	queued  int
	next    int // next position in p.order to release
	done    int
	pending bool // a dispatch event is scheduled
	err     error
	res     *Result

	arriveFn, dispatchFn func()
	finishFns            []func()
}

func (r *runner) eligible(j int32) int64 { return r.p.jobs[j].Arrival + r.charge }

// arrive releases the next job and schedules the one after it, so the event
// queue holds one pending arrival rather than the whole trace.
func (r *runner) arrive() {
	if r.err != nil {
		return
	}
	j := r.p.order[r.next]
	r.next++
	r.state[j] = stateQueued
	r.queued++
	r.res.Records[j].Arrival = r.p.jobs[j].Arrival
	r.policy.Enqueue(int(j))
	r.wake()
	if r.next < len(r.p.order) {
		r.s.At(r.eligible(r.p.order[r.next]), prioEvent, r.arriveFn)
	}
}

func (r *runner) wake() {
	if !r.pending && len(r.free) > 0 {
		r.pending = true
		r.s.At(r.s.Now(), prioDispatch, r.dispatchFn)
	}
}

func (r *runner) dispatch() {
	r.pending = false
	M := len(r.p.machines)
	for r.err == nil && len(r.free) > 0 && r.queued > 0 {
		var j, m int
		var ok bool
		j, m, ok, r.err = pickChecked(r.policy, r.res.Policy, &r.free, &r.scratch, r.state, r.queued, r.running)
		if !ok {
			return
		}
		r.queued--
		r.running[m] = int32(j)

		var k int
		switch r.rule {
		case MappingRandom:
			k = int(r.randMapping[j*M+m])
		case MappingOptimal:
			_, k = r.p.BestTrue(j, m)
		case MappingPredicted:
			_, k = r.p.BestPredicted(j, m)
		}
		lat := r.p.truth.At(j, m, k)
		now := r.s.Now()
		rec := &r.res.Records[j]
		rec.Job, rec.Start, rec.Finish = j, now, now+lat
		rec.Machine, rec.Mapping, rec.TrueCycles = m, k, lat
		rec.PredictedCycles = r.p.PredictedCycles(j, m, k)
		r.res.Busy[m] += lat
		r.s.At(now+lat, prioEvent, r.finishFns[m])
	}
}

func (r *runner) finish(m int) {
	r.running[m] = -1
	r.done++
	r.free = addFree(r.free, m)
	if r.queued > 0 {
		r.wake()
	}
}

// pickChecked asks policy for a (queued job, free machine) pair, checks it
// against the run's state (running[m] >= 0: machine m is busy), marks the
// job dispatched and takes the machine out of *free. ok is false when the
// policy holds its jobs (Info.Holds) or misbehaves (then err says how).
func pickChecked(policy Policy, info Info, free, scratch *[]int, state []uint8, queued int, running []int32) (j, m int, ok bool, err error) {
	*scratch = append((*scratch)[:0], *free...)
	j, m, ok = policy.Pick(*scratch)
	switch {
	case !ok && info.Holds:
		return 0, 0, false, nil // the policy keeps its jobs for busy machines
	case !ok:
		return 0, 0, false, fmt.Errorf("sched: policy %s returned no job with %d queued", info.Name, queued)
	case j < 0 || j >= len(state) || state[j] != stateQueued:
		return 0, 0, false, fmt.Errorf("sched: policy %s picked job %d, which is not queued", info.Name, j)
	case m < 0 || m >= len(running) || running[m] >= 0:
		return 0, 0, false, fmt.Errorf("sched: policy %s picked machine %d, which is not free", info.Name, m)
	}
	state[j] = stateDone
	for k, f := range *free {
		if f == m {
			*free = append((*free)[:k], (*free)[k+1:]...)
			break
		}
	}
	return j, m, true, nil
}

// addFree inserts machine m into free, keeping it ascending (M is small).
func addFree(free []int, m int) []int {
	k := len(free)
	free = append(free, m)
	for k > 0 && free[k-1] > m {
		free[k] = free[k-1]
		k--
	}
	free[k] = m
	return free
}

// RunAll runs every policy for every seed with opt (opt.Seed is ignored) and returns the results seed-major, policies in order.
func RunAll(p *Problem, policies []Policy, opt Options, seeds []uint64) ([]*Result, error) {
	out := make([]*Result, 0, len(policies)*len(seeds))
	for _, seed := range seeds {
		for _, pol := range policies {
			o := opt
			o.Seed = seed
			res, err := Run(p, pol, o)
			if err != nil {
				return nil, err
			}
			out = append(out, res)
		}
	}
	return out, nil
}
