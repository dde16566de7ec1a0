package sim

import (
	"fmt"
	"slices"
	"testing"
)

func TestNewStoreErrors(t *testing.T) {
	for _, c := range []int{0, -3} {
		if q, err := NewStore[int](New(), c); err == nil || q != nil {
			t.Errorf("NewStore(capacity %d) = %v, %v; want an error", c, q, err)
		}
	}
	if _, err := NewStore[string](nil, 1); err == nil {
		t.Error("NewStore(nil Sim) returned no error")
	}
}

// TestStoreBlocking runs scripts of Puts and Gets and checks when each
// completes, against timelines worked out by hand.
func TestStoreBlocking(t *testing.T) {
	type op struct {
		t   int64
		put bool
		v   int // item for a Put
	}
	tests := []struct {
		name     string
		capacity int
		ops      []op
		want     []string // "time put v" when a Put is accepted, "time got v"
		wantEnd  int64
		wantLen  int
		wantMean float64
		wantMax  int
	}{
		{
			// Puts 3 and 4 block until Gets make room.
			// Len: 2 on [0,30), 1 on [30,40): mean (60+10)/40.
			name: "put blocks while full", capacity: 2,
			ops: []op{{0, true, 1}, {0, true, 2}, {0, true, 3}, {0, true, 4},
				{10, false, 0}, {20, false, 0}, {30, false, 0}, {40, false, 0}},
			want: []string{"0 put 1", "0 put 2", "10 got 1", "10 put 3", "20 got 2", "20 put 4",
				"30 got 3", "40 got 4"},
			wantEnd: 40, wantLen: 0, wantMean: 70.0 / 40, wantMax: 2,
		},
		{
			// Gets wait in order; Puts pass items straight to them.
			// Len: 1 on [8,12) and from 12 on (d replaces c): mean 4/12.
			name: "get blocks while empty", capacity: 1,
			ops: []op{{0, false, 0}, {0, false, 0}, {5, true, 10}, {7, true, 11},
				{8, true, 12}, {9, true, 13}, {12, false, 0}},
			want: []string{"5 got 10", "5 put 10", "7 got 11", "7 put 11", "8 put 12",
				"12 got 12", "12 put 13"},
			wantEnd: 12, wantLen: 1, wantMean: 4.0 / 12, wantMax: 1,
		},
		{
			// Several deliveries in one cycle keep FIFO order between
			// items and waiting Gets. Len: 0 on [0,1), 3 on [1,2): mean 1.5.
			name: "same-cycle bursts", capacity: 3,
			ops: []op{{1, false, 0}, {1, false, 0}, {1, true, 1}, {1, true, 2}, {1, true, 3},
				{1, true, 4}, {1, true, 5}, {1, true, 6}, {2, false, 0}, {2, false, 0}},
			want: []string{"1 got 1", "1 put 1", "1 got 2", "1 put 2", "1 put 3", "1 put 4",
				"1 put 5", "2 got 3", "2 put 6", "2 got 4"},
			wantEnd: 2, wantLen: 2, wantMean: 1.5, wantMax: 3,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := New()
			q, err := NewStore[int](s, tc.capacity)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, o := range tc.ops {
				s.At(o.t, 0, func() {
					if o.put {
						q.Put(o.v, func() { got = append(got, fmt.Sprintf("%d put %d", s.Now(), o.v)) })
						return
					}
					q.Get(func(v int) { got = append(got, fmt.Sprintf("%d got %d", s.Now(), v)) })
				})
			}
			s.Run()
			if !slices.Equal(got, tc.want) {
				t.Errorf("log\n%q\nwant\n%q", got, tc.want)
			}
			if s.Now() != tc.wantEnd || q.Len() != tc.wantLen {
				t.Errorf("end %d Len %d, want %d %d", s.Now(), q.Len(), tc.wantEnd, tc.wantLen)
			}
			if q.BlockedPuts() != 0 || q.BlockedGets() != 0 {
				t.Errorf("blocked at the end: %d puts, %d gets", q.BlockedPuts(), q.BlockedGets())
			}
			if q.MeanLen() != tc.wantMean || q.MaxLen() != tc.wantMax {
				t.Errorf("MeanLen %v MaxLen %d, want %v %d", q.MeanLen(), q.MaxLen(), tc.wantMean, tc.wantMax)
			}
		})
	}
}

func TestStoreWaitersAndCallbacksAreEvents(t *testing.T) {
	s := New()
	q, _ := NewStore[string](s, 1)
	var got []string
	q.Put("a", func() { got = append(got, "put a") })
	q.Put("b", func() { got = append(got, "put b") }) // blocks
	q.Get(func(v string) { got = append(got, "got "+v) })
	q.Get(nil)                                            // discards "b"
	q.Get(func(v string) { got = append(got, "got "+v) }) // blocks
	if len(got) != 0 {
		t.Fatalf("callbacks ran inside Put/Get: %v", got)
	}
	if q.BlockedGets() != 1 || q.BlockedPuts() != 0 || q.Len() != 0 {
		t.Fatalf("BlockedGets %d BlockedPuts %d Len %d, want 1 0 0", q.BlockedGets(), q.BlockedPuts(), q.Len())
	}
	q.Put("c", nil)
	s.Run()
	want := []string{"put a", "got a", "put b", "got c"}
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}
