package soc

import (
	"fmt"
	"math"

	"gnnsim/hw"
	"gnnsim/workload"
)

// Roofline is an analytical compute unit (the GPU and the DLA of the
// default profile). A kernel of class c doing W operations (MACs plus other
// operations) and moving B bytes takes
//
//	t = max(W / (eff_c * peak(f)), B / (share * BW(f_mem))) + launch
//
// and costs P_idle * t + C V(f)^2 f * (t - launch) + B * e_DRAM: the unit
// draws its idle power whenever it holds work and its dynamic power while
// a kernel runs. peak(f) scales linearly with the clock. A class the unit
// has no efficiency for runs on its fallback unit, paying a hand-off each
// way (the SoC's hand-off latency plus the crossing feature map through
// shared memory); without a fallback it is an error.
//
// A Roofline is immutable: At and Bind return new values.
type Roofline struct {
	spec *UnitSpec
	ops  []hw.OperatingPoint
	pt   int
	env  Env

	fallback *Roofline

	rate     [workload.TopK + 1]float64 // operations per ps; 0: unsupported
	memRate  float64                    // bytes per ps
	launchPS int64
	idleW    float64
	dynW     float64
	elem     int64
}

// newRoofline returns the unit of spec u at its highest operating point,
// on memory m at its highest point, without a fallback.
func newRoofline(u *UnitSpec, m MemorySpec, cpu *CPUSpec) (*Roofline, error) {
	if err := u.validate(); err != nil {
		return nil, err
	}
	r := &Roofline{spec: u, ops: operatingPoints(u.PointsMHz, u.VoltsMin, u.VoltsMax), pt: len(u.PointsMHz) - 1}
	hz := m.PointsMHz[len(m.PointsMHz)-1] * 1e6
	r.env = Env{
		MemoryHz:     hz,
		BytesPerSec:  m.BytesPerCycle * hz,
		PJPerByte:    m.PJPerByte,
		LatencyPS:    int64(math.Round(m.LatencyNS * 1e3)),
		HandoffPS:    int64(math.Round(m.HandoffUS * 1e6)),
		ElementBytes: int64(m.ElementBytes),
	}
	if cpu.present() {
		r.env.LaunchFloorPS = cpu.launchPS(len(cpu.PointsMHz) - 1)
	}
	r.derive()
	return r, nil
}

// derive computes the rates and powers at r.pt on r.env.
func (r *Roofline) derive() {
	u := r.spec
	mhz := u.PointsMHz[r.pt]
	// A power mode that gates cores (the GPU's TPCs) scales the peak and
	// the power of the unit with the cores left.
	frac := 1.0
	if all := max(u.Cores, 1); r.env.Cores > 0 && r.env.Cores < all {
		frac = float64(r.env.Cores) / float64(all)
	}
	peakPerPS := frac * u.PeakFLOPS / 2 * (mhz / u.PeakMHz) * 1e-12
	for c := range classes() {
		r.rate[c] = 0
		if e, ok := u.Efficiency[c.String()]; ok {
			r.rate[c] = e * peakPerPS
		}
	}
	r.memRate = u.MemoryShare * r.env.BytesPerSec * 1e-12
	r.launchPS = max(int64(math.Round(u.LaunchUS*1e6)), r.env.LaunchFloorPS)
	// Leakage scales with the supply; power-gated cores draw nothing.
	v := volts(u.PointsMHz, r.pt, u.VoltsMin, u.VoltsMax)
	r.idleW = frac * u.IdleW * math.Pow(v/u.VoltsMax, u.LeakExp)
	r.dynW = frac * dynamicW(u.PointsMHz, r.pt, u.VoltsMin, u.VoltsMax, u.DynamicW)
	r.elem = int64(u.ElementBytes)
}

// Name returns the unit's name.
func (r *Roofline) Name() string { return r.spec.Name }

// Spec returns the unit's spec.
func (r *Roofline) Spec() UnitSpec { return *r.spec }

// OperatingPoints returns the unit's DVFS table, slowest first.
func (r *Roofline) OperatingPoints() []hw.OperatingPoint {
	return append([]hw.OperatingPoint(nil), r.ops...)
}

// Point returns the operating point the unit runs at.
func (r *Roofline) Point() hw.OperatingPoint { return r.ops[r.pt] }

// PowerW returns the idle and the dynamic power at the unit's operating
// point.
func (r *Roofline) PowerW() (idle, dynamic float64) { return r.idleW, r.dynW }

// At returns the unit at operating point p, on the same memory and
// fallback.
func (r *Roofline) At(p hw.OperatingPoint) (hw.Unit, error) {
	i, err := pointIndex(r.spec.Name, r.ops, p)
	if err != nil {
		return nil, err
	}
	v := *r
	v.pt = i
	v.derive()
	return &v, nil
}

// Needs names the fallback unit, which must be bound first.
func (r *Roofline) Needs() []string {
	if r.spec.Fallback == "" {
		return nil
	}
	return []string{r.spec.Fallback}
}

// Bind returns the unit at p on env's memory, falling back to env's bound
// fallback unit, which must be a Roofline.
func (r *Roofline) Bind(p hw.OperatingPoint, env Env) (hw.Unit, error) {
	i, err := pointIndex(r.spec.Name, r.ops, p)
	if err != nil {
		return nil, err
	}
	v := *r
	v.pt = i
	v.env = env
	v.env.Unit = nil
	v.fallback = nil
	if n := r.spec.Fallback; n != "" {
		u, ok := env.Unit(n)
		if !ok {
			return nil, fmt.Errorf("fallback unit %s is not bound", n)
		}
		fb, ok := u.(*Roofline)
		if !ok {
			return nil, fmt.Errorf("fallback unit %s is not a roofline unit", n)
		}
		v.fallback = fb
	}
	v.derive()
	return &v, nil
}

// Supports reports whether the unit runs kernels of class c itself.
func (r *Roofline) Supports(c workload.KernelClass) bool {
	return c >= workload.GEMM && c <= workload.TopK && r.rate[c] > 0
}

// ceilPS rounds a non-negative time in ps up, saturating.
func ceilPS(x float64) int64 {
	if x >= math.MaxInt64/2 {
		return math.MaxInt64 / 2
	}
	return int64(math.Ceil(x))
}

// KernelCost returns the cost of k on the unit's own engine; a class the
// unit does not run is an error (no fallback).
func (r *Roofline) KernelCost(k workload.Kernel) (hw.Cost, error) {
	if !r.Supports(k.Class) {
		return hw.Cost{}, fmt.Errorf("soc: %s cannot run %s kernels (%s)", r.spec.Name, k.Class, k.Name)
	}
	if k.MACs < 0 || k.Ops < 0 || k.InElems < 0 || k.WeightElems < 0 || k.OutElems < 0 {
		return hw.Cost{}, fmt.Errorf("soc: %s: kernel %s has negative counts", r.spec.Name, k.Name)
	}
	work := float64(k.MACs) + float64(k.Ops)
	bytes := k.Elems() * r.elem
	busy := ceilPS(max(work/r.rate[k.Class], float64(bytes)/r.memRate))
	t := hw.SatAdd(busy, r.launchPS)
	return hw.Cost{
		TimePS:    t,
		Cycles:    r.cycles(t),
		EnergyPJ:  r.idleW*float64(t) + r.dynW*float64(busy) + float64(bytes)*r.env.PJPerByte,
		DRAMBytes: bytes,
		MACs:      k.MACs,
	}, nil
}

// cycles converts ps to cycles at the unit's clock.
func (r *Roofline) cycles(ps int64) int64 {
	c := math.Round(float64(ps) * r.ops[r.pt].FreqHz * 1e-12)
	if c >= math.MaxInt64/2 {
		return math.MaxInt64 / 2
	}
	return int64(c)
}

// Transfer returns the unit's side of a hand-off carrying bytes: half the
// hand-off latency, then the memory latency and the bytes at the unit's
// share of the bandwidth, at idle power, plus the DRAM energy.
func (r *Roofline) Transfer(bytes int64) hw.Cost {
	t := r.env.HandoffPS / 2
	if bytes > 0 {
		t = hw.SatAdd(t, hw.SatAdd(r.env.LatencyPS, ceilPS(float64(bytes)/r.memRate)))
	}
	return hw.Cost{
		TimePS:    t,
		Cycles:    r.cycles(t),
		EnergyPJ:  r.idleW*float64(t) + float64(bytes)*r.env.PJPerByte,
		DRAMBytes: bytes,
	}
}

// Phases appends what each unit does to run ks in order: runs of kernels
// on this unit, runs on the fallback unit, and the hand-offs between them
// (each side's Transfer folded into its phase).
func (r *Roofline) Phases(ks []workload.Kernel, dst []Phase) ([]Phase, error) {
	var cur *Roofline
	var acc hw.Cost
	for i, k := range ks {
		eng := r
		if !r.Supports(k.Class) {
			if r.fallback == nil {
				return dst, fmt.Errorf("soc: %s cannot run %s kernels (%s) and has no fallback", r.spec.Name, k.Class, k.Name)
			}
			eng = r.fallback
		}
		if cur != nil && eng != cur {
			b := ks[i-1].OutElems * r.env.ElementBytes
			acc = acc.Add(cur.Transfer(b))
			dst = append(dst, Phase{Unit: cur.Name(), Cost: acc})
			acc = eng.Transfer(b)
		}
		cur = eng
		c, err := eng.KernelCost(k)
		if err != nil {
			return dst, err
		}
		acc = acc.Add(c)
	}
	if cur != nil {
		dst = append(dst, Phase{Unit: cur.Name(), Cost: acc})
	}
	return dst, nil
}

// RunKernels returns the cost of running ks in order, fallbacks included.
func (r *Roofline) RunKernels(ks []workload.Kernel) (hw.Cost, error) {
	var buf [8]Phase
	ps, err := r.Phases(ks, buf[:0])
	if err != nil {
		return hw.Cost{}, err
	}
	var c hw.Cost
	for _, p := range ps {
		c = c.Add(p.Cost)
	}
	c.Cycles = r.cycles(c.TimePS)
	return c, nil
}

// Run returns the cost of w's kernels; zero work costs nothing.
func (r *Roofline) Run(w hw.Work) (hw.Cost, error) {
	if w.Empty() {
		return hw.Cost{}, nil
	}
	ks, err := w.Kernels()
	if err != nil {
		return hw.Cost{}, fmt.Errorf("soc: %s: %w", r.spec.Name, err)
	}
	return r.RunKernels(ks)
}
