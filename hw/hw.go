package hw

import (
	"errors"
	"fmt"
	"math"

	"gnnsim/graphs"
	"gnnsim/workload"
)

// Work is what a unit is asked to run: the layers of Block on Block.In, and
// optionally the concrete graph they run on.
type Work struct {
	// Graph is the graph of the layers, for units that model per-row
	// behaviour; nil when Block.In alone describes the work. When set,
	// Block.In is its size (LayerWork and GraphWork keep the two consistent).
	Graph *graphs.Graph
	// Rows, when Graph is nil, are the row pointers (a CSR RowPtr, len
	// Block.In.Nodes+1, Rows[Nodes] = Block.In.NNZ before sampling) of an
	// adjacency known only by its degree profile (a generated profile of a
	// graph too large to hold, graphs.PowerLawRows); nil when unknown.
	// Units that model per-row behaviour use them as they would Graph's.
	Rows  []int32
	Block workload.Block
}

// LayerWork returns the work of one layer on g.
func LayerWork(g *graphs.Graph, l workload.Layer) Work {
	return GraphWork(g, l)
}

// GraphWork returns the work of a stack of layers on g, run in order.
func GraphWork(g *graphs.Graph, layers ...workload.Layer) Work {
	name := ""
	var in workload.Size
	if g != nil {
		name = g.Name
		in = SizeOf(g)
	}
	return Work{Graph: g, Block: workload.Block{Name: name, Kind: workload.GNNLayer, In: in, Layers: layers}}
}

// BlockWork returns the work of a block whose graph is described by its
// size alone (a ViG block on its k-NN patch graph, say).
func BlockWork(b workload.Block) Work { return Work{Block: b} }

// SizeOf returns the workload size of g: its nodes and its stored adjacency
// entries without self-loops.
func SizeOf(g *graphs.Graph) workload.Size {
	n := int64(g.NumNodes())
	nnz := int64(len(g.Col))
	if g.SelfLoops {
		nnz -= n
	}
	return workload.Size{Nodes: n, NNZ: nnz}
}

// Kernels returns the kernels of the work's layers.
func (w Work) Kernels() ([]workload.Kernel, error) { return w.Block.Kernels() }

// Empty reports whether the work does nothing: no layers or no nodes.
func (w Work) Empty() bool { return len(w.Block.Layers) == 0 || w.Block.In.Nodes == 0 }

// Cost is what running a Work takes on a unit.
type Cost struct {
	// TimePS is the latency in picoseconds: the common time base where
	// units of different clocks meet (a 1 GHz cycle is 1,000 ps; int64 ps
	// hold 106 days).
	TimePS int64
	// Cycles is the latency at the unit's own clock; 0 for units that have
	// no single clock (a SoC mapping spanning several units).
	Cycles    int64
	EnergyPJ  float64
	DRAMBytes int64 // bytes moved to or from DRAM / shared memory
	MACs      int64
}

// Add returns the cost of running c then d on the same unit: times, cycles,
// energies, bytes and MACs add.
func (c Cost) Add(d Cost) Cost {
	return Cost{
		TimePS:    SatAdd(c.TimePS, d.TimePS),
		Cycles:    SatAdd(c.Cycles, d.Cycles),
		EnergyPJ:  c.EnergyPJ + d.EnergyPJ,
		DRAMBytes: SatAdd(c.DRAMBytes, d.DRAMBytes),
		MACs:      SatAdd(c.MACs, d.MACs),
	}
}

// Seconds returns TimePS in seconds.
func (c Cost) Seconds() float64 { return float64(c.TimePS) * 1e-12 }

// Validate reports a cost no physical run has: negative or non-finite
// fields.
func (c Cost) Validate() error {
	switch {
	case c.TimePS < 0 || c.Cycles < 0 || c.DRAMBytes < 0 || c.MACs < 0:
		return fmt.Errorf("hw: negative cost %+v", c)
	case math.IsNaN(c.EnergyPJ) || math.IsInf(c.EnergyPJ, 0) || c.EnergyPJ < 0:
		return fmt.Errorf("hw: energy %v pJ", c.EnergyPJ)
	}
	return nil
}

// MaxTimePS is the largest time, in ps, a result may hold (about 26.7
// days): sums saturate at math.MaxInt64 (SatAdd) or math.MaxInt64/2, so a
// time at or above this bound is a saturated one, and results report an
// error (CheckCount) rather than print it.
const MaxTimePS = math.MaxInt64 / 4

// CheckCount reports an error naming quantity when v reached the
// saturation range of SatAdd (>= MaxTimePS) or is negative: a time, a
// byte count or a cycle count too large to hold. how says what to rescale.
func CheckCount(quantity string, v int64, how string) error {
	if v >= MaxTimePS || v < 0 {
		return fmt.Errorf("%s does not fit in 64 bits (it reaches 2^61 = %.3g): %s", quantity, float64(MaxTimePS), how)
	}
	return nil
}

// CheckRange reports an error naming who and the first field of c that
// reached the saturation range (CheckCount): time, cycles, off-chip bytes
// or MACs. Units call it on the cost they return, so a sum clamped at
// MaxInt64 is never reported as a number. how says what to rescale.
func (c Cost) CheckRange(who, how string) error {
	for _, f := range [...]struct {
		name string
		v    int64
	}{{"latency (ps)", c.TimePS}, {"cycles", c.Cycles}, {"off-chip bytes", c.DRAMBytes}, {"MACs", c.MACs}} {
		if err := CheckCount(f.name, f.v, how); err != nil {
			return fmt.Errorf("%s: %w", who, err)
		}
	}
	return nil
}

// MSToPS converts a time in ms (a budget, an interval) to ps, rounding up
// so that a positive time never becomes 0 (which budgets and intervals
// read as "none"), and saturating at MaxInt64. NaN and negative times give
// 0: callers refuse them first.
func MSToPS(ms float64) int64 {
	ps := math.Ceil(ms * 1e9)
	switch {
	case !(ps > 0):
		return 0
	case ps >= math.MaxInt64:
		return math.MaxInt64
	}
	return int64(ps)
}

// SatAdd adds two non-negative counts, saturating at MaxInt64 rather than
// wrapping: a cost too large to count must never look small.
func SatAdd(a, b int64) int64 {
	if s := a + b; (s < a) == (b < 0) {
		return s
	}
	if b > 0 {
		return math.MaxInt64
	}
	return math.MinInt64
}

// PS converts cycles at clockHz to picoseconds, rounding to nearest and
// saturating at MaxInt64.
func PS(cycles int64, clockHz float64) int64 {
	if clockHz <= 0 {
		return 0
	}
	ps := math.Round(float64(cycles) * (1e12 / clockHz))
	if ps >= math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(ps)
}

// Unit is a hardware model that runs work.
type Unit interface {
	// Name identifies the unit in reports ("omega-512", "gpu", "dsa0").
	Name() string
	// Run returns the cost of w, or an error when the unit cannot run it
	// (an unsupported layer, an impossible size). Zero work costs nothing.
	Run(w Work) (Cost, error)
}

// UnitFunc adapts a function to Unit, as http.HandlerFunc adapts one to
// http.Handler: measured tables, analytical one-liners and test doubles.
type UnitFunc struct {
	name string
	run  func(Work) (Cost, error)
}

// NewUnitFunc returns a unit named name whose Run calls run.
func NewUnitFunc(name string, run func(Work) (Cost, error)) UnitFunc {
	return UnitFunc{name: name, run: run}
}

// Name returns the unit's name.
func (u UnitFunc) Name() string { return u.name }

// Run calls the function; zero work costs nothing without calling it.
func (u UnitFunc) Run(w Work) (Cost, error) {
	if u.run == nil {
		return Cost{}, errors.New("hw: UnitFunc with nil function")
	}
	if w.Empty() {
		return Cost{}, nil
	}
	return u.run(w)
}

// Mapper is a unit with a space of mappings M a search chooses from:
// Mappings enumerates the valid ones for w, RunMapping runs one. Run uses
// the unit's default mapping.
type Mapper[M any] interface {
	Unit
	Mappings(w Work) ([]M, error)
	RunMapping(w Work, m M) (Cost, error)
}

// Clocked is a unit that runs at one clock: its Cost.TimePS is
// PS(Cost.Cycles, ClockHz()).
type Clocked interface {
	ClockHz() float64
}

// OperatingPoint is one DVFS setting of a unit: a clock and the voltage it
// needs.
type OperatingPoint struct {
	FreqHz float64
	Volts  float64
}

// Scalable is a unit with DVFS operating points. At returns the unit running
// at one of them; a point not in OperatingPoints is an error.
type Scalable interface {
	Unit
	OperatingPoints() []OperatingPoint
	At(p OperatingPoint) (Unit, error)
}

// Resources are what a design uses of a device (or the device's budget).
// A zero budget field means unconstrained.
type Resources struct {
	LUT, FF, DSP, BRAM int64
	OnChipBytes        int64
}

// Within reports whether r fits budget b, and names the first resource
// over budget.
func (r Resources) Within(b Resources) (bool, string) {
	for _, x := range []struct {
		name      string
		use, have int64
	}{{"LUT", r.LUT, b.LUT}, {"FF", r.FF, b.FF}, {"DSP", r.DSP, b.DSP}, {"BRAM", r.BRAM, b.BRAM}, {"on-chip bytes", r.OnChipBytes, b.OnChipBytes}} {
		if x.have > 0 && x.use > x.have {
			return false, x.name
		}
	}
	return true, ""
}

// Budgeted is a unit that uses device resources against a budget.
type Budgeted interface {
	Unit
	Usage() Resources
	Budget() Resources
}

// Feasible reports whether u's usage fits its budget, and names the first
// resource over it.
func Feasible(u Budgeted) (bool, string) { return u.Usage().Within(u.Budget()) }
