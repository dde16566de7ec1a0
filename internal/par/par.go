package par

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// For calls f(i) for every i in [0, n) on up to workers goroutines, the
// calling one among them, and returns when every call has returned.
// workers <= 0 means runtime.GOMAXPROCS(0). With one worker (or n == 1) the
// calls run on the calling goroutine in order 0, 1, ..., n-1.
//
// Indices are handed out in increasing order, one at a time, so a goroutine
// the OS delays holds up at most one of them. Once a call has failed no new
// index is handed out; For waits for the calls in flight and returns the
// error of the lowest index that failed. Every index below a handed-out one
// was handed out before it and calls in flight always finish, so if whether
// f(i) fails depends only on i, that is the error a serial loop would
// return, whatever workers is and however the goroutines are scheduled.
//
// f must be safe to call concurrently; to keep results independent of
// scheduling it should write only to state of its own index. A panic in f
// is not recovered.
func For(n, workers int, f func(i int) error) error {
	if n <= 0 {
		return nil
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if workers = min(workers, n); workers == 1 {
		for i := range n {
			if err := f(i); err != nil {
				return err
			}
		}
		return nil
	}
	l := &loop{n: n, f: f, low: n}
	l.wg.Add(workers - 1)
	for range workers - 1 {
		go l.work()
	}
	l.run()
	l.wg.Wait()
	return l.err
}

// loop is the state For's goroutines share, in one allocation.
type loop struct {
	n      int
	f      func(i int) error
	next   atomic.Int64 // next index to hand out
	failed atomic.Bool  // set after the first failure: hand out no more
	mu     sync.Mutex   // guards low and err
	low    int          // lowest failed index so far; n if none
	err    error        // its error
	wg     sync.WaitGroup
}

// work runs the loop on a goroutine of its own. (A go statement on a
// method saves the closure and method value wg.Go would allocate.)
func (l *loop) work() {
	defer l.wg.Done()
	l.run()
}

func (l *loop) run() {
	for !l.failed.Load() {
		i := int(l.next.Add(1) - 1)
		if i >= l.n {
			return
		}
		if err := l.f(i); err != nil {
			l.mu.Lock()
			if i < l.low {
				l.low, l.err = i, err
			}
			l.mu.Unlock()
			l.failed.Store(true)
		}
	}
}
