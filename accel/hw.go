package accel

import (
	"errors"
	"fmt"

	"gnnsim/internal/boundedio"
	"gnnsim/internal/strictyaml"
)

// HW describes an Omega-style spatial accelerator: a PE array with a
// register file per PE, a distribution network from the global buffer to
// the PEs and a reduction network back, a global buffer, and DRAM behind it.
// Bandwidths are in elements (words) per cycle, sizes in bytes, energies in
// pJ per access of one word.
type HW struct {
	PEs      int `yaml:"pes"`        // PE array size
	PPAggPEs int `yaml:"pp_agg_pes"` // PEs aggregation gets in pp (0: half)

	// RegFileBytes is the register file per PE. It is informational: the
	// seed's 64 B hold the few operands a PE needs at every tiling here, so
	// neither mode's timing depends on it (STONNE-Omega's does not either);
	// it is validated and recorded so a spec states the whole design.
	RegFileBytes      int64 `yaml:"register_file_bytes"`
	GlobalBufferBytes int64 `yaml:"global_buffer_bytes"`
	WordBytes         int64 `yaml:"word_bytes"` // size of one matrix element

	// DistributionBW and ReductionBW are the words per cycle the
	// distribution and reduction networks move for the whole array; in pp
	// each phase gets a share proportional to its PEs. STONNE-Omega's
	// reference runs use one word per PE per cycle (dn_bw = rn_bw = PEs).
	DistributionBW int `yaml:"distribution_bw"`
	ReductionBW    int `yaml:"reduction_bw"`
	// GlobalBufferBW is the words per cycle the global buffer's ports
	// deliver, shared by both phases in pp.
	GlobalBufferBW int `yaml:"global_buffer_bw"`

	DRAMBytesPerCycle float64 `yaml:"dram_bytes_per_cycle"`
	DRAMLatency       int64   `yaml:"dram_latency_cycles"`
	// DRAMBurstBytes is the granularity at which the DMA engine streams
	// transfers: compute may start on a load's first burst, and a store's
	// last burst leaves after compute ends. It bounds what DRAM exposes at
	// the start and end of a run, whatever the tile size.
	DRAMBurstBytes int64 `yaml:"dram_burst_bytes"`

	ClockHz float64 `yaml:"clock_hz"` // only for reporting seconds

	Energy EnergyCosts `yaml:"energy_pj"`
}

// EnergyCosts are the energies of one access of one word, in pJ.
type EnergyCosts struct {
	MAC  float64 `yaml:"mac"`
	RF   float64 `yaml:"register_file"`
	NoC  float64 `yaml:"noc"`
	GB   float64 `yaml:"global_buffer"`
	DRAM float64 `yaml:"dram"`
}

// DefaultHW returns the built-in hardware. From seed 002 (Section 3.2, after
// Garg et al.): 512 PEs, a 64-byte register file per PE, and (from the
// STONNE-Omega reference runs) one word per PE per cycle of distribution
// and reduction bandwidth, a 256 + 256 split for pp. The seed gives no
// memory system or energies; gnnsim's choices are a 1 MiB global buffer
// with 1024 words/cycle of ports, 4-byte words, DRAM at 64 bytes/cycle with
// 100 cycles of latency in 64-byte bursts (one DDR4/LPDDR burst of a 64-bit
// channel, a cache line), a 1 GHz clock, and per-access energies in the
// ratios of Eyeriss (Chen et al., ISCA 2016: RF 1x, NoC 2x, global buffer
// 6x, DRAM 200x of a MAC) scaled to 1 pJ per MAC.
func DefaultHW() HW {
	return HW{
		PEs:               512,
		RegFileBytes:      64,
		GlobalBufferBytes: 1 << 20,
		WordBytes:         4,
		DistributionBW:    512,
		ReductionBW:       512,
		GlobalBufferBW:    1024,
		DRAMBytesPerCycle: 64,
		DRAMLatency:       100,
		DRAMBurstBytes:    64,
		ClockHz:           1e9,
		Energy:            EnergyCosts{MAC: 1, RF: 1, NoC: 2, GB: 6, DRAM: 200},
	}
}

// MaxPEs bounds the PE count: far above any design in the seeds, and small
// enough that per-PE quantities never overflow.
const MaxPEs = 1 << 24

// maxBurst bounds HW.DRAMBurstBytes: far above any DRAM burst or DMA chunk.
const maxBurst = 1 << 24

// Limits on hardware values: far beyond any design in the seeds, and
// tight enough that every count and cycle total of a run stays inside int64
// (a value past them would overflow and report fewer cycles, not more).
const (
	maxBW           = 1 << 24 // words per cycle of a network or the buffer ports
	maxBufferBytes  = 1 << 40 // global buffer (1 TiB)
	minDRAMBytesCyc = 1.0 / 64
	maxDRAMBytesCyc = 1 << 20
	maxDRAMLatency  = 1 << 32 // cycles (4.3 s at 1 GHz)
	minClockHz      = 1e3
	maxClockHz      = 1e12
	maxEnergyPJ     = 1e9 // per access
)

// Validate checks that every size, bandwidth and energy is usable and
// within the limits above.
func (h HW) Validate() error {
	switch {
	case h.PEs < 2 || h.PEs > MaxPEs:
		return fmt.Errorf("accel: hw: pes = %d, want 2..%d", h.PEs, MaxPEs)
	case h.PPAggPEs < 0 || h.PPAggPEs >= h.PEs:
		return fmt.Errorf("accel: hw: pp_agg_pes = %d, want 0 (half) or 1..%d", h.PPAggPEs, h.PEs-1)
	case h.WordBytes <= 0 || h.WordBytes > 64:
		return fmt.Errorf("accel: hw: word_bytes = %d, want 1..64", h.WordBytes)
	case h.RegFileBytes < h.WordBytes:
		return fmt.Errorf("accel: hw: register_file_bytes = %d cannot hold one %d-byte word", h.RegFileBytes, h.WordBytes)
	case h.GlobalBufferBytes <= 0 || h.GlobalBufferBytes > maxBufferBytes:
		return fmt.Errorf("accel: hw: global_buffer_bytes = %d, want 1..%d", h.GlobalBufferBytes, int64(maxBufferBytes))
	case h.DistributionBW <= 0 || h.ReductionBW <= 0 || h.GlobalBufferBW <= 0 ||
		h.DistributionBW > maxBW || h.ReductionBW > maxBW || h.GlobalBufferBW > maxBW:
		return fmt.Errorf("accel: hw: bandwidths must be 1..%d words/cycle (distribution_bw %d, reduction_bw %d, global_buffer_bw %d)",
			maxBW, h.DistributionBW, h.ReductionBW, h.GlobalBufferBW)
	case !(h.DRAMBytesPerCycle >= minDRAMBytesCyc && h.DRAMBytesPerCycle <= maxDRAMBytesCyc):
		return fmt.Errorf("accel: hw: dram_bytes_per_cycle = %v, want %g..%d", h.DRAMBytesPerCycle, minDRAMBytesCyc, maxDRAMBytesCyc)
	case h.DRAMLatency < 0 || h.DRAMLatency > maxDRAMLatency:
		return fmt.Errorf("accel: hw: dram_latency_cycles = %d, want 0..%d", h.DRAMLatency, int64(maxDRAMLatency))
	case h.DRAMBurstBytes <= 0 || h.DRAMBurstBytes > maxBurst:
		return fmt.Errorf("accel: hw: dram_burst_bytes = %d, want 1..%d", h.DRAMBurstBytes, maxBurst)
	case !(h.ClockHz >= minClockHz && h.ClockHz <= maxClockHz):
		return fmt.Errorf("accel: hw: clock_hz = %v, want %g..%g", h.ClockHz, minClockHz, maxClockHz)
	}
	for _, e := range [...]struct {
		name string
		v    float64
	}{{"mac", h.Energy.MAC}, {"register_file", h.Energy.RF}, {"noc", h.Energy.NoC}, {"global_buffer", h.Energy.GB}, {"dram", h.Energy.DRAM}} {
		if !(e.v >= 0 && e.v <= maxEnergyPJ) {
			return fmt.Errorf("accel: hw: energy_pj.%s = %v, want 0..%g", e.name, e.v, maxEnergyPJ)
		}
	}
	return nil
}

// ParseHW reads a hardware spec in YAML. Keys left out keep DefaultHW's
// values; unknown keys are errors, so a typo never silently falls back to a
// default. The result is validated.
func ParseHW(data []byte) (HW, error) {
	h := DefaultHW()
	// strictyaml: pes: 256.7 is an error, not 256.
	if err := strictyaml.Decode(data, &h); err != nil && !errors.Is(err, strictyaml.ErrEmpty) {
		return HW{}, fmt.Errorf("accel: hw spec: %w", err)
	}
	if err := h.Validate(); err != nil {
		return HW{}, err
	}
	return h, nil
}

// LoadHW reads a hardware spec file; see ParseHW.
func LoadHW(path string) (HW, error) {
	data, err := boundedio.ReadFile(path, boundedio.Spec)
	if err != nil {
		return HW{}, fmt.Errorf("accel: %w", err)
	}
	h, err := ParseHW(data)
	if err != nil {
		return HW{}, fmt.Errorf("%s: %w", path, err)
	}
	return h, nil
}

// WithPEs returns h with pes PEs and ppAggPEs of them for aggregation
// under pp; 0 keeps h's value. A new PE count that leaves no PEs for
// combination under pp (h's split no longer fits) resets the split to half.
func (h HW) WithPEs(pes, ppAggPEs int) HW {
	if pes != 0 {
		h.PEs = pes
		if ppAggPEs == 0 && h.PPAggPEs >= h.PEs {
			h.PPAggPEs = 0
		}
	}
	if ppAggPEs != 0 {
		h.PPAggPEs = ppAggPEs
	}
	return h
}
