package sim

import (
	"errors"
	"fmt"
)

// Resource is a pool of identical units (PE groups, ports, DRAM channels)
// with a FIFO queue of waiting requests.
//
// A request is granted at once when a unit is free; otherwise it waits, and
// Release hands the freed unit straight to the oldest waiter, so a unit never
// sits idle while a request waits and later requests cannot overtake earlier
// ones. Granted callbacks run as events at the grant time with priority 0,
// never inside Request or Release: that keeps the order of simultaneous
// events under the kernel's (time, priority, sequence) rule and the call
// stack flat.
//
// The Resource records the number of units in use and the number of waiting
// requests over time, from which BusyTime, Utilization and MeanQueue follow.
type Resource struct {
	s        *Sim
	capacity int
	inUse    int
	waiting  ring[func()]
	grants   uint64
	busy     TimeWeighted // units in use
	queue    TimeWeighted // requests waiting
}

// NewResource returns a Resource of capacity units on s, all free. Its
// statistics start at s.Now().
func NewResource(s *Sim, capacity int) (*Resource, error) {
	if s == nil {
		return nil, errors.New("sim: NewResource: nil Sim")
	}
	if capacity <= 0 {
		return nil, fmt.Errorf("sim: NewResource: capacity %d, want > 0", capacity)
	}
	r := &Resource{s: s, capacity: capacity}
	r.ResetStats()
	return r, nil
}

// Request asks for one unit. fn runs, as an event at the grant time, once the
// unit is held; the holder must call Release exactly once when done. A nil fn
// takes the unit without a callback.
func (r *Resource) Request(fn func()) {
	now := r.s.now
	if r.inUse < r.capacity {
		// A free unit implies an empty queue: Release hands units to waiters
		// before freeing them.
		r.inUse++
		r.busy.Set(now, int64(r.inUse))
		r.grant(fn)
		return
	}
	r.waiting.push(fn)
	r.queue.Set(now, int64(r.waiting.len()))
}

// Release gives back one unit. If requests are waiting, the unit goes to the
// oldest at once (its callback runs as an event at this cycle).
//
// Releasing a Resource with no unit in use panics, like unlocking an unlocked
// sync.Mutex: the model's accounting is broken and every statistic after it
// would be wrong.
func (r *Resource) Release() {
	if r.inUse == 0 {
		panic("sim: Resource.Release with no unit in use")
	}
	now := r.s.now
	if r.waiting.len() > 0 {
		fn := r.waiting.pop()
		r.queue.Set(now, int64(r.waiting.len()))
		r.grant(fn) // the unit changes hands; inUse is unchanged
		return
	}
	r.inUse--
	r.busy.Set(now, int64(r.inUse))
}

func (r *Resource) grant(fn func()) {
	r.grants++
	r.s.schedule(r.s.now, 0, fn)
}

// Cap returns the number of units.
func (r *Resource) Cap() int { return r.capacity }

// InUse returns the number of units held.
func (r *Resource) InUse() int { return r.inUse }

// Queued returns the number of requests waiting for a unit.
func (r *Resource) Queued() int { return r.waiting.len() }

// Grants returns the number of requests granted since the Resource was made
// (not reset by ResetStats).
func (r *Resource) Grants() uint64 { return r.grants }

// BusyTime returns the unit-cycles spent in use since the statistics started:
// the integral of InUse over time.
func (r *Resource) BusyTime() int64 { return r.busy.Integral(r.s.now) }

// Utilization returns BusyTime divided by Cap times the elapsed cycles, in
// [0, 1], or 0 when no time has elapsed.
func (r *Resource) Utilization() float64 {
	return r.busy.Mean(r.s.now) / float64(r.capacity)
}

// MeanQueue returns the time-average number of waiting requests since the
// statistics started, or 0 when no time has elapsed.
func (r *Resource) MeanQueue() float64 { return r.queue.Mean(r.s.now) }

// MaxQueue returns the largest number of waiting requests since the
// statistics started.
func (r *Resource) MaxQueue() int { return int(r.queue.Max()) }

// ResetStats restarts BusyTime, Utilization, MeanQueue and MaxQueue from the
// current cycle, e.g. after a warm-up period.
func (r *Resource) ResetStats() {
	now := r.s.now
	r.busy.Reset(now)
	r.queue.Reset(now)
}
