package accel

import (
	"math"

	"gnnsim/sim"
)

// xfer is one DRAM transfer.
type xfer struct {
	unit  int32
	side  int8 // which process it serves (pp: 0 aggregation, 1 combination)
	load  bool
	bytes int64
}

// fifo is a small FIFO of transfers, reused between runs.
type fifo struct {
	buf  []xfer
	head int
}

func (q *fifo) push(x xfer) { q.buf = append(q.buf, x) }
func (q *fifo) pop() xfer {
	x := q.buf[q.head]
	q.head++
	if q.head == len(q.buf) {
		q.buf, q.head = q.buf[:0], 0
	}
	return x
}
func (q *fifo) reset() { q.buf, q.head = q.buf[:0], 0 }

// dramChannel is the single DRAM channel of the FiniteBuffer effect: a sim
// Resource of capacity one, granted in request order. A transfer holds it
// for ceil(bytes/bandwidth) cycles and its data arrives DRAMLatency cycles
// after it releases the channel. Requests and arrivals are FIFO, so the
// transfer descriptors ride in two queues next to the Resource and the
// callbacks are bound once per run: nothing allocates per transfer.
type dramChannel struct {
	s       *sim.Sim
	res     *sim.Resource
	bw      float64
	lat     int64
	waiting fifo // requested, not yet granted
	inFly   fifo // released, data still in flight
	cur     xfer
	arrive  func(xfer)

	fnGranted, fnEnd, fnArrive func()
	lastStore                  int64
}

func (d *dramChannel) init(s *sim.Sim, hw HW, arrive func(xfer)) {
	d.s = s
	d.res, _ = sim.NewResource(s, 1) // capacity 1 is always valid
	d.bw = hw.DRAMBytesPerCycle
	d.lat = hw.DRAMLatency
	d.waiting.reset()
	d.inFly.reset()
	d.arrive = arrive
	d.lastStore = 0
	if d.fnGranted == nil {
		d.fnGranted = d.granted
		d.fnEnd = d.end
		d.fnArrive = d.arrived
	}
}

func (d *dramChannel) request(x xfer) {
	d.waiting.push(x)
	d.res.Request(d.fnGranted)
}

func (d *dramChannel) granted() {
	d.cur = d.waiting.pop()
	d.s.After(int64(math.Ceil(float64(d.cur.bytes)/d.bw)), 0, d.fnEnd)
}

func (d *dramChannel) end() {
	d.res.Release()
	d.inFly.push(d.cur)
	d.s.After(d.lat, 0, d.fnArrive)
}

func (d *dramChannel) arrived() {
	x := d.inFly.pop()
	if !x.load {
		d.lastStore = d.s.Now()
	}
	d.arrive(x)
}

// seqEngine runs a chain of units (seq and sp: aggregation groups, then
// combination tiles) on the sim kernel. Each unit computes once its input
// has arrived and the previous unit is done; the next unit's load is issued
// when a unit starts (double buffering) and its store when it ends.
type seqEngine struct {
	s       *sim.Sim
	dram    dramChannel
	units   []unit
	arrived []bool
	next    int
	busy    bool
	idle    int64 // when compute last became idle
	stall   int64

	fnEnd    func()
	fnArrive func(xfer)
}

func (e *seqEngine) run(units []unit, hw HW) (cycles, memStall int64, events uint64) {
	e.s = sim.New()
	e.units = units
	if cap(e.arrived) < len(units) {
		e.arrived = make([]bool, len(units))
	}
	e.arrived = e.arrived[:len(units)]
	clear(e.arrived)
	e.next, e.busy, e.idle, e.stall = 0, false, 0, 0
	if e.fnEnd == nil {
		e.fnEnd = e.computeEnd
		e.fnArrive = e.onArrive
	}
	e.dram.init(e.s, hw, e.fnArrive)
	e.issueLoad(0)
	e.tryStart()
	e.s.Run()
	return e.s.Now(), e.stall, e.s.Events()
}

func (e *seqEngine) issueLoad(k int) {
	if k >= len(e.units) {
		return
	}
	if e.units[k].load == 0 {
		e.arrived[k] = true
		return
	}
	e.dram.request(xfer{unit: int32(k), load: true, bytes: e.units[k].load})
}

func (e *seqEngine) tryStart() {
	if e.busy || e.next >= len(e.units) || !e.arrived[e.next] {
		return
	}
	e.busy = true
	e.stall += e.s.Now() - e.idle
	e.issueLoad(e.next + 1)
	e.s.After(e.units[e.next].dur, 1, e.fnEnd)
}

func (e *seqEngine) computeEnd() {
	k := e.next
	e.busy = false
	e.next++
	e.idle = e.s.Now()
	if b := e.units[k].store; b > 0 {
		e.dram.request(xfer{unit: int32(k), bytes: b})
	}
	e.tryStart()
}

func (e *seqEngine) onArrive(x xfer) {
	if x.load {
		e.arrived[x.unit] = true
		e.tryStart()
	}
}

// ppEngine runs the parallel pipeline in lock step, as STONNE-Omega's pp
// formula does: in step k aggregation works on tile k while combination
// works on tile k-1 (from the other half of the ping-pong buffer), and the
// next step starts when both are done and, with shared ports, when the
// step's global-buffer traffic has passed.
type ppEngine struct {
	s          *sim.Sim
	dram       dramChannel
	aggT       []unit
	combT      []unit
	gbBW       int64
	arrived    [2][]bool
	k          int   // current step, 0..T
	start      int64 // step start
	pending    int
	ends       [2]int64
	active     [2]bool
	started    [2]bool
	skew       int64
	stallPipe  int64
	stallPorts int64
	stallMem   int64
	lastEnd    int64

	fnAggEnd, fnCombEnd, fnPort func()
	fnArrive                    func(xfer)
}

func (e *ppEngine) run(aggT, combT []unit, gbBW int64, hw HW) (cycles int64, st Stalls, events uint64) {
	e.s = sim.New()
	e.aggT, e.combT, e.gbBW = aggT, combT, gbBW
	for i, n := range [2]int{len(aggT), len(combT)} {
		if cap(e.arrived[i]) < n {
			e.arrived[i] = make([]bool, n)
		}
		e.arrived[i] = e.arrived[i][:n]
		clear(e.arrived[i])
	}
	e.k, e.skew, e.stallPipe, e.stallPorts, e.stallMem, e.lastEnd = 0, 0, 0, 0, 0, 0
	if e.fnAggEnd == nil {
		e.fnAggEnd = func() { e.sideEnd(0) }
		e.fnCombEnd = func() { e.sideEnd(1) }
		e.fnPort = func() { e.stepPart() }
		e.fnArrive = e.onArrive
	}
	e.dram.init(e.s, hw, e.fnArrive)
	e.issueLoad(0, 0)
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

func (e *ppEngine) issueLoad(side, k int) {
	us := e.units(side)
	if k < 0 || k >= len(us) {
		return
	}
	if us[k].load == 0 {
		e.arrived[side][k] = true
		return
	}
	e.dram.request(xfer{unit: int32(k), side: int8(side), load: true, bytes: us[k].load})
}

// beginStep starts step e.k: aggregation on tile k, combination on k-1.
func (e *ppEngine) beginStep() {
	T := len(e.aggT)
	k := e.k
	e.start = e.s.Now()
	e.active = [2]bool{k < T, k >= 1}
	e.started = [2]bool{}
	e.pending = 0
	// Prefetch what the next step needs.
	e.issueLoad(0, k+1)
	e.issueLoad(1, k)
	var words int64
	for side := range 2 {
		if e.active[side] {
			e.pending++
			words += e.units(side)[e.unitOf(side)].gbw
		}
	}
	if e.gbBW > 0 {
		e.pending++
		e.s.After(ceilDiv(words, e.gbBW), 2, e.fnPort)
	}
	for side := range 2 {
		e.trySide(side)
	}
}

func (e *ppEngine) unitOf(side int) int {
	if side == 0 {
		return e.k
	}
	return e.k - 1
}

func (e *ppEngine) trySide(side int) {
	if !e.active[side] || e.started[side] || !e.arrived[side][e.unitOf(side)] {
		return
	}
	e.started[side] = true
	e.stallMem += e.s.Now() - e.start
	d := e.units(side)[e.unitOf(side)].dur
	if d < 0 {
		// Only omega's pp stamps produce a negative tile time, and only
		// the final drain can show it (a middle step is the max with an
		// aggregation time >= 0): run it as 0 and take it off the end.
		if e.k == len(e.aggT) && e.gbBW == 0 {
			e.skew = d
		}
		d = 0
	}
	fn := e.fnAggEnd
	if side == 1 {
		fn = e.fnCombEnd
	}
	e.s.After(d, 1, fn)
}

func (e *ppEngine) sideEnd(side int) {
	e.ends[side] = e.s.Now()
	if b := e.units(side)[e.unitOf(side)].store; b > 0 {
		e.dram.request(xfer{unit: int32(e.unitOf(side)), side: int8(side), bytes: b})
	}
	e.stepPart()
}

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

func (e *ppEngine) onArrive(x xfer) {
	if !x.load {
		return
	}
	e.arrived[x.side][x.unit] = true
	if e.k < len(e.aggT)+1 && int(x.unit) == e.unitOf(int(x.side)) {
		e.trySide(int(x.side))
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
