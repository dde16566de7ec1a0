package soc

import (
	"fmt"

	"gnnsim/hw"
	"gnnsim/soc/maestro"
)

// DSASpec declares a domain-specific accelerator of a SoC spec (the
// `dsas:` list): a MAESTRO-priced DSA (see DSA) that becomes a unit of the
// SoC beside the roofline units, named in mappings and DVFS settings like
// them. It runs at one clock (one operating point at the nominal voltage:
// MAESTRO has no DVFS).
type DSASpec struct {
	Name string `yaml:"name"`
	// Dataflow is a MAESTRO built-in (maestro.BuiltinNames: kcp_ws,
	// ykp_os, ...) or a .m dataflow file, relative to the spec file's
	// directory when not absolute.
	Dataflow string `yaml:"dataflow"`
	PEs      int    `yaml:"pes"`
	// NoCBW is the NoC bandwidth in elements per cycle; NoCHops the hops
	// of a transfer (0: 1) and HopLatency the cycles per hop.
	NoCBW      int `yaml:"noc_bw"`
	NoCHops    int `yaml:"noc_hops"`
	HopLatency int `yaml:"hop_latency"`
	// SIMDLanes is the MACs per PE per cycle (0: 1).
	SIMDLanes int `yaml:"simd_lanes"`
	// L1Bytes (per PE) and L2Bytes are the buffer capacities MAESTRO's
	// tiles must fit (double-buffered); 0 leaves a level unconstrained.
	L1Bytes int64 `yaml:"l1_bytes"`
	L2Bytes int64 `yaml:"l2_bytes"`
	// WordBytes is the element size in the buffers (0: 1, INT8).
	WordBytes int     `yaml:"word_bytes"`
	ClockMHz  float64 `yaml:"clock_mhz"`
	// StaticW is the leakage power drawn while the DSA runs.
	StaticW float64           `yaml:"static_w"`
	Sources map[string]string `yaml:"sources"`
}

// Config returns the DSAConfig of d, its relative dataflow path read from
// dir, with its one operating point.
func (d DSASpec) Config(dir string) DSAConfig {
	hz := d.ClockMHz * 1e6
	return DSAConfig{
		Name: d.Name, Dataflow: d.Dataflow, Dir: dir,
		Hardware: maestro.Hardware{PEs: d.PEs, NoCBW: d.NoCBW, NoCHops: d.NoCHops, HopLatency: d.HopLatency,
			SIMDLanes: d.SIMDLanes, L1Bytes: d.L1Bytes, L2Bytes: d.L2Bytes, WordBytes: d.WordBytes},
		ClockHz: hz, StaticW: d.StaticW,
		Points: []hw.OperatingPoint{{FreqHz: hz, Volts: DefaultDSANomVolts}},
	}
}

// DSASpecOf returns the spec entry of a DSAConfig (the inverse of
// DSASpec.Config for a config of one clock).
func DSASpecOf(c DSAConfig) DSASpec {
	h := c.Hardware
	return DSASpec{Name: c.Name, Dataflow: c.Dataflow, PEs: h.PEs, NoCBW: h.NoCBW, NoCHops: h.NoCHops,
		HopLatency: h.HopLatency, SIMDLanes: h.SIMDLanes, L1Bytes: h.L1Bytes, L2Bytes: h.L2Bytes,
		WordBytes: h.WordBytes, ClockMHz: c.ClockHz / 1e6, StaticW: c.StaticW}
}

// Validate checks d's constants (not its dataflow file, which New reads).
func (d DSASpec) Validate() error {
	bad := func(key string, v any, want string) error {
		return fmt.Errorf("soc: dsa %s: %s = %v, want %s", d.Name, key, v, want)
	}
	const maxInt = 1 << 24
	switch {
	case d.Dataflow == "":
		return fmt.Errorf("soc: dsa %s: no dataflow (a built-in: %v, or a .m file)", d.Name, maestro.BuiltinNames())
	case d.PEs < 1 || d.PEs > maxInt:
		return bad("pes", d.PEs, fmt.Sprintf("1..%d", maxInt))
	case d.NoCBW < 1 || d.NoCBW > maxInt:
		return bad("noc_bw", d.NoCBW, fmt.Sprintf("1..%d elements per cycle", maxInt))
	case d.NoCHops < 0 || d.NoCHops > maxInt:
		return bad("noc_hops", d.NoCHops, fmt.Sprintf("0..%d", maxInt))
	case d.HopLatency < 0 || d.HopLatency > maxInt:
		return bad("hop_latency", d.HopLatency, fmt.Sprintf("0..%d cycles", maxInt))
	case d.SIMDLanes < 0 || d.SIMDLanes > maxInt:
		return bad("simd_lanes", d.SIMDLanes, fmt.Sprintf("0..%d", maxInt))
	case d.L1Bytes < 0 || d.L1Bytes > 1<<40:
		return bad("l1_bytes", d.L1Bytes, "0..2^40 (0: unconstrained)")
	case d.L2Bytes < 0 || d.L2Bytes > 1<<40:
		return bad("l2_bytes", d.L2Bytes, "0..2^40 (0: unconstrained)")
	case d.WordBytes < 0 || d.WordBytes > 64:
		return bad("word_bytes", d.WordBytes, "0..64 (0: 1)")
	case !finitePos(d.ClockMHz) || d.ClockMHz > 1e6:
		return bad("clock_mhz", d.ClockMHz, "0 < f <= 1e6")
	case !finiteNonNeg(d.StaticW) || d.StaticW > 1e4:
		return bad("static_w", d.StaticW, "0..1e4")
	}
	if !IsDataflowPath(d.Dataflow) {
		if _, err := maestro.Builtin(d.Dataflow); err != nil {
			return fmt.Errorf("soc: dsa %s: dataflow: %w (or a .m file path)", d.Name, err)
		}
	}
	return nil
}

// addDSAs plugs the DSAs of spec into s, reading relative dataflow files
// from dir.
func (s *SoC) addDSAs(dsas []DSASpec, dir string) error {
	for _, d := range dsas {
		u, err := NewScalableDSA(d.Config(dir))
		if err != nil {
			return err
		}
		if err := s.Add(u); err != nil {
			return err
		}
	}
	return nil
}

// DSAMemory is the shared memory of a SoC of DSAs only (MaGNAS Section
// 5.7.2's three DSAs, a standalone DSA). MaGNAS gives no figures for it
// (MAESTRO models no DRAM); these are gnnsim's choices: 64 GB/s (64 bytes
// per cycle at 1 GHz: a NoC of 64 8-bit elements per cycle), 20 pJ per
// byte (LPDDR4-class DRAM access energy), a 1 us hand-off per transition
// (half on each side, as soc charges it) and no further latency.
var DSAMemory = MemorySpec{Name: "mem", BytesPerCycle: 64, PointsMHz: []float64{1000}, BurstBytes: 64,
	PJPerByte: 20, ElementBytes: 1, HandoffUS: 1}

// StandaloneDSA returns the SoC of one DSA (c, at its clock; c.Points
// ignored) on DSAMemory: a model whose segments all map to it (MapAll(g,
// 0, n)) runs its layers on that DSA alone.
func StandaloneDSA(c DSAConfig) (*SoC, error) {
	c.Points = []hw.OperatingPoint{{FreqHz: c.ClockHz, Volts: DefaultDSANomVolts}}
	d, err := NewScalableDSA(c)
	if err != nil {
		return nil, err
	}
	s, err := NewShared("dsa:"+c.Name, DSAMemory)
	if err != nil {
		return nil, err
	}
	if err := s.Add(d); err != nil {
		return nil, err
	}
	return s, nil
}
