package soc

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"gnnsim/hw"
	"gnnsim/sim"
	"gnnsim/workload"
)

// CoRunner is one network of a co-run: a model's evaluator on the SoC and
// its mapping.
type CoRunner struct {
	Eval    *Evaluator
	Mapping Mapping
}

// NewCoRunner returns model mapped onto s by text, which is
//
//   - a unit ("gpu", "dla", a DSA's name, or a unique prefix): the whole
//     model on it, by blocks;
//   - one unit per segment, comma-separated, as SoC.ParseMapping reads it:
//     by blocks, or by layers when it names as many units as the model has
//     layers;
//   - "A>B@K": the model's first K layers (its layer order) on unit A, the
//     rest on unit B, 0 <= K <= the number of layers.
func (s *SoC) NewCoRunner(model workload.Model, text string) (CoRunner, error) {
	text = strings.TrimSpace(text)
	if a, rest, split := strings.Cut(text, ">"); split {
		b, ks, ok := strings.Cut(rest, "@")
		if !ok {
			return CoRunner{}, fmt.Errorf("soc: mapping %q: want A>B@K (K: the layers on A)", text)
		}
		ua, err := s.UnitIndex(strings.TrimSpace(a))
		if err != nil {
			return CoRunner{}, fmt.Errorf("soc: mapping %q: %w", text, err)
		}
		ub, err := s.UnitIndex(strings.TrimSpace(b))
		if err != nil {
			return CoRunner{}, fmt.Errorf("soc: mapping %q: %w", text, err)
		}
		e, err := NewEvaluator(s, model, Layers)
		if err != nil {
			return CoRunner{}, err
		}
		n := len(e.Segments())
		k, err := strconv.Atoi(strings.TrimSpace(ks))
		if err != nil || k < 0 || k > n {
			return CoRunner{}, fmt.Errorf("soc: mapping %q: K = %q, want an integer in 0..%d (%s has %d layers)", text, ks, n, model.Name, n)
		}
		m := Mapping{Granularity: Layers, Units: make([]int, n)}
		for i := range m.Units {
			m.Units[i] = ub
			if i < k {
				m.Units[i] = ua
			}
		}
		return CoRunner{Eval: e, Mapping: m}, nil
	}
	e, err := NewEvaluator(s, model, Blocks)
	if err != nil {
		return CoRunner{}, err
	}
	nb := len(e.Segments())
	m, err := s.ParseMapping(text, Blocks, nb)
	if err == nil {
		return CoRunner{Eval: e, Mapping: m}, nil
	}
	el, lerr := NewEvaluator(s, model, Layers)
	if lerr != nil {
		return CoRunner{}, err
	}
	nl := len(el.Segments())
	if ml, lerr := s.ParseMapping(text, Layers, nl); lerr == nil {
		return CoRunner{Eval: el, Mapping: ml}, nil
	}
	return CoRunner{}, fmt.Errorf("soc: mapping %q for %s: %w (one unit, %d units for its blocks, %d for its layers, or A>B@K)", text, model.Name, err, nb, nl)
}

// CoRunOptions bound a co-run. Zero fields take their defaults.
type CoRunOptions struct {
	// Warmup frames of each run are left out of its mean (default 2).
	Warmup int
	// MinFrames is the least number of measured frames of every run
	// (default 8; the steadiness test still has to pass).
	MinFrames int
	// MaxFrames caps the co-run: once some run has this many measured
	// frames and every run MinFrames, it stops even if not steady
	// (default 400).
	MaxFrames int
	// Tolerance is the steadiness test: the means of the first and the
	// second half of every run's measured frames differ by at most this
	// fraction (default 0.005).
	Tolerance float64
}

func (o *CoRunOptions) defaults() error {
	if o.Warmup < 0 || o.MinFrames < 0 || o.MaxFrames < 0 || !(o.Tolerance >= 0) || math.IsInf(o.Tolerance, 0) {
		return fmt.Errorf("soc: co-run: warmup %d, min frames %d, max frames %d, tolerance %v: want >= 0 and finite",
			o.Warmup, o.MinFrames, o.MaxFrames, o.Tolerance)
	}
	if o.Warmup == 0 {
		o.Warmup = 2
	}
	if o.MinFrames == 0 {
		o.MinFrames = 8
	}
	if o.MaxFrames == 0 {
		o.MaxFrames = 400
	}
	if o.MaxFrames < o.MinFrames || o.MaxFrames > 1e6 {
		return fmt.Errorf("soc: co-run: max frames %d, want %d..1e6", o.MaxFrames, o.MinFrames)
	}
	if o.Tolerance == 0 {
		o.Tolerance = 0.005
	}
	return nil
}

// CoRunStat is what one run of a co-run measured. Times are in ps.
type CoRunStat struct {
	// AlonePS is the frame's latency with nothing else running:
	// EvaluateAt's.
	AlonePS int64
	// MeanPS is the mean latency of the measured frames (those after the
	// warm-up that ended within the window); Frames counts them.
	MeanPS float64
	Frames int
	// Steady reports whether the run passed the steadiness test.
	Steady bool
	// BytesPerFrame is one frame's DRAM traffic; FramesRun the frames the
	// run completed in all (warm-up and the frame in flight when the
	// window closed included).
	BytesPerFrame int64
	FramesRun     int
	// BusyPS and DRAMBytes are, per unit (SoC order), the time the run
	// held the unit within the window and the bytes its steps on that unit
	// sent through the memory.
	BusyPS    []int64
	DRAMBytes []int64
}

// Slowdown returns MeanPS over AlonePS (0 for a zero alone time).
func (s CoRunStat) Slowdown() float64 {
	if s.AlonePS == 0 {
		return 0
	}
	return s.MeanPS / float64(s.AlonePS)
}

// CoRunResult is a co-run's outcome.
type CoRunResult struct {
	Runs []CoRunStat
	// WindowPS is the measurement window, from the start to the moment
	// every run was steady (or the slowest reached MaxFrames).
	WindowPS int64
	// ChannelBytes and ChannelBusyPS are what the shared memory moved over
	// the whole co-run; StallPS the time its streams lost to row switches
	// while interleaved.
	ChannelBytes  int64
	ChannelBusyPS int64
	StallPS       int64
	Events        uint64
}

// CoRun runs every runner's network in a loop, back to back (a frame
// starts when the run's previous frame ends, as a benchmark harness runs
// one inference after another), all at once on the SoC at set, until
// every run's mean latency is steady, and reports each run's mean against
// its latency alone.
//
// The runs contend through the same mechanisms Pipeline uses, refined:
//
//   - units: a step holds its unit; a run waiting for a unit another run
//     holds queues first come, first served. Compute phases of roofline
//     units are held kernel by kernel, so two networks' kernels on one
//     GPU interleave at kernel boundaries (a DLA network's GPU fallback
//     kernels among a GPU network's);
//   - memory: every kernel's DRAM bytes (and every transfer's) go through
//     one sim.Channel at the memory's peak when the kernel starts (the
//     demand of each kernel over time); a kernel whose bytes wait behind
//     another unit's stream is delayed by that wait, and its bytes, being
//     interleaved with the other stream, move at the memory's
//     MixedEfficiency (a row switch per page; the channel stalls for the
//     difference); the kernel itself, its accesses finding rows the other
//     stream opened, waits a row switch on top of the memory's latency
//     for the overlapping part, which costs it time where its memory
//     phase, so stretched, outlasts its time alone (MixedLatencyPS).
//
// A run alone never waits (every kernel's time covers its bytes at the
// peak), so its latency is EvaluateAt's exactly. Two runs' frames are
// never faster than alone. Bytes are conserved: the channel moves every
// completed frame's DRAM bytes once.
func (s *SoC) CoRun(runs []CoRunner, set Setting, opt CoRunOptions) (CoRunResult, error) {
	if len(runs) == 0 {
		return CoRunResult{}, errors.New("soc: co-run: no runs")
	}
	if len(runs) > 64 {
		return CoRunResult{}, fmt.Errorf("soc: co-run: %d runs, want at most 64", len(runs))
	}
	if err := opt.defaults(); err != nil {
		return CoRunResult{}, err
	}
	c := &corun{s: sim.New(), opt: opt, nu: len(s.names), last: -1}
	for i, r := range runs {
		if r.Eval == nil {
			return CoRunResult{}, fmt.Errorf("soc: co-run: run %d has no evaluator", i)
		}
		if r.Eval.soc != s {
			return CoRunResult{}, fmt.Errorf("soc: co-run: run %d is evaluated on another SoC", i)
		}
		var one Result
		if err := r.Eval.EvaluateAt(&one, r.Mapping, set); err != nil {
			return CoRunResult{}, fmt.Errorf("soc: co-run: run %d: %w", i, err)
		}
		st, err := r.Eval.steps(r.Mapping, set)
		if err != nil {
			return CoRunResult{}, fmt.Errorf("soc: co-run: run %d: %w", i, err)
		}
		cr := &corunRun{c: c, id: i, alone: one.LatencyPS, busy: make([]int64, c.nu), bytes: make([]int64, c.nu)}
		for _, x := range st {
			if len(x.parts) == 0 {
				cr.steps = append(cr.steps, x)
				continue
			}
			for _, p := range x.parts {
				cr.steps = append(cr.steps, step{unit: x.unit, ps: p.ps, bytes: p.bytes})
			}
		}
		for _, x := range cr.steps {
			cr.frameBytes = hw.SatAdd(cr.frameBytes, x.bytes)
		}
		if cr.alone <= 0 || len(cr.steps) == 0 {
			return CoRunResult{}, fmt.Errorf("soc: co-run: run %d takes no time", i)
		}
		cr.grantFn, cr.endFn, cr.requestFn, cr.chunkFn = cr.grant, cr.end, cr.request, cr.nextChunk
		c.runs = append(c.runs, cr)
	}
	env := s.env(set)
	var err error
	if c.ch, err = sim.NewChannel(env.BytesPerSec*1e-12, env.LatencyPS, s.mem.BurstBytes); err != nil {
		return CoRunResult{}, fmt.Errorf("soc: co-run: %w", err)
	}
	c.eff = s.MixedEfficiency(set)
	c.latRatio = s.mem.LatencyRatio()
	c.memRate = make([]float64, c.nu)
	for u, x := range s.units {
		if rf, ok := x.(*Roofline); ok {
			c.memRate[u] = rf.spec.MemoryShare * env.BytesPerSec * 1e-12 // bytes per ps
		}
	}
	c.held = make([]int, c.nu)
	c.wait = make([][]*corunRun, c.nu)
	c.sharers = make([]int, c.nu)
	for _, r := range c.runs {
		r.distances(c.nu)
		seen := make([]bool, c.nu)
		for _, x := range r.steps {
			if !seen[x.unit] {
				seen[x.unit] = true
				c.sharers[x.unit]++
			}
		}
	}
	for u := range c.held {
		c.held[u] = -1
	}
	for _, r := range c.runs {
		r.frameStart = 0
		c.s.At(0, 0, r.begin)
	}
	c.s.Run()
	if !c.stopped {
		return CoRunResult{}, errors.New("soc: co-run: the runs ended before they were steady")
	}
	res := CoRunResult{WindowPS: c.window, ChannelBytes: c.ch.Bytes(), ChannelBusyPS: c.ch.BusyCycles(), StallPS: c.stall, Events: c.s.Events()}
	for _, r := range c.runs {
		m := r.measured()
		var sum float64
		for _, l := range m {
			sum += float64(l)
		}
		st := CoRunStat{AlonePS: r.alone, Frames: len(m), Steady: r.steady(opt.Tolerance), BytesPerFrame: r.frameBytes,
			FramesRun: len(r.lat), BusyPS: r.busy, DRAMBytes: r.bytes}
		if len(m) > 0 {
			st.MeanPS = sum / float64(len(m))
		}
		res.Runs = append(res.Runs, st)
	}
	return res, nil
}

// corun is one co-run on the sim kernel.
type corun struct {
	s   *sim.Sim
	ch  sim.Channel
	eff float64
	// latRatio is the memory's row switch over its latency
	// (MixedLatencyPS); memRate[u] unit u's own memory rate in bytes per
	// ps (its memory share of the peak; 0: not a roofline unit).
	latRatio float64
	memRate  []float64
	opt      CoRunOptions
	nu       int
	runs     []*corunRun
	// held[u] is the run holding unit u (-1: free); wait[u] the runs
	// waiting for it, first come first served.
	held []int
	wait [][]*corunRun
	// sharers[u] counts the runs with steps on unit u.
	sharers []int
	// last is the unit that made the latest channel request.
	last    int
	stall   int64
	stopped bool
	window  int64
}

// corunRun is one network looping through its frame's steps.
type corunRun struct {
	c          *corun
	id         int
	steps      []step
	alone      int64
	frameBytes int64
	k          int   // current step
	frameStart int64 // when the current frame started
	stepStart  int64
	lat        []int64 // per completed frame
	ends       []int64 // when each completed frame ended
	busy       []int64 // per unit, within the window
	bytes      []int64 // per unit, within the window

	// The current compute step's chunks: how many, the next one, and the
	// time its chunks waited for the channel or the unit so far; when the
	// run last got its unit, and when it yielded it to resume later.
	chunks, chunk      int
	waited             int64
	heldSince, yieldAt int64
	resuming, resumed  bool // waiting to get the unit back; just got it back
	// dist[k*nu+u]: see distances.
	dist []int64

	grantFn, endFn, requestFn, chunkFn func()
}

// distances sets dist: for each step k and unit u, the steps' times alone
// from the start of step k to the next step on u (0: step k is on u),
// looping over frames; -1 when no step is on u.
func (r *corunRun) distances(nu int) {
	n := len(r.steps)
	r.dist = make([]int64, (n+1)*nu)
	for u := range nu {
		var frame int64 // a frame's time alone
		on := false
		for _, x := range r.steps {
			frame = hw.SatAdd(frame, x.ps)
			on = on || x.unit == u
		}
		if !on {
			for k := 0; k <= n; k++ {
				r.dist[k*nu+u] = -1
			}
			continue
		}
		// Backwards over two frames, so that the last steps see the next
		// frame's first step on u.
		var d int64 = -1
		for k := 2*n - 1; k >= 0; k-- {
			x := r.steps[k%n]
			switch {
			case x.unit == u:
				d = 0
			case d >= 0:
				d = hw.SatAdd(d, x.ps)
			}
			if k < n {
				r.dist[k*nu+u] = d
			}
		}
		r.dist[n*nu+u] = r.dist[u] // between frames: the next frame's start
	}
}

// measured returns the latencies of the frames after the warm-up that
// ended within the window.
func (r *corunRun) measured() []int64 {
	n := len(r.lat)
	for n > 0 && r.ends[n-1] > r.c.window {
		n--
	}
	if n <= r.c.opt.Warmup {
		return nil
	}
	return r.lat[r.c.opt.Warmup:n]
}

// steady reports whether the run has its minimum of measured frames and
// the means of their halves agree within tol.
func (r *corunRun) steady(tol float64) bool {
	n := len(r.lat) - r.c.opt.Warmup
	if r.c.window > 0 {
		n = len(r.measured())
	}
	if n < r.c.opt.MinFrames {
		return false
	}
	m := r.lat[r.c.opt.Warmup : r.c.opt.Warmup+n]
	var a, b float64
	h := n / 2
	for i, l := range m {
		if i < h {
			a += float64(l)
		} else {
			b += float64(l)
		}
	}
	a /= float64(h)
	b /= float64(n - h)
	return math.Abs(a-b) <= tol*max(a, b)
}

// begin starts the run's current step, or ends its frame and starts the
// next one unless the co-run has stopped.
func (r *corunRun) begin() {
	c := r.c
	if r.k == len(r.steps) {
		now := c.s.Now()
		r.lat = append(r.lat, now-r.frameStart)
		r.ends = append(r.ends, now)
		if !c.stopped {
			c.check(now)
		}
		if c.stopped {
			return
		}
		r.k, r.frameStart = 0, now
	}
	u := r.steps[r.k].unit
	if c.held[u] >= 0 {
		c.wait[u] = append(c.wait[u], r)
		return
	}
	c.held[u] = r.id
	r.grant()
}

// check stops the co-run at now when every run is steady, or when the
// slowest has run MaxFrames measured frames.
func (c *corun) check(now int64) {
	all, capped := true, false
	for _, r := range c.runs {
		all = all && r.steady(c.opt.Tolerance)
		capped = capped || len(r.lat)-c.opt.Warmup >= c.opt.MaxFrames
	}
	slowest := true
	for _, r := range c.runs {
		slowest = slowest && len(r.lat)-c.opt.Warmup >= c.opt.MinFrames
	}
	if all || (capped && slowest) {
		c.stopped, c.window = true, now
	}
}

// grant runs the current step on its unit, which the run now holds.
func (r *corunRun) grant() {
	c := r.c
	st := &r.steps[r.k]
	now := c.s.Now()
	r.heldSince = now
	if r.resuming {
		// Back on the unit after yielding it: the kernel goes on.
		r.resuming, r.resumed = false, true
		r.waited = hw.SatAdd(r.waited, now-r.yieldAt)
		r.chunkFn()
		return
	}
	r.stepStart = now
	switch {
	case st.xfer && st.bytes > 0:
		c.s.At(hw.SatAdd(now, st.delayPS), 0, r.requestFn)
	case !st.xfer && (st.bytes > 0 || (st.ps > 0 && c.joinable(r, st.unit, hw.SatAdd(now, st.ps)))):
		n := max(ceilDiv64(st.bytes, coRunChunkBytes), 1)
		if c.joinable(r, st.unit, hw.SatAdd(now, st.ps)) {
			n = max(n, ceilDiv64(st.ps, coRunQuantumPS))
		}
		r.chunks = int(min(n, coRunMaxChunks))
		r.chunk, r.waited = 0, 0
		r.chunkFn()
	default:
		c.s.At(hw.SatAdd(now, st.ps), 0, r.endFn)
	}
}

// coRunChunkBytes and coRunMaxChunks set the granularity at which a
// kernel's DRAM bytes meet other units' on the channel: 64 KiB (0.48 us
// at Xavier's peak, two pages on every channel; a small part of a CNN
// kernel's time), at most 4,096 chunks a kernel. The memory controller
// arbitrates between its clients far finer (bursts); chunks keep the
// event count low while a large kernel's stream (AlexNet's 75 MB of FC
// weights) no longer holds the channel whole. Coarser chunks make the
// loops' phase matter: with 64 chunks a kernel, ResNet-101 on the DLA
// beside AlexNet took 1.4 % longer at 1866 than at 1600 MHz EMC; with
// 128 KiB chunks 0.4 %; with 64 KiB the largest such rise over the tests'
// pairs is 0.0015 %.
//
// coRunQuantumPS is the share of a unit two runs' kernels take turns at
// while both want it (a unit alone in a co-run is not cut): 20 us,
// assumed of the order of one wave of thread blocks of a CNN kernel on
// Xavier's 8 SMs (the GPU's block scheduler starts another stream's blocks
// as a kernel's retire, so a long kernel does not hold the GPU whole; a
// kernel-by-kernel turn let VGG-19's 0.5 ms convolutions stretch
// ResNet-152 beside it on the GPU tenfold).
const (
	coRunChunkBytes = 64 << 10
	coRunMaxChunks  = 4096
	coRunQuantumPS  = 20e6
)

// nextChunk requests the kernel's next chunk of bytes, or ends the step:
// its chunks are requested evenly over its time alone, each delayed by the
// waits of those before it (the kernel cannot go on without its data).
func (r *corunRun) nextChunk() {
	c := r.c
	st := &r.steps[r.k]
	now := c.s.Now()
	n := int64(r.chunks)
	i := int64(r.chunk)
	if i == n {
		c.s.At(hw.SatAdd(hw.SatAdd(r.stepStart, st.ps), r.waited), 0, r.endFn)
		return
	}
	u := st.unit
	resumed := r.resumed
	r.resumed = false
	if i > 0 && !resumed && len(c.wait[u]) > 0 {
		// Another run waits for the unit: their kernels share it quantum
		// by quantum, round robin.
		r.account(u, now, 0)
		r.yieldAt, r.resuming = now, true
		next := c.wait[u][0]
		c.wait[u] = append(c.wait[u][1:], r)
		c.held[u] = next.id
		next.grant()
		return
	}
	b := st.bytes*(i+1)/n - st.bytes*i/n
	first := i // the first chunk this request carries
	end := hw.SatAdd(hw.SatAdd(r.stepStart, st.ps), r.waited)
	if next, ok := c.s.NextTime(); (!ok || next >= end) && !c.joinable(r, u, end) {
		// Nothing else happens before the kernel ends and no other run can
		// want its unit: no other request can meet its remaining chunks,
		// which go as one.
		b = st.bytes - st.bytes*i/n
		r.chunk = r.chunks - 1
		i = n - 1
	}
	ch := *st
	ch.bytes = b
	busy := c.ch.Free() - now // the other stream's remaining time, if mixed
	tr, stall := c.send(now, &ch)
	r.waited = hw.SatAdd(r.waited, tr.Grant-now)
	if stall > 0 && c.memRate[u] > 0 {
		// Interleaved with another unit's stream: the chunk's accesses
		// find rows the other stream opened, and a kernel that moves its
		// bytes at the rate its outstanding requests allow waits the
		// longer latency (MixedLatencyPS).
		memPS := int64(math.Ceil(float64(b) / c.memRate[u]))
		frac := min(1, float64(busy)/float64(max(c.ch.Cycles(b), 1)))
		r.waited = hw.SatAdd(r.waited, MixedLatencyPS(memPS, fracPS(st.ps, i+1, n)-fracPS(st.ps, first, n), c.latRatio*frac))
	}
	r.chunk++
	next := hw.SatAdd(hw.SatAdd(r.stepStart, fracPS(st.ps, i+1, n)), r.waited)
	c.s.At(next, 0, r.chunkFn)
}

// joinable reports whether a run other than r may want unit u before end:
// it holds or waits for u, or its steps reach u before end even at their
// times alone (a step never takes less).
func (c *corun) joinable(r *corunRun, u int, end int64) bool {
	if c.sharers[u] <= 1 {
		return false
	}
	for _, o := range c.runs {
		if o == r || o.dist == nil {
			continue
		}
		d := o.dist[o.k*c.nu+u]
		if d < 0 {
			continue // o never runs on u
		}
		if d == 0 || hw.SatAdd(o.stepStart, d) < end {
			return true
		}
	}
	return false
}

// account adds the time the run held unit u up to now, and bytes, to its
// figures within the window.
func (r *corunRun) account(u int, now, bytes int64) {
	c := r.c
	if !c.stopped || now <= c.window {
		r.busy[u] = hw.SatAdd(r.busy[u], now-r.heldSince)
		r.bytes[u] = hw.SatAdd(r.bytes[u], bytes)
	}
}

// ceilDiv64 returns ceil(a / b) for a >= 0, b > 0.
func ceilDiv64(a, b int64) int64 { return (a + b - 1) / b }

// fracPS returns floor(ps * i / n) without overflow.
func fracPS(ps, i, n int64) int64 {
	if i >= n {
		return ps
	}
	return int64(float64(ps) * float64(i) / float64(n))
}

// request sends a transfer's bytes: the step ends when they have arrived,
// and no earlier than its time alone.
func (r *corunRun) request() {
	c := r.c
	st := &r.steps[r.k]
	tr, _ := c.send(c.s.Now(), st)
	c.s.At(max(hw.SatAdd(r.stepStart, st.ps), tr.Last), 0, r.endFn)
}

// send puts a step's bytes on the channel at now (SendShared) and
// returns the transfer and the channel's stall for it.
func (c *corun) send(now int64, st *step) (sim.Transfer, int64) {
	tr, stall := SendShared(&c.ch, now, st.bytes, st.unit, &c.last, c.eff)
	c.stall = hw.SatAdd(c.stall, stall)
	return tr, stall
}

// end releases the step's unit to the next run waiting for it and moves
// the run on.
func (r *corunRun) end() {
	c := r.c
	st := &r.steps[r.k]
	now := c.s.Now()
	u := st.unit
	r.account(u, now, st.bytes)
	if q := c.wait[u]; len(q) > 0 {
		next := q[0]
		c.wait[u] = q[1:]
		c.held[u] = next.id
		next.grant()
	} else {
		c.held[u] = -1
	}
	r.k++
	r.begin()
}
