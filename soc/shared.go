package soc

import (
	"math"

	"gnnsim/hw"
	"gnnsim/sim"
)

// The shared memory's arbitration: what every model of units contending
// for the one memory (CoRun here, package sched's shared problems) asks of
// it, in one place.

// SendShared is the shared memory's arbitration, one rule for every
// model of units contending for it (CoRun, package sched's shared
// problems): client's b bytes go through ch at now, first come first
// served; when they wait behind another client's stream (the channel is
// busy at now and its last request came from another client) the two
// interleave and the bytes move at the memory's mixed efficiency eff
// (SoC.MixedEfficiency): the channel stalls for the difference, which it
// returns. *last is the client of the latest request (-1: none). What the
// interleaving costs the requester itself beyond the grant is
// MixedLatencyPS (CoRun applies it chunk by chunk; package sched's
// phase-level steps leave it out: a whole phase's memory time is rarely
// within 1.36x of its time).
func SendShared(ch *sim.Channel, now, b int64, client int, last *int, eff float64) (sim.Transfer, int64) {
	if eff > 0 && eff < 1 && b > 0 && *last >= 0 && *last != client && ch.Free() > now {
		return sendMixed(ch, now, b, client, last, eff)
	}
	// Not interleaved (or a memory without a mixed-stream loss): the plain
	// request, kept small enough to inline on the schedulers' hot path.
	if b > 0 {
		*last = client
	}
	return ch.Request(now, b), 0
}

// sendMixed is SendShared for bytes that interleave with another client's
// stream: the channel stalls for what the mixed efficiency loses.
func sendMixed(ch *sim.Channel, now, b int64, client int, last *int, eff float64) (sim.Transfer, int64) {
	tr := ch.Request(now, b)
	extra := int64(math.Ceil(float64(ch.Cycles(b)) * (1/eff - 1)))
	ch.Stall(now, extra)
	tr.Done = hw.SatAdd(tr.Done, extra)
	tr.Last = hw.SatAdd(tr.Last, extra)
	*last = client
	return tr, extra
}

// MixedLatencyPS is the second half of the shared memory's rule: what a
// client's own request loses when SendShared interleaved it with another
// client's stream (it returned a stall), beyond the wait for the grant.
// The client's accesses then find their DRAM rows closed by the other
// stream and each waits a row switch on top of the memory's latency
// (MemorySpec.LatencyRatio: ratio = row switch over latency). A kernel
// keeps a bounded number of requests in flight (a batch-1 kernel's
// memory-level parallelism), so by Little's law its bytes move at that
// number over the latency: their time memPS (the bytes at the unit's own
// memory share, what they take alone) stretches by 1 + ratio. The kernel
// loses only what the stretched memory time exceeds of its time alone ps
// (compute hides the rest, as in the roofline): max(0, memPS (1 + ratio)
// - ps). Zero when alone (never interleaved), monotone in memPS and
// ratio.
func MixedLatencyPS(memPS, ps int64, ratio float64) int64 {
	if memPS <= 0 || !(ratio > 0) {
		return 0
	}
	x := math.Ceil(float64(memPS)*(1+ratio)) - float64(max(ps, 0))
	if x <= 0 {
		return 0
	}
	if x >= math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(x)
}

// MixedEfficiency returns the memory's mixed efficiency at set's memory
// clock (MemorySpec.MixedEfficiency).
func (s *SoC) MixedEfficiency(set Setting) float64 {
	return s.mem.MixedEfficiency(s.env(set).MemoryHz * 1e-6)
}
