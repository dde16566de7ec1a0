package soc

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"gnnsim/hw"
	"gnnsim/soc/maestro"
	"gnnsim/workload"
)

// DSA is a domain-specific accelerator of the SoC priced by the
// MAESTRO-like cost model of package soc/maestro: MaGNAS's third kind of
// compute unit (seed 000, Section 5.1.4, "DSA-k / DSA-y / DSA-d"). It is an
// hw.Unit, hw.Clocked and a KernelCoster (it prices kernel groups, so a
// layer's aggregation and combination may run on different DSAs); with
// operating points (NewScalableDSA) it is also hw.Scalable.
//
// Each kernel of a work runs on it as follows:
//
//   - GEMM (FC and 1x1 convolutions, the graph ops' combinations, the
//     im2col form of 3x3 convolutions): maestro.MatMul(M, K, N) analysed
//     on the DSA's dataflow; a grouped product (Kernel.MACs below M*K*N)
//     runs as its groups one after another, each MatMul(M, K/g, N/g).
//   - SpMM (aggregation over the adjacency): a dense N x N product,
//     maestro.MatMul(N, N, width), as MaGNAS runs the aggregation on
//     MAESTRO ("a matrix multiplication between the adjacency matrix and
//     the feature embedding matrix", Section 5.1.5): the DSAs have no
//     sparse support. Cost.MACs still reports the kernel's (sparse) MACs,
//     the work the layer asks for; cycles and energy are the dense ones.
//   - KNNDist (k-NN distances): maestro.MatMul(N, F, candidates).
//   - Element-wise classes (BN, activation, residual, pooling, gather,
//     max over neighbours, top-k, attention): MAESTRO has no such layer;
//     gnnsim runs them at SIMD rate: ceil(ops / (PEs x lanes)) cycles, or
//     the NoC time of the elements moved, ceil(elems / NoCBW), whichever
//     is longer, and energy = (ops + 18.61 x elems) MAC-energies (one L2
//     access per element moved, MAESTRO's L2 multiplier). This is
//     gnnsim's choice, not MAESTRO's.
//
// Energy is MAESTRO's (MACs + 1.68 L1 + 18.61 L2 accesses, x 0.23 pJ) at
// the nominal voltage, scaled by (V/Vnom)^2 at another operating point,
// plus StaticW x time.
type DSA struct {
	name     string
	dataflow maestro.Dataflow
	hardware maestro.Hardware
	clockHz  float64
	volts    float64 // at clockHz
	nomVolts float64 // the voltage MAESTRO's energies hold at
	staticW  float64
}

// DSAConfig describes a DSA.
type DSAConfig struct {
	Name string
	// Dataflow is a MAESTRO built-in dataflow (maestro.BuiltinNames) or
	// the path of a MAESTRO .m dataflow file (a path: it has a '/' or
	// ends in ".m"), relative to Dir when not absolute.
	Dataflow string
	// Dir is the directory a relative Dataflow path is read from (a spec
	// file's directory); "" means the working directory.
	Dir      string
	Hardware maestro.Hardware
	// ClockHz is the DSA clock. MAESTRO counts cycles only; MaGNAS reports
	// the DSA experiments in cycles (Figure 9: ~2.2 x 10^8 cycles).
	ClockHz float64
	// StaticW is the leakage power, drawn whenever the DSA runs.
	StaticW float64
	// Points are optional DVFS operating points (a clock table); the
	// highest frequency's voltage is the nominal one MAESTRO's energies
	// hold at.
	Points []hw.OperatingPoint
}

// Default DSA constants. MaGNAS (Section 5.1.4) names the dataflows only;
// the clock (1 GHz) and the leakage (0.1 W per DSA) are gnnsim's choices:
// MAESTRO has neither a clock nor static power. DefaultDSAPEs and
// DefaultDSANoCBW are the middle of the MAESTRO reference set
// (../shared/maestro-reference: 256 PEs, NoC 64 elements per cycle, one
// hop of one cycle), the NoC every default DSA has.
const (
	DefaultDSAPEs      = 256
	DefaultDSANoCBW    = 64
	DefaultDSAClockHz  = 1e9
	DefaultDSAStaticW  = 0.1
	DefaultDSANomVolts = 1.0
)

// DefaultDSAConfigs returns MaGNAS's three DSAs, which differ in dataflow
// (Section 5.1.4) and, as the paper's discussion allows ("processing
// engines per accelerator, shared buffer size", Section 6), in PEs and
// buffers, with the NoC of DefaultDSANoCBW, one-cycle hops and INT8 words
// (1 byte) for all:
//
//   - DSA-k, kcp_ws (NVDLA-like weight stationary): MAESTRO's shipped
//     data/hw/accelerator_1.m, 256 PEs, 256 B of L1 per PE, 4 KiB of L2.
//   - DSA-y, ykp_os (output stationary): MAESTRO's shipped
//     data/hw/accelerator_2.m, 1024 PEs, 512 B of L1 per PE, 32 KiB of L2
//     (that file's NoC of 1024 elements per cycle is not taken, so that the
//     DSAs differ in PEs and buffers only).
//   - DSA-d, dpt: dpt keeps a whole row of K in every PE (up to 12,290
//     words of L1 on the reference's layers), so neither MAESTRO file's L1
//     runs it. gnnsim trades PEs for L1 at DSA-y's total PE storage
//     (1024 x 512 B = 512 KiB): 64 PEs (the reference set's smallest
//     array) with 8 KiB of L1 each, and 512 KiB of L2, the convolution
//     buffer of NVDLA nv_full (the Xavier DLA's configuration; NVDLA
//     hardware architecture documentation, nvdla.org).
//
// A kernel whose double-buffered tiles exceed a DSA's L1 or L2 is refused
// with an error wrapping maestro.ErrCapacity (MAESTRO only warns; see
// package soc/maestro), so a mapping must put it on another DSA. On the
// Pyramid ViG-M of MaGNAS Section 5.7.2 this binds on DSA-d's L1 for the
// last stage's FFN expansion (49 x 768 -> 3072: 12,290 B per PE), so
// DSA-d cannot run that stage's FFN blocks whole (block-wise) but runs
// every other layer of them (layer-wise).
func DefaultDSAConfigs() []DSAConfig {
	var out []DSAConfig
	for _, d := range []struct {
		name, df string
		pes      int
		l1, l2   int64
	}{
		{"dsa-k", "kcp_ws", 256, 256, 4 << 10},
		{"dsa-y", "ykp_os", 1024, 512, 32 << 10},
		{"dsa-d", "dpt", 64, 8 << 10, 512 << 10},
	} {
		out = append(out, DSAConfig{
			Name: d.name, Dataflow: d.df,
			Hardware: maestro.Hardware{PEs: d.pes, NoCBW: DefaultDSANoCBW, NoCHops: 1, HopLatency: 1,
				L1Bytes: d.l1, L2Bytes: d.l2, WordBytes: 1},
			ClockHz: DefaultDSAClockHz, StaticW: DefaultDSAStaticW,
		})
	}
	return out
}

// DefaultDSAs returns the units of DefaultDSAConfigs.
func DefaultDSAs() ([]*DSA, error) {
	var out []*DSA
	for _, c := range DefaultDSAConfigs() {
		d, err := NewDSA(c)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}

// NewDSA returns the DSA of c, ignoring c.Points (see NewScalableDSA).
func NewDSA(c DSAConfig) (*DSA, error) {
	df, err := LoadDataflow(c.Dataflow, c.Dir)
	if err != nil {
		return nil, fmt.Errorf("soc: dsa %q: %w", c.Name, err)
	}
	if err := c.Hardware.Validate(); err != nil {
		return nil, fmt.Errorf("soc: dsa %q: %w", c.Name, err)
	}
	switch {
	case c.Name == "":
		return nil, fmt.Errorf("soc: dsa with no name")
	case !(c.ClockHz > 0) || math.IsInf(c.ClockHz, 0):
		return nil, fmt.Errorf("soc: dsa %q: clock %v Hz", c.Name, c.ClockHz)
	case !(c.StaticW >= 0) || math.IsInf(c.StaticW, 0):
		return nil, fmt.Errorf("soc: dsa %q: static power %v W", c.Name, c.StaticW)
	}
	return &DSA{name: c.Name, dataflow: df, hardware: c.Hardware, clockHz: c.ClockHz,
		volts: DefaultDSANomVolts, nomVolts: DefaultDSANomVolts, staticW: c.StaticW}, nil
}

// IsDataflowPath reports whether a DSA's dataflow names a .m file rather
// than a MAESTRO built-in: it ends in ".m" or has a path separator.
func IsDataflowPath(name string) bool {
	return strings.HasSuffix(name, ".m") || strings.ContainsAny(name, `/\`)
}

// LoadDataflow returns the dataflow a DSA names: a MAESTRO built-in
// (maestro.BuiltinNames) or a .m file (see IsDataflowPath) parsed by
// maestro.ParseFile, relative to dir when not absolute. A file that does
// not parse is an error naming the file and the line.
func LoadDataflow(name, dir string) (maestro.Dataflow, error) {
	if !IsDataflowPath(name) {
		df, err := maestro.Builtin(name)
		if err != nil {
			return maestro.Dataflow{}, fmt.Errorf("%w (or a .m file path)", err)
		}
		return df, nil
	}
	path := name
	if dir != "" && !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	return maestro.ParseFile(path)
}

// Name returns the DSA's name.
func (d *DSA) Name() string { return d.name }

// ClockHz returns the DSA's clock.
func (d *DSA) ClockHz() float64 { return d.clockHz }

// Run prices w kernel by kernel (see DSA).
func (d *DSA) Run(w hw.Work) (hw.Cost, error) {
	if w.Empty() {
		if err := w.Block.In.Validate(); err != nil {
			return hw.Cost{}, fmt.Errorf("soc: %s: %w", d.name, err)
		}
		return hw.Cost{}, nil
	}
	ks, err := w.Kernels()
	if err != nil {
		return hw.Cost{}, fmt.Errorf("soc: %s: %w", d.name, err)
	}
	c, err := d.RunKernels(ks)
	if err != nil {
		return hw.Cost{}, fmt.Errorf("soc: %s: block %s: %w", d.name, w.Block.Name, err)
	}
	return c, nil
}

// KernelCost prices one kernel (see DSA): the DSA is a KernelCoster, so a
// mapping may place a layer's aggregation and combination kernels on
// different DSAs (kernel groups), as MaGNAS does on MAESTRO.
func (d *DSA) KernelCost(k workload.Kernel) (hw.Cost, error) {
	c, err := d.RunKernels([]workload.Kernel{k})
	if err != nil {
		return hw.Cost{}, fmt.Errorf("soc: %s: %w", d.name, err)
	}
	return c, nil
}

// RunKernels prices ks in order: the sum of their cycles and energies.
// The DSA runs every class, so there is no fallback.
func (d *DSA) RunKernels(ks []workload.Kernel) (hw.Cost, error) {
	var cycles, macs int64
	var energyMACs, elems float64
	for _, k := range ks {
		if k.MACs < 0 || k.Ops < 0 || k.InElems < 0 || k.OutElems < 0 {
			return hw.Cost{}, fmt.Errorf("kernel %s has negative counts", k.Name)
		}
		c, e, err := d.kernel(k)
		if err != nil {
			return hw.Cost{}, fmt.Errorf("kernel %s: %w", k.Name, err)
		}
		cycles = hw.SatAdd(cycles, c)
		energyMACs += e
		macs = hw.SatAdd(macs, k.MACs)
		elems += float64(k.InElems + k.OutElems)
	}
	ps := hw.PS(cycles, d.clockHz)
	scale := (d.volts / d.nomVolts) * (d.volts / d.nomVolts)
	energy := energyMACs*maestro.MACEnergyPJ*scale + d.staticW*float64(ps)
	bytes := elems * float64(max(d.hardware.WordBytes, 1))
	return hw.Cost{TimePS: ps, Cycles: cycles, EnergyPJ: energy, DRAMBytes: int64(min(bytes, math.MaxInt64/2)), MACs: macs}, nil
}

// maxDim bounds a MAESTRO dimension: its layer fields are ints.
const maxDim = 1 << 30

// kernel returns one kernel's cycles and energy in MAC-energies.
func (d *DSA) kernel(k workload.Kernel) (int64, float64, error) {
	switch k.Class {
	case workload.GEMM:
		groups := int64(1)
		if full := float64(k.M) * float64(k.K) * float64(k.N); k.MACs > 0 && full > float64(k.MACs) {
			groups = int64(math.Round(full / float64(k.MACs)))
			if groups < 1 || k.K%groups != 0 || k.N%groups != 0 {
				groups = 1
			}
		}
		c, e, err := d.matmul(k.M, k.K/groups, k.N/groups)
		return c * groups, e * float64(groups), err
	case workload.SpMM:
		return d.matmul(k.M, k.K, k.N)
	case workload.KNNDist:
		return d.matmul(k.M, k.K, k.N)
	default:
		lanes := int64(max(d.hardware.SIMDLanes, 1))
		ops := k.Ops + k.MACs
		elems := k.InElems + k.OutElems
		c := max(ceilDiv(ops, int64(d.hardware.PEs)*lanes), ceilDiv(elems, int64(d.hardware.NoCBW)))
		return c, float64(ops) + maestro.L2AccessEnergy*float64(elems), nil
	}
}

func (d *DSA) matmul(m, k, n int64) (int64, float64, error) {
	if m <= 0 || k <= 0 || n <= 0 {
		return 0, 0, nil
	}
	if m > maxDim || k > maxDim || n > maxDim {
		return 0, 0, fmt.Errorf("product %d x %d x %d exceeds MAESTRO's dimensions", m, k, n)
	}
	r, err := maestro.Analyze(maestro.MatMul(int(m), int(k), int(n)), d.dataflow, d.hardware)
	if err != nil {
		return 0, 0, err
	}
	return r.Cycles, r.EnergyMACs, nil
}

func ceilDiv(a, b int64) int64 {
	if a <= 0 {
		return 0
	}
	return (a + b - 1) / b
}

// ScalableDSA is a DSA with DVFS operating points: an hw.Scalable.
type ScalableDSA struct {
	DSA
	points []hw.OperatingPoint
}

// NewScalableDSA returns the DSA of c with c.Points as its operating
// points; it runs at the highest one, whose voltage is the nominal one.
func NewScalableDSA(c DSAConfig) (*ScalableDSA, error) {
	if len(c.Points) == 0 {
		return nil, fmt.Errorf("soc: dsa %q: no operating points", c.Name)
	}
	top := c.Points[0]
	for _, p := range c.Points {
		if !(p.FreqHz > 0) || !(p.Volts > 0) || math.IsInf(p.FreqHz, 0) || math.IsInf(p.Volts, 0) {
			return nil, fmt.Errorf("soc: dsa %q: operating point %v Hz at %v V: want a finite clock and voltage above 0", c.Name, p.FreqHz, p.Volts)
		}
		if p.FreqHz > top.FreqHz {
			top = p
		}
	}
	c.ClockHz = top.FreqHz
	d, err := NewDSA(c)
	if err != nil {
		return nil, err
	}
	d.volts, d.nomVolts = top.Volts, top.Volts
	return &ScalableDSA{DSA: *d, points: append([]hw.OperatingPoint(nil), c.Points...)}, nil
}

// OperatingPoints returns the DSA's operating points.
func (s *ScalableDSA) OperatingPoints() []hw.OperatingPoint {
	return append([]hw.OperatingPoint(nil), s.points...)
}

// At returns the DSA running at p, one of its operating points.
func (s *ScalableDSA) At(p hw.OperatingPoint) (hw.Unit, error) {
	for _, q := range s.points {
		if q == p {
			d := s.DSA
			d.clockHz, d.volts = p.FreqHz, p.Volts
			return &d, nil
		}
	}
	return nil, fmt.Errorf("soc: %s: %v Hz at %v V is not one of its operating points", s.name, p.FreqHz, p.Volts)
}
