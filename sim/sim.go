package sim

import "fmt"

// Event is a handle to a scheduled callback, used to cancel it.
//
// A handle names a slot in the simulator's event slab together with the
// generation the slot had when the event was scheduled. When the event runs
// or is cancelled the slot's generation moves on, so a stale handle can never
// cancel a later event that happens to reuse the slot. The zero Event is
// never valid.
type Event struct {
	slot uint32
	gen  uint32
}

// record is the slab entry of a pending event. It holds what the heap does
// not need for ordering, so heap entries stay small and sifting touches only
// the heap array plus one pos update per moved entry.
type record struct {
	fn  func()
	pos int32  // index in Sim.heap while pending
	gen uint32 // bumped when the event runs or is cancelled; never 0
}

// entry is a heap element. Entries are stored by value: the heap is one
// contiguous slice with no per-event allocation.
type entry struct {
	t    int64
	prio int
	seq  uint64
	slot uint32
}

// before reports whether a runs before b: by time, then priority, then
// scheduling order. seq is unique, so this is a strict total order and the
// run order never depends on how the heap happens to be laid out.
func (a *entry) before(b *entry) bool {
	if a.t != b.t {
		return a.t < b.t
	}
	if a.prio != b.prio {
		return a.prio < b.prio
	}
	return a.seq < b.seq
}

// b2i converts a bool to 0 or 1; the compiler turns it into a SETcc.
func b2i(b bool) int {
	var i int
	if b {
		i = 1
	}
	return i
}

// beforeBit is before as 0 or 1, computed without branches. Comparing random
// event times mispredicts about half the branches, which dominated the cost
// of a heap sift; this form costs a few more instructions and no
// mispredictions.
func beforeBit(a, b *entry) int {
	tl := b2i(a.t < b.t)
	te := b2i(a.t == b.t)
	pl := b2i(a.prio < b.prio)
	pe := b2i(a.prio == b.prio)
	sl := b2i(a.seq < b.seq)
	return tl | te&(pl|pe&sl)
}

// pick returns j when bit is 1 and i when it is 0, without a branch.
func pick(i, j, bit int) int { return i ^ (i^j)&-bit }

// Sim is a discrete-event simulator: an integer-cycle clock and a queue of
// pending callbacks. The zero value is not usable; call New.
//
// A Sim is not safe for concurrent use. Independent simulations may run in
// parallel, one Sim each.
type Sim struct {
	now    int64
	seq    uint64 // next insertion sequence number
	events uint64 // callbacks executed

	heap []entry  // 4-ary min-heap ordered by entry.before
	recs []record // event slab, indexed by Event.slot
	free []uint32 // free slab slots (LIFO keeps the slab hot in cache)
}

// New returns a simulator at cycle 0 with no pending events.
func New() *Sim { return &Sim{} }

// Now returns the current cycle: the time of the event being run, or of the
// last event run, or the bound of the last RunUntil.
func (s *Sim) Now() int64 { return s.now }

// Events returns the number of callbacks executed so far. Cancelled events
// are not counted.
func (s *Sim) Events() uint64 { return s.events }

// Pending returns the number of scheduled events that have neither run nor
// been cancelled.
func (s *Sim) Pending() int { return len(s.heap) }

// NextTime returns the time of the next pending event, and false when there
// is none.
func (s *Sim) NextTime() (int64, bool) {
	if len(s.heap) == 0 {
		return 0, false
	}
	return s.heap[0].t, true
}

// At schedules fn to run at absolute cycle t with priority prio and returns a
// handle that can cancel it. Among events at the same cycle, lower prio runs
// first, and equal prio runs in the order At/After was called. A nil fn is
// allowed: the event only advances the clock.
//
// Scheduling in the past (t < Now()) is a programming error, like an index
// out of range, and panics: a model that does it has lost track of time, and
// running the event "now" instead would silently reorder the simulation.
func (s *Sim) At(t int64, prio int, fn func()) Event {
	if t < s.now {
		panic(fmt.Sprintf("sim: event scheduled in the past: At(%d) with Now() = %d", t, s.now))
	}
	return s.schedule(t, prio, fn)
}

// After schedules fn to run d cycles from now; see At. A negative d, or one
// that overflows the clock, panics like At does for a time in the past.
func (s *Sim) After(d int64, prio int, fn func()) Event {
	t := s.now + d
	if d < 0 || t < s.now {
		panic(fmt.Sprintf("sim: event scheduled in the past: After(%d) with Now() = %d", d, s.now))
	}
	return s.schedule(t, prio, fn)
}

func (s *Sim) schedule(t int64, prio int, fn func()) Event {
	var slot uint32
	if n := len(s.free); n > 0 {
		slot = s.free[n-1]
		s.free = s.free[:n-1]
	} else {
		if uint64(len(s.recs)) >= 1<<31 {
			// Heap positions are int32; two billion simultaneously pending
			// events would need ~100 GB anyway.
			panic("sim: more than 2^31 pending events")
		}
		slot = uint32(len(s.recs))
		s.recs = append(s.recs, record{gen: 1})
	}
	r := &s.recs[slot]
	r.fn = fn
	i := len(s.heap)
	s.heap = append(s.heap, entry{t: t, prio: prio, seq: s.seq, slot: slot})
	s.seq++
	s.up(i)
	return Event{slot: slot, gen: r.gen}
}

// Cancel removes a pending event and reports whether it did. It returns false
// when the event has already run (including the event currently running),
// was already cancelled, or e is the zero Event. Cost: O(log n).
func (s *Sim) Cancel(e Event) bool {
	if e.gen == 0 || uint64(e.slot) >= uint64(len(s.recs)) {
		return false
	}
	r := &s.recs[e.slot]
	if r.gen != e.gen {
		return false
	}
	i := int(r.pos)
	s.release(e.slot)
	last := len(s.heap) - 1
	if i != last {
		moved := s.heap[last]
		s.heap = s.heap[:last]
		s.heap[i] = moved
		s.recs[moved.slot].pos = int32(i)
		// The moved entry may belong above or below position i.
		if !s.up(i) {
			s.down(i)
		}
	} else {
		s.heap = s.heap[:last]
	}
	return true
}

// Scheduled reports whether e is still pending: it has neither run nor been
// cancelled.
func (s *Sim) Scheduled(e Event) bool {
	return e.gen != 0 && uint64(e.slot) < uint64(len(s.recs)) && s.recs[e.slot].gen == e.gen
}

// release retires a slab slot: its generation moves on so outstanding
// handles go stale, and it returns to the free list.
func (s *Sim) release(slot uint32) {
	r := &s.recs[slot]
	r.fn = nil // let the closure be collected
	r.gen++
	if r.gen == 0 {
		r.gen = 1 // 0 marks the zero Event
	}
	s.free = append(s.free, slot)
}

// Step runs the next event, advancing the clock to its time, and reports
// whether there was one.
func (s *Sim) Step() bool {
	if len(s.heap) == 0 {
		return false
	}
	top := s.heap[0]
	s.removeRoot()
	fn := s.recs[top.slot].fn
	// Retire the slot before the callback runs: the callback may schedule
	// (reusing the slot) and Cancel on its own handle must report false.
	s.release(top.slot)
	s.now = top.t
	s.events++
	if fn != nil {
		fn()
	}
	return true
}

// Run runs events until none are pending. Callbacks may schedule more; a
// model that keeps rescheduling forever makes Run loop forever (use RunUntil
// or Step to bound it).
func (s *Sim) Run() {
	for s.Step() {
	}
}

// RunUntil runs every event with time <= t, including those scheduled along
// the way, then sets the clock to t. Later events stay pending. A bound in the
// past (t < Now()) panics, as scheduling in the past does.
func (s *Sim) RunUntil(t int64) {
	if t < s.now {
		panic(fmt.Sprintf("sim: RunUntil(%d) is in the past: Now() = %d", t, s.now))
	}
	for len(s.heap) > 0 && s.heap[0].t <= t {
		s.Step()
	}
	s.now = t
}

// The heap is 4-ary: half the depth of a binary heap, and the four children
// of a node are adjacent in memory, so a sift-down touches fewer cache lines.

// up moves the entry at i towards the root until its parent runs before it,
// and reports whether it moved.
func (s *Sim) up(i int) bool {
	h := s.heap
	x := h[i]
	start := i
	for i > 0 {
		p := (i - 1) / 4
		if !x.before(&h[p]) {
			break
		}
		h[i] = h[p]
		s.recs[h[i].slot].pos = int32(i)
		i = p
	}
	h[i] = x
	s.recs[x.slot].pos = int32(i)
	return i != start
}

// down moves the entry at i towards the leaves until it runs before all its
// children.
func (s *Sim) down(i int) {
	h := s.heap
	n := len(h)
	x := h[i]
	for {
		c := 4*i + 1
		if c >= n {
			break
		}
		// Smallest of up to four children.
		m := c
		end := min(c+4, n)
		for j := c + 1; j < end; j++ {
			if h[j].before(&h[m]) {
				m = j
			}
		}
		if !h[m].before(&x) {
			break
		}
		h[i] = h[m]
		s.recs[h[i].slot].pos = int32(i)
		i = m
	}
	h[i] = x
	s.recs[x.slot].pos = int32(i)
}

// removeRoot deletes the root entry. It uses Floyd's bottom-up variant: the
// hole left at the root is walked down to a leaf along the smallest children
// (three comparisons per level instead of four, and no comparison against the
// entry being placed), and the last entry is then placed in the hole and
// sifted up. The last entry is usually a late event that belongs near the
// leaves, so the sift-up is short.
func (s *Sim) removeRoot() {
	last := len(s.heap) - 1
	x := s.heap[last]
	h := s.heap[:last]
	s.heap = h
	n := last
	if n == 0 {
		return
	}
	i := 0
	for {
		c := 4*i + 1
		if c+3 < n {
			// Full set of four children: a two-round tournament keeps the
			// first two comparisons independent of each other.
			a := c + beforeBit(&h[c+1], &h[c])
			b := c + 2 + beforeBit(&h[c+3], &h[c+2])
			a = pick(a, b, beforeBit(&h[b], &h[a]))
			h[i] = h[a]
			s.recs[h[i].slot].pos = int32(i)
			i = a
			continue
		}
		if c >= n {
			break
		}
		m := c
		for j := c + 1; j < n; j++ {
			if h[j].before(&h[m]) {
				m = j
			}
		}
		h[i] = h[m]
		s.recs[h[i].slot].pos = int32(i)
		i = m
		break // a partial set of children means the next level is empty
	}
	h[i] = x
	s.recs[x.slot].pos = int32(i)
	s.up(i)
}
