// Package sim is gnnsim's discrete-event simulation kernel: an integer-cycle
// clock, a queue of timed callbacks, capacity-limited resources, bounded
// stores, bandwidth channels and time-weighted statistics. It knows nothing
// about GNNs or hardware; the hardware models (accel, soc, the G-CoS
// template) and the scheduling harness in sched are built on it.
//
// # What it models
//
// Simulated time is an int64 count of cycles; seconds appear only where
// results are reported. A model schedules callbacks with [Sim.At] or
// [Sim.After] and runs them with [Sim.Run], [Sim.RunUntil] or [Sim.Step]; a
// callback sees [Sim.Now] equal to its scheduled cycle and may schedule or
// [Sim.Cancel] further events. [Resource] is a pool of identical units (PE
// groups, ports, DRAM channels) with a FIFO wait queue; [Store] is a bounded
// FIFO of items (ping-pong buffers, inter-stage queues) whose Put blocks
// while it is full and whose Get blocks while it is empty. [Channel] is a
// bandwidth server (a DRAM channel, a SoC's shared memory, HBM): bytes per
// cycle, a latency and a burst size, transfers served one at a time in
// request order and streamed in bursts; a request returns its grant,
// completion and arrival times at once, so a channel needs no events, and
// [Channel.Consume] gives when a consumer of a streamed transfer can start
// and end. [TimeWeighted]
// integrates a piecewise-constant level over time, which gives busy time,
// utilisation and mean queue lengths; Resource and Store keep theirs.
//
// # Ordering
//
// Events run in order of (time, priority, insertion sequence): among events
// at the same cycle the lower priority value runs first, and equal
// priorities run in the order they were scheduled. This is SimPy's rule. The
// order is a strict total order fixed by the calls the model makes, so a
// simulation is reproducible bit for bit: nothing depends on wall-clock time,
// goroutine scheduling, map iteration or the heap's internal layout. A
// callback may schedule events for the current cycle: they run in this cycle,
// before its pending events with a larger priority value and after those with
// an equal or smaller one. Resource and Store run their callbacks as events
// with priority 0 at the cycle an operation completes, never inside the call
// that triggered it.
//
// # Callbacks, not goroutines
//
// The process model is the callback: a process is a chain of callbacks, each
// scheduling the next (After for a delay, Request or Get for a wait). Models
// that run each process in its own goroutine need a hand-off protocol to
// stop two processes running at once; any slip lets the Go scheduler decide
// which of two simultaneous events goes first, and results start to depend on
// timing. Callbacks are deterministic by construction, cost one heap
// operation per wake-up instead of two goroutine switches, and need no
// clean-up for processes still blocked when the simulation ends.
//
// # Cost model
//
// The pending events sit in a 4-ary min-heap of values with an index kept per
// event, next to a slab of event records recycled through a free list. At,
// After, Step and Cancel cost O(log n) for n pending events; Cancel removes
// the event at once, so cancelled events neither linger in the heap nor
// count in [Sim.Events]. Event handles carry a generation number, so a stale
// handle never cancels a later event that reuses its slot. Once the heap, the
// slab and the Resource and Store queues have grown to their peak sizes,
// nothing allocates: the schedule-and-run cycle, Request/Release and Put/Get
// allocate nothing per event (the callbacks the model passes in are its own
// business: pass method values or closures made once to stay allocation-free).
// BenchmarkSchedulePop measures the schedule-one, run-one loop with 10,
// 1000 and 100,000 events pending. At most 2^31 events can be pending at once.
// A Channel request is O(1) and allocates nothing (BenchmarkChannel).
//
// # Errors
//
// Constructors report bad arguments (a capacity <= 0) as errors. Two misuses
// are programming errors and panic, as an index out of range does, because no
// sensible model can continue from them: scheduling an event in the past
// (At with t < Now, After with d < 0, RunUntil with t < Now, or a
// TimeWeighted update before its last one), releasing a Resource with no
// unit in use, and a Channel request of a negative byte count. Channel times
// saturate at math.MaxInt64 rather than wrap.
//
// # What it leaves out
//
// There are no preemption, interrupts or priorities inside Resource queues
// (requests are served strictly first come, first served), no interleaving
// of Channel streams, banks, refresh or read/write turnaround, no coroutine-style
// processes, no continuous-time or floating-point clock, and no concurrency: a
// Sim is used from one goroutine, and parallel experiments run one Sim each.
package sim
