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
// and costs P_idle * t + a C V(f)^2 f * (t - launch) + B * e_DRAM: the
// unit draws its idle power whenever it holds work and its dynamic power
// in proportion to its activity a (operations over what the peak does in
// the kernel's busy time). peak(f) scales linearly with the clock. A class the unit
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

	rate      [workload.TopK + 1]float64 // operations per ps; 0: unsupported
	peak      float64                    // MACs per ps at the point, cores gated
	sms       float64                    // tiling engines online
	memRate   float64                    // bytes per ps
	cacheRate float64                    // cache bytes per ps; 0: no cache
	launchPS  int64
	gluePS    int64                    // fixed cost of one glue kernel
	glue      [workload.TopK + 1]int64 // extra copy kernels per kernel of a class
	idleW     float64
	dynW      float64
	elem      int64
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
		r.env.GlueFloorPS = cpu.gluePS(len(cpu.PointsMHz) - 1)
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
	r.peak = peakPerPS
	if u.Tiling != nil {
		r.sms = max(1, math.Round(frac*float64(u.Tiling.SMs)))
	}
	for c := range classes() {
		r.rate[c] = 0
		if e, ok := u.Efficiency[c.String()]; ok {
			r.rate[c] = e * peakPerPS
		}
	}
	r.memRate = u.MemoryShare * r.env.BytesPerSec * 1e-12
	// The cache's bandwidth is the SMs' (per SM per clock): it scales with
	// the unit's clock and its cores online, not the memory's clock.
	r.cacheRate = frac * u.CacheBytesPerCycle * mhz * 1e6 * 1e-12
	for c := range classes() {
		r.glue[c] = int64(u.Glue[c.String()])
	}
	r.launchPS = max(int64(math.Round(u.LaunchUS*1e6)), r.env.LaunchFloorPS)
	r.gluePS = max(r.launchPS, r.env.GlueFloorPS)
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

// runs reports whether the unit runs k on its own engine: its class has
// an efficiency and its name is not refused.
func (r *Roofline) runs(k workload.Kernel) bool {
	if _, ok := r.spec.KernelEfficiency[k.Name]; ok {
		return true
	}
	if !r.Supports(k.Class) {
		return false
	}
	for _, n := range r.spec.Refuse {
		if k.Name == n {
			return false
		}
	}
	return true
}

// computePS returns the time k's operations take on the engine: tiles and
// waves for dense products when the unit has a tiling, else the class's
// efficiency times the peak.
func (r *Roofline) computePS(k workload.Kernel) float64 {
	work := float64(k.MACs) + float64(k.Ops)
	rate := r.rate[k.Class]
	if e, ok := r.spec.KernelEfficiency[k.Name]; ok {
		rate = e * r.peak
	}
	t := work / rate
	tl := r.spec.Tiling
	if tl == nil || (k.Class != workload.GEMM && k.Class != workload.KNNDist) || k.MACs <= 0 || k.M <= 0 || k.N <= 0 || k.K <= 0 {
		return t
	}
	g := max(int64(math.Round(float64(k.M)*float64(k.K)*float64(k.N)/float64(k.MACs))), 1)
	ng, kg := ceilDiv(k.N, g), ceilDiv(k.K, g)
	kq := float64(ceilDiv(kg, int64(tl.KStep))*int64(tl.KStep) + int64(tl.KOverhead))
	perSM := r.peak / r.sms // MACs per ps of one engine
	best := math.Inf(1)
	for _, tile := range tl.Tiles {
		tiles := float64(g) * float64(ceilDiv(k.M, int64(tile.M))) * float64(ceilDiv(ng, int64(tile.N)))
		waves := math.Ceil(tiles / r.sms)
		best = min(best, waves*float64(tile.M)*float64(tile.N)*kq/(perSM*tile.Eff))
	}
	if tl.ScalarEff > 0 {
		best = min(best, float64(k.MACs)/(r.peak*tl.ScalarEff))
	}
	if tl.Winograd > 1 && g == 1 && winograd(k) {
		best /= tl.Winograd
	}
	return best
}

// winograd reports whether k is a convolution with a 3x3 window at stride
// 1, the shape a Winograd mode runs: workload prices a convolution as a
// product of its output pixels (M) by window^2 x input channels (K) that
// reads each input pixel once (InElems = pixels x channels), so M x K is
// 9 x InElems exactly when the window is 3x3 and the output keeps the
// input's size.
func winograd(k workload.Kernel) bool {
	return k.Class == workload.GEMM && k.Name == "conv" && k.InElems > 0 && k.M > 0 && k.K%9 == 0 &&
		float64(k.M)*float64(k.K) == 9*float64(k.InElems)
}

// memPS returns the time to move dram bytes through memory and hit bytes
// out of the cache: the cache carries both (a miss fills it), memory the
// misses and write-backs, overlapped.
func (r *Roofline) memPS(dram, hit int64) float64 {
	t := float64(dram) / r.memRate
	if r.cacheRate > 0 {
		t = max(t, float64(dram+hit)/r.cacheRate)
	}
	return t
}

// kernelCost prices k on the engine, moving bytes through memory (fewer
// than k's elements when they stay on chip or fuse) and hit bytes out of
// the unit's cache.
func (r *Roofline) kernelCost(k workload.Kernel, bytes, hit int64) hw.Cost {
	busy := ceilPS(max(r.computePS(k), r.memPS(bytes, hit)))
	t := hw.SatAdd(busy, r.launchPS)
	if _, named := r.spec.KernelEfficiency[k.Name]; !named && r.glue[k.Class] > 0 {
		n := r.glue[k.Class]
		// Each glue kernel copies the kernel's input (read and write,
		// memory bound) after the CPU has dispatched it: the host-side
		// dispatch runs at the CPU clock, whatever the unit's. When
		// source and destination fit the cache, the source is read
		// there (it was just written or read) and only the copy's write
		// reaches memory, as a write-back.
		w := k.InElems * r.elem
		dram, hits := 2*w, int64(0)
		if r.cacheRate > 0 && 2*w <= r.spec.CacheBytes {
			dram, hits = w, w
		}
		g := ceilPS(float64(n) * r.memPS(dram, hits))
		busy = hw.SatAdd(busy, g)
		t = hw.SatAdd(t, hw.SatAdd(g, n*r.gluePS))
		bytes = hw.SatAdd(bytes, n*dram)
	}
	// Dynamic power is drawn in proportion to the engines' activity: the
	// operations done over what the peak would do in the busy time (a
	// kernel waiting on memory or on irregular accesses switches little).
	act := 0.0
	if busy > 0 {
		act = min(1, (float64(k.MACs)+float64(k.Ops))/r.peak/float64(busy))
	}
	return hw.Cost{
		TimePS:    t,
		Cycles:    r.cycles(t),
		EnergyPJ:  r.idleW*float64(t) + r.dynW*act*float64(busy) + float64(bytes)*r.env.PJPerByte,
		DRAMBytes: bytes,
		MACs:      k.MACs,
	}
}

// KernelCost returns the cost of k on the unit's own engine, alone (no
// fusion, operands through memory); a kernel the unit does not run is an
// error (no fallback).
func (r *Roofline) KernelCost(k workload.Kernel) (hw.Cost, error) {
	if !r.runs(k) {
		return hw.Cost{}, fmt.Errorf("soc: %s cannot run %s kernels (%s)", r.spec.Name, k.Class, k.Name)
	}
	if k.MACs < 0 || k.Ops < 0 || k.InElems < 0 || k.WeightElems < 0 || k.OutElems < 0 {
		return hw.Cost{}, fmt.Errorf("soc: %s: kernel %s has negative counts", r.spec.Name, k.Name)
	}
	return r.kernelCost(k, k.Elems()*r.elem, 0), nil
}

// cycles converts ps to cycles at the unit's clock.
func (r *Roofline) cycles(ps int64) int64 {
	c := math.Round(float64(ps) * r.ops[r.pt].FreqHz * 1e-12)
	if c >= math.MaxInt64/2 {
		return math.MaxInt64 / 2
	}
	return int64(c)
}

// move returns a side of a crossing: a fixed cost, then the memory latency
// and the bytes at the unit's rate, at idle power, plus the DRAM energy.
func (r *Roofline) move(fixedPS, bytes int64) hw.Cost {
	t := fixedPS
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

// us converts a spec time in us to ps.
func us(x float64) int64 { return int64(math.Round(x * 1e6)) }

// handoffPS returns the unit's fixed costs of receiving and of handing
// over work between segments.
func (r *Roofline) handoffPS() (in, out int64) {
	if r.spec.HandoffInUS == 0 && r.spec.HandoffOutUS == 0 {
		return r.env.HandoffPS / 2, r.env.HandoffPS / 2
	}
	return us(r.spec.HandoffInUS), us(r.spec.HandoffOutUS)
}

// Transfer returns the unit's side of a hand-off carrying bytes as if it
// were symmetric: the mean of TransferIn and TransferOut's fixed costs
// (kept for units that price both sides alike).
func (r *Roofline) Transfer(bytes int64) hw.Cost {
	in, out := r.handoffPS()
	return r.move((in+out)/2, bytes)
}

// TransferIn returns the unit's side of receiving work and bytes from
// another unit between segments: its hand-off-in cost, a submission when
// it runs work in loadables, and reading the bytes.
func (r *Roofline) TransferIn(bytes int64) hw.Cost {
	in, _ := r.handoffPS()
	return r.move(in+us(r.spec.SubmitUS), bytes)
}

// TransferOut returns the unit's side of handing work and bytes over.
func (r *Roofline) TransferOut(bytes int64) hw.Cost {
	_, out := r.handoffPS()
	return r.move(out, bytes)
}

// Entry returns the cost of starting a frame on the unit: one submission
// for a unit running loadables, nothing otherwise.
func (r *Roofline) Entry() hw.Cost { return r.move(us(r.spec.SubmitUS), 0) }

// fallbackPS returns the unit's fixed costs of leaving for its fallback
// unit inside a segment and of coming back (submission included).
func (r *Roofline) fallbackPS() (out, back int64) {
	out, back = us(r.spec.FallbackOutUS), us(r.spec.FallbackInUS)
	if out == 0 && back == 0 {
		in, o := r.handoffPS()
		out, back = o, in
	}
	return out, back + us(r.spec.SubmitUS)
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
