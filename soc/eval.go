package soc

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"

	"gnnsim/hw"
	"gnnsim/workload"
)

// Result is what running one frame of a mapped model costs (MaGNAS Eq. 6-7).
type Result struct {
	LatencyPS   int64
	EnergyPJ    float64
	Transitions int // changes of unit between consecutive segments
	// TransferPS and TransferPJ are the part of the latency and energy
	// spent moving feature maps between units (tau_in, tau_out).
	TransferPS int64
	TransferPJ float64
	DRAMBytes  int64
	// PlatformPJ is the part of the energy the CPU and the memory draw
	// over the whole frame (SoC.PlatformW times the latency).
	PlatformPJ float64
	// BusyPS is, per unit (SoC order), the time it holds work: its compute
	// phases and its sides of the transfers. It sums to LatencyPS.
	BusyPS []int64
}

// LatencyMS returns the latency in milliseconds.
func (r Result) LatencyMS() float64 { return float64(r.LatencyPS) * 1e-9 }

// EnergyMJ returns the energy in millijoules.
func (r Result) EnergyMJ() float64 { return r.EnergyPJ * 1e-9 }

// PowerW returns the average power, or 0 for a zero latency.
func (r Result) PowerW() float64 {
	if r.LatencyPS == 0 {
		return 0
	}
	return r.EnergyPJ / float64(r.LatencyPS)
}

// Evaluator evaluates mappings of one model on one SoC. It prices every
// segment on every unit once per DVFS setting (on first use) and then
// evaluates a mapping as a sum over segments. It is safe for concurrent use.
type Evaluator struct {
	soc  *SoC
	gran Granularity
	segs []Segment
	nu   int
	// runs: consecutive segments of one block on one roofline unit run as
	// one plan (fusion, on-chip buffers and caches across their
	// boundaries), as a block does; set for splits finer than blocks
	// whose segments all carry their data flow (Segments' do).
	runs bool

	mu     sync.RWMutex
	tables map[int]*table
}

// step is a piece of a segment's run on one unit: a compute phase or a
// transfer between the unit and shared memory.
type step struct {
	unit  int
	ps    int64
	pj    float64
	bytes int64
	// For a transfer: the part of ps spent before the bytes are requested
	// (the hand-off), and the bytes' rate-limited time after it.
	xfer    bool
	delayPS int64
	// parts, for a compute phase planned kernel by kernel, are its
	// kernels' times and DRAM bytes, in order: they sum to ps and bytes.
	parts []part
}

// part is one kernel of a compute step: its time and its DRAM bytes.
type part struct {
	ps, bytes int64
}

// table holds the costs of every (segment, unit) pair at one setting.
type table struct {
	set       Setting
	platformW float64 // CPU and memory power over the frame
	// comp, in and out are indexed by i*nu+u: segment i's compute phases
	// on unit u (as steps), and its tau_in and tau_out there.
	comp    [][]step
	compPS  []int64
	compPJ  []float64
	compB   []int64
	in, out []step
	// entry is the first segment's start on the unit running its first
	// kernel: the host's per-frame work (CPUSpec.FrameCycles) and a DLA's
	// loadable submission.
	entry []step
	busy  []int64 // [(i*nu+u)*nu + e]: compute time on unit e
	// first and last are the units running a segment's first and last
	// kernels: the mapped unit, or the unit it fell back to.
	first, last []int
	err         []error

	// units are the units bound at set, planners those of them that are
	// DAGPlanners (whose runs of segments are planned as one), nil for
	// the others.
	units    []hw.Unit
	planners []DAGPlanner
	bwPerPS  float64
	runMu    sync.RWMutex
	runs     map[int64]*runCost
}

// runCost is what a run of two or more consecutive segments of one block
// costs on one unit, planned as one.
type runCost struct {
	steps []step
	ps    int64
	pj    float64
	bytes int64
	busy  []int64 // per unit
	err   error
}

// NewEvaluator returns an evaluator of m split at granularity g on s.
func NewEvaluator(s *SoC, m workload.Model, g Granularity) (*Evaluator, error) {
	if s == nil {
		return nil, errors.New("soc: nil SoC")
	}
	if g > KernelGroups {
		return nil, fmt.Errorf("soc: unknown granularity %d", g)
	}
	segs, err := Segments(m, g)
	if err != nil {
		return nil, err
	}
	return &Evaluator{soc: s, gran: g, segs: segs, nu: len(s.units), runs: g != Blocks, tables: map[int]*table{}}, nil
}

// NewSegmentEvaluator returns an evaluator of segments the caller made
// (a split Segments does not offer: element-wise layers fused into the
// layer before them, say), labelled with granularity g. Each segment must
// do work: layers (Work; Kernels are derived from them when not given) or,
// for a kernel group, Kernels alone, which only KernelCoster (or Phaser)
// units can run. The transfers at a change of unit move the
// segments' InElems and OutElems. When g is finer than blocks and every
// segment gives its Producers, consecutive segments of one block on one
// roofline unit are planned as one, as NewEvaluator's are; otherwise each
// segment is priced alone.
func NewSegmentEvaluator(s *SoC, segs []Segment, g Granularity) (*Evaluator, error) {
	if s == nil {
		return nil, errors.New("soc: nil SoC")
	}
	if g > KernelGroups {
		return nil, fmt.Errorf("soc: unknown granularity %d", g)
	}
	if len(segs) == 0 {
		return nil, errors.New("soc: no segments")
	}
	segs = slices.Clone(segs)
	for i, sg := range segs {
		switch {
		case len(sg.Kernels) == 0 && sg.Work.Empty():
			return nil, fmt.Errorf("soc: segment %d (%s) does no work", i, sg.Name)
		case sg.InElems < 0 || sg.OutElems < 0:
			return nil, fmt.Errorf("soc: segment %d (%s): %d input, %d output elements", i, sg.Name, sg.InElems, sg.OutElems)
		case len(sg.Kernels) == 0:
			ks, err := sg.Work.Kernels()
			if err != nil {
				return nil, fmt.Errorf("soc: segment %d (%s): %w", i, sg.Name, err)
			}
			segs[i].Kernels = ks
		}
	}
	runs := g != Blocks
	for _, sg := range segs {
		runs = runs && sg.Producers != nil
	}
	return &Evaluator{soc: s, gran: g, segs: segs, nu: len(s.units), runs: runs, tables: map[int]*table{}}, nil
}

// Segments returns the segments mappings assign.
func (e *Evaluator) Segments() []Segment { return slices.Clone(e.segs) }

// SoC returns the evaluator's SoC.
func (e *Evaluator) SoC() *SoC { return e.soc }

// Granularity returns the evaluator's granularity.
func (e *Evaluator) Granularity() Granularity { return e.gran }

// table returns the costs at set, computing them on first use.
func (e *Evaluator) table(set Setting) (*table, error) {
	k := e.soc.key(set)
	e.mu.RLock()
	t, ok := e.tables[k]
	e.mu.RUnlock()
	if ok {
		return t, nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if t, ok := e.tables[k]; ok {
		return t, nil
	}
	t, err := e.build(set)
	if err != nil {
		return nil, err
	}
	e.tables[k] = t
	return t, nil
}

// build prices every segment on every unit at set. A pair that cannot run
// keeps its error, reported only if a mapping uses it.
func (e *Evaluator) build(set Setting) (*table, error) {
	units, uerrs, env, err := e.soc.bind(set)
	if err != nil {
		return nil, err
	}
	n, nu := len(e.segs), e.nu
	t := &table{set: set, platformW: e.soc.PlatformW(set), comp: make([][]step, n*nu), compPS: make([]int64, n*nu), compPJ: make([]float64, n*nu),
		compB: make([]int64, n*nu), in: make([]step, n*nu), out: make([]step, n*nu), entry: make([]step, n*nu),
		busy: make([]int64, n*nu*nu), err: make([]error, n*nu), first: make([]int, n*nu), last: make([]int, n*nu),
		units: units, planners: make([]DAGPlanner, nu), runs: map[int64]*runCost{}}
	for u, unit := range units {
		t.planners[u], _ = unit.(DAGPlanner)
	}
	bwPerPS := env.BytesPerSec * 1e-12
	t.bwPerPS = bwPerPS
	// The host's per-frame work precedes the first unit's start; it is
	// drawn at the platform's power plus the idle power of the unit
	// waiting on it (counted busy, so BusyPS still sums to the latency).
	framePS := e.soc.cpu.framePS(set.cpu)
	var phases []Phase
	for i, sg := range e.segs {
		for u, unit := range units {
			j := i*nu + u
			if uerrs[u] != nil {
				t.err[j] = uerrs[u]
				continue
			}
			phases, err = e.phases(unit, sg, phases[:0])
			if err != nil {
				t.err[j] = fmt.Errorf("soc: segment %s on %s: %w", sg.Name, e.soc.names[u], err)
				continue
			}
			rc, err := e.phaseSteps(phases, bwPerPS)
			if err != nil {
				t.err[j] = fmt.Errorf("soc: segment %s on %s: %w", sg.Name, e.soc.names[u], err)
				continue
			}
			t.comp[j], t.compPS[j], t.compPJ[j], t.compB[j] = rc.steps, rc.ps, rc.pj, rc.bytes
			copy(t.busy[j*nu:j*nu+nu], rc.busy)
			t.first[j], t.last[j] = u, u
			if c := t.comp[j]; len(c) > 0 {
				t.first[j], t.last[j] = c[0].unit, c[len(c)-1].unit
			}
			t.in[j] = transferStep(units[t.first[j]], t.first[j], sg.InElems*env.ElementBytes, env, true)
			t.out[j] = transferStep(units[t.last[j]], t.last[j], sg.OutElems*env.ElementBytes, env, false)
			t.entry[j] = step{unit: t.first[j], ps: framePS}
			if p, ok := units[t.first[j]].(idlePowered); ok && framePS > 0 {
				// The unit waiting on the host is counted busy, and a unit
				// holding work draws its idle power: it keeps the frame's
				// context at its clock (a Jetson's GPU rail-gates only
				// after a far longer idle time). Other units draw nothing
				// while they hold no work, as everywhere in the frame.
				idle, _ := p.PowerW()
				t.entry[j].pj = idle * float64(framePS)
			}
			if d, ok := units[t.first[j]].(DirectedTransferer); ok {
				c := d.Entry()
				t.entry[j].ps = hw.SatAdd(t.entry[j].ps, c.TimePS)
				t.entry[j].pj += c.EnergyPJ
			}
		}
	}
	return t, nil
}

// phaseSteps turns a run's phases into the steps of a table, each phase
// taking at least the time the shared memory needs to carry its bytes.
func (e *Evaluator) phaseSteps(phases []Phase, bwPerPS float64) (runCost, error) {
	rc := runCost{busy: make([]int64, e.nu)}
	for _, p := range phases {
		eu := slices.Index(e.soc.names, p.Unit)
		if eu < 0 {
			return rc, fmt.Errorf("phase on unknown unit %q", p.Unit)
		}
		if err := p.Cost.Validate(); err != nil {
			return rc, err
		}
		// A unit cannot move more bytes than the shared memory carries in
		// the phase's time.
		ps := max(p.Cost.TimePS, ceilPS(float64(p.Cost.DRAMBytes)/bwPerPS))
		rc.steps = append(rc.steps, step{unit: eu, ps: ps, pj: p.Cost.EnergyPJ, bytes: p.Cost.DRAMBytes, parts: kernelParts(p, ps)})
		rc.ps = hw.SatAdd(rc.ps, ps)
		rc.pj += p.Cost.EnergyPJ
		rc.bytes = hw.SatAdd(rc.bytes, p.Cost.DRAMBytes)
		rc.busy[eu] = hw.SatAdd(rc.busy[eu], ps)
	}
	return rc, nil
}

// kernelParts returns the parts of a phase that takes ps in all: its
// kernels, the last one taking what the phase's memory floor adds; nil
// for a phase priced as a whole.
func kernelParts(p Phase, ps int64) []part {
	if len(p.Kernels) == 0 {
		return nil
	}
	parts := make([]part, len(p.Kernels))
	var sum int64
	for i, k := range p.Kernels {
		parts[i] = part{ps: k.TimePS, bytes: k.DRAMBytes}
		sum = hw.SatAdd(sum, k.TimePS)
	}
	parts[len(parts)-1].ps += ps - sum
	return parts
}

// continues reports whether segment i (i > 0) runs in one plan with the
// segment before it under m: the same block on the same DAGPlanner, in
// an evaluator whose segments are finer than blocks.
func (e *Evaluator) continues(t *table, m Mapping, i int) bool {
	u := m.Units[i]
	return e.runs && u == m.Units[i-1] && t.planners[u] != nil && e.segs[i].Block == e.segs[i-1].Block
}

// runKernels returns the kernels of segments from..to (one block's,
// consecutive) and their data flow, as one plan reads them: a producer
// before the run keeps a negative index, distinct per kernel.
func (e *Evaluator) runKernels(from, to int) ([]workload.Kernel, [][]int) {
	var ks []workload.Kernel
	var prod [][]int
	for q := from; q <= to; q++ {
		sg := e.segs[q]
		off := len(ks)
		ks = append(ks, sg.Kernels...)
		for _, kp := range sg.Producers { // set in every segment of a run (runs)
			ps := make([]int, len(kp))
			for j, p := range kp {
				ps[j] = off + p
			}
			prod = append(prod, ps)
		}
	}
	return ks, prod
}

// run returns the cost of segments from..to (two or more of one block) on
// roofline unit u at t's setting, planned as one, computing it on first
// use.
func (e *Evaluator) run(t *table, from, to, u int) *runCost {
	key := (int64(from)*int64(len(e.segs))+int64(to))*int64(e.nu) + int64(u)
	t.runMu.RLock()
	rc, ok := t.runs[key]
	t.runMu.RUnlock()
	if ok {
		return rc
	}
	t.runMu.Lock()
	defer t.runMu.Unlock()
	if rc, ok := t.runs[key]; ok {
		return rc
	}
	ks, prod := e.runKernels(from, to)
	var c runCost
	phases, err := phasesDAG(t.planners[u], ks, prod, nil)
	if err == nil {
		c, err = e.phaseSteps(phases, t.bwPerPS)
	}
	if err != nil {
		c.err = fmt.Errorf("soc: segments %s..%s on %s: %w", e.segs[from].Name, e.segs[to].Name, e.soc.names[u], err)
	}
	t.runs[key] = &c
	return &c
}

// comp returns the compute of segments from..to on unit u: the table's
// entry for one segment, the run's for more.
func (e *Evaluator) comp(t *table, from, to, u int) (steps []step, ps int64, pj float64, bytes int64, busy []int64, err error) {
	if from == to {
		j := to*e.nu + u
		return t.comp[j], t.compPS[j], t.compPJ[j], t.compB[j], t.busy[j*e.nu : j*e.nu+e.nu], nil
	}
	rc := e.run(t, from, to, u)
	return rc.steps, rc.ps, rc.pj, rc.bytes, rc.busy, rc.err
}

// idlePowered is a unit that reports the power it draws while it holds
// work without running it (Roofline).
type idlePowered interface {
	PowerW() (idle, dynamic float64)
}

// phases returns what running segment sg on unit costs, phase by phase.
func (e *Evaluator) phases(unit hw.Unit, sg Segment, dst []Phase) ([]Phase, error) {
	if p, ok := unit.(DAGPlanner); ok {
		return phasesDAG(p, sg.Kernels, sg.Producers, dst)
	}
	if p, ok := unit.(Phaser); ok {
		return p.Phases(sg.Kernels, dst)
	}
	var c hw.Cost
	var err error
	switch k, ok := unit.(KernelCoster); {
	case ok:
		c, err = k.RunKernels(sg.Kernels)
	case len(sg.Work.Block.Layers) == 0:
		return dst, fmt.Errorf("unit prices whole layers only, not kernel groups (use block or layer granularity)")
	default:
		c, err = unit.Run(sg.Work)
	}
	if err != nil {
		return dst, err
	}
	return append(dst, Phase{Unit: unit.Name(), Cost: c}), nil
}

// transferStep returns unit u's side of moving b bytes of a feature map,
// receiving them (in) or handing them over.
func transferStep(unit hw.Unit, u int, b int64, env Env, in bool) step {
	price := func(b int64) hw.Cost {
		d, directed := unit.(DirectedTransferer)
		tr, ok := unit.(Transferer)
		switch {
		case directed && in:
			return d.TransferIn(b)
		case directed:
			return d.TransferOut(b)
		case ok:
			return tr.Transfer(b)
		}
		c := hw.Cost{TimePS: env.HandoffPS / 2, EnergyPJ: float64(b) * env.PJPerByte, DRAMBytes: b}
		if b > 0 {
			c.TimePS = hw.SatAdd(c.TimePS, hw.SatAdd(env.LatencyPS, ceilPS(float64(b)/(env.BytesPerSec*1e-12))))
		}
		return c
	}
	c := price(b)
	// The fixed part (the hand-off) comes before the bytes are requested,
	// and the bytes cannot arrive before the channel has sent them.
	fixed := min(price(0).TimePS, c.TimePS)
	ps := c.TimePS
	if b > 0 {
		ps = max(ps, fixed+env.LatencyPS+ceilPS(float64(b)/(env.BytesPerSec*1e-12)))
	}
	return step{unit: u, ps: ps, pj: c.EnergyPJ, bytes: b, xfer: true, delayPS: fixed}
}

// checkMapping reports a mapping that does not fit the evaluator.
func (e *Evaluator) checkMapping(m Mapping) error {
	if m.Granularity != e.gran {
		return fmt.Errorf("soc: %s-wise mapping for a %s-wise evaluator", m.Granularity, e.gran)
	}
	if len(m.Units) != len(e.segs) {
		return fmt.Errorf("soc: mapping of %d entries for %d segments (%s granularity)", len(m.Units), len(e.segs), e.gran)
	}
	for i, u := range m.Units {
		if u < 0 || u >= e.nu {
			return fmt.Errorf("soc: mapping entry %d (%s): unit %d of %d", i, e.segs[i].Name, u, e.nu)
		}
	}
	return nil
}

// Evaluate returns the cost of one frame of the model under mapping m at
// DVFS setting d (MaGNAS Eq. 6-7).
func (e *Evaluator) Evaluate(m Mapping, d DVFS) (Result, error) {
	set, err := e.soc.Setting(d)
	if err != nil {
		return Result{}, err
	}
	var r Result
	err = e.EvaluateAt(&r, m, set)
	return r, err
}

// EvaluateAt is Evaluate for a resolved setting, writing into r (whose
// BusyPS is reused): the allocation-free form for search loops.
//
//	T = sum_i tau_comp(i) + [pi_{i-1} != pi_i] tau_in(i) + [pi_i != pi_{i+1}] tau_out(i)
//
// and the same for energy, the indicators counting changes of the unit that
// runs the kernels on either side of a boundary: the mapped unit, or the
// unit it fell back to (a DLA segment ending in GPU-fallback kernels hands
// its output over from the GPU). The first segment reads, and the last
// writes, the frame in shared memory whatever the mapping, so neither pays
// a transfer.
func (e *Evaluator) EvaluateAt(r *Result, m Mapping, set Setting) error {
	if err := e.checkMapping(m); err != nil {
		return err
	}
	t, err := e.table(set)
	if err != nil {
		return err
	}
	busy := r.BusyPS[:0]
	for range e.nu {
		busy = append(busy, 0)
	}
	*r = Result{BusyPS: busy}
	nu := e.nu
	addComp := func(from, to int) error {
		_, ps, pj, bytes, b, err := e.comp(t, from, to, m.Units[to])
		if err != nil {
			return err
		}
		r.LatencyPS = hw.SatAdd(r.LatencyPS, ps)
		r.EnergyPJ += pj
		r.DRAMBytes = hw.SatAdd(r.DRAMBytes, bytes)
		for eu, b := range b {
			busy[eu] = hw.SatAdd(busy[eu], b)
		}
		return nil
	}
	// A segment alone adds its compute on its turn, before its transfer
	// in (the order of the sums is part of the result); a run of segments
	// planned as one adds it when the run ends.
	start, n := 0, len(m.Units)
	for i, u := range m.Units {
		j := i*nu + u
		if err := t.err[j]; err != nil {
			return err
		}
		if i > 0 && e.continues(t, m, i) {
			continue
		}
		if i > 0 && start < i-1 {
			if err := addComp(start, i-1); err != nil {
				return err
			}
		}
		start = i
		if i+1 == n || !e.continues(t, m, i+1) {
			if err := addComp(i, i); err != nil {
				return err
			}
		}
		if i == 0 {
			x := t.entry[j]
			r.LatencyPS = hw.SatAdd(r.LatencyPS, x.ps)
			r.EnergyPJ += x.pj
			busy[x.unit] = hw.SatAdd(busy[x.unit], x.ps)
			continue
		}
		if p := j - nu + m.Units[i-1] - u; t.last[p] != t.first[j] {
			r.Transitions++
			for _, x := range [2]step{t.out[p], t.in[j]} {
				r.LatencyPS = hw.SatAdd(r.LatencyPS, x.ps)
				r.TransferPS = hw.SatAdd(r.TransferPS, x.ps)
				r.EnergyPJ += x.pj
				r.TransferPJ += x.pj
				r.DRAMBytes = hw.SatAdd(r.DRAMBytes, x.bytes)
				busy[x.unit] = hw.SatAdd(busy[x.unit], x.ps)
			}
		}
	}
	if start < n-1 {
		if err := addComp(start, n-1); err != nil {
			return err
		}
	}
	r.PlatformPJ = t.platformW * float64(r.LatencyPS)
	r.EnergyPJ += r.PlatformPJ
	return r.checkRange()
}

// rescale says how to bring a saturated result back in range.
const rescale = "the spec or table gives times or sizes too large for one frame; give them in smaller units or split the model"

// checkRange refuses a result whose sums saturated, so a clamped number
// is never reported.
func (r *Result) checkRange() error {
	if err := hw.CheckCount("soc: one frame's latency (ps)", r.LatencyPS, rescale); err != nil {
		return err
	}
	if err := hw.CheckCount("soc: one frame's off-chip bytes", r.DRAMBytes, rescale); err != nil {
		return err
	}
	for u, b := range r.BusyPS {
		// A constant quantity: this runs on every evaluation, and a
		// formatted one would allocate there (sweeps, searches).
		if err := hw.CheckCount("soc: a unit's busy time (ps)", b, rescale); err != nil {
			return fmt.Errorf("%w (unit %d)", err, u)
		}
	}
	if math.IsNaN(r.EnergyPJ) || math.IsInf(r.EnergyPJ, 0) {
		return fmt.Errorf("soc: one frame's energy is %v pJ: %s", r.EnergyPJ, rescale)
	}
	return nil
}

// Evaluate returns the cost of one frame of model on s under mapping m at
// DVFS setting d (MaGNAS Eq. 6-7). Build an Evaluator to evaluate many
// mappings of one model.
func Evaluate(s *SoC, model workload.Model, m Mapping, d DVFS) (Result, error) {
	e, err := NewEvaluator(s, model, m.Granularity)
	if err != nil {
		return Result{}, err
	}
	return e.Evaluate(m, d)
}
