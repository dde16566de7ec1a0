package sim

import "fmt"

// TimeWeighted accumulates the time integral of an integer level that changes
// at discrete instants and stays constant in between: units of a resource in
// use, requests waiting, items in a buffer. From the integral follow busy
// time, mean level and utilisation.
//
// The zero value tracks a level of 0 from cycle 0. Updates must come in
// non-decreasing time order; an update in the past panics, as scheduling in
// the past does. The integral is kept exactly in an int64, so it overflows
// only past 9.2e18 level-cycles (a level of 1000 for 9.2e15 cycles).
type TimeWeighted struct {
	start int64 // beginning of the observation window
	last  int64 // time of the last update
	value int64 // current level
	max   int64 // largest level since start
	area  int64 // integral of the level over [start, last]
}

// advance adds the area under the current level up to now.
func (w *TimeWeighted) advance(now int64) {
	if now < w.last {
		panic(fmt.Sprintf("sim: TimeWeighted updated at %d, before its last update at %d", now, w.last))
	}
	w.area += w.value * (now - w.last)
	w.last = now
}

// Set changes the level to v at time now.
func (w *TimeWeighted) Set(now, v int64) {
	w.advance(now)
	w.value = v
	w.max = max(w.max, v)
}

// Add changes the level by delta at time now.
func (w *TimeWeighted) Add(now, delta int64) { w.Set(now, w.value+delta) }

// Value returns the current level.
func (w *TimeWeighted) Value() int64 { return w.value }

// Max returns the largest level seen since the window started.
func (w *TimeWeighted) Max() int64 { return w.max }

// Start returns the time the observation window started (0, or the last
// Reset).
func (w *TimeWeighted) Start() int64 { return w.start }

// Integral returns the integral of the level over [Start(), now], in
// level-cycles (for a resource: unit-cycles of busy time).
func (w *TimeWeighted) Integral(now int64) int64 {
	if now < w.last {
		panic(fmt.Sprintf("sim: TimeWeighted read at %d, before its last update at %d", now, w.last))
	}
	return w.area + w.value*(now-w.last)
}

// Mean returns the time-average level over [Start(), now], or 0 when no time
// has elapsed.
func (w *TimeWeighted) Mean(now int64) float64 {
	area := w.Integral(now)
	if now == w.start {
		return 0
	}
	return float64(area) / float64(now-w.start)
}

// Reset starts a new observation window at now (after a warm-up, say): the
// integral restarts from 0 and the maximum from the current level, which is
// kept.
func (w *TimeWeighted) Reset(now int64) {
	w.advance(now)
	w.start = now
	w.area = 0
	w.max = w.value
}
