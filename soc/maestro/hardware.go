package maestro

import "fmt"

// Hardware describes a MAESTRO-style spatial accelerator: an array of PEs
// fed from a shared L2 through a NoC, one L1 per PE.
//
// MAESTRO counts data in elements ("words"); WordBytes converts its buffer
// requirements to bytes for the capacity checks.
type Hardware struct {
	PEs        int // processing elements
	NoCBW      int // NoC bandwidth in elements per cycle, the same at every cluster level
	NoCHops    int // average hops per transfer (0: 1)
	HopLatency int // cycles per hop
	SIMDLanes  int // MACs per PE per cycle (0: 1)

	// OffChipBW is the DRAM-to-L2 bandwidth in elements per cycle; 0 means
	// unlimited. MAESTRO's default, 70000, never binds on the layers of
	// the reference set.
	OffChipBW int

	// L1Bytes (per PE) and L2Bytes are buffer capacities; 0 means
	// unconstrained, as in the reference runs. Analyze reports a mapping
	// whose double-buffered tiles do not fit with an error wrapping
	// ErrCapacity.
	L1Bytes, L2Bytes int64
	WordBytes        int // bytes per element (0: 1, INT8)
}

// ReferenceHardware returns the hardware of the reference runs in
// ../shared/maestro-reference: pes PEs, a NoC of bw elements per cycle with
// one hop of one cycle (--noc_hops=1 --noc_hop_latency=1), one SIMD lane,
// unconstrained buffers and off-chip bandwidth.
func ReferenceHardware(pes, bw int) Hardware {
	return Hardware{PEs: pes, NoCBW: bw, NoCHops: 1, HopLatency: 1, SIMDLanes: 1}
}

// Validate reports non-positive PE counts and bandwidths and negative
// latencies or capacities.
func (h Hardware) Validate() error {
	const max = 1 << 24
	switch {
	case h.PEs <= 0 || h.PEs > max:
		return fmt.Errorf("maestro: hardware: %d PEs, want 1..%d", h.PEs, max)
	case h.NoCBW <= 0 || h.NoCBW > max:
		return fmt.Errorf("maestro: hardware: NoC bandwidth %d elements/cycle, want 1..%d", h.NoCBW, max)
	case h.NoCHops < 0 || h.NoCHops > max:
		return fmt.Errorf("maestro: hardware: %d NoC hops, want 0..%d", h.NoCHops, max)
	case h.HopLatency < 0 || h.HopLatency > max:
		return fmt.Errorf("maestro: hardware: hop latency %d cycles, want 0..%d", h.HopLatency, max)
	case h.SIMDLanes < 0 || h.SIMDLanes > max:
		return fmt.Errorf("maestro: hardware: %d SIMD lanes, want 0..%d", h.SIMDLanes, max)
	case h.OffChipBW < 0:
		return fmt.Errorf("maestro: hardware: off-chip bandwidth %d, want >= 0", h.OffChipBW)
	case h.L1Bytes < 0 || h.L2Bytes < 0:
		return fmt.Errorf("maestro: hardware: buffer capacities L1 %d, L2 %d bytes, want >= 0", h.L1Bytes, h.L2Bytes)
	case h.WordBytes < 0 || h.WordBytes > 64:
		return fmt.Errorf("maestro: hardware: %d bytes per word, want 0..64", h.WordBytes)
	}
	return nil
}

func (h Hardware) hops() int64 {
	if h.NoCHops == 0 {
		return 1
	}
	return int64(h.NoCHops)
}

func (h Hardware) lanes() int64 {
	if h.SIMDLanes == 0 {
		return 1
	}
	return int64(h.SIMDLanes)
}

func (h Hardware) wordBytes() int64 {
	if h.WordBytes == 0 {
		return 1
	}
	return int64(h.WordBytes)
}

// nocDelay is MAESTRO's NoC model: the head latency hops x hop latency
// plus one cycle per further BW-element flit, ceil(n/BW) - 1. Nothing
// to send costs nothing (MAESTRO would return hops x latency - 1).
func (h Hardware) nocDelay(n int64) int64 {
	if n <= 0 {
		return 0
	}
	bw := int64(h.NoCBW)
	return h.hops()*int64(h.HopLatency) + (n+bw-1)/bw - 1
}
