package sim

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// benchDelays returns a fixed pseudo-random table of delays in [0, 1000), so
// the benchmark loops spend no time drawing random numbers. Its length is a
// power of two for cheap indexing.
func benchDelays() []int64 {
	rng := rand.New(rand.NewPCG(1, 2))
	d := make([]int64, 1<<12)
	for i := range d {
		d[i] = rng.Int64N(1000)
	}
	return d
}

// BenchmarkSchedulePop is the acceptance benchmark: with n events pending,
// schedule one event and run one, repeatedly. One op = one event scheduled
// and executed; the Mevents/s metric is events executed per second.
func BenchmarkSchedulePop(b *testing.B) {
	for _, pending := range []int{10, 1000, 100_000} {
		b.Run(fmt.Sprintf("pending=%d", pending), func(b *testing.B) {
			d := benchDelays()
			mask := len(d) - 1
			s := New()
			fn := func() {}
			for i := range pending {
				s.After(d[i&mask], i&3, fn)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				s.After(d[i&mask], i&3, fn)
				s.Step()
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds()/1e6, "Mevents/s")
		})
	}
}

// BenchmarkScheduleCancel schedules and cancels one event per op with 1000
// pending: the cost of a timeout that never fires.
func BenchmarkScheduleCancel(b *testing.B) {
	d := benchDelays()
	mask := len(d) - 1
	s := New()
	fn := func() {}
	for i := range 1000 {
		s.After(d[i&mask], 0, fn)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.Cancel(s.After(d[i&mask], 0, fn))
	}
}

// BenchmarkResource runs a closed system: 8 workers share a 4-unit
// Resource, each looping request, hold (pseudo-random 0..9 cycles), release,
// pause (0..4 cycles). One op = one event executed.
func BenchmarkResource(b *testing.B) {
	d := benchDelays()
	mask := len(d) - 1
	s := New()
	r, _ := NewResource(s, 4)
	k := 0
	var request, grant, release func()
	request = func() { r.Request(grant) }
	grant = func() { k++; s.After(d[k&mask]%10, 0, release) }
	release = func() { r.Release(); k++; s.After(d[k&mask]%5, 0, request) }
	for range 8 {
		s.After(0, 0, request)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.Step()
	}
	b.StopTimer()
	if r.Grants() == 0 {
		b.Fatal("no grants")
	}
}

// BenchmarkStore runs a producer and a consumer through a 4-slot Store: the
// producer puts an item, waits 0..2 cycles after it is accepted and puts the
// next; the consumer gets one, waits 0..3 cycles and gets the next. One op =
// one event executed.
func BenchmarkStore(b *testing.B) {
	d := benchDelays()
	mask := len(d) - 1
	s := New()
	q, _ := NewStore[int](s, 4)
	k, sum := 0, 0
	var put, get, accepted func()
	var consume func(int)
	put = func() { k++; q.Put(k, accepted) }
	accepted = func() { s.After(d[k&mask]%3, 0, put) }
	get = func() { q.Get(consume) }
	consume = func(v int) { sum += v; s.After(d[v&mask]%4, 0, get) }
	s.After(0, 0, put)
	s.After(0, 0, get)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.Step()
	}
	b.StopTimer()
	if b.N > 100 && sum == 0 {
		b.Fatal("no items delivered")
	}
}
