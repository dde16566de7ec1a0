package fpga

import (
	"errors"
	"fmt"

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

// Options select the timing the unit reports and its budget.
type Options struct {
	// Published prices the linear stage as FGNAS's model does: per-row
	// cycles without the node count, on the dense input. The default
	// counts the nodes and streams the first layer's non-zeros.
	Published bool
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
	d     Design
	opt   Options
	attn  []Attention
	outW  []int64
	usage hw.Resources
}

// New returns the unit of design d.
func New(d Design, opt Options) (*Unit, error) {
	if err := d.Validate(); err != nil {
		return nil, err
	}
	switch {
	case opt.BlockNodes < 0:
		return nil, fmt.Errorf("fpga: block of %d nodes", opt.BlockNodes)
	case opt.Budget.LatencyPS < 0:
		return nil, fmt.Errorf("fpga: latency budget %d ps: want 0 (no limit) or more", opt.Budget.LatencyPS)
	case opt.Budget.LUT < 0 || opt.Budget.FF < 0 || opt.Budget.DSP < 0 || opt.Budget.BRAM < 0 || opt.Budget.OnChipBytes < 0:
		r := opt.Budget
		return nil, fmt.Errorf("fpga: negative budget (LUT %d, FF %d, DSP %d, BRAM %d, on-chip %d bytes): want 0 (no limit) or more", r.LUT, r.FF, r.DSP, r.BRAM, r.OnChipBytes)
	}
	if opt.BlockNodes == 0 {
		opt.BlockNodes = 64
	}
	u := &Unit{d: d, opt: opt}
	u.d.Layers = append([]LayerDesign(nil), d.Layers...)
	for i, l := range u.d.Layers {
		u.attn = append(u.attn, l.Attn)
		u.outW = append(u.outW, u.d.outWidth(i))
	}
	// Resources do not depend on the graph: price the layers on a unit
	// shape and keep the usage.
	for i, l := range u.d.Layers {
		r := stageModel(l, u.outW[i], layerShape{n: 1, edges: 1, f: 1}, false, int64(opt.BlockNodes))
		u.usage = addRes(u.usage, r.Use)
	}
	return u, nil
}

// Name returns "fpga".
func (u *Unit) Name() string { return "fpga" }

// ClockHz returns the design clock.
func (u *Unit) ClockHz() float64 { return ClockHz }

// Usage returns the design's resources.
func (u *Unit) Usage() hw.Resources { return u.usage }

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
	r := Report{Budget: u.opt.Budget, Resources: u.usage}
	if w.Empty() {
		r.Feasible = true
		return r, nil
	}
	var buf [4]layerShape
	shapes, err := u.d.shapes(w.Block, buf[:0])
	if err != nil {
		return r, err
	}
	var lbuf [4]LayerReport
	layers := lbuf[:0]
	for i, s := range shapes {
		lr := stageModel(u.d.Layers[i], u.outW[i], s, u.opt.Published, int64(u.opt.BlockNodes))
		layers = append(layers, lr)
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
	var kbuf [64]workload.Kernel
	ks, err := w.Block.AppendKernels(kbuf[:0])
	if err != nil {
		return r, fmt.Errorf("fpga: %w", err)
	}
	r.Cost.MACs, _, _ = workload.Totals(ks)
	r.Cost.Cycles = cycles
	r.Cost.TimePS = hw.PS(cycles, ClockHz)
	if keep {
		r.Layers = append([]LayerReport(nil), layers...)
	}
	r.Feasible, r.Over = r.Resources.Within(u.opt.Budget.Resources)
	if r.Feasible && u.opt.Budget.LatencyPS > 0 && r.Cost.TimePS > u.opt.Budget.LatencyPS {
		r.Feasible, r.Over = false, "latency"
	}
	return r, nil
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
