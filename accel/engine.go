package accel

import (
	"math"

	"gnnsim/sim"
)

// dramChannel is the single DRAM channel of the FiniteBuffer effect and the
// DMA engine in front of it (package doc, "Extended mode"). Every transfer
// is a stream of bursts of HW.DRAMBurstBytes: a load delivers its bursts to
// the compute that consumes them, a store writes bursts out as compute
// produces them. The channel serves one stream at a time, in request order,
// at HW.DRAMBytesPerCycle; a burst's data arrives HW.DRAMLatency cycles
// after it leaves the channel.
//
// Because a stream's service time is known when it is requested (a load
// needs only the channel; a store's production window is fixed by then),
// the FIFO channel is kept as the cycle it next falls free rather than as a
// queue of kernel events: requesting a transfer returns its timing at once,
// and nothing allocates per transfer.
type dramChannel struct {
	bw        float64
	lat       int64
	burst     int64
	free      int64 // when the channel has sent everything requested so far
	lastStore int64 // when the last store's last burst reached DRAM
}

func (d *dramChannel) init(hw HW) {
	*d = dramChannel{bw: hw.DRAMBytesPerCycle, lat: hw.DRAMLatency, burst: hw.DRAMBurstBytes}
}

// cycles returns the cycles the channel needs for b bytes.
func (d *dramChannel) cycles(b int64) int64 { return int64(math.Ceil(float64(b) / d.bw)) }

// load requests a load of b > 0 bytes at cycle now and returns when the
// channel starts sending it.
func (d *dramChannel) load(now, b int64) (grant int64) {
	grant = max(now, d.free)
	d.free = grant + d.cycles(b)
	return grant
}

// store requests at cycle now a store of b > 0 bytes that compute produces
// evenly over cycles [p0, p1].
func (d *dramChannel) store(now, b, p0, p1 int64) {
	end := d.storeEnd(max(now, d.free), b, p0, p1)
	d.free = end
	d.lastStore = max(d.lastStore, end+d.lat)
}

// storeEnd returns when the channel, free from cycle g on, has sent a store
// of b bytes produced evenly over [p0, p1]. A burst can leave only once it
// is produced, so the stream starts no earlier than its first burst is
// ready and ends no earlier than one burst after compute ends. Both bounds
// are linear in the bytes sent, so checking the ends of the stream is
// enough.
func (d *dramChannel) storeEnd(g, b, p0, p1 int64) int64 {
	bb := min(b, d.burst)
	ready := p0 + fracCeil(p1-p0, bb, b)
	return max(max(g, ready)+d.cycles(b), p1+d.cycles(bb))
}

// fracCeil returns ceil(x*num/den) for x >= 0 and 0 < num <= den, without
// overflowing for large x.
func fracCeil(x, num, den int64) int64 {
	if x <= 0 {
		return 0
	}
	return int64(math.Ceil(float64(x) * float64(num) / float64(den)))
}

// consume returns when a unit of dur compute cycles that may start at cycle
// ready starts and ends, given its load of b bytes (0: none) that the
// channel began sending at grant. Compute starts when the first burst has
// arrived and consumes the data evenly, so it cannot end before the last
// burst has arrived and the compute that burst feeds has run. Both bounds
// are linear in the bytes consumed, so checking the ends is enough.
func (d *dramChannel) consume(ready, dur, b, grant int64) (start, end int64) {
	if b == 0 {
		return ready, ready + dur
	}
	bb := min(b, d.burst)
	start = max(ready, grant+d.cycles(bb)+d.lat)
	last := grant + d.cycles(b) + d.lat
	return start, max(start+dur, last+fracCeil(dur, bb, b))
}

// grants returns g resized to hold the cycle each unit of us has its load
// granted the channel, or emptied when no unit loads anything (runs without
// FiniteBuffer need no room for them).
func grants(g []int64, us []unit) []int64 {
	for i := range us {
		if us[i].load > 0 {
			if cap(g) < len(us) {
				g = make([]int64, len(us))
			}
			return g[:len(us)]
		}
	}
	return g[:0]
}

// seqEngine runs a chain of units (seq and sp: aggregation groups, then
// combination tiles) on the sim kernel, one event per unit. Each unit
// computes once the previous one is done and its data streams in; the next
// unit's load is requested when a unit may start (the half of the double
// buffer the previous unit used is then free), and a unit's store streams
// out while it computes.
type seqEngine struct {
	s     *sim.Sim
	dram  dramChannel
	units []unit
	grant []int64 // per unit: when its load got the channel
	next  int
	stall int64

	fnEnd func()
}

func (e *seqEngine) run(units []unit, hw HW) (cycles, memStall int64, events uint64) {
	e.s = sim.New()
	e.units = units
	e.grant = grants(e.grant, units)
	e.next, e.stall = 0, 0
	if e.fnEnd == nil {
		e.fnEnd = e.computeEnd
	}
	e.dram.init(hw)
	e.requestLoad(0)
	e.startNext()
	e.s.Run()
	return max(e.s.Now(), e.dram.lastStore), e.stall, e.s.Events()
}

func (e *seqEngine) requestLoad(k int) {
	if k >= len(e.units) || e.units[k].load == 0 {
		return
	}
	e.grant[k] = e.dram.load(e.s.Now(), e.units[k].load)
}

// startNext starts unit e.next now, the previous one having ended.
func (e *seqEngine) startNext() {
	k := e.next
	if k >= len(e.units) {
		return
	}
	now := e.s.Now()
	e.requestLoad(k + 1)
	u := &e.units[k]
	var grant int64
	if u.load > 0 {
		grant = e.grant[k]
	}
	start, end := e.dram.consume(now, u.dur, u.load, grant)
	e.stall += end - now - u.dur
	if u.store > 0 {
		e.dram.store(now, u.store, start, end)
	}
	e.s.After(end-now, 1, e.fnEnd)
}

func (e *seqEngine) computeEnd() {
	e.next++
	e.startNext()
}

// ppEngine runs the parallel pipeline in lock step, as STONNE-Omega's pp
// formula does: in step k aggregation works on tile k while combination
// works on tile k-1 (from the other half of the ping-pong buffer), and the
// next step starts when both are done and, with shared ports, when the
// step's global-buffer traffic has passed. The loads of step k+1 are
// requested when step k begins; each side's stores stream out while it
// computes.
type ppEngine struct {
	s          *sim.Sim
	dram       dramChannel
	aggT       []unit
	combT      []unit
	gbBW       int64
	grant      [2][]int64 // per side and tile: when its load got the channel
	k          int        // current step, 0..T
	start      int64      // step start
	pending    int
	ends       [2]int64
	active     [2]bool
	skew       int64
	stallPipe  int64
	stallPorts int64
	stallMem   int64
	lastEnd    int64

	fnPart func()
}

func (e *ppEngine) run(aggT, combT []unit, gbBW int64, hw HW) (cycles int64, st Stalls, events uint64) {
	e.s = sim.New()
	e.aggT, e.combT, e.gbBW = aggT, combT, gbBW
	e.grant[0] = grants(e.grant[0], aggT)
	e.grant[1] = grants(e.grant[1], combT)
	e.k, e.skew, e.stallPipe, e.stallPorts, e.stallMem, e.lastEnd = 0, 0, 0, 0, 0, 0
	if e.fnPart == nil {
		e.fnPart = e.stepPart
	}
	e.dram.init(hw)
	e.requestLoad(0, 0)
	e.beginStep()
	e.s.Run()
	end := e.lastEnd + e.skew
	cycles = max(end, e.dram.lastStore)
	return cycles, Stalls{Pipeline: e.stallPipe, Memory: e.stallMem, Ports: e.stallPorts}, e.s.Events()
}

func (e *ppEngine) units(side int) []unit {
	if side == 0 {
		return e.aggT
	}
	return e.combT
}

func (e *ppEngine) requestLoad(side, k int) {
	us := e.units(side)
	if k < 0 || k >= len(us) || us[k].load == 0 {
		return
	}
	e.grant[side][k] = e.dram.load(e.s.Now(), us[k].load)
}

// beginStep starts step e.k: aggregation on tile k, combination on k-1.
func (e *ppEngine) beginStep() {
	T := len(e.aggT)
	k := e.k
	now := e.s.Now()
	e.start = now
	e.active = [2]bool{k < T, k >= 1}
	e.pending = 0
	// Prefetch what the next step needs into the buffer halves this step
	// does not use.
	e.requestLoad(0, k+1)
	e.requestLoad(1, k)
	var words int64
	var starts [2]int64
	for side := range 2 {
		if !e.active[side] {
			continue
		}
		e.pending++
		j := e.unitOf(side)
		u := &e.units(side)[j]
		words += u.gbw
		var grant int64
		if u.load > 0 {
			grant = e.grant[side][j]
		}
		d := u.dur
		if d < 0 {
			// Only omega's pp stamps produce a negative tile time, and only
			// the final drain can show it (a middle step is the max with an
			// aggregation time >= 0): run it as 0 and take it off the end.
			if k == T && e.gbBW == 0 {
				e.skew = d
			}
			d = 0
		}
		starts[side], e.ends[side] = e.dram.consume(now, d, u.load, grant)
		e.stallMem += e.ends[side] - now - d
	}
	// Both sides' stores stream out as they compute. The channel sends
	// one stream at a time, so when both sides store it takes them in the
	// order that has it done first (a stream still waiting for its data
	// would otherwise hold up one that is ready).
	var sb [2]int64
	for side := range 2 {
		if e.active[side] {
			sb[side] = e.units(side)[e.unitOf(side)].store
		}
	}
	order := [2]int{0, 1}
	if sb[0] > 0 && sb[1] > 0 {
		g := max(now, e.dram.free)
		a := e.dram.storeEnd(e.dram.storeEnd(g, sb[0], starts[0], e.ends[0]), sb[1], starts[1], e.ends[1])
		c := e.dram.storeEnd(e.dram.storeEnd(g, sb[1], starts[1], e.ends[1]), sb[0], starts[0], e.ends[0])
		if c < a {
			order = [2]int{1, 0}
		}
	}
	for _, side := range order {
		if sb[side] > 0 {
			e.dram.store(now, sb[side], starts[side], e.ends[side])
		}
	}
	if e.gbBW > 0 {
		e.pending++
		e.s.After(ceilDiv(words, e.gbBW), 2, e.fnPart)
	}
	for side := range 2 {
		if e.active[side] {
			e.s.At(e.ends[side], 1, e.fnPart)
		}
	}
}

func (e *ppEngine) unitOf(side int) int {
	if side == 0 {
		return e.k
	}
	return e.k - 1
}

// stepPart ends one part of the step (a side's compute or the port time);
// the last one ends the step.
func (e *ppEngine) stepPart() {
	e.pending--
	if e.pending > 0 {
		return
	}
	now := e.s.Now()
	busyEnd := e.start
	if e.active[0] && e.active[1] {
		a, c := e.ends[0], e.ends[1]
		e.stallPipe += max(a, c) - min(a, c)
		busyEnd = max(a, c)
	} else {
		for side := range 2 {
			if e.active[side] {
				busyEnd = e.ends[side]
			}
		}
	}
	e.stallPorts += now - busyEnd
	e.lastEnd = now
	e.k++
	if e.k <= len(e.aggT) {
		e.beginStep()
	}
}

// ppClosed computes what ppEngine computes when no DRAM transfers are
// involved: pp = a_1 + sum_{k=2..T} max(a_k, c_{k-1}) + c_T, each step
// stretched to its shared-port time when gbBW > 0.
func ppClosed(aggT, combT []unit, gbBW int64) (int64, Stalls) {
	T := len(aggT)
	var total int64
	var st Stalls
	for k := 0; k <= T; k++ {
		var words int64
		hasA, hasC := k < T, k >= 1
		var a, c int64
		if hasA {
			a = aggT[k].dur
			words += aggT[k].gbw
		}
		if hasC {
			c = combT[k-1].dur
			words += combT[k-1].gbw
		}
		var busy int64
		switch {
		case hasA && hasC:
			cc := max(c, 0)
			busy = max(a, cc)
			st.Pipeline += busy - min(a, cc)
		case hasA:
			busy = a
		default:
			busy = c
		}
		step := busy
		if gbBW > 0 {
			busy = max(busy, 0)
			step = max(busy, ceilDiv(words, gbBW))
			st.Ports += step - busy
		}
		total += step
	}
	return total, st
}
