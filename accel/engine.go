package accel

import "gnnsim/sim"

// newDRAM returns the single DRAM channel of the FiniteBuffer effect and
// the DMA engine in front of it (package doc, "Extended mode"), a
// sim.Channel: every transfer is a stream of bursts of HW.DRAMBurstBytes
// at HW.DRAMBytesPerCycle, served one stream at a time in request order,
// a burst's data arriving HW.DRAMLatency cycles after it leaves the
// channel. A load delivers its bursts to the compute that consumes them
// (sim.Channel.Consume), a store writes bursts out as compute produces
// them (sim.Channel.RequestProduced). hw is valid, so the channel is.
func newDRAM(hw HW) sim.Channel {
	c, err := sim.NewChannel(hw.DRAMBytesPerCycle, hw.DRAMLatency, hw.DRAMBurstBytes)
	if err != nil {
		panic("accel: " + err.Error()) // HW.Validate rules this out
	}
	return c
}

// dram is the DRAM channel of a run and when its last store has landed:
// the run ends no earlier.
type dram struct {
	sim.Channel
	lastStore int64
}

func (d *dram) reset(hw HW) { *d = dram{Channel: newDRAM(hw)} }

// store requests at cycle now a store of b > 0 bytes that compute produces
// evenly over cycles [p0, p1].
func (d *dram) store(now, b, p0, p1 int64) {
	t := d.RequestProduced(now, b, p0, p1)
	d.lastStore = max(d.lastStore, t.Last)
}

// seqEngine runs a chain of units (seq and sp: aggregation groups, then
// combination tiles) on the sim kernel, one event per unit. Each unit
// computes once the previous one is done and its data streams in; the next
// unit's load is requested when a unit may start (the half of the double
// buffer the previous unit used is then free), and a unit's store streams
// out while it computes.
type seqEngine struct {
	s     *sim.Sim
	dram  dram
	units unitSource
	n     int // units in the chain
	// load holds the loads in flight: unit k's in load[k&1]. A unit's
	// load is requested when its predecessor starts, so at most two are.
	load [2]sim.Transfer
	// unit holds units k and k+1 as requestLoad got them, unit k in
	// unit[k&1]: each is computed once, not again when it starts.
	unit [2]unit
	// traffic sums the DRAM bytes of the units as they are requested
	// (each once, in order): the run's DRAM counts.
	traffic unitTraffic
	next    int
	stall   int64

	fnEnd func()
}

// unitSource gives the units of a chain by index (the engine asks for
// each about twice, in ascending order): a list, or seqUnits, which
// computes them on demand so that a run holds no list of one unit per
// tile (48 bytes each, up to one per node: 0.4 GB per core at 10^8 edges).
type unitSource interface {
	len() int
	at(k int) unit
}

// unitSlice is a unitSource of units listed in advance.
type unitSlice []unit

func (s unitSlice) len() int      { return len(s) }
func (s unitSlice) at(k int) unit { return s[k] }

func (e *seqEngine) run(units unitSource, hw HW) (cycles, memStall int64, events uint64) {
	e.s = sim.New()
	e.units, e.n = units, units.len()
	e.next, e.stall, e.traffic = 0, 0, unitTraffic{}
	if e.fnEnd == nil {
		e.fnEnd = e.computeEnd
	}
	e.dram.reset(hw)
	e.requestLoad(0)
	e.startNext()
	e.s.Run()
	return max(e.s.Now(), e.dram.lastStore), e.stall, e.s.Events()
}

func (e *seqEngine) requestLoad(k int) {
	if k >= e.n {
		return
	}
	u := e.units.at(k)
	e.unit[k&1] = u
	e.traffic.add(&u)
	if u.load != 0 {
		e.load[k&1] = e.dram.Request(e.s.Now(), u.load)
	}
}

// startNext starts unit e.next now, the previous one having ended.
func (e *seqEngine) startNext() {
	k := e.next
	if k >= e.n {
		return
	}
	now := e.s.Now()
	u := e.unit[k&1] // requested before unit k-1 started (or by run)
	e.requestLoad(k + 1)
	var ld sim.Transfer // none: Consume starts at once
	if u.load > 0 {
		ld = e.load[k&1]
	}
	start, end := e.dram.Consume(ld, now, u.dur)
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
	dram       dram
	aggT       []unit
	combT      []unit
	gbBW       int64
	load       [2][2]sim.Transfer // per side, the loads in flight: tile k's in [side][k&1]
	k          int                // current step, 0..T
	start      int64              // step start
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
	e.k, e.skew, e.stallPipe, e.stallPorts, e.stallMem, e.lastEnd = 0, 0, 0, 0, 0, 0
	if e.fnPart == nil {
		e.fnPart = e.stepPart
	}
	e.dram.reset(hw)
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
	e.load[side][k&1] = e.dram.Request(e.s.Now(), us[k].load)
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
		var ld sim.Transfer
		if u.load > 0 {
			ld = e.load[side][j&1]
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
		starts[side], e.ends[side] = e.dram.Consume(ld, now, d)
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
		// Try both orders on copies of the channel.
		a, c := e.dram.Channel, e.dram.Channel
		a.RequestProduced(now, sb[0], starts[0], e.ends[0])
		a.RequestProduced(now, sb[1], starts[1], e.ends[1])
		c.RequestProduced(now, sb[1], starts[1], e.ends[1])
		c.RequestProduced(now, sb[0], starts[0], e.ends[0])
		if c.Free() < a.Free() {
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
