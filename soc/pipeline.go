package soc

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"gnnsim/hw"
	"gnnsim/sim"
)

// PipelineOptions configure a pipelined run.
type PipelineOptions struct {
	// Frames is the number of frames streamed through the mapping (>= 1).
	Frames int
	// InFlight bounds the frames in the SoC at once; 0 means one per unit
	// the mapping uses, so that every unit can work on a different frame.
	InFlight int
	// IntervalPS is the gap between frame arrivals (a camera's frame
	// period); 0 means frames queue up from the start and enter as soon as
	// InFlight allows.
	IntervalPS int64
}

// PipelineResult is what a pipelined run measured. Times are in ps.
type PipelineResult struct {
	Frames     int
	InFlight   int
	MakespanPS int64 // from the first arrival to the last completion
	// Latency of a frame runs from its entry into the SoC (its arrival, or
	// later when InFlight frames are already in) to its completion.
	LatencyP50PS, LatencyP99PS, LatencyMaxPS int64
	LatencyMeanPS                            float64
	// BusyPS and Utilization are per unit (SoC order): the time it held
	// work (memory stalls included) and that time over the makespan.
	BusyPS      []int64
	Utilization []float64
	// MemoryStallPS is the time work waited for the shared memory, summed
	// over all steps; MemoryBusyPS the time the memory channel was sending.
	MemoryStallPS int64
	MemoryBusyPS  int64
	// EnergyPJ is Frames times the energy of one frame (stalls draw
	// nothing extra).
	EnergyPJ float64
	Events   uint64
}

// ThroughputFPS returns frames per second, 0 for a zero makespan.
func (r PipelineResult) ThroughputFPS() float64 {
	if r.MakespanPS == 0 {
		return 0
	}
	return float64(r.Frames) / (float64(r.MakespanPS) * 1e-12)
}

// Pipeline streams opt.Frames frames of the model through mapping m at
// setting set on the sim kernel. Every frame runs the same steps: the
// compute phases of its segments and the transfers between units (Eq. 6-7's
// tau_in and tau_out). Each unit works on one step at a time, so frames in
// flight overlap on different units; every step's shared-memory traffic
// (a compute phase's DRAM bytes, a transfer's feature map) goes through one
// sim.Channel. A compute phase is delayed by the time its traffic waits for
// the channel; a transfer ends when its bytes have arrived.
//
// Every unit and the channel serve the steps of all frames in one fixed
// order: that of the periodic plan in which frame f enters at f*T/W and
// runs its steps back to back, T being the frame's Eq. 6-7 latency at the
// highest operating points and W the frames in flight, or at f*I when the
// frames arrive I > T/W apart: the order a deployment fixes when it builds
// its per-unit work queues. (Planning at f*T/W whatever the arrivals made a
// unit hold frame 0's late steps for frame 1's first one, which had not yet
// arrived: every frame then waited about (W-1) intervals.) A unit waits
// for the next step of that order even when a later one is ready. With a
// fixed order the run is a max-plus system, so a step getting shorter (a
// higher clock, more memory bandwidth) never makes any frame later; serving
// whatever is ready instead is open to Graham's scheduling anomalies.
//
// With one frame nothing contends and the latency equals EvaluateAt's
// exactly.
func (e *Evaluator) Pipeline(m Mapping, set Setting, opt PipelineOptions) (PipelineResult, error) {
	if opt.Frames < 1 || opt.Frames > 1e7 {
		return PipelineResult{}, fmt.Errorf("soc: pipeline: %d frames, want 1..1e7", opt.Frames)
	}
	if opt.InFlight < 0 || opt.IntervalPS < 0 {
		return PipelineResult{}, fmt.Errorf("soc: pipeline: in-flight %d, interval %d ps, want >= 0", opt.InFlight, opt.IntervalPS)
	}
	if opt.IntervalPS > 0 && int64(opt.Frames-1) > hw.MaxTimePS/opt.IntervalPS {
		return PipelineResult{}, fmt.Errorf("soc: pipeline: %d frames %.3g ms apart arrive over %.3g s, beyond the %.3g s the ps clock holds: fewer frames or a shorter interval",
			opt.Frames, float64(opt.IntervalPS)*1e-9, float64(opt.Frames-1)*float64(opt.IntervalPS)*1e-12, float64(hw.MaxTimePS)*1e-12)
	}
	var one Result
	if err := e.EvaluateAt(&one, m, set); err != nil {
		return PipelineResult{}, err
	}
	steps, err := e.steps(m, set)
	if err != nil {
		return PipelineResult{}, err
	}
	ref, err := e.steps(m, e.soc.top())
	if err != nil || len(ref) != len(steps) {
		ref = steps // a unit that cannot run at its top point: plan at set
	}
	p := &pipe{s: sim.New(), opt: opt, steps: steps, nu: e.nu}
	if p.opt.InFlight == 0 {
		used := map[int]bool{}
		for _, st := range steps {
			used[st.unit] = true
		}
		p.opt.InFlight = max(1, len(used))
	}
	p.plan(ref)
	env := e.soc.env(set)
	if p.ch, err = sim.NewChannel(env.BytesPerSec*1e-12, env.LatencyPS, e.soc.mem.BurstBytes); err != nil {
		return PipelineResult{}, fmt.Errorf("soc: pipeline: %w", err)
	}
	p.run()
	if p.done != opt.Frames {
		return PipelineResult{}, errors.New("soc: pipeline: run ended with frames unfinished")
	}
	r := p.result(one)
	if err := hw.CheckCount("soc: pipeline makespan (ps)", r.MakespanPS, "fewer frames or a shorter interval"); err != nil {
		return PipelineResult{}, err
	}
	return r, nil
}

// top returns the setting with every unit and the memory at its highest
// point.
func (s *SoC) top() Setting {
	set, _ := s.Setting(nil)
	return set
}

// steps returns the steps of one frame under m at set.
func (e *Evaluator) steps(m Mapping, set Setting) ([]step, error) {
	if err := e.checkMapping(m); err != nil {
		return nil, err
	}
	t, err := e.table(set)
	if err != nil {
		return nil, err
	}
	var steps []step
	nu := e.nu
	start := 0 // of the run of segments planned as one (EvaluateAt)
	addComp := func(from, to int) error {
		c, _, _, _, _, err := e.comp(t, from, to, m.Units[to])
		steps = append(steps, c...)
		return err
	}
	for i, u := range m.Units {
		j := i*nu + u
		if err := t.err[j]; err != nil {
			return nil, err
		}
		if i > 0 && e.continues(t, m, i) {
			continue
		}
		if i > 0 {
			if err := addComp(start, i-1); err != nil {
				return nil, err
			}
			start = i
			if q := j - nu + m.Units[i-1] - u; t.last[q] != t.first[j] {
				steps = append(steps, t.out[q], t.in[j])
			}
		} else if t.entry[j].ps > 0 {
			steps = append(steps, t.entry[j])
		}
	}
	if err := addComp(start, len(m.Units)-1); err != nil {
		return nil, err
	}
	return steps, nil
}

// pipe is one pipelined run on the sim kernel.
type pipe struct {
	s     *sim.Sim
	ch    sim.Channel
	steps []step
	opt   PipelineOptions
	nu    int

	// The plan: step k of frame f has key f*period + offset[k]; every
	// sequencer serves its steps in key order.
	period  float64
	offset  []float64
	engines []sequencer
	memory  sequencer
	slotAt  []queue // per step: frames waiting for their unit, oldest first
	memAt   []queue // per step: frames waiting to send their bytes

	next     int // next frame to admit
	done     int
	entered  []int64
	finished []int64
	stall    int64
	busy     []sim.TimeWeighted
	free     []*slot
}

// slot carries one frame in flight through the steps; slots are reused, so
// that the run allocates nothing per step.
type slot struct {
	p              *pipe
	frame, k       int
	start          int64 // when the current step got its unit
	begin, onGrant func()
	onReq, onDone  func()
}

// sequencer hands out (frame, step) pairs over a set of steps in key
// order: steps of one frame in order, each step's frames in order. It keeps
// the next pair of each of its steps in a min-heap by key.
type sequencer struct {
	heap []planned
	held bool // the unit is running a step
}

// planned is a (frame, step) pair and its key.
type planned struct {
	key      float64
	frame, k int
}

func (a planned) before(b planned) bool {
	if a.key != b.key {
		return a.key < b.key
	}
	if a.frame != b.frame {
		return a.frame < b.frame
	}
	return a.k < b.k
}

// peek returns the next pair, and false when all frames are served.
func (q *sequencer) peek() (planned, bool) {
	if len(q.heap) == 0 {
		return planned{}, false
	}
	return q.heap[0], true
}

// advance serves the next pair: its step moves on to the next frame.
func (q *sequencer) advance(p *pipe) {
	top := q.heap[0]
	if f := top.frame + 1; f < p.opt.Frames {
		q.heap[0] = planned{key: float64(f)*p.period + p.offset[top.k], frame: f, k: top.k}
	} else {
		last := len(q.heap) - 1
		q.heap[0] = q.heap[last]
		q.heap = q.heap[:last]
	}
	h := q.heap
	for i := 0; ; {
		l, m := 2*i+1, i
		if l < len(h) && h[l].before(h[m]) {
			m = l
		}
		if r := l + 1; r < len(h) && h[r].before(h[m]) {
			m = r
		}
		if m == i {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}

// push adds step k, first served for frame 0.
func (q *sequencer) push(k int, key float64) {
	q.heap = append(q.heap, planned{key: key, k: k})
	h := q.heap
	for i := len(h) - 1; i > 0; {
		par := (i - 1) / 2
		if !h[i].before(h[par]) {
			break
		}
		h[i], h[par] = h[par], h[i]
		i = par
	}
}

// queue is a FIFO of the frames waiting at one step: at most InFlight.
type queue struct {
	buf        []*slot
	head, size int
}

func (q *queue) push(sl *slot) {
	q.buf[(q.head+q.size)%len(q.buf)] = sl
	q.size++
}

// front returns the oldest waiting frame, or nil.
func (q *queue) front() *slot {
	if q.size == 0 {
		return nil
	}
	return q.buf[q.head]
}

func (q *queue) pop() {
	q.buf[q.head] = nil
	q.head = (q.head + 1) % len(q.buf)
	q.size--
}

// plan sets the keys from the reference steps and builds the sequencers.
func (p *pipe) plan(ref []step) {
	p.offset = make([]float64, len(ref))
	var t float64
	for k, st := range ref {
		p.offset[k] = t
		t += float64(st.ps)
	}
	// Frames enter the plan no faster than they arrive.
	p.period = max(t/float64(p.opt.InFlight), float64(p.opt.IntervalPS))
	p.engines = make([]sequencer, p.nu)
	w := min(p.opt.InFlight, p.opt.Frames)
	bufs := make([]*slot, 2*w*len(p.steps))
	p.slotAt = make([]queue, len(p.steps))
	p.memAt = make([]queue, len(p.steps))
	for k, st := range p.steps {
		p.engines[st.unit].push(k, p.offset[k])
		p.slotAt[k].buf, bufs = bufs[:w:w], bufs[w:]
		if st.bytes > 0 {
			p.memory.push(k, p.offset[k])
			p.memAt[k].buf, bufs = bufs[:w:w], bufs[w:]
		}
	}
	p.busy = make([]sim.TimeWeighted, p.nu)
}

func (p *pipe) run() {
	p.entered = make([]int64, p.opt.Frames)
	p.finished = make([]int64, p.opt.Frames)
	for range min(p.opt.InFlight, p.opt.Frames) {
		sl := &slot{p: p}
		sl.begin, sl.onGrant, sl.onReq, sl.onDone = sl.step, sl.grant, sl.request, sl.finish
		p.free = append(p.free, sl)
	}
	p.admit()
	p.s.Run()
}

// admit lets frames in while slots are free, at their arrival times.
func (p *pipe) admit() {
	for len(p.free) > 0 && p.next < p.opt.Frames {
		sl := p.free[len(p.free)-1]
		p.free = p.free[:len(p.free)-1]
		sl.frame, sl.k = p.next, 0
		p.next++
		arrive := int64(sl.frame) * p.opt.IntervalPS // Pipeline checked it fits
		at := max(arrive, p.s.Now())
		p.entered[sl.frame] = at
		p.s.At(at, 0, sl.begin)
	}
}

// step queues the frame for the unit of its current step, or completes it.
func (sl *slot) step() {
	p := sl.p
	if sl.k == len(p.steps) {
		p.finished[sl.frame] = p.s.Now()
		p.done++
		p.free = append(p.free, sl)
		p.admit()
		return
	}
	p.slotAt[sl.k].push(sl)
	p.dispatch(p.steps[sl.k].unit)
}

// dispatch gives unit u to the next step of its order if that step's frame
// is waiting and the unit is free.
func (p *pipe) dispatch(u int) {
	q := &p.engines[u]
	if q.held {
		return
	}
	next, ok := q.peek()
	if !ok {
		return
	}
	sl := p.slotAt[next.k].front()
	if sl == nil || sl.frame != next.frame {
		return // the unit waits for the planned step
	}
	p.slotAt[next.k].pop()
	q.advance(p)
	q.held = true
	p.busy[u].Set(p.s.Now(), 1)
	p.s.After(0, 0, sl.onGrant)
}

// grant runs when the step's unit is held.
func (sl *slot) grant() {
	p := sl.p
	st := &p.steps[sl.k]
	sl.start = p.s.Now()
	switch {
	case st.xfer:
		p.s.After(st.delayPS, 0, sl.onReq)
	case st.bytes > 0:
		sl.request()
	default:
		p.s.At(hw.SatAdd(sl.start, st.ps), 0, sl.onDone)
	}
}

// request queues the step's bytes for the channel.
func (sl *slot) request() {
	p := sl.p
	p.memAt[sl.k].push(sl)
	p.send()
}

// send issues channel requests in plan order for as long as the next one
// is waiting.
func (p *pipe) send() {
	for {
		next, ok := p.memory.peek()
		if !ok {
			return
		}
		k := next.k
		sl := p.memAt[k].front()
		if sl == nil || sl.frame != next.frame {
			return
		}
		p.memAt[k].pop()
		p.memory.advance(p)
		now := p.s.Now()
		st := &p.steps[k]
		tr := p.ch.Request(now, st.bytes)
		end := hw.SatAdd(sl.start, st.ps)
		if st.xfer {
			if tr.Last > end {
				p.stall = hw.SatAdd(p.stall, tr.Last-end)
				end = tr.Last
			}
		} else if wait := tr.Grant - sl.start; wait > 0 {
			p.stall = hw.SatAdd(p.stall, wait)
			end = hw.SatAdd(end, wait)
		}
		p.s.At(end, 0, sl.onDone)
	}
}

// finish releases the unit and moves to the next step.
func (sl *slot) finish() {
	p := sl.p
	u := p.steps[sl.k].unit
	p.engines[u].held = false
	p.busy[u].Set(p.s.Now(), 0)
	sl.k++
	p.dispatch(u)
	sl.step()
}

func (p *pipe) result(one Result) PipelineResult {
	n := p.opt.Frames
	r := PipelineResult{Frames: n, InFlight: p.opt.InFlight, MemoryStallPS: p.stall, MemoryBusyPS: p.ch.BusyCycles(),
		EnergyPJ: float64(n) * one.EnergyPJ, Events: p.s.Events(), BusyPS: make([]int64, p.nu), Utilization: make([]float64, p.nu)}
	lat := make([]int64, n)
	var sum float64
	for f := range n {
		lat[f] = p.finished[f] - p.entered[f]
		sum += float64(lat[f])
		r.MakespanPS = max(r.MakespanPS, p.finished[f])
	}
	slices.Sort(lat)
	rank := func(q float64) int64 { return lat[max(0, int(math.Ceil(q*float64(n)))-1)] }
	r.LatencyP50PS, r.LatencyP99PS, r.LatencyMaxPS = rank(0.5), rank(0.99), lat[n-1]
	r.LatencyMeanPS = sum / float64(n)
	for u := range p.busy {
		r.BusyPS[u] = p.busy[u].Integral(p.s.Now())
		if r.MakespanPS > 0 {
			r.Utilization[u] = float64(r.BusyPS[u]) / float64(r.MakespanPS)
		}
	}
	return r
}
