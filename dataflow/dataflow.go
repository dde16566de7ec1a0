package dataflow

import (
	"errors"
	"fmt"
	"strings"
)

// MaxDim bounds V, F, G and every tile size, so that products such as
// V*F*G and T_Va*T_Fa*T_N stay far inside int64 and nothing sized by a
// declared dimension can exhaust memory before it is checked.
const MaxDim = 1 << 31

// Dims are the sizes of one layer: V nodes, F input and G output features.
type Dims struct {
	V, F, G int
}

// Validate checks that every size is positive and at most MaxDim.
func (d Dims) Validate() error {
	for _, x := range [...]struct {
		name string
		v    int
	}{{"V", d.V}, {"F", d.F}, {"G", d.G}} {
		if x.v <= 0 {
			return fmt.Errorf("dataflow: %s = %d, want > 0", x.name, x.v)
		}
		if x.v > MaxDim {
			return fmt.Errorf("dataflow: %s = %d exceeds %d", x.name, x.v, MaxDim)
		}
	}
	return nil
}

// Inter is an inter-phase dataflow.
type Inter uint8

// The inter-phase dataflows of seed 002 (Garg et al.'s taxonomy).
const (
	Seq Inter = iota // sequential: aggregation, then combination
	SP               // sequential pipeline: fused loops, intermediate tiles on chip
	PP               // parallel pipeline: phases run concurrently on split PEs
)

// Inters lists the inter-phase dataflows in their canonical order.
var Inters = [...]Inter{Seq, SP, PP}

var interNames = [...]string{Seq: "seq", SP: "sp", PP: "pp"}

// String returns "seq", "sp" or "pp".
func (i Inter) String() string {
	if int(i) < len(interNames) {
		return interNames[i]
	}
	return fmt.Sprintf("Inter(%d)", uint8(i))
}

// ParseInter parses "seq", "sp" or "pp", ignoring case.
func ParseInter(s string) (Inter, error) {
	for i, n := range interNames {
		if strings.EqualFold(strings.TrimSpace(s), n) {
			return Inter(i), nil
		}
	}
	return 0, fmt.Errorf("dataflow: unknown inter-phase dataflow %q (want seq, sp or pp)", s)
}

// Order is a loop order, outermost loop first, one dimension letter per
// loop: a permutation of "VFN" for aggregation or of "VGF" for combination.
type Order [3]byte

// The default loop orders, the only ones STONNE-Omega models.
var (
	AggOrder  = Order{'V', 'F', 'N'}
	CombOrder = Order{'V', 'G', 'F'}
)

// String returns the order as its three letters.
func (o Order) String() string { return string(o[:]) }

// ParseOrder parses a loop order over the dimension letters dims ("VFN" for
// aggregation, "VGF" for combination), ignoring case.
func ParseOrder(s, dims string) (Order, error) {
	var o Order
	u := strings.ToUpper(strings.TrimSpace(s))
	if len(u) != 3 {
		return o, fmt.Errorf("dataflow: loop order %q: want 3 letters, a permutation of %s", s, dims)
	}
	copy(o[:], u)
	if err := o.check(dims); err != nil {
		return o, err
	}
	return o, nil
}

func (o Order) check(dims string) error {
	// Byte loops, not strings.Count: Validate runs once per configuration
	// in the predictor's hot path.
	for i := 0; i < len(dims); i++ {
		n := 0
		for _, b := range o {
			if b == dims[i] {
				n++
			}
		}
		if n != 1 {
			return fmt.Errorf("dataflow: loop order %q is not a permutation of %s", o.String(), dims)
		}
	}
	return nil
}

// Tiles are the spatial tile sizes of both phases.
type Tiles struct {
	Va, Fa, N  int // aggregation: T_Va rows, T_Fa feature columns, T_N neighbours
	Vc, Gc, Fc int // combination: T_Vc rows, T_Gc output columns, T_Fc reduction depth

	// NReducedFrom is the Table-2 value of T_N before it was reduced to fit
	// the PEs (0 when it was not reduced). It is informational only.
	NReducedFrom int
}

// AggPEs returns T_Va*T_Fa*T_N, the PEs aggregation uses.
func (t Tiles) AggPEs() int { return t.Va * t.Fa * t.N }

// CombPEs returns T_Vc*T_Gc*T_Fc, the PEs combination uses.
func (t Tiles) CombPEs() int { return t.Vc * t.Gc * t.Fc }

// String formats the tiles in the syntax ParseTiling reads.
func (t Tiles) String() string {
	return fmt.Sprintf("T_Va=%d,T_N=%d,T_Fa=%d,T_Vc=%d,T_Gc=%d,T_Fc=%d", t.Va, t.N, t.Fa, t.Vc, t.Gc, t.Fc)
}

// Validate checks that every tile size is in [1, MaxDim] and that each
// phase fits its PEs.
func (t Tiles) Validate(aggPEs, combPEs int) error {
	for _, x := range [...]struct {
		name string
		v    int
	}{{"T_Va", t.Va}, {"T_Fa", t.Fa}, {"T_N", t.N}, {"T_Vc", t.Vc}, {"T_Gc", t.Gc}, {"T_Fc", t.Fc}} {
		if x.v <= 0 {
			return fmt.Errorf("dataflow: %s = %d, want >= 1", x.name, x.v)
		}
		if x.v > MaxDim {
			return fmt.Errorf("dataflow: %s = %d exceeds %d", x.name, x.v, MaxDim)
		}
	}
	// Each factor is <= 2^31, so the products fit in int64 as long as we
	// stop as soon as a partial product exceeds the budget.
	if p := mulCapped(mulCapped(t.Va, t.Fa), t.N); p > aggPEs {
		return fmt.Errorf("dataflow: aggregation tile T_Va*T_Fa*T_N = %d*%d*%d needs more than the %d PEs available", t.Va, t.Fa, t.N, aggPEs)
	}
	if p := mulCapped(mulCapped(t.Vc, t.Gc), t.Fc); p > combPEs {
		return fmt.Errorf("dataflow: combination tile T_Vc*T_Gc*T_Fc = %d*%d*%d needs more than the %d PEs available", t.Vc, t.Gc, t.Fc, combPEs)
	}
	return nil
}

// mulCapped multiplies two positive sizes, saturating at MaxDim*MaxDim.
func mulCapped(a, b int) int {
	const capv = MaxDim * MaxDim
	if a != 0 && b > capv/a {
		return capv
	}
	return a * b
}

// Config is one complete mapping of a layer: inter-phase dataflow, tiles,
// loop orders and the PEs each phase may use.
type Config struct {
	Inter  Inter
	Tiling string // the recipe's name: "a".."h" or a custom recipe's text
	Tiles  Tiles

	AggOrder, CombOrder Order

	// PEs is the size of the PE array. AggPEs and CombPEs are the PEs each
	// phase may use: both equal PEs for seq and sp (the phases take turns
	// on the whole array); for pp they split the array between them.
	PEs, AggPEs, CombPEs int
}

// Name returns "seq-a", "pp-T_Va=...,..." and the like.
func (c Config) Name() string { return c.Inter.String() + "-" + c.Tiling }

// Validate checks the configuration against the layer: tile sizes,
// PE budgets, loop orders and the PE split.
func (c Config) Validate(d Dims) error {
	if err := d.Validate(); err != nil {
		return err
	}
	if int(c.Inter) >= len(interNames) {
		return fmt.Errorf("dataflow: unknown inter-phase dataflow %d", c.Inter)
	}
	if c.PEs <= 0 || c.PEs > MaxDim {
		return fmt.Errorf("dataflow: %d PEs, want 1..%d", c.PEs, MaxDim)
	}
	if c.AggPEs <= 0 || c.CombPEs <= 0 {
		return fmt.Errorf("dataflow: PE split %d + %d: each phase needs at least one PE", c.AggPEs, c.CombPEs)
	}
	switch c.Inter {
	case PP:
		if c.AggPEs+c.CombPEs > c.PEs {
			return fmt.Errorf("dataflow: pp splits %d + %d PEs but the array has %d", c.AggPEs, c.CombPEs, c.PEs)
		}
	default:
		if c.AggPEs > c.PEs || c.CombPEs > c.PEs {
			return fmt.Errorf("dataflow: %s phases use %d and %d PEs but the array has %d", c.Inter, c.AggPEs, c.CombPEs, c.PEs)
		}
	}
	if err := c.AggOrder.check("VFN"); err != nil {
		return fmt.Errorf("aggregation: %w", err)
	}
	if err := c.CombOrder.check("VGF"); err != nil {
		return fmt.Errorf("combination: %w", err)
	}
	if err := c.Tiles.Validate(c.AggPEs, c.CombPEs); err != nil {
		return fmt.Errorf("%s: %w", c.Name(), err)
	}
	return nil
}

// errNoPEs is returned when a tiling is resolved for a non-positive budget.
var errNoPEs = errors.New("dataflow: PE budget must be positive")
