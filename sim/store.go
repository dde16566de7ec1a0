package sim

import (
	"errors"
	"fmt"
)

// Store is a bounded FIFO of items of type T (ping-pong buffers, queues
// between pipeline stages) with blocking Put and Get.
//
// A Put into a full Store waits until a Get makes room; a Get from an empty
// Store waits until a Put supplies an item. Waiting Puts and Gets are each
// served first come, first served, and items leave in the order they were
// accepted. As with Resource, callbacks run as events at the cycle the
// operation completes, with priority 0, never inside Put or Get.
type Store[T any] struct {
	s        *Sim
	capacity int
	items    ring[T]
	putters  ring[blockedPut[T]]
	getters  ring[func(T)]

	// Deliveries to getters wait here for their event: scheduling a closure
	// that captures the item would allocate on every Get. Every delivery
	// event is scheduled at the current cycle with priority 0, so they run in
	// the order they were queued.
	ready   ring[delivery[T]]
	deliver func()

	level TimeWeighted // items held
}

type blockedPut[T any] struct {
	item T
	fn   func()
}

type delivery[T any] struct {
	fn   func(T)
	item T
}

// NewStore returns an empty Store holding at most capacity items on s. Its
// statistics start at s.Now().
func NewStore[T any](s *Sim, capacity int) (*Store[T], error) {
	if s == nil {
		return nil, errors.New("sim: NewStore: nil Sim")
	}
	if capacity <= 0 {
		return nil, fmt.Errorf("sim: NewStore: capacity %d, want > 0", capacity)
	}
	q := &Store[T]{s: s, capacity: capacity}
	q.deliver = q.runDelivery
	q.ResetStats()
	return q, nil
}

// Put offers item. fn runs, as an event, once the item has been accepted:
// at once when the Store has room or a Get is waiting, otherwise when a Get
// makes room. A nil fn accepts the item without a callback.
func (q *Store[T]) Put(item T, fn func()) {
	switch {
	case q.getters.len() > 0:
		// A waiting Get implies an empty Store: pass the item straight on.
		q.handTo(q.getters.pop(), item)
	case q.items.len() < q.capacity:
		q.items.push(item)
		q.level.Set(q.s.now, int64(q.items.len()))
	default:
		q.putters.push(blockedPut[T]{item, fn})
		return
	}
	q.s.schedule(q.s.now, 0, fn)
}

// Get takes the oldest item. fn runs with it, as an event, once one is
// available: at once when the Store holds an item, otherwise when a Put
// supplies one. A nil fn discards the item.
func (q *Store[T]) Get(fn func(T)) {
	if q.items.len() == 0 {
		// An empty Store has no blocked Puts: they are admitted as room
		// appears, and an empty Store has room.
		q.getters.push(fn)
		return
	}
	item := q.items.pop()
	q.handTo(fn, item)
	if q.putters.len() > 0 {
		p := q.putters.pop()
		q.items.push(p.item)
		q.s.schedule(q.s.now, 0, p.fn)
	}
	q.level.Set(q.s.now, int64(q.items.len()))
}

func (q *Store[T]) handTo(fn func(T), item T) {
	q.ready.push(delivery[T]{fn, item})
	q.s.schedule(q.s.now, 0, q.deliver)
}

func (q *Store[T]) runDelivery() {
	d := q.ready.pop()
	if d.fn != nil {
		d.fn(d.item)
	}
}

// Len returns the number of items held.
func (q *Store[T]) Len() int { return q.items.len() }

// Cap returns the capacity.
func (q *Store[T]) Cap() int { return q.capacity }

// BlockedPuts returns the number of Puts waiting for room.
func (q *Store[T]) BlockedPuts() int { return q.putters.len() }

// BlockedGets returns the number of Gets waiting for an item.
func (q *Store[T]) BlockedGets() int { return q.getters.len() }

// MeanLen returns the time-average number of items held since the statistics
// started, or 0 when no time has elapsed.
func (q *Store[T]) MeanLen() float64 { return q.level.Mean(q.s.now) }

// MaxLen returns the largest number of items held since the statistics
// started.
func (q *Store[T]) MaxLen() int { return int(q.level.Max()) }

// ResetStats restarts MeanLen and MaxLen from the current cycle.
func (q *Store[T]) ResetStats() { q.level.Reset(q.s.now) }
