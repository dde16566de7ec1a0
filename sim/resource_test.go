package sim

import (
	"slices"
	"testing"
)

func TestNewResourceErrors(t *testing.T) {
	for _, c := range []int{0, -1} {
		if r, err := NewResource(New(), c); err == nil || r != nil {
			t.Errorf("NewResource(capacity %d) = %v, %v; want an error", c, r, err)
		}
	}
	if _, err := NewResource(nil, 1); err == nil {
		t.Error("NewResource(nil Sim) returned no error")
	}
}

// TestResourceTimeline runs jobs that each hold one unit for a while and
// checks grant and finish times and the statistics against timelines worked
// out by hand (see the comments).
func TestResourceTimeline(t *testing.T) {
	type job struct{ arrive, hold int64 }
	tests := []struct {
		name       string
		capacity   int
		jobs       []job
		wantGrant  []int64
		wantFinish []int64
		wantEnd    int64
		wantBusy   int64 // integral of units in use
		wantQueue  int64 // integral of waiting requests
		wantMaxQ   int
	}{
		{
			// t0: j0,j1 granted. t1: j2 waits. t2: j3 waits (queue 2).
			// t5: j1 done, j2 granted. t10: j0 done, j3 granted.
			// t12: j2 done (1 in use). t13: j3 done.
			// busy: 2*12 + 1*1 = 25. queue: 1*1 + 2*3 + 1*5 = 12.
			name: "two units, two waiters", capacity: 2,
			jobs:      []job{{0, 10}, {0, 5}, {1, 7}, {2, 3}},
			wantGrant: []int64{0, 0, 5, 10}, wantFinish: []int64{10, 5, 12, 13},
			wantEnd: 13, wantBusy: 25, wantQueue: 12, wantMaxQ: 2,
		},
		{
			// t0: j0 until 4. t1: j1, j2 wait in arrival order.
			// t4: j1 until 6. t6: j2 until 9. idle 9..10. t10: j3 until 11.
			// busy: 9 + 1 = 10. queue: 2*3 + 1*2 = 8.
			name: "one unit, FIFO among simultaneous arrivals", capacity: 1,
			jobs:      []job{{0, 4}, {1, 2}, {1, 3}, {10, 1}},
			wantGrant: []int64{0, 4, 6, 10}, wantFinish: []int64{4, 6, 9, 11},
			wantEnd: 11, wantBusy: 10, wantQueue: 8, wantMaxQ: 2,
		},
		{
			// No contention. In use: 1 on [0,2), 2 on [2,4), 3 on [4,5),
			// 1 on [5,7). busy: 2 + 4 + 3 + 2 = 11.
			name: "three units, no waiting", capacity: 3,
			jobs:      []job{{0, 5}, {2, 5}, {4, 1}},
			wantGrant: []int64{0, 2, 4}, wantFinish: []int64{5, 7, 5},
			wantEnd: 7, wantBusy: 11, wantQueue: 0, wantMaxQ: 0,
		},
		{
			// A zero hold releases in the grant cycle; the next waiter
			// is granted in that same cycle.
			name: "zero-length holds", capacity: 1,
			jobs:      []job{{3, 0}, {3, 0}, {3, 2}},
			wantGrant: []int64{3, 3, 3}, wantFinish: []int64{3, 3, 5},
			wantEnd: 5, wantBusy: 2, wantQueue: 0, wantMaxQ: 2,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := New()
			r, err := NewResource(s, tc.capacity)
			if err != nil {
				t.Fatal(err)
			}
			grant := make([]int64, len(tc.jobs))
			finish := make([]int64, len(tc.jobs))
			for i, j := range tc.jobs {
				s.At(j.arrive, 0, func() {
					r.Request(func() {
						grant[i] = s.Now()
						if r.InUse() > r.Cap() {
							t.Errorf("InUse %d > Cap %d", r.InUse(), r.Cap())
						}
						s.After(j.hold, 0, func() {
							finish[i] = s.Now()
							r.Release()
						})
					})
				})
			}
			s.Run()
			if !slices.Equal(grant, tc.wantGrant) || !slices.Equal(finish, tc.wantFinish) {
				t.Errorf("grants %v finishes %v, want %v %v", grant, finish, tc.wantGrant, tc.wantFinish)
			}
			if s.Now() != tc.wantEnd {
				t.Errorf("end %d, want %d", s.Now(), tc.wantEnd)
			}
			if r.InUse() != 0 || r.Queued() != 0 || r.Grants() != uint64(len(tc.jobs)) {
				t.Errorf("InUse %d Queued %d Grants %d at the end", r.InUse(), r.Queued(), r.Grants())
			}
			if r.BusyTime() != tc.wantBusy {
				t.Errorf("BusyTime %d, want %d", r.BusyTime(), tc.wantBusy)
			}
			wantUtil := float64(tc.wantBusy) / float64(int64(tc.capacity)*tc.wantEnd)
			if r.Utilization() != wantUtil {
				t.Errorf("Utilization %v, want %v", r.Utilization(), wantUtil)
			}
			if want := float64(tc.wantQueue) / float64(tc.wantEnd); r.MeanQueue() != want {
				t.Errorf("MeanQueue %v, want %v", r.MeanQueue(), want)
			}
			if r.MaxQueue() != tc.wantMaxQ {
				t.Errorf("MaxQueue %d, want %d", r.MaxQueue(), tc.wantMaxQ)
			}
		})
	}
}

func TestResourceGrantIsAnEvent(t *testing.T) {
	s := New()
	r, _ := NewResource(s, 1)
	ran := false
	r.Request(func() { ran = true })
	if ran {
		t.Fatal("grant callback ran inside Request")
	}
	if r.InUse() != 1 || s.Pending() != 1 {
		t.Fatalf("after Request: InUse %d Pending %d, want 1 1", r.InUse(), s.Pending())
	}
	s.Run()
	if !ran || s.Events() != 1 {
		t.Fatalf("ran %v Events %d, want true 1", ran, s.Events())
	}
	r.Request(nil) // waits: the unit is still held
	if r.Queued() != 1 {
		t.Fatalf("Queued %d, want 1", r.Queued())
	}
	r.Release() // hands the unit to the waiter
	if r.InUse() != 1 || r.Queued() != 0 {
		t.Fatalf("after hand-off: InUse %d Queued %d, want 1 0", r.InUse(), r.Queued())
	}
}

func TestResourceResetStats(t *testing.T) {
	s := New()
	s.RunUntil(100) // statistics start when the Resource is made
	r, _ := NewResource(s, 2)
	r.Request(nil)
	s.At(105, 0, r.ResetStats)
	s.At(110, 0, func() { r.Request(nil) })
	s.RunUntil(120)
	// Since the reset at 105: 1 unit on [105,110), 2 on [110,120).
	if got, want := r.BusyTime(), int64(5+20); got != want {
		t.Errorf("BusyTime %d, want %d", got, want)
	}
	if got, want := r.Utilization(), 25.0/(2*15); got != want {
		t.Errorf("Utilization %v, want %v", got, want)
	}
	fresh, _ := NewResource(s, 1)
	if fresh.Utilization() != 0 || fresh.MeanQueue() != 0 {
		t.Errorf("no elapsed time: Utilization %v MeanQueue %v, want 0 0", fresh.Utilization(), fresh.MeanQueue())
	}
}
