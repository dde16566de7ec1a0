package sched

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"gnnsim/sim"
	"gnnsim/soc"
	"gnnsim/workload"
)

// JobClass is a kind of job of a SharedProblem: one model, run with one
// mapping rule, with its contention-free steps on every machine.
type JobClass struct {
	Name string // e.g. "vig-s" or "vig-s/split:dla"
	// Alias is another name a trace may give the class: the model as the
	// user wrote it (a model file's path where Name is the file's name:
	// field); "" for none.
	Alias string
	// Nodes and Edges are the model's input size (graph nodes and edges,
	// ViG patches and their k-NN edges, CNN pixels and 0): the sizes
	// SJF-Nodes and SJF-Edges order by.
	Nodes, Edges int64
	// Steps[m] is the job's run when dispatched on machine m: the steps of
	// one frame (soc.Evaluator.Steps), each holding a unit of the SoC and
	// sending its bytes through the shared memory.
	Steps [][]soc.Step
}

// AlonePS returns the class's contention-free latency on machine m: the
// sum of its steps' times there.
func (c *JobClass) AlonePS(m int) int64 {
	var sum int64
	for _, st := range c.Steps[m] {
		sum += st.PS
	}
	return sum
}

// SharedJob is one inference of a SharedProblem, released at Arrival (ps).
type SharedJob struct {
	ID      int64
	Arrival int64
	Class   int // index into the problem's classes
}

// SharedProblem is a scheduling instance on the units of one SoC that run
// concurrently and share one memory: machines are units (each runs one job
// at a time), a job's steps may also hold other units (a DLA's GPU
// fallback, a split mapping's offloaded segments), and every step's memory
// traffic goes through one sim.Channel. Times are in ps. Its Problem,
// with one mapping per machine and each job's contention-free latency as
// the Table, is what policies see.
type SharedProblem struct {
	*Problem
	classes []JobClass
	class   []int32 // per job
	alone   []int64 // per (class, machine): the sum of the steps' PS
	units   int
	channel sim.Channel
	eff     float64 // the memory's mixed efficiency (SetMixedEfficiency)
}

// SetMixedEfficiency sets the fraction of the channel's rate a stream
// moves at while it waits behind another unit's (soc.SoC.MixedEfficiency;
// 1, the default, for none): the memory's arbitration is soc.SendShared,
// the rule soc.SoC.CoRun contends by.
func (sp *SharedProblem) SetMixedEfficiency(eff float64) error {
	if !(eff > 0 && eff <= 1) {
		return fmt.Errorf("sched: mixed efficiency %v, want in (0, 1]", eff)
	}
	sp.eff = eff
	return nil
}

// NewSharedProblem validates and builds a shared-memory instance.
// machines names the machines (the classes' Steps are in this order),
// units is the number of SoC units the steps may hold, channel the shared
// memory (idle; time in ps). Every class must have a non-empty run of
// positive total time on every machine; jobs need unique IDs, arrivals >=
// 0 and a valid class.
func NewSharedProblem(classes []JobClass, jobs []SharedJob, machines []string, units int, channel sim.Channel) (*SharedProblem, error) {
	M := len(machines)
	switch {
	case len(classes) == 0:
		return nil, errors.New("sched: no job classes")
	case len(jobs) == 0:
		return nil, errors.New("sched: no jobs")
	case M == 0:
		return nil, errors.New("sched: no machines")
	case units <= 0:
		return nil, fmt.Errorf("sched: %d units, want > 0", units)
	case !(channel.BytesPerCycle() > 0):
		return nil, errors.New("sched: the shared memory channel is not set up (sim.NewChannel)")
	case len(jobs) > math.MaxInt32:
		return nil, fmt.Errorf("sched: %d jobs exceed the int32 job index", len(jobs))
	}
	sp := &SharedProblem{classes: classes, class: make([]int32, len(jobs)), alone: make([]int64, len(classes)*M), units: units, eff: 1}
	sp.channel = channel
	sp.channel.Reset()
	for c, cl := range classes {
		if len(cl.Steps) != M {
			return nil, fmt.Errorf("sched: class %d (%s) has runs for %d machines, want %d", c, cl.Name, len(cl.Steps), M)
		}
		if cl.Nodes < 0 || cl.Edges < 0 {
			return nil, fmt.Errorf("sched: class %d (%s): %d nodes, %d edges, want >= 0", c, cl.Name, cl.Nodes, cl.Edges)
		}
		for m, steps := range cl.Steps {
			var sum int64
			for k, st := range steps {
				switch {
				case st.Unit < 0 || st.Unit >= units:
					return nil, fmt.Errorf("sched: class %s on %s: step %d holds unit %d of %d", cl.Name, machines[m], k, st.Unit, units)
				case st.PS < 0 || st.Bytes < 0 || st.DelayPS < 0 || st.DelayPS > st.PS:
					return nil, fmt.Errorf("sched: class %s on %s: step %d has %d ps, %d bytes, delay %d ps", cl.Name, machines[m], k, st.PS, st.Bytes, st.DelayPS)
				case sum > math.MaxInt64/4-st.PS:
					return nil, fmt.Errorf("sched: class %s on %s: run time overflows the clock", cl.Name, machines[m])
				}
				sum += st.PS
			}
			if sum <= 0 {
				return nil, fmt.Errorf("sched: class %s on %s: run of %d ps, want > 0", cl.Name, machines[m], sum)
			}
			sp.alone[c*M+m] = sum
		}
	}
	wjobs := make([]workload.Job, len(jobs))
	ms := make([]Machine, M)
	for m, name := range machines {
		ms[m] = Machine{Name: name, Mappings: []string{name}}
	}
	truth, err := NewTable(len(jobs), ms)
	if err != nil {
		return nil, err
	}
	seen := make(map[int64]int, len(jobs))
	for i, j := range jobs {
		switch {
		case j.Class < 0 || j.Class >= len(classes):
			return nil, fmt.Errorf("sched: job %d: class %d of %d", j.ID, j.Class, len(classes))
		case j.Arrival < 0:
			return nil, fmt.Errorf("sched: job %d: arrival %d ps, want >= 0", j.ID, j.Arrival)
		}
		if k, dup := seen[j.ID]; dup {
			return nil, fmt.Errorf("sched: job id %d used twice (jobs %d and %d)", j.ID, k, i)
		}
		seen[j.ID] = i
		cl := &classes[j.Class]
		sp.class[i] = int32(j.Class)
		wjobs[i] = workload.Job{ID: j.ID, Graph: cl.Name, GraphIndex: -1, Nodes: cl.Nodes, Edges: cl.Edges, Arrival: j.Arrival}
		for m := range M {
			truth.Set(i, m, 0, sp.alone[j.Class*M+m])
		}
	}
	if sp.Problem, err = newProblem(wjobs, ms, truth, nil); err != nil {
		return nil, err
	}
	return sp, nil
}

// Classes returns the job classes (do not modify).
func (sp *SharedProblem) Classes() []JobClass { return sp.classes }

// Class returns the class of job i.
func (sp *SharedProblem) Class(i int) int { return int(sp.class[i]) }

// AlonePS returns the contention-free latency of class c on machine m.
func (sp *SharedProblem) AlonePS(c, m int) int64 { return sp.alone[c*len(sp.machines)+m] }

// RunShared simulates policy on sp: jobs are dispatched to machines as in
// Run, then run step by step. A step waits for its unit when another
// job's step holds it (each unit serves waiting steps first come, first
// served), and its memory traffic waits for the shared channel as in
// soc.Evaluator.Pipeline: a compute phase is delayed by the time its bytes
// wait for the channel, a transfer ends when its bytes have arrived.
// Record.TrueCycles is the job's contention-free latency on its machine
// (ps), Finish - Start what it took. Policies that only know the Table
// (SJF-Truth, EFT) are counted feasible: it holds profiles, not the
// contended times; and with one mapping per machine every mapping rule
// is the same, so none is an oracle's optimal mapping.
func RunShared(sp *SharedProblem, policy Policy, opt Options) (*Result, error) {
	p := sp.Problem
	info := policy.Info()
	if opt.InferenceCycles != 0 {
		return nil, errors.New("sched: a shared problem has no predictor to charge for")
	}
	if info.Predictive {
		return nil, fmt.Errorf("sched: policy %s needs predictions; a shared problem has none", info.Name)
	}
	info.Oracle, info.Mapping = false, FollowBaselines
	// One mapping per machine: the mapping rules coincide. The run is
	// labelled random (seed 002's scenario 1), under which a baseline
	// counts as feasible.
	opt.Baselines = MappingRandom
	n, M := len(p.jobs), len(p.machines)
	r := &sharedRunner{
		sp: sp, policy: policy, s: sim.New(), ch: sp.channel, last: -1,
		state: make([]uint8, n), free: make([]int, M), scratch: make([]int, 0, M),
		job: make([]int32, M), step: make([]int32, M), stepStart: make([]int64, M),
		held: make([]bool, sp.units), wait: make([]ring, sp.units),
		res: &Result{
			Problem: p, Policy: info, Baselines: opt.Baselines, Seed: opt.Seed, Mapping: MappingRandom,
			Records: make([]Record, n), Busy: make([]int64, M),
		},
	}
	for m := range M {
		r.free[m], r.job[m] = m, -1
	}
	for u := range r.wait {
		r.wait[u].buf = make([]int32, M)
	}
	r.env = Env{p: p, rng: rand.New(rand.NewPCG(opt.Seed, policyStream)), now: r.s.Now}
	r.arriveFn, r.dispatchFn = r.arrive, r.dispatch
	r.grantFns, r.requestFns, r.endFns = make([]func(), M), make([]func(), M), make([]func(), M)
	for m := range M {
		r.grantFns[m] = func() { r.grant(m) }
		r.requestFns[m] = func() { r.request(m) }
		r.endFns[m] = func() { r.end(m) }
	}
	policy.Reset(&r.env)
	r.s.At(p.jobs[p.order[0]].Arrival, prioEvent, r.arriveFn)
	if err := runSim(r.s, opt.Context); err != nil {
		return nil, err
	}
	return r.res.complete(r.err, r.done, r.s.Events())
}

// ring is a FIFO of machines whose current step waits for a unit: at most
// one entry per machine.
type ring struct {
	buf        []int32
	head, size int
}

func (q *ring) push(m int32) {
	q.buf[(q.head+q.size)%len(q.buf)] = m
	q.size++
}

func (q *ring) pop() int32 {
	m := q.buf[q.head]
	q.head = (q.head + 1) % len(q.buf)
	q.size--
	return m
}

type sharedRunner struct {
	sp     *SharedProblem
	policy Policy
	s      *sim.Sim
	env    Env
	ch     sim.Channel
	last   int // the unit of the latest channel request (-1: none)

	state   []uint8
	free    []int
	scratch []int
	queued  int
	next    int
	done    int
	pending bool
	err     error
	res     *Result

	// Per machine: the running job (-1: free), its current step and when
	// that step got its unit.
	job       []int32
	step      []int32
	stepStart []int64
	// Per unit: whether a step holds it, and the machines waiting for it.
	held []bool
	wait []ring

	arriveFn, dispatchFn         func()
	grantFns, requestFns, endFns []func()
}

func (r *sharedRunner) arrive() {
	p := r.sp.Problem
	j := p.order[r.next]
	r.next++
	r.state[j] = stateQueued
	r.queued++
	r.res.Records[j].Arrival = p.jobs[j].Arrival
	r.policy.Enqueue(int(j))
	r.wake()
	if r.next < len(p.order) {
		r.s.At(p.jobs[p.order[r.next]].Arrival, prioEvent, r.arriveFn)
	}
}

func (r *sharedRunner) wake() {
	if !r.pending && len(r.free) > 0 && r.queued > 0 {
		r.pending = true
		r.s.At(r.s.Now(), prioDispatch, r.dispatchFn)
	}
}

func (r *sharedRunner) dispatch() {
	r.pending = false
	M := len(r.job)
	for r.err == nil && len(r.free) > 0 && r.queued > 0 {
		var j, m int
		var ok bool
		j, m, ok, r.err = pickChecked(r.policy, r.res.Policy, &r.free, &r.scratch, r.state, r.queued, r.job)
		if !ok {
			return
		}
		r.queued--
		r.job[m], r.step[m] = int32(j), 0
		rec := &r.res.Records[j]
		rec.Job, rec.Start, rec.Machine, rec.Mapping = j, r.s.Now(), m, 0
		rec.TrueCycles = r.sp.alone[int(r.sp.class[j])*M+m]
		rec.PredictedCycles = math.NaN()
		r.begin(m)
	}
}

// steps returns the run of machine m's job.
func (r *sharedRunner) steps(m int) []soc.Step {
	return r.sp.classes[r.sp.class[r.job[m]]].Steps[m]
}

// begin starts machine m's current step, or finishes its job.
func (r *sharedRunner) begin(m int) {
	steps := r.steps(m)
	k := int(r.step[m])
	if k == len(steps) {
		r.finish(m)
		return
	}
	u := steps[k].Unit
	if r.held[u] {
		r.wait[u].push(int32(m))
		return
	}
	r.held[u] = true
	r.grant(m)
}

// grant runs machine m's current step on its unit, which it now holds.
func (r *sharedRunner) grant(m int) {
	st := &r.steps(m)[r.step[m]]
	now := r.s.Now()
	r.stepStart[m] = now
	switch {
	case st.Transfer && st.Bytes > 0:
		r.s.At(now+st.DelayPS, prioEvent, r.requestFns[m])
	case st.Bytes > 0:
		tr, _ := soc.SendShared(&r.ch, now, st.Bytes, st.Unit, &r.last, r.sp.eff)
		r.s.At(now+st.PS+(tr.Grant-now), prioEvent, r.endFns[m])
	default:
		r.s.At(now+st.PS, prioEvent, r.endFns[m])
	}
}

// request sends a transfer's bytes: the step ends when they have arrived,
// and no earlier than its contention-free time.
func (r *sharedRunner) request(m int) {
	st := &r.steps(m)[r.step[m]]
	tr, _ := soc.SendShared(&r.ch, r.s.Now(), st.Bytes, st.Unit, &r.last, r.sp.eff)
	r.s.At(max(r.stepStart[m]+st.PS, tr.Last), prioEvent, r.endFns[m])
}

// end releases the step's unit to the next waiting step and moves machine
// m's job on.
func (r *sharedRunner) end(m int) {
	u := r.steps(m)[r.step[m]].Unit
	if r.wait[u].size > 0 {
		r.grant(int(r.wait[u].pop()))
	} else {
		r.held[u] = false
	}
	r.step[m]++
	r.begin(m)
}

func (r *sharedRunner) finish(m int) {
	j := r.job[m]
	now := r.s.Now()
	rec := &r.res.Records[j]
	rec.Finish = now
	r.res.Busy[m] += now - rec.Start
	r.job[m] = -1
	r.done++
	r.free = addFree(r.free, m)
	r.wake()
}
