package sim

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// mustPanic runs f and fails unless it panics with a message containing want.
func mustPanic(t *testing.T, want string, f func()) {
	t.Helper()
	defer func() {
		t.Helper()
		r := recover()
		if r == nil {
			t.Fatalf("no panic, want one mentioning %q", want)
		}
		if msg := fmt.Sprint(r); !strings.Contains(msg, want) {
			t.Fatalf("panic %q, want one mentioning %q", msg, want)
		}
	}()
	f()
}

// TestOrderingSimPy checks the run order of events scheduled up front
// against SimPy's rule, worked out by hand: sort by (time, priority,
// scheduling order).
func TestOrderingSimPy(t *testing.T) {
	type ev struct {
		t    int64
		prio int
	}
	tests := []struct {
		name string
		evs  []ev  // in scheduling order
		want []int // indices into evs, in run order
	}{
		{"same time and prio: scheduling order", []ev{{7, 0}, {7, 0}, {7, 0}, {7, 0}}, []int{0, 1, 2, 3}},
		{"same time: by prio, ties by scheduling order", []ev{{0, 1}, {0, 0}, {0, 1}, {0, 0}, {0, 2}}, []int{1, 3, 0, 2, 4}},
		{"time first, then prio", []ev{{5, 0}, {3, 1}, {3, 0}, {5, -1}, {3, 1}}, []int{2, 1, 4, 3, 0}},
		{"prio never beats time", []ev{{2, 100}, {3, -100}, {1, 0}}, []int{2, 0, 1}},
		{"extreme prios", []ev{{4, math.MaxInt}, {4, math.MinInt}, {4, 0}, {4, math.MinInt}}, []int{1, 3, 2, 0}},
		{"reverse scheduling", []ev{{9, 0}, {8, 0}, {7, 0}, {6, 0}, {5, 0}}, []int{4, 3, 2, 1, 0}},
		{"empty", nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := New()
			var got []int
			for i, e := range tc.evs {
				s.At(e.t, e.prio, func() {
					if s.Now() != e.t {
						t.Errorf("event %d ran at %d, scheduled for %d", i, s.Now(), e.t)
					}
					got = append(got, i)
				})
			}
			s.Run()
			if !slices.Equal(got, tc.want) {
				t.Errorf("run order %v, want %v", got, tc.want)
			}
			if s.Events() != uint64(len(tc.evs)) {
				t.Errorf("Events() = %d, want %d", s.Events(), len(tc.evs))
			}
		})
	}
}

// TestOrderingFromCallbacks checks events scheduled for the current cycle by
// a running callback: they join the same order, so a lower priority runs
// before pending events of the same cycle and an equal one runs after them.
func TestOrderingFromCallbacks(t *testing.T) {
	s := New()
	var got []string
	log := func(name string) func() { return func() { got = append(got, name) } }
	s.At(5, 1, func() {
		got = append(got, "A")
		s.After(0, 0, log("C:prio0")) // before B, which has prio 1
		s.After(0, 1, log("D:prio1")) // after B: same prio, scheduled later
		s.After(0, 2, log("E:prio2")) // last of cycle 5
		s.At(5, -1, log("G:prio-1"))  // first of the rest of cycle 5
		s.After(1, -5, log("H:t6"))   // cycle 6, before F by prio
	})
	s.At(5, 1, log("B"))
	s.At(6, 0, log("F:t6"))
	s.Run()
	want := []string{"A", "G:prio-1", "C:prio0", "B", "D:prio1", "E:prio2", "H:t6", "F:t6"}
	if !slices.Equal(got, want) {
		t.Errorf("order %v\nwant  %v", got, want)
	}
}

func TestCancel(t *testing.T) {
	tests := []struct {
		name string
		// run builds a scenario, returns the run log and the expected one.
		run func(t *testing.T, s *Sim) (got, want []string)
		// events is the expected Events() after Run.
		events uint64
	}{
		{"cancel before run", func(t *testing.T, s *Sim) ([]string, []string) {
			var log []string
			a := s.At(3, 0, func() { log = append(log, "a") })
			s.At(4, 0, func() { log = append(log, "b") })
			if !s.Cancel(a) {
				t.Error("Cancel of a pending event returned false")
			}
			if s.Cancel(a) {
				t.Error("second Cancel returned true")
			}
			if s.Scheduled(a) {
				t.Error("Scheduled(a) true after Cancel")
			}
			s.Run()
			return log, []string{"b"}
		}, 1},
		{"cancel after run", func(t *testing.T, s *Sim) ([]string, []string) {
			var log []string
			a := s.At(1, 0, func() { log = append(log, "a") })
			s.Run()
			if s.Cancel(a) {
				t.Error("Cancel of an event that ran returned true")
			}
			return log, []string{"a"}
		}, 1},
		{"cancel own event from its callback", func(t *testing.T, s *Sim) ([]string, []string) {
			var log []string
			var a Event
			a = s.At(1, 0, func() {
				if s.Cancel(a) {
					t.Error("Cancel of the running event returned true")
				}
				log = append(log, "a")
			})
			s.Run()
			return log, []string{"a"}
		}, 1},
		{"cancel a same-cycle event from a callback", func(t *testing.T, s *Sim) ([]string, []string) {
			var log []string
			var b Event
			s.At(2, 0, func() {
				log = append(log, "a")
				if !s.Cancel(b) {
					t.Error("Cancel of a pending same-cycle event returned false")
				}
			})
			b = s.At(2, 0, func() { log = append(log, "b") })
			s.At(2, 0, func() { log = append(log, "c") })
			s.Run()
			return log, []string{"a", "c"}
		}, 2},
		{"stale handle does not cancel a reused slot", func(t *testing.T, s *Sim) ([]string, []string) {
			var log []string
			a := s.At(1, 0, func() { log = append(log, "a") })
			s.Run()
			b := s.At(2, 0, func() { log = append(log, "b") }) // reuses a's slot
			if a.slot != b.slot {
				t.Fatalf("test premise: b did not reuse a's slot")
			}
			if s.Cancel(a) {
				t.Error("stale handle cancelled a later event")
			}
			if !s.Scheduled(b) {
				t.Error("b not scheduled")
			}
			s.Run()
			return log, []string{"a", "b"}
		}, 2},
		{"zero and foreign handles", func(t *testing.T, s *Sim) ([]string, []string) {
			s.At(1, 0, nil)
			if s.Cancel(Event{}) {
				t.Error("Cancel(Event{}) returned true")
			}
			if s.Cancel(Event{slot: 99, gen: 1}) {
				t.Error("Cancel of an out-of-range slot returned true")
			}
			s.Run()
			return nil, nil
		}, 1},
		{"cancel everything", func(t *testing.T, s *Sim) ([]string, []string) {
			var log []string
			var evs []Event
			for i := range 20 {
				evs = append(evs, s.At(int64(i%7), i%3, func() { log = append(log, "x") }))
			}
			for i := len(evs) - 1; i >= 0; i -= 2 {
				s.Cancel(evs[i])
			}
			for i := 0; i < len(evs); i += 2 {
				s.Cancel(evs[i])
			}
			if s.Pending() != 0 {
				t.Errorf("Pending() = %d after cancelling all", s.Pending())
			}
			s.Run()
			if s.Now() != 0 {
				t.Errorf("Now() = %d, want 0: cancelled events must not move the clock", s.Now())
			}
			return log, nil
		}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := New()
			got, want := tc.run(t, s)
			if !slices.Equal(got, want) {
				t.Errorf("ran %v, want %v", got, want)
			}
			if s.Events() != tc.events {
				t.Errorf("Events() = %d, want %d", s.Events(), tc.events)
			}
		})
	}
}

func TestRunUntil(t *testing.T) {
	type step struct {
		until       int64
		wantRan     []int64 // times of the events run by this RunUntil
		wantNow     int64
		wantPending int
	}
	tests := []struct {
		name  string
		times []int64
		steps []step
	}{
		{"bound inclusive, later events stay", []int64{5, 10, 10, 11}, []step{
			{9, []int64{5}, 9, 3},
			{10, []int64{10, 10}, 10, 1},
			{10, nil, 10, 1},
			{100, []int64{11}, 100, 0},
		}},
		{"empty queue still moves the clock", nil, []step{{0, nil, 0, 0}, {42, nil, 42, 0}}},
		{"bound before every event", []int64{7}, []step{{6, nil, 6, 1}, {7, []int64{7}, 7, 0}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := New()
			var ran []int64
			for _, at := range tc.times {
				s.At(at, 0, func() { ran = append(ran, s.Now()) })
			}
			for _, st := range tc.steps {
				ran = ran[:0]
				s.RunUntil(st.until)
				if !slices.Equal(ran, st.wantRan) {
					t.Errorf("RunUntil(%d) ran %v, want %v", st.until, ran, st.wantRan)
				}
				if s.Now() != st.wantNow || s.Pending() != st.wantPending {
					t.Errorf("RunUntil(%d): Now %d Pending %d, want %d %d", st.until, s.Now(), s.Pending(), st.wantNow, st.wantPending)
				}
			}
		})
	}

	t.Run("events scheduled along the way up to the bound run", func(t *testing.T) {
		s := New()
		var ran []int64
		var tick func()
		tick = func() {
			ran = append(ran, s.Now())
			s.After(3, 0, tick)
		}
		s.At(0, 0, tick)
		s.RunUntil(9)
		if want := []int64{0, 3, 6, 9}; !slices.Equal(ran, want) {
			t.Errorf("ran at %v, want %v", ran, want)
		}
		if next, ok := s.NextTime(); !ok || next != 12 {
			t.Errorf("NextTime() = %d, %v, want 12, true", next, ok)
		}
		// Scheduling relative to the bound, not to the last event.
		s.After(1, 0, nil)
		if next, _ := s.NextTime(); next != 10 {
			t.Errorf("After(1) following RunUntil(9) is at %d, want 10", next)
		}
	})
}

func TestStep(t *testing.T) {
	s := New()
	if s.Step() {
		t.Fatal("Step on an empty Sim returned true")
	}
	if _, ok := s.NextTime(); ok {
		t.Fatal("NextTime on an empty Sim reported an event")
	}
	s.At(4, 0, nil) // nil callback: only moves the clock
	s.At(2, 0, nil)
	for _, want := range []int64{2, 4} {
		if !s.Step() || s.Now() != want {
			t.Fatalf("Step: Now() = %d, want %d", s.Now(), want)
		}
	}
	if s.Step() || s.Now() != 4 || s.Events() != 2 {
		t.Fatalf("after draining: Now %d Events %d, want 4 2", s.Now(), s.Events())
	}
}

func TestPanics(t *testing.T) {
	at10 := func() *Sim {
		s := New()
		s.RunUntil(10)
		return s
	}
	tests := []struct {
		name string
		want string
		f    func()
	}{
		{"At in the past", "At(9) with Now() = 10", func() { at10().At(9, 0, nil) }},
		{"After negative", "After(-1) with Now() = 10", func() { at10().After(-1, 0, nil) }},
		{"After overflowing the clock", "After(", func() { at10().After(math.MaxInt64, 0, nil) }},
		{"RunUntil in the past", "RunUntil(3) is in the past", func() { at10().RunUntil(3) }},
		{"Release with nothing held", "no unit in use", func() {
			r, _ := NewResource(New(), 1)
			r.Release()
		}},
		{"TimeWeighted backwards", "before its last update", func() {
			var w TimeWeighted
			w.Set(5, 1)
			w.Set(4, 2)
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { mustPanic(t, tc.want, tc.f) })
	}

	// Scheduling exactly at Now is fine.
	s := at10()
	s.At(10, 0, nil)
	s.After(0, 0, nil)
	s.Run()
	if s.Events() != 2 {
		t.Errorf("events at Now: ran %d, want 2", s.Events())
	}
}

// oracleEvent is a pending event in the sorted-slice oracle.
type oracleEvent struct {
	t    int64
	prio int
	seq  int
	id   int
}

func oracleCmp(a, b oracleEvent) int {
	return cmp.Or(cmp.Compare(a.t, b.t), cmp.Compare(a.prio, b.prio), cmp.Compare(a.seq, b.seq))
}

// TestHeapAgainstOracle drives the Sim with random schedules, cancels and
// steps and checks every observable against a sorted slice of pending events.
func TestHeapAgainstOracle(t *testing.T) {
	ops := 200_000
	if testing.Short() {
		ops = 20_000
	}
	for _, seed := range []uint64{1, 2, 3} {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 0x5eed))
			s := New()
			var oracle []oracleEvent // kept sorted
			var handles []Event      // by id; some stale
			ran := -1
			seq := 0
			// Vary the pressure so the heap grows, shrinks and empties.
			for op := range ops {
				phase := (op / 5000) % 3 // 0: grow, 1: balanced, 2: drain
				x := rng.IntN(100)
				scheduleP, cancelP := []int{60, 40, 15}[phase], []int{15, 20, 15}[phase]
				switch {
				case x < scheduleP:
					ev := oracleEvent{
						t:    s.Now() + rng.Int64N(40), // narrow window: many ties
						prio: rng.IntN(5) - 2,
						seq:  seq,
						id:   len(handles),
					}
					seq++
					id := ev.id
					handles = append(handles, s.At(ev.t, ev.prio, func() { ran = id }))
					i, _ := slices.BinarySearchFunc(oracle, ev, oracleCmp)
					oracle = slices.Insert(oracle, i, ev)
				case x < scheduleP+cancelP && len(handles) > 0:
					id := rng.IntN(len(handles))
					i := slices.IndexFunc(oracle, func(e oracleEvent) bool { return e.id == id })
					if got, want := s.Cancel(handles[id]), i >= 0; got != want {
						t.Fatalf("op %d: Cancel(id %d) = %v, want %v", op, id, got, want)
					}
					if i >= 0 {
						oracle = slices.Delete(oracle, i, i+1)
					}
				default:
					ran = -1
					stepped := s.Step()
					if stepped != (len(oracle) > 0) {
						t.Fatalf("op %d: Step() = %v with %d pending in the oracle", op, stepped, len(oracle))
					}
					if stepped {
						want := oracle[0]
						oracle = oracle[1:]
						if ran != want.id || s.Now() != want.t {
							t.Fatalf("op %d: ran id %d at %d, want id %d at %d", op, ran, s.Now(), want.id, want.t)
						}
					}
				}
				if s.Pending() != len(oracle) {
					t.Fatalf("op %d: Pending() = %d, oracle %d", op, s.Pending(), len(oracle))
				}
				if next, ok := s.NextTime(); ok != (len(oracle) > 0) || ok && next != oracle[0].t {
					t.Fatalf("op %d: NextTime() = %d, %v, oracle %v", op, next, ok, oracle[:min(1, len(oracle))])
				}
			}
			s.Run()
		})
	}
}

// script runs a small randomized model (sources, a Resource, a Store,
// cancellations) and returns its trace.
func script(seed uint64) []string {
	rng := rand.New(rand.NewPCG(seed, 0xd37e))
	s := New()
	res, _ := NewResource(s, 2)
	q, _ := NewStore[int](s, 3)
	var trace []string
	logf := func(format string, args ...any) {
		trace = append(trace, fmt.Sprintf("%d ", s.Now())+fmt.Sprintf(format, args...))
	}
	var timers []Event
	for job := range 40 {
		arrive := rng.Int64N(100)
		hold := 1 + rng.Int64N(10)
		s.At(arrive, rng.IntN(3), func() {
			logf("arrive %d", job)
			res.Request(func() {
				logf("grant %d", job)
				s.After(hold, 0, func() {
					res.Release()
					logf("release %d", job)
					q.Put(job, func() { logf("stored %d", job) })
				})
			})
		})
		timers = append(timers, s.At(rng.Int64N(200), 0, func() { logf("timer %d", job) }))
	}
	for range 40 {
		s.At(rng.Int64N(150), 1, func() { q.Get(func(v int) { logf("got %d", v) }) })
	}
	for _, e := range timers {
		if rng.IntN(2) == 0 {
			s.Cancel(e)
		}
	}
	s.Run()
	logf("end events=%d busy=%d util=%.6f meanq=%.6f meanlen=%.6f", s.Events(), res.BusyTime(), res.Utilization(), res.MeanQueue(), q.MeanLen())
	return trace
}

func TestDeterminism(t *testing.T) {
	a, b := script(7), script(7)
	if !slices.Equal(a, b) {
		for i := range min(len(a), len(b)) {
			if a[i] != b[i] {
				t.Fatalf("runs diverge at line %d: %q vs %q", i, a[i], b[i])
			}
		}
		t.Fatalf("runs differ in length: %d vs %d", len(a), len(b))
	}
	if len(a) < 200 {
		t.Fatalf("trace has only %d lines; the script did not exercise the model", len(a))
	}
	if c := script(8); slices.Equal(a, c) {
		t.Fatal("different seeds gave identical traces; the script ignores its seed")
	}
}

// TestZeroAllocs checks the steady state of the hot paths allocates nothing.
func TestZeroAllocs(t *testing.T) {
	s := New()
	fn := func() {}
	for i := range 1000 {
		s.After(int64(i%97), i%3, fn)
	}
	r, _ := NewResource(s, 2)
	q, _ := NewStore[int](s, 2)
	get := func(int) {}
	i := 0
	tests := []struct {
		name string
		f    func()
	}{
		{"schedule+step", func() {
			s.After(int64(i%97), i%3, fn)
			s.Step()
			i++
		}},
		{"schedule+cancel", func() {
			s.Cancel(s.After(int64(i%97), 0, fn))
			i++
		}},
		{"resource", func() {
			// Three requests on two units: one waits, then hand-off.
			r.Request(fn)
			r.Request(fn)
			r.Request(fn)
			r.Release()
			r.Release()
			r.Release()
			s.RunUntil(s.Now())
		}},
		{"store", func() {
			q.Get(get) // blocks
			q.Put(1, fn)
			q.Put(2, fn)
			q.Put(3, fn)
			q.Put(4, fn) // blocks
			q.Get(get)
			q.Get(get)
			q.Get(get)
			s.RunUntil(s.Now())
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.f() // grow to the peak sizes first
			if n := testing.AllocsPerRun(1000, tc.f); n != 0 {
				t.Errorf("%.1f allocs per run, want 0", n)
			}
		})
	}
}
