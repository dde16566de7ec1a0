package fpga

import (
	"errors"
	"fmt"
	"slices"

	"gnnsim/hw"
	"gnnsim/workload"
)

// ClockHz is the design clock: FGNAS assumes 100 MHz throughout (section 4).
const ClockHz = 100e6

// Budget is what a design may use: device resources (a zero field is
// unconstrained) and a latency bound in picoseconds (0: none).
type Budget struct {
	hw.Resources
	LatencyPS int64
}

// Model selects which cost model prices a design.
type Model uint8

// The cost models (see the package doc).
const (
	// Gnnsim is this package's model: per-stage work and pipeline depths
	// from the operator table of table.go, the summed or the event-driven
	// pipelined timing, BRAM buffers.
	Gnnsim Model = iota
	// FGNASCode is the FGNAS authors' own cost model, as their repository
	// computes it: summed stages, their operator table by bit width, no
	// memory.
	FGNASCode
)

var modelNames = [...]string{Gnnsim: "gnnsim", FGNASCode: "fgnas-code"}

func (m Model) String() string { return enumName(modelNames[:], uint8(m), "Model") }

// ParseModel reads "gnnsim" or "fgnas-code".
func ParseModel(s string) (Model, error) {
	v, err := parseEnum(modelNames[:], s, "model")
	return Model(v), err
}

// Options select the cost model, the timing the unit reports and its
// budget.
type Options struct {
	// Model is the cost model; the zero value is Gnnsim. Published,
	// Pipelined, BlockNodes and SerialHeads apply to Gnnsim only.
	Model Model
	// AnyResource judges resources as the FGNAS authors' code does: the
	// resources pass when any one of LUT, FF and DSP is under its limit.
	// The default is the FGNAS paper's reading: every limit holds. It
	// applies to the FGNASCode model only.
	AnyResource bool
	// Published prices the linear stage as FGNAS's model does: per-row
	// cycles without the node count, on the dense input. The default
	// counts the nodes and streams the first layer's non-zeros.
	Published bool
	// SerialHeads runs a layer's heads one after another on one copy of
	// its stages (cycles x heads, resources once). The default builds the
	// heads as parallel copies (resources x heads, cycles once), as the
	// FGNAS authors do.
	SerialHeads bool
	// Pipelined makes Run report the event-driven pipelined time instead
	// of the sum of the stages (FGNAS's model).
	Pipelined bool
	// BlockNodes is the node block the pipeline and its ping-pong buffers
	// work on; 0 means 64.
	BlockNodes int
	Budget     Budget
}

// Unit is a Design on an FPGA: an hw.Unit, hw.Budgeted and hw.Clocked.
type Unit struct {
	d    Design
	opt  Options
	attn []workload.Attention
	outW []int64
}

// New returns the unit of design d.
func New(d Design, opt Options) (*Unit, error) {
	u := new(Unit)
	if err := u.Reset(d, opt); err != nil {
		return nil, err
	}
	return u, nil
}

// Reset makes u the unit of design d under opt, as New does, reusing u's
// storage: the allocation-free form for loops that price one design after
// another (one Unit per goroutine). On error u is left as it was. A Design
// that u.Design returned before shares u's storage and changes with it.
func (u *Unit) Reset(d Design, opt Options) error {
	if err := d.Validate(); err != nil {
		return err
	}
	switch {
	case opt.BlockNodes < 0:
		return fmt.Errorf("fpga: block of %d nodes", opt.BlockNodes)
	case opt.Budget.LatencyPS < 0:
		return fmt.Errorf("fpga: latency budget %d ps: want 0 (no limit) or more", opt.Budget.LatencyPS)
	case opt.Budget.LUT < 0 || opt.Budget.FF < 0 || opt.Budget.DSP < 0 || opt.Budget.BRAM < 0 || opt.Budget.OnChipBytes < 0:
		r := opt.Budget
		return fmt.Errorf("fpga: negative budget (LUT %d, FF %d, DSP %d, BRAM %d, on-chip %d bytes): want 0 (no limit) or more", r.LUT, r.FF, r.DSP, r.BRAM, r.OnChipBytes)
	}
	if int(opt.Model) >= len(modelNames) {
		return fmt.Errorf("fpga: unknown model %d", opt.Model)
	}
	if opt.Model == FGNASCode {
		if err := codeValidate(d); err != nil {
			return err
		}
	}
	if opt.BlockNodes == 0 {
		opt.BlockNodes = 64
	}
	// The unit keeps its own copy of the layers (d's may change after).
	n := len(d.Layers)
	layers := append(u.d.Layers[:0], d.Layers...)
	*u = Unit{d: d, opt: opt, attn: slices.Grow(u.attn[:0], n), outW: slices.Grow(u.outW[:0], n)}
	u.d.Layers = layers
	for i, l := range u.d.Layers {
		u.attn = append(u.attn, l.Attn)
		u.outW = append(u.outW, u.d.outWidth(i))
	}
	return nil
}

// usage prices the design's resources without a work. They do not depend
// on the graph: the layers are priced on a unit shape. The code model's
// depend on the layers' input widths (t_in is clamped to them): the first
// layer's is set by the work, so its usage is priced per evaluation. It is
// computed when asked for (a report's Resources are the work's), not by
// Reset: the searches never ask.
func (u *Unit) usage() hw.Resources {
	var use hw.Resources
	if len(u.d.Layers) == 0 { // a zero Unit
		return use
	}
	if u.opt.Model == Gnnsim {
		// The buffers depend on the graph too (its nodes and the first
		// layer's input width): Usage prices them for one node and the
		// first layer's input t_in wide; a report's Resources are the
		// work's.
		in := int64(u.d.Layers[0].T.In)
		for i, l := range u.d.Layers {
			r := stageModel(l, u.outW[i], layerShape{n: 1, edges: 1, f: in}, false, u.opt.SerialHeads, i == len(u.d.Layers)-1, int64(u.opt.BlockNodes))
			use = addRes(use, r.Use)
			in = u.outW[i]
		}
		return use
	}
	// Usage without a work: the first layer's input taken wider than its
	// t_in (true of every real graph); Run's report is exact.
	in := int64(u.d.Layers[0].T.In) + 1
	for i := range u.d.Layers {
		st := u.codeLayer(i, in, codeGraph{})
		use = addRes(use, st.Use)
		in = u.outW[i]
	}
	return use
}

// Name returns "fpga".
func (u *Unit) Name() string { return "fpga" }

// ClockHz returns the design clock.
func (u *Unit) ClockHz() float64 { return ClockHz }

// Usage returns the design's resources.
func (u *Unit) Usage() hw.Resources { return u.usage() }

// Budget returns the device budget.
func (u *Unit) Budget() hw.Resources { return u.opt.Budget.Resources }

// Design returns the unit's design.
func (u *Unit) Design() Design { return u.d }

// Report is the full evaluation of a design on a workload.
type Report struct {
	Layers []LayerReport
	// SummedCycles is FGNAS's latency: every stage of every layer in
	// turn. PipelinedCycles is the event-driven time with the stages
	// overlapping on node blocks; 0 when it was not computed.
	SummedCycles, PipelinedCycles int64
	Resources                     hw.Resources
	Budget                        Budget
	// Feasible is true when every resource and the latency Cost.TimePS
	// are within budget; Over names the first that is not.
	Feasible bool
	Over     string
	Cost     hw.Cost
}

// Run prices w (the work of the design's layers: see Design.Block).
func (u *Unit) Run(w hw.Work) (hw.Cost, error) {
	r, err := u.evaluate(w, u.opt.Pipelined, false)
	return r.Cost, err
}

// Evaluate returns the full report on w, with both timings.
func (u *Unit) Evaluate(w hw.Work) (Report, error) { return u.evaluate(w, true, true) }

// Feasible reports whether the design meets its budget on w, and names
// what it exceeds.
func (u *Unit) Feasible(w hw.Work) (bool, string, error) {
	r, err := u.Assess(w)
	return r.Feasible, r.Over, err
}

// Assess returns the report of Run's timing without the per-layer detail
// (and without the pipelined time unless Options.Pipelined): the cost, the
// resources and the verdict, at the cost of one Run.
func (u *Unit) Assess(w hw.Work) (Report, error) { return u.evaluate(w, u.opt.Pipelined, false) }

func (u *Unit) evaluate(w hw.Work, pipe, keep bool) (Report, error) {
	r := Report{Budget: u.opt.Budget}
	if w.Empty() {
		r.Resources = u.usage()
		r.Feasible = true
		return r, nil
	}
	var buf [4]layerShape
	shapes, macs, err := u.d.shapes(w.Block, buf[:0])
	if err != nil {
		return r, err
	}
	r.Cost.MACs = macs
	if u.opt.Model == FGNASCode {
		return u.evaluateCode(r, shapes, keep)
	}
	var lbuf [4]LayerReport
	layers := lbuf[:0]
	var res hw.Resources
	for i, s := range shapes {
		lr := stageModel(u.d.Layers[i], u.outW[i], s, u.opt.Published, u.opt.SerialHeads, i == len(shapes)-1, int64(u.opt.BlockNodes))
		layers = append(layers, lr)
		res = addRes(res, lr.Use)
		r.SummedCycles = hw.SatAdd(r.SummedCycles, lr.Cycles)
		r.Cost.DRAMBytes = hw.SatAdd(r.Cost.DRAMBytes, lr.DRAMBytes)
	}
	cycles := r.SummedCycles
	if pipe {
		r.PipelinedCycles = pipelined(layers, u.attn, w.Block.In.Nodes, int64(u.opt.BlockNodes), w.Graph)
		if u.opt.Pipelined {
			cycles = r.PipelinedCycles
		}
	}
	r.Resources = res
	r.Cost.Cycles = cycles
	r.Cost.TimePS = hw.PS(cycles, ClockHz)
	if keep {
		r.Layers = append([]LayerReport(nil), layers...)
	}
	if err := r.checkRange(); err != nil {
		return r, err
	}
	r.Feasible, r.Over = u.opt.Judge(r.Resources, cycles)
	return r, nil
}

// codeLayer prices layer i of the unit's design with the authors' model
// on inputs of width in.
func (u *Unit) codeLayer(i int, in int64, g codeGraph) LayerReport {
	l := u.d.Layers[i]
	st := codeLayer(l, in, int64(l.Embed), i == len(u.d.Layers)-1, g)
	var r LayerReport
	for s := range r.Stages {
		lut, ff, dsp := st.use[s].resources()
		r.Stages[s] = StageReport{Work: st.cyc[s], Cycles: st.cyc[s], Use: hw.Resources{LUT: lut, FF: ff, DSP: dsp}}
		r.Cycles += st.cyc[s]
		r.Use = addRes(r.Use, r.Stages[s].Use)
	}
	r.OutBits = Fixed{Int: st.out.i, Frac: st.out.f}
	return r
}

// evaluateCode is evaluate under the authors' model: the stages of every
// layer summed, resources from their table, feasibility by their rule
// (strict comparisons; every limit, or any resource with AnyResource).
func (u *Unit) evaluateCode(r Report, shapes []layerShape, keep bool) (Report, error) {
	r.Resources = hw.Resources{}
	var lbuf [4]LayerReport
	layers := lbuf[:0]
	for i, s := range shapes {
		// The shape's edges are adjacency entries plus self-loops; their
		// model walks PyG's edge count (the entries) 2E + N times.
		lr := u.codeLayer(i, s.f, codeGraph{n: s.n, e: s.edges - s.n})
		layers = append(layers, lr)
		r.SummedCycles = hw.SatAdd(r.SummedCycles, lr.Cycles)
		r.Resources = addRes(r.Resources, lr.Use)
	}
	r.Cost.Cycles = r.SummedCycles
	r.Cost.TimePS = hw.PS(r.SummedCycles, ClockHz)
	if keep {
		r.Layers = append([]LayerReport(nil), layers...)
	}
	if err := r.checkRange(); err != nil {
		return r, err
	}
	r.Feasible, r.Over = u.opt.Judge(r.Resources, r.SummedCycles)
	return r, nil
}

// checkRange refuses a report whose sums saturated (hw.CheckCount): a
// clamped latency is not a number to judge feasible.
func (r *Report) checkRange() error {
	how := "fewer or narrower layers, or a smaller graph"
	if err := r.Cost.CheckRange("fpga", how); err != nil {
		return err
	}
	if err := hw.CheckCount("fpga: summed cycles", r.SummedCycles, how); err != nil {
		return err
	}
	return hw.CheckCount("fpga: pipelined cycles", r.PipelinedCycles, how)
}

// Judge is the verdict of o's model on a design using use and taking
// cycles (the timing Run reports) against o.Budget: whether it is
// feasible, and else the first limit it breaks ("LUT", "FF", "DSP",
// "BRAM", "on-chip bytes", "latency"). Gnnsim: every resource <= its limit
// and the time <= the latency bound. FGNASCode: see codeFeasible. A zero
// limit is no limit. It lets a caller judge one priced design against many
// budgets.
func (o Options) Judge(use hw.Resources, cycles int64) (bool, string) {
	if o.Model == FGNASCode {
		return codeFeasible(use, cycles, o.Budget, o.AnyResource)
	}
	if ok, over := use.Within(o.Budget.Resources); !ok {
		return false, over
	}
	if o.Budget.LatencyPS > 0 && hw.PS(cycles, ClockHz) > o.Budget.LatencyPS {
		return false, "latency"
	}
	return true, ""
}

// codeFeasible is the authors' verdict: usage < limit and cycles < limit,
// strictly. Their code's resource comparison passes when any of LUT, FF,
// DSP is under its limit (any); the FGNAS paper requires every one. A zero
// limit is no limit. Over names the first limit broken (LUT, FF, DSP,
// latency).
func codeFeasible(use hw.Resources, cycles int64, b Budget, any bool) (bool, string) {
	lim := [3]struct {
		name      string
		use, have int64
	}{{"LUT", use.LUT, b.LUT}, {"FF", use.FF, b.FF}, {"DSP", use.DSP, b.DSP}}
	over, under := "", 0
	for _, x := range lim {
		if x.have <= 0 {
			continue
		}
		if x.use < x.have {
			under++
		} else if over == "" {
			over = x.name
		}
	}
	if over != "" && (!any || under == 0) {
		return false, over
	}
	// cycles < limit, the limit in cycles at 100 MHz: 10,000 ps a cycle.
	if b.LatencyPS > 0 && hw.PS(cycles, ClockHz) >= b.LatencyPS {
		return false, "latency"
	}
	return true, ""
}

func (d Design) matches(i int, wl workload.Layer) error {
	want := d.Layer(i, wl.F)
	if wl.Kind != want.Kind || wl.G != want.G || heads(wl.Heads) != heads(want.Heads) {
		return fmt.Errorf("fpga: layer %d: work has a %s layer G = %d with %d heads, the design a %s layer G = %d with %d heads",
			i, wl.Kind, wl.G, heads(wl.Heads), want.Kind, want.G, heads(want.Heads))
	}
	if i > 0 && int64(wl.F) != d.outWidth(i-1) {
		return fmt.Errorf("fpga: layer %d: input width %d, the previous layer writes %d", i, wl.F, d.outWidth(i-1))
	}
	return nil
}

var errNoLayers = errors.New("fpga: work and design differ in layers")

func errLayers(work, design int) error {
	return fmt.Errorf("%w: the work has %d, the design %d", errNoLayers, work, design)
}

func wrapLayer(i int, err error) error { return fmt.Errorf("fpga: layer %d: %w", i, err) }

func errNNZ(nnz, n, f int64) error {
	return fmt.Errorf("fpga: %d input non-zeros exceed the %d x %d input", nnz, n, f)
}
