package sim

import "testing"

func TestTimeWeighted(t *testing.T) {
	type upd struct {
		now   int64
		set   bool // Set to v, else Add v
		v     int64
		reset bool
	}
	tests := []struct {
		name     string
		upds     []upd
		at       int64
		wantInt  int64
		wantMean float64
		wantMax  int64
	}{
		{"zero value", nil, 10, 0, 0, 0},
		{"no elapsed time", nil, 0, 0, 0, 0},
		{"steps", []upd{{2, true, 3, false}, {5, false, -1, false}, {9, true, 0, false}}, 10,
			3*3 + 2*4, 17.0 / 10, 3},
		{"several updates in one cycle count only the last", []upd{{4, true, 9, false}, {4, true, 1, false}}, 8,
			4, 0.5, 9},
		{"reset keeps the level", []upd{{0, true, 2, false}, {6, false, 3, false}, {10, false, -4, true}}, 20,
			1 * 10, 1, 5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var w TimeWeighted
			for _, u := range tc.upds {
				switch {
				case u.reset:
					// Reset first, then update, to test the window start.
					w.Reset(u.now)
					w.Add(u.now, u.v)
				case u.set:
					w.Set(u.now, u.v)
				default:
					w.Add(u.now, u.v)
				}
			}
			if got := w.Integral(tc.at); got != tc.wantInt {
				t.Errorf("Integral(%d) = %d, want %d", tc.at, got, tc.wantInt)
			}
			if got := w.Mean(tc.at); got != tc.wantMean {
				t.Errorf("Mean(%d) = %v, want %v", tc.at, got, tc.wantMean)
			}
			if w.Max() != tc.wantMax {
				t.Errorf("Max() = %d, want %d", w.Max(), tc.wantMax)
			}
		})
	}
}

func TestRing(t *testing.T) {
	var r ring[int]
	next, want := 0, 0
	// Interleave pushes and pops so the buffer wraps and grows while
	// wrapped; order must survive.
	for round := range 50 {
		for range round%7 + 2 {
			r.push(next)
			next++
		}
		for range round % 5 {
			if r.len() == 0 {
				break
			}
			if got := r.pop(); got != want {
				t.Fatalf("pop %d, want %d", got, want)
			}
			want++
		}
	}
	for r.len() > 0 {
		if got := r.pop(); got != want {
			t.Fatalf("pop %d, want %d", got, want)
		}
		want++
	}
	if want != next {
		t.Fatalf("popped %d items, pushed %d", want, next)
	}
}
