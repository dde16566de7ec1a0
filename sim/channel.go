package sim

import (
	"fmt"
	"math"
)

// Channel is a bandwidth server: a memory channel (DRAM, a SoC's shared
// memory, HBM) that moves transfers at a fixed rate of bytes per cycle, one
// transfer at a time in request order, with a fixed latency from the
// channel to the far end.
//
// A transfer moves as a stream of bursts of Burst bytes, as a DMA engine
// streams it: the receiver can start on the first burst, and a stream
// whose data are still being produced (a store written out as compute
// produces it) sends each burst once it exists. The stream holds the
// channel from its grant until its last byte has left; the next request
// waits for that (no interleaving of streams).
//
// Because the channel serves requests in order and a request's service
// time is known when it is made, a Channel needs no events and no queue: it
// keeps the cycle it next falls free, and Request returns a transfer's
// timing at once. The model schedules its own callbacks at those times. A
// Channel is a plain value with no pointers: copying it snapshots its
// state, so a model can try alternative request orders on copies. Nothing
// allocates.
//
// Times saturate at math.MaxInt64 rather than wrap, so an absurdly large
// transfer never looks short.
type Channel struct {
	bw    float64
	lat   int64
	burst int64

	free     int64 // when everything requested so far has left the channel
	bytes    int64
	busy     int64
	requests uint64
}

// Transfer is the timing of one request on a Channel, in cycles.
type Transfer struct {
	// Grant is when the transfer got the channel (its predecessors have
	// left it); Done is when its last byte has left, the channel then
	// being free for the next request.
	Grant, Done int64
	// First is when the first burst has arrived at the far end, Last when
	// the last byte has: Done plus the latency.
	First, Last int64
	Bytes       int64
}

// NewChannel returns an idle channel that moves bytesPerCycle bytes per
// cycle (a positive, finite rate; fractions allowed), delivers each byte
// latency >= 0 cycles after it leaves, and streams transfers in bursts of
// burst > 0 bytes.
func NewChannel(bytesPerCycle float64, latency, burst int64) (Channel, error) {
	switch {
	case !(bytesPerCycle > 0) || math.IsInf(bytesPerCycle, 0):
		return Channel{}, fmt.Errorf("sim: NewChannel: %v bytes per cycle, want a positive finite rate", bytesPerCycle)
	case latency < 0:
		return Channel{}, fmt.Errorf("sim: NewChannel: latency %d, want >= 0", latency)
	case burst <= 0:
		return Channel{}, fmt.Errorf("sim: NewChannel: burst of %d bytes, want > 0", burst)
	}
	return Channel{bw: bytesPerCycle, lat: latency, burst: burst}, nil
}

// BytesPerCycle returns the channel's rate.
func (c *Channel) BytesPerCycle() float64 { return c.bw }

// Latency returns the cycles from the channel to the far end.
func (c *Channel) Latency() int64 { return c.lat }

// Burst returns the burst size in bytes.
func (c *Channel) Burst() int64 { return c.burst }

// Free returns when the channel has sent everything requested so far: the
// earliest grant of the next request.
func (c *Channel) Free() int64 { return c.free }

// Cycles returns the cycles the channel takes to send b >= 0 bytes:
// ceil(b / BytesPerCycle), saturating at math.MaxInt64.
func (c *Channel) Cycles(b int64) int64 {
	x := math.Ceil(float64(b) / c.bw)
	if x >= math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(x)
}

// Request asks the channel, at cycle now, to send b bytes that are all
// available at once (a load from memory, a message) and returns its
// timing: granted when the channel falls free (never before now), done
// Cycles(b) later, its first burst arriving Cycles(min(b, Burst)) +
// Latency after the grant. A request of zero bytes moves nothing: it
// completes at now and leaves the channel as it was. b < 0 is a
// programming error and panics.
func (c *Channel) Request(now, b int64) Transfer {
	if b <= 0 {
		return c.empty(now, b)
	}
	grant := max(now, c.free)
	done := satAdd(grant, c.Cycles(b))
	c.account(b, done)
	return Transfer{
		Grant: grant,
		Done:  done,
		First: satAdd(satAdd(grant, c.Cycles(min(b, c.burst))), c.lat),
		Last:  satAdd(done, c.lat),
		Bytes: b,
	}
}

// RequestProduced asks the channel, at cycle now, to send b bytes that a
// producer makes evenly over cycles [from, to] (a store written out as
// compute produces it). A burst leaves only once it has been produced, so
// the stream sends its first burst no earlier than that burst is ready
// (from + (to-from)*min(b, Burst)/b, rounded up), and its last no earlier
// than to; the stream holds the channel from its grant until its last byte
// has left. Both bounds are linear in the bytes sent, so the ends of the
// stream are the binding ones. Zero bytes and b < 0 are as for Request.
func (c *Channel) RequestProduced(now, b, from, to int64) Transfer {
	if b <= 0 {
		return c.empty(now, b)
	}
	grant := max(now, c.free)
	bb := min(b, c.burst)
	start := max(grant, satAdd(from, fracCeil(to-from, bb, b)))
	done := max(satAdd(start, c.Cycles(b)), satAdd(to, c.Cycles(bb)))
	c.account(b, done)
	return Transfer{
		Grant: grant,
		Done:  done,
		First: satAdd(satAdd(start, c.Cycles(bb)), c.lat),
		Last:  satAdd(done, c.lat),
		Bytes: b,
	}
}

// Stall holds the channel for cycles >= 0 beyond what is requested so
// far, at cycle now, moving no bytes (a DRAM row switch or bus
// turnaround between interleaved streams): the next request is granted
// no earlier than the returned cycle. A negative stall is taken as 0.
func (c *Channel) Stall(now, cycles int64) int64 {
	c.free = satAdd(max(c.free, now), max(cycles, 0))
	return c.free
}

func (c *Channel) empty(now, b int64) Transfer {
	if b < 0 {
		panic(fmt.Sprintf("sim: Channel request of %d bytes", b))
	}
	return Transfer{Grant: now, Done: now, First: now, Last: now}
}

func (c *Channel) account(b, done int64) {
	c.free = done
	c.bytes = satAdd(c.bytes, b)
	c.busy = satAdd(c.busy, c.Cycles(b))
	c.requests++
}

// Bytes returns the bytes requested so far, BusyCycles the cycles the
// channel spent sending them (a stream waiting for its producer holds the
// channel without sending), Requests the number of non-empty requests.
func (c *Channel) Bytes() int64 { return c.bytes }

// BusyCycles: see Bytes.
func (c *Channel) BusyCycles() int64 { return c.busy }

// Requests: see Bytes.
func (c *Channel) Requests() uint64 { return c.requests }

// Consume returns when a consumer of t's data starts and ends: it may start
// at ready, needs dur cycles of work on the data and consumes them evenly
// as they arrive. It starts on the first burst and cannot end before the
// last byte has arrived and the work that byte's burst feeds has run. Both
// bounds are linear in the bytes consumed, so checking the ends is enough.
// A transfer of zero bytes (the zero Transfer: nothing to wait for) gives
// ready and ready + dur.
func (c *Channel) Consume(t Transfer, ready, dur int64) (start, end int64) {
	if t.Bytes <= 0 {
		return ready, satAdd(ready, dur)
	}
	start = max(ready, t.First)
	end = max(satAdd(start, dur), satAdd(t.Last, fracCeil(dur, min(t.Bytes, c.burst), t.Bytes)))
	return start, end
}

// Reset makes the channel idle at cycle 0 with zero statistics, keeping its
// parameters.
func (c *Channel) Reset() { *c = Channel{bw: c.bw, lat: c.lat, burst: c.burst} }

// fracCeil returns ceil(x*num/den) for 0 < num <= den, 0 for x <= 0,
// without overflowing for large x: the share of x cycles that num of den
// bytes take when they flow evenly.
func fracCeil(x, num, den int64) int64 {
	if x <= 0 {
		return 0
	}
	f := math.Ceil(float64(x) * float64(num) / float64(den))
	if f >= math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(f)
}

// satAdd adds two non-negative times, saturating at math.MaxInt64.
func satAdd(a, b int64) int64 {
	if s := a + b; s >= a {
		return s
	}
	return math.MaxInt64
}
