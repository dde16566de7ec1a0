package par

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync/atomic"
	"testing"
	"time"
)

func TestForVisitsEveryIndexOnce(t *testing.T) {
	for _, n := range []int{-3, 0, 1, 2, 7, 1000} {
		for _, workers := range []int{-1, 0, 1, 2, 3, 8, 2000} {
			t.Run(fmt.Sprintf("n=%d/workers=%d", n, workers), func(t *testing.T) {
				calls := make([]atomic.Int32, max(n, 0))
				err := For(n, workers, func(i int) error {
					calls[i].Add(1)
					return nil
				})
				if err != nil {
					t.Fatalf("For returned %v, want nil", err)
				}
				for i := range calls {
					if c := calls[i].Load(); c != 1 {
						t.Fatalf("index %d called %d times, want 1", i, c)
					}
				}
			})
		}
	}
}

func TestForSerialOrder(t *testing.T) {
	for _, n := range []int{1, 5, 100} {
		var order []int // no lock: one worker must call f from one goroutine
		if err := For(n, 1, func(i int) error {
			order = append(order, i)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		want := make([]int, n)
		for i := range want {
			want[i] = i
		}
		if !slices.Equal(order, want) {
			t.Fatalf("n=%d: order %v, want 0..%d", n, order, n-1)
		}
	}
}

func TestForSerialStopsAtFirstError(t *testing.T) {
	var order []int
	err := For(10, 1, func(i int) error {
		order = append(order, i)
		if i == 5 || i == 7 {
			return fmt.Errorf("fail %d", i)
		}
		return nil
	})
	if err == nil || err.Error() != "fail 5" {
		t.Fatalf("err %v, want fail 5", err)
	}
	if !slices.Equal(order, []int{0, 1, 2, 3, 4, 5}) {
		t.Fatalf("called %v, want 0..5", order)
	}
}

// TestForLowestError makes several indices fail, the later ones faster, on
// many goroutines: For must report the lowest one every time, and must have
// run every index below it.
func TestForLowestError(t *testing.T) {
	const n = 400
	failing := map[int]bool{57: true, 58: true, 200: true, 399: true}
	for _, workers := range []int{2, 3, 16, 64} {
		for rep := range 20 {
			var calls [n]atomic.Int32
			err := For(n, workers, func(i int) error {
				calls[i].Add(1)
				if (i+rep)%7 == 0 {
					runtime.Gosched() // shuffle the interleaving between reps
				}
				if failing[i] {
					if i == 57 {
						time.Sleep(time.Millisecond) // the lowest fails last
					}
					return fmt.Errorf("index %d failed", i)
				}
				return nil
			})
			if err == nil || err.Error() != "index 57 failed" {
				t.Fatalf("workers=%d rep %d: err %v, want index 57's", workers, rep, err)
			}
			for i := range 57 {
				if c := calls[i].Load(); c != 1 {
					t.Fatalf("workers=%d: index %d below the failure called %d times, want 1", workers, i, c)
				}
			}
			for i := range calls {
				if c := calls[i].Load(); c > 1 {
					t.Fatalf("workers=%d: index %d called %d times", workers, i, c)
				}
			}
		}
	}
}

// TestForStopsAfterError checks that no new index is handed out after a
// failure: with slow iterations, only those in flight may still run.
func TestForStopsAfterError(t *testing.T) {
	const n = 100000
	const workers = 4
	var calls atomic.Int32
	boom := errors.New("boom")
	err := For(n, workers, func(i int) error {
		calls.Add(1)
		if i == 10 {
			return boom
		}
		time.Sleep(20 * time.Microsecond)
		return nil
	})
	if !errors.Is(err, boom) {
		t.Fatalf("err %v, want boom", err)
	}
	// 11 indices up to the failure plus at most one more per goroutine in
	// flight; a generous bound keeps the test robust on a loaded machine.
	if c := calls.Load(); c > 1000 {
		t.Fatalf("%d calls after a failure at index 10, want the loop to stop", c)
	}
}

// TestForRunsConcurrently checks that two workers do run at once: each of
// the two calls waits for the other to have started.
func TestForRunsConcurrently(t *testing.T) {
	var started [2]chan struct{}
	for i := range started {
		started[i] = make(chan struct{})
	}
	err := For(2, 2, func(i int) error {
		close(started[i])
		select {
		case <-started[1-i]:
			return nil
		case <-time.After(10 * time.Second):
			return fmt.Errorf("index %d ran alone", i)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
}

var sink atomic.Int64

// BenchmarkFor measures For's overhead per index with a trivial body.
func BenchmarkFor(b *testing.B) {
	for _, n := range []int{16, 1024} {
		for _, workers := range []int{1, 2, 0} {
			b.Run(fmt.Sprintf("n=%d/workers=%d", n, workers), func(b *testing.B) {
				b.ReportAllocs()
				out := make([]int64, n)
				for b.Loop() {
					if err := For(n, workers, func(i int) error {
						out[i] += int64(i)
						return nil
					}); err != nil {
						b.Fatal(err)
					}
				}
				sink.Store(out[n-1])
			})
		}
	}
}
