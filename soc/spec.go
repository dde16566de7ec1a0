package soc

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"gnnsim/internal/boundedio"
	"gnnsim/workload"
)

// Spec describes a SoC: compute units sharing one memory. It is what a SoC
// spec file (YAML) holds; xavier.yaml is the default, embedded in the
// binary. Every constant carries its provenance in a Sources map, keyed by
// the YAML key it documents.
type Spec struct {
	Name   string     `yaml:"name"`
	Memory MemorySpec `yaml:"memory"`
	// CPU is the host cluster that launches the units' work; optional (no
	// cores: no CPU domain).
	CPU   CPUSpec    `yaml:"cpu"`
	Units []UnitSpec `yaml:"units"`
	// PowerModes are the vendor's power modes (nvpmodel on Jetson): clock
	// and core caps per domain; optional.
	PowerModes []PowerMode `yaml:"power_modes"`
	// Precision selects, for the units that list it in Precisions, the
	// arithmetic the deployed engines run in ("" or a unit's base: fp16).
	Precision string `yaml:"precision"`
	// DSAs are MAESTRO-priced accelerators (see DSASpec), units after
	// Units; optional.
	DSAs []DSASpec `yaml:"dsas"`
	// dir is the directory of the spec file (LoadSpec): relative DSA
	// dataflow files are read from it.
	dir string
}

// PrecisionSpec overrides a unit's peak, element size and tile
// efficiencies for engines built in another precision (a GPU running
// FP32 on its CUDA cores instead of FP16 on its tensor cores).
type PrecisionSpec struct {
	PeakFLOPS    float64 `yaml:"peak_flops"`
	ElementBytes int     `yaml:"element_bytes"`
	// TileEff replaces the efficiency of every tile (0: keep them).
	TileEff float64 `yaml:"tile_eff"`
	// MemoryShare replaces the unit's memory share (0: keep it).
	MemoryShare float64 `yaml:"memory_share"`
}

// WithPrecision returns s with its units' precision p applied: the units
// that list p in Precisions take its peak, element size and tile
// efficiency; the others are unchanged. "" keeps s.
func (s Spec) WithPrecision(p string) (Spec, error) {
	if p == "" {
		return s, nil
	}
	out := s
	out.Units = slices.Clone(s.Units)
	found := false
	for i := range out.Units {
		u := &out.Units[i]
		ps, ok := u.Precisions[p]
		if !ok {
			continue
		}
		found = true
		if ps.PeakFLOPS > 0 {
			u.PeakFLOPS = ps.PeakFLOPS
		}
		if ps.ElementBytes > 0 {
			u.ElementBytes = ps.ElementBytes
		}
		if ps.MemoryShare > 0 {
			u.MemoryShare = ps.MemoryShare
		}

		if ps.TileEff > 0 && u.Tiling != nil {
			t := *u.Tiling
			t.Tiles = slices.Clone(t.Tiles)
			for j := range t.Tiles {
				t.Tiles[j].Eff = ps.TileEff
			}
			u.Tiling = &t
		}
		u.Precisions = nil
	}
	if !found {
		return Spec{}, fmt.Errorf("soc: no unit of %s has precision %q", s.Name, p)
	}
	out.Precision = p
	return out, nil
}

// MemorySpec is the shared memory: its clock domain (the EMC on Jetson),
// the channel all units reach it through, and what moving data costs.
type MemorySpec struct {
	Name string `yaml:"name"`
	// BytesPerCycle is the peak bandwidth per memory clock: 64 B for a
	// 256-bit LPDDR4x interface moving data on both edges.
	BytesPerCycle float64   `yaml:"bytes_per_cycle"`
	PointsMHz     []float64 `yaml:"points_mhz"`
	// LatencyNS is the time from the channel to the far end of a transfer;
	// BurstBytes the granule transfers stream in.
	LatencyNS  float64 `yaml:"latency_ns"`
	BurstBytes int64   `yaml:"burst_bytes"`
	// PJPerByte is the DRAM energy of moving one byte (read or write).
	PJPerByte float64 `yaml:"pj_per_byte"`
	// ElementBytes is the size of one feature-map element in shared memory
	// (2: FP16), for the transfers between units.
	ElementBytes int `yaml:"element_bytes"`
	// HandoffUS is the fixed cost of handing work from one unit to another
	// (synchronisation, cache maintenance, launch on the receiver), paid
	// half by each side on every change of unit.
	HandoffUS float64 `yaml:"handoff_us"`
	// BackgroundW and ClockW are the memory's power while the SoC runs a
	// frame, whatever moves: BackgroundW fixed, ClockW at the highest
	// memory clock and proportional to it (PHY, I/O and refresh clocking).
	BackgroundW float64 `yaml:"background_w"`
	ClockW      float64 `yaml:"clock_w"`
	// Channels, PageBytes and RowSwitchNS describe the DRAM's organisation
	// for streams from several units at once (CoRun): the independent
	// channels the bandwidth splits into, the bytes of one open row (page)
	// of a channel, and the time to close a row and open another
	// (precharge + activate). While the stream of one unit waits behind
	// another's, the two interleave and every page costs a switch, so the
	// waiting stream moves at MixedEfficiency of the peak. PageBytes 0:
	// no loss.
	Channels    int               `yaml:"channels"`
	PageBytes   int64             `yaml:"page_bytes"`
	RowSwitchNS float64           `yaml:"row_switch_ns"`
	Sources     map[string]string `yaml:"sources"`
}

// MixedEfficiency returns the fraction of the peak bandwidth a stream
// interleaved with another unit's moves at memory clock mhz: a page's
// transfer time over that time plus one row switch (1 without a page
// size).
func (m MemorySpec) MixedEfficiency(mhz float64) float64 {
	if m.PageBytes <= 0 || m.RowSwitchNS <= 0 || !(mhz > 0) {
		return 1
	}
	perChannel := m.BytesPerCycle * mhz * 1e6 / float64(max(m.Channels, 1)) // bytes per s
	page := float64(m.PageBytes) / perChannel * 1e9                         // ns
	return page / (page + m.RowSwitchNS)
}

// LatencyRatio returns the row switch over the memory's latency: how much
// longer a request waits when another client's stream has closed its row
// (MixedLatencyPS); 0 when either is not given (no row switches, or no
// latency to scale).
func (m MemorySpec) LatencyRatio() float64 {
	if m.PageBytes <= 0 || m.RowSwitchNS <= 0 || !(m.LatencyNS > 0) {
		return 0
	}
	return m.RowSwitchNS / m.LatencyNS
}

// UnitSpec is an analytical compute unit: a roofline per kernel class with
// a launch overhead per kernel, DVFS operating points and a power model.
// It describes both the GPU and the DLA of a Jetson: the DLA is a unit that
// lists efficiencies only for the classes it runs and names the unit the
// rest falls back to.
type UnitSpec struct {
	Name string `yaml:"name"`
	// PeakFLOPS is the peak rate at PeakMHz (2 FLOPs per MAC); the rate
	// scales linearly with the clock.
	PeakFLOPS float64 `yaml:"peak_flops"`
	PeakMHz   float64 `yaml:"peak_mhz"`
	// Efficiency is the fraction of the peak MAC rate a kernel class
	// reaches, keyed by workload.KernelClass names (gemm, spmm, edgewise,
	// gather, max, elementwise, knn, topk). Non-MAC operations count as
	// MACs. A class left out is one the unit cannot run.
	Efficiency map[string]float64 `yaml:"efficiency"`
	// LaunchUS is the fixed time per kernel (launch, synchronisation and the
	// glue layers a deployed network adds around each modelled kernel).
	LaunchUS float64 `yaml:"launch_us"`
	// MemoryShare is the fraction of the shared memory's bandwidth the unit
	// can draw on its own, in (0, 1].
	MemoryShare  float64   `yaml:"memory_share"`
	ElementBytes int       `yaml:"element_bytes"`
	PointsMHz    []float64 `yaml:"points_mhz"`
	// VoltsMin and VoltsMax are the supply at the lowest and highest
	// operating points; the voltage is linear in the clock in between.
	VoltsMin float64 `yaml:"volts_min"`
	VoltsMax float64 `yaml:"volts_max"`
	// IdleW is the power drawn whenever the unit holds work (static power
	// and clock tree, also during launch overheads); DynamicW is C V^2 f at
	// the highest operating point, drawn while a kernel runs.
	IdleW    float64 `yaml:"idle_w"`
	DynamicW float64 `yaml:"dynamic_w"`
	// Fallback names the unit that runs the kernels this one cannot; empty
	// means such kernels are an error.
	Fallback string `yaml:"fallback"`
	// Cores is the number of identical slices the unit's peak and power
	// divide into (the GPU's TPCs), which a power mode may gate; 0 means 1.
	Cores int `yaml:"cores"`
	// LeakExp scales IdleW with the supply: IdleW (V/VoltsMax)^LeakExp
	// (0 means idle power independent of the operating point).
	LeakExp float64 `yaml:"leak_exp"`
	// Tiling, when given, prices dense products (gemm, knn) by tiles and
	// waves instead of one efficiency (see TilingSpec).
	Tiling *TilingSpec `yaml:"tiling"`
	// Fuse folds element-wise epilogues (bn, act, add) into the dense
	// product before them: one kernel, no launch, no round trip through
	// memory (TensorRT's conv + BN + activation (+ residual) fusion; the
	// DLA's SDP stage).
	Fuse bool `yaml:"fuse"`
	// SubmitUS is the cost of submitting one unit of work that groups many
	// kernels (a DLA loadable): paid when work enters the unit, once for a
	// contiguous run of segments on it.
	SubmitUS float64 `yaml:"submit_us"`
	// HandoffInUS and HandoffOutUS are the unit's fixed costs of receiving
	// work from another unit and of handing it over, between segments;
	// both 0 means half of memory.handoff_us each.
	HandoffInUS  float64 `yaml:"handoff_in_us"`
	HandoffOutUS float64 `yaml:"handoff_out_us"`
	// FallbackOutUS and FallbackInUS are the fixed costs, on this unit, of
	// leaving for its fallback unit inside a segment and of coming back
	// (plus SubmitUS); both 0 means the hand-off costs.
	FallbackOutUS float64 `yaml:"fallback_out_us"`
	FallbackInUS  float64 `yaml:"fallback_in_us"`
	// BufferBytes is an on-chip buffer (the DLA's convolution buffer): a
	// kernel's output that fits stays there for the next kernel on the
	// unit, which then neither writes nor reads it through memory.
	BufferBytes int64 `yaml:"buffer_bytes"`
	// CacheBytes is a write-back cache in front of the shared memory (the
	// GPU's L2): a kernel reads the output of the kernel just before it on
	// the unit from the cache when that output fits, and a glue copy whose
	// source and destination fit reads its source there; writes still
	// reach memory (a dirty line is written back when evicted). Cache
	// traffic runs at CacheBytesPerCycle per unit clock. 0: no cache.
	CacheBytes         int64   `yaml:"cache_bytes"`
	CacheBytesPerCycle float64 `yaml:"cache_bytes_per_cycle"`
	// Refuse names kernels (by workload kernel name) the unit cannot run
	// although it runs their class (TensorRT's DLA layer-support list);
	// they go to the fallback unit.
	Refuse []string `yaml:"refuse"`
	// KernelEfficiency gives kernels, by workload kernel name, an
	// efficiency of their own, overriding their class's (and letting the
	// unit run them when it lacks their class): a windowed max pooling is
	// a regular streaming op, unlike ViG's max over neighbours, although
	// both are max reductions.
	KernelEfficiency map[string]float64 `yaml:"kernel_efficiency"`
	// Glue is, per kernel class, the extra kernels a deployed network runs
	// around each kernel of that class (index arithmetic, transposes,
	// permutes, concatenations of the framework's decomposition of the
	// op): each a launch and a copy of the kernel's input through memory.
	Glue map[string]int `yaml:"glue"`
	// Precisions are the unit's other arithmetic precisions (see
	// Spec.Precision), keyed by name ("fp32").
	Precisions map[string]PrecisionSpec `yaml:"precisions"`
	Sources    map[string]string        `yaml:"sources"`
}

// TilingSpec prices a dense product M x K x N as a tiled kernel: the
// product splits into Mt x Nt output tiles (per group of a grouped
// product), K rounded up to KStep plus KOverhead of pipeline fill per
// tile; tiles run in waves over SMs engines, each at Eff of its share of
// the peak. The unit picks the fastest tile (TensorRT's tactic choice).
// ScalarEff > 0 adds a non-tiled path at that fraction of the peak (CUDA
// cores for products the tiles waste, such as depthwise convolutions).
type TilingSpec struct {
	SMs       int     `yaml:"sms"`
	KStep     int     `yaml:"k_step"`
	KOverhead int     `yaml:"k_overhead"`
	ScalarEff float64 `yaml:"scalar_eff"`
	Tiles     []Tile  `yaml:"tiles"`
	// Winograd, above 1, divides the tile time of a convolution with a 3x3
	// window at stride 1 (Roofline.winograd): the engine's Winograd mode
	// multiplies that many times fewer. 0 means none.
	Winograd float64 `yaml:"winograd"`
}

// Tile is one output tile shape and the fraction of an engine's peak a
// full tile reaches.
type Tile struct {
	M   int     `yaml:"m"`
	N   int     `yaml:"n"`
	Eff float64 `yaml:"eff"`
}

func (t *TilingSpec) validate(unit string) error {
	if t == nil {
		return nil
	}
	switch {
	case t.SMs < 1 || t.SMs > 1<<16:
		return fmt.Errorf("soc: unit %s: tiling.sms = %d, want 1..65536", unit, t.SMs)
	case t.KStep < 1 || t.KStep > 1<<16 || t.KOverhead < 0 || t.KOverhead > 1<<16:
		return fmt.Errorf("soc: unit %s: tiling k_step = %d, k_overhead = %d, want 1.. and 0..65536", unit, t.KStep, t.KOverhead)
	case t.Winograd != 0 && !(t.Winograd >= 1 && t.Winograd <= 16):
		return fmt.Errorf("soc: unit %s: tiling.winograd = %v, want 0 or 1..16", unit, t.Winograd)
	case !(t.ScalarEff >= 0 && t.ScalarEff <= 1):
		return fmt.Errorf("soc: unit %s: tiling.scalar_eff = %v, want 0..1", unit, t.ScalarEff)
	case len(t.Tiles) == 0:
		return fmt.Errorf("soc: unit %s: tiling has no tiles", unit)
	}
	for _, tl := range t.Tiles {
		if tl.M < 1 || tl.N < 1 || tl.M > 1<<16 || tl.N > 1<<16 || !(tl.Eff > 0 && tl.Eff <= 1) {
			return fmt.Errorf("soc: unit %s: tile %d x %d at %v, want sides 1..65536 and eff in (0, 1]", unit, tl.M, tl.N, tl.Eff)
		}
	}
	return nil
}

//go:embed xavier.yaml
var xavierYAML []byte

// DefaultSpecYAML returns the default profile's spec file (DefaultSpec),
// commented: every constant's source, and the keys of the optional
// sections.
func DefaultSpecYAML() []byte { return bytes.Clone(xavierYAML) }

// DefaultSpec returns the default profile: the NVIDIA Jetson AGX Xavier
// (GPU, DLA, 256-bit LPDDR4x), calibrated to MaGNAS Table 2 (see
// xavier.yaml and the package documentation).
func DefaultSpec() Spec {
	s, err := ParseSpec(xavierYAML)
	if err != nil {
		panic("soc: embedded xavier.yaml: " + err.Error()) // caught by TestDefaultSpec
	}
	return s
}

// MaGNASPrecision is the GPU precision MaGNAS's measurements (seed 000,
// Table 2) imply: its GPU latencies grow by 2.17 ms per dense GMAC across
// ViG-S's four graph ops, 0.92 TFLOPS, 65 % of the Xavier's FP32 CUDA-core
// peak but 8 % of its FP16 tensor-core peak, and its GPU runs draw 18 W,
// a busy GPU rather than one waiting between small kernels. TensorRT
// builds FP32 engines unless FP16 is requested; the DLA runs FP16 only.
const MaGNASPrecision = "fp32"

// MaGNASSpec is DefaultSpec with the GPU in MaGNASPrecision and the
// host's per-frame work of MaGNAS's harness (CPUSpec.MaGNASFrameCycles):
// the Xavier as MaGNAS measured it, the profile its Tables 2 and 3
// calibrate.
func MaGNASSpec() Spec {
	s, err := DefaultSpec().WithPrecision(MaGNASPrecision)
	if err != nil {
		panic("soc: embedded xavier.yaml: " + err.Error()) // caught by TestDefaultSpec
	}
	s.CPU.FrameCycles = s.CPU.MaGNASFrameCycles
	return s
}

// MaGNAS returns the SoC of MaGNASSpec.
func MaGNAS() *SoC {
	s, err := New(MaGNASSpec())
	if err != nil {
		panic("soc: MaGNAS spec: " + err.Error()) // caught by TestDefaultSpec
	}
	return s
}

// ParseSpec reads a SoC spec in YAML. Unknown keys are errors, so a typo
// never silently drops a constant. The result is validated.
func ParseSpec(data []byte) (Spec, error) {
	var s Spec
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&s); err != nil && !errors.Is(err, io.EOF) {
		return Spec{}, fmt.Errorf("soc: spec: %w", err)
	}
	if err := s.Validate(); err != nil {
		return Spec{}, err
	}
	return s, nil
}

// LoadSpec reads a SoC spec file; see ParseSpec.
func LoadSpec(path string) (Spec, error) {
	data, err := boundedio.ReadFile(path, boundedio.Spec)
	if err != nil {
		return Spec{}, fmt.Errorf("soc: %w", err)
	}
	s, err := ParseSpec(data)
	if err != nil {
		return Spec{}, fmt.Errorf("%s: %w", path, err)
	}
	s.dir = filepath.Dir(path)
	return s, nil
}

// MemoryName is the DVFS key of the shared memory when its spec leaves the
// name out.
const MemoryName = "emc"

func finitePos(x float64) bool { return x > 0 && !math.IsInf(x, 0) }
func finiteNonNeg(x float64) bool {
	return x >= 0 && !math.IsInf(x, 0)
}

// checkPoints reports a DVFS table that is empty, not strictly increasing or
// not positive.
func checkPoints(what string, pts []float64) error {
	if len(pts) == 0 {
		return fmt.Errorf("soc: %s: no operating points", what)
	}
	for i, p := range pts {
		if !finitePos(p) || p > 1e6 {
			return fmt.Errorf("soc: %s: operating point %v MHz, want 0 < f <= 1e6", what, p)
		}
		if i > 0 && p <= pts[i-1] {
			return fmt.Errorf("soc: %s: operating points must increase (%v MHz after %v MHz)", what, p, pts[i-1])
		}
	}
	return nil
}

// Validate reports the first problem with s: a missing or duplicate name,
// a constant out of range, a bad DVFS table, an unknown kernel class or a
// fallback to a unit that does not exist or cannot run what falls back.
func (s Spec) Validate() error {
	m := s.Memory
	if m.Name == "" {
		m.Name = MemoryName
	}
	if err := m.validate(); err != nil {
		return err
	}
	if len(s.Units) == 0 {
		return errors.New("soc: spec has no units")
	}
	if err := s.validateUnits(m); err != nil {
		return err
	}
	if err := s.CPU.validate(); err != nil {
		return err
	}
	return s.validateModes()
}

// validate checks the memory's constants and DVFS table.
func (m MemorySpec) validate() error {
	switch {
	case !finitePos(m.BytesPerCycle):
		return fmt.Errorf("soc: memory: bytes_per_cycle = %v, want > 0", m.BytesPerCycle)
	case !finiteNonNeg(m.LatencyNS):
		return fmt.Errorf("soc: memory: latency_ns = %v, want >= 0", m.LatencyNS)
	case m.BurstBytes <= 0:
		return fmt.Errorf("soc: memory: burst_bytes = %d, want > 0", m.BurstBytes)
	case !finiteNonNeg(m.PJPerByte):
		return fmt.Errorf("soc: memory: pj_per_byte = %v, want >= 0", m.PJPerByte)
	case m.ElementBytes <= 0 || m.ElementBytes > 16:
		return fmt.Errorf("soc: memory: element_bytes = %d, want 1..16", m.ElementBytes)
	case !finiteNonNeg(m.HandoffUS) || m.HandoffUS > 1e6:
		return fmt.Errorf("soc: memory: handoff_us = %v, want 0..1e6", m.HandoffUS)
	case !finiteNonNeg(m.BackgroundW) || !finiteNonNeg(m.ClockW):
		return fmt.Errorf("soc: memory: background_w = %v, clock_w = %v, want >= 0", m.BackgroundW, m.ClockW)
	case m.Channels < 0 || m.Channels > 1024:
		return fmt.Errorf("soc: memory: channels = %d, want 0..1024", m.Channels)
	case m.PageBytes < 0 || m.PageBytes > 1<<20:
		return fmt.Errorf("soc: memory: page_bytes = %d, want 0..1048576", m.PageBytes)
	case !finiteNonNeg(m.RowSwitchNS) || m.RowSwitchNS > 1e4:
		return fmt.Errorf("soc: memory: row_switch_ns = %v, want 0..1e4", m.RowSwitchNS)
	}
	return checkPoints("memory "+m.Name, m.PointsMHz)
}

// validateUnits checks the units and DSAs of s around memory m.
func (s Spec) validateUnits(m MemorySpec) error {
	names := map[string]bool{m.Name: true}
	claim := func(what string, i int, name string) error {
		if name == "" {
			return fmt.Errorf("soc: %s %d has no name", what, i)
		}
		if names[name] {
			return fmt.Errorf("soc: name %q used twice (units, DSAs and the memory need distinct names)", name)
		}
		names[name] = true
		return nil
	}
	for i, u := range s.Units {
		if err := claim("unit", i, u.Name); err != nil {
			return err
		}
		if err := u.validate(); err != nil {
			return err
		}
	}
	for i, d := range s.DSAs {
		if err := claim("dsa", i, d.Name); err != nil {
			return err
		}
		if err := d.Validate(); err != nil {
			return err
		}
	}
	for _, u := range s.Units {
		if u.Fallback == "" {
			continue
		}
		i := slices.IndexFunc(s.Units, func(v UnitSpec) bool { return v.Name == u.Fallback })
		if i < 0 {
			return fmt.Errorf("soc: unit %s: fallback %q is not a unit of the spec", u.Name, u.Fallback)
		}
		fb := s.Units[i]
		if fb.Fallback != "" {
			return fmt.Errorf("soc: unit %s falls back to %s, which falls back itself: chains are not supported", u.Name, fb.Name)
		}
		for c := range classes() {
			if _, ok := u.Efficiency[c.String()]; !ok {
				if _, ok := fb.Efficiency[c.String()]; !ok {
					return fmt.Errorf("soc: unit %s falls back to %s for %s kernels, which %s cannot run either", u.Name, fb.Name, c, fb.Name)
				}
			}
		}
	}
	return nil
}

func (u UnitSpec) validate() error {
	bad := func(key string, v any, want string) error {
		return fmt.Errorf("soc: unit %s: %s = %v, want %s", u.Name, key, v, want)
	}
	switch {
	case !finitePos(u.PeakFLOPS):
		return bad("peak_flops", u.PeakFLOPS, "> 0")
	case !finitePos(u.PeakMHz):
		return bad("peak_mhz", u.PeakMHz, "> 0")
	case !finiteNonNeg(u.LaunchUS) || u.LaunchUS > 1e6:
		return bad("launch_us", u.LaunchUS, "0..1e6")
	case !(u.MemoryShare > 0 && u.MemoryShare <= 1):
		return bad("memory_share", u.MemoryShare, "in (0, 1]")
	case u.ElementBytes <= 0 || u.ElementBytes > 16:
		return bad("element_bytes", u.ElementBytes, "1..16")
	case !finitePos(u.VoltsMin) || !finitePos(u.VoltsMax) || u.VoltsMin > u.VoltsMax:
		return fmt.Errorf("soc: unit %s: volts_min = %v, volts_max = %v, want 0 < min <= max", u.Name, u.VoltsMin, u.VoltsMax)
	case !finiteNonNeg(u.IdleW):
		return bad("idle_w", u.IdleW, ">= 0")
	case !finiteNonNeg(u.DynamicW):
		return bad("dynamic_w", u.DynamicW, ">= 0")
	case u.Fallback == u.Name:
		return fmt.Errorf("soc: unit %s falls back to itself", u.Name)
	case u.Cores < 0 || u.Cores > 1024:
		return bad("cores", u.Cores, "0..1024")
	case !finiteNonNeg(u.LeakExp) || u.LeakExp > 10:
		return bad("leak_exp", u.LeakExp, "0..10")
	case u.BufferBytes < 0:
		return bad("buffer_bytes", u.BufferBytes, ">= 0")
	case u.CacheBytes < 0:
		return bad("cache_bytes", u.CacheBytes, ">= 0")
	case !finiteNonNeg(u.CacheBytesPerCycle) || (u.CacheBytes > 0) != (u.CacheBytesPerCycle > 0):
		return bad("cache_bytes_per_cycle", u.CacheBytesPerCycle, "> 0 with cache_bytes, 0 without")
	}
	for _, x := range []struct {
		k string
		v float64
	}{{"submit_us", u.SubmitUS}, {"handoff_in_us", u.HandoffInUS}, {"handoff_out_us", u.HandoffOutUS}, {"fallback_in_us", u.FallbackInUS}, {"fallback_out_us", u.FallbackOutUS}} {
		if !finiteNonNeg(x.v) || x.v > 1e6 {
			return bad(x.k, x.v, "0..1e6")
		}
	}
	if err := u.Tiling.validate(u.Name); err != nil {
		return err
	}
	for name, e := range u.KernelEfficiency {
		if !(e > 0 && e <= 1) {
			return fmt.Errorf("soc: unit %s: kernel_efficiency %s = %v, want in (0, 1]", u.Name, name, e)
		}
	}
	for c, n := range u.Glue {
		if _, err := parseClass(c); err != nil {
			return fmt.Errorf("soc: unit %s: glue: %w", u.Name, err)
		}
		if n < 0 || n > 1000 {
			return fmt.Errorf("soc: unit %s: glue %s = %d, want 0..1000", u.Name, c, n)
		}
	}
	if err := checkPoints("unit "+u.Name, u.PointsMHz); err != nil {
		return err
	}
	// peak_flops is the rate at peak_mhz, the unit's highest clock: a
	// point above it would scale the rate past the datasheet's peak.
	if top := u.PointsMHz[len(u.PointsMHz)-1]; top > u.PeakMHz*(1+1e-9) {
		return fmt.Errorf("soc: unit %s: operating point %v MHz above peak_mhz = %v: the peak is the highest clock", u.Name, top, u.PeakMHz)
	}
	if len(u.Efficiency) == 0 {
		return fmt.Errorf("soc: unit %s: no efficiency: it could run nothing", u.Name)
	}
	keys := make([]string, 0, len(u.Efficiency))
	for k := range u.Efficiency {
		keys = append(keys, k)
	}
	slices.Sort(keys) // report the first bad key in a fixed order
	for _, k := range keys {
		if _, err := parseClass(k); err != nil {
			return fmt.Errorf("soc: unit %s: efficiency: %w", u.Name, err)
		}
		if e := u.Efficiency[k]; !(e > 0 && e <= 1) {
			return fmt.Errorf("soc: unit %s: efficiency %s = %v, want in (0, 1]", u.Name, k, e)
		}
	}
	return nil
}

// classes yields every kernel class.
func classes() func(func(workload.KernelClass) bool) {
	return func(yield func(workload.KernelClass) bool) {
		for c := workload.GEMM; c <= workload.TopK; c++ {
			if !yield(c) {
				return
			}
		}
	}
}

func parseClass(s string) (workload.KernelClass, error) {
	var names []string
	for c := range classes() {
		if strings.EqualFold(s, c.String()) {
			return c, nil
		}
		names = append(names, c.String())
	}
	return 0, fmt.Errorf("unknown kernel class %q (want one of %s)", s, strings.Join(names, ", "))
}
