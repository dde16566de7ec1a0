package fpga

import (
	"fmt"
	"slices"

	"gnnsim/workload"
)

// The layer vocabulary (package workload) the pipeline builds: FGNAS
// Table 1's attention, aggregation and activation types, GraphSAGE's
// layer (workload.AttSAGE, not in FGNAS's space: W_self h_i plus the mean
// or max over the neighbours, self-loop excluded, of W_neigh h_j, one
// head; see the package doc for its stages), and workload.ActLinear (no
// activation, not in FGNAS's space: the stage builds no units and takes
// no cycles, except that a multi-head last layer still averages its heads
// there).
var (
	Attentions   = []workload.Attention{workload.AttConstant, workload.AttGCN, workload.AttGAT, workload.AttSAGE}
	Aggregations = []workload.Aggregation{workload.AggAdd, workload.AggMean, workload.AggMax}
	Activations  = []workload.Activation{workload.ActReLU, workload.ActTanh, workload.ActSigmoid, workload.ActELU, workload.ActLinear}
)

func enumName(names []string, v uint8, typ string) string {
	if int(v) < len(names) {
		return names[v]
	}
	return fmt.Sprintf("%s(%d)", typ, v)
}

func parseEnum(names []string, s, what string) (uint8, error) {
	for i, n := range names {
		if n == s {
			return uint8(i), nil
		}
	}
	return 0, fmt.Errorf("fpga: unknown %s %q (want one of %v)", what, s, names)
}

// Fixed is a signed fixed-point format with Int integer and Frac fraction
// bits (FGNAS Eq. 8: range [-2^Int, 2^Int - 2^-Frac], step 2^-Frac), so a
// value takes 1 + Int + Frac bits.
type Fixed struct{ Int, Frac int }

// Bits returns the word width including the sign bit.
func (f Fixed) Bits() int { return 1 + f.Int + f.Frac }

func (f Fixed) String() string { return fmt.Sprintf("%d.%d", f.Int, f.Frac) }

// Precision is a layer's number formats: W for the weights, A for the
// activations (the layer's input, messages and output).
type Precision struct{ W, A Fixed }

// Groups are a layer's group sizes (FGNAS section 3.1.2): the stage's
// parallel lanes along the feature dimension.
type Groups struct {
	In, Out int // linear transform: t_in inputs x t_out outputs per cycle
	Attn    int // GAT projections: t_attn features per cycle
	Aggr    int // aggregation: t_aggr features per cycle
	Act     int // activation: t_act features per cycle
}

// LayerDesign is one layer of a design: its architecture (the operators,
// heads and output width), its hardware (group sizes) and its precision.
type LayerDesign struct {
	// Embed is the output width per head (FGNAS's embedding dimension d;
	// the class count for the last layer).
	Embed int
	// Heads (0 means 1) are computed one after another on the layer's
	// hardware: every stage's cycles scale with them, its resources do not.
	// A layer concatenates its heads unless it is the last one, which
	// averages them.
	Heads int
	Attn  workload.Attention
	Aggr  workload.Aggregation
	Act   workload.Activation
	T     Groups
	Bits  Precision
}

// Design is an FGNAS accelerator: one four-stage pipeline segment per GNN
// layer.
type Design struct {
	Layers []LayerDesign
	// InputNNZ is the number of non-zeros of the first layer's input
	// feature matrix: when > 0 the linear stage streams them (as a sparse
	// row times W) instead of the dense N x F matrix. 0 means dense.
	InputNNZ int64
}

func heads(h int) int64 {
	if h == 0 {
		return 1
	}
	return int64(h)
}

// Bounds of a design, well beyond FGNAS Table 1 (group sizes 1-8,
// embeddings 4-64, heads 1-16, 1-3 integer and 0-6 fraction bits).
const (
	maxGroup = 1024
	maxBits  = 32
)

// Validate reports the first problem with d.
func (d Design) Validate() error {
	if len(d.Layers) == 0 {
		return fmt.Errorf("fpga: design has no layers")
	}
	if d.InputNNZ < 0 {
		return fmt.Errorf("fpga: design: %d input non-zeros", d.InputNNZ)
	}
	for i, l := range d.Layers {
		if err := l.validate(); err != nil {
			return fmt.Errorf("fpga: layer %d: %w", i, err)
		}
	}
	return nil
}

func (l LayerDesign) validate() error {
	switch {
	case l.Embed < 1 || l.Embed > workload.MaxFeatures:
		return fmt.Errorf("embedding %d, want 1..%d", l.Embed, workload.MaxFeatures)
	case l.Heads < 0 || l.Heads > 64:
		return fmt.Errorf("%d heads, want 0..64", l.Heads)
	case !slices.Contains(Attentions, l.Attn):
		return fmt.Errorf("attention %s has no FPGA pipeline", l.Attn)
	case l.Attn == workload.AttSAGE && heads(l.Heads) != 1:
		return fmt.Errorf("sage with %d heads, want 1", l.Heads)
	case l.Attn == workload.AttSAGE && l.Aggr == workload.AggAdd:
		return fmt.Errorf("sage aggregates by mean or max, not add")
	case !slices.Contains(Aggregations, l.Aggr):
		return fmt.Errorf("aggregation %s has no FPGA pipeline", l.Aggr)
	case !slices.Contains(Activations, l.Act):
		return fmt.Errorf("activation %s has no FPGA unit", l.Act)
	}
	for _, g := range []struct {
		name string
		v    int
	}{{"t_in", l.T.In}, {"t_out", l.T.Out}, {"t_attn", l.T.Attn}, {"t_aggr", l.T.Aggr}, {"t_act", l.T.Act}} {
		if g.v < 1 || g.v > maxGroup {
			return fmt.Errorf("group size %s = %d, want 1..%d", g.name, g.v, maxGroup)
		}
	}
	for _, f := range []struct {
		name string
		v    Fixed
	}{{"weights", l.Bits.W}, {"activations", l.Bits.A}} {
		if f.v.Int < 0 || f.v.Frac < 0 || f.v.Bits() > maxBits {
			return fmt.Errorf("%s format %s, want non-negative parts and at most %d bits", f.name, f.v, maxBits)
		}
	}
	return nil
}

// Layer returns the workload layer of layer i of d on inputs of width f:
// SAGE or SAGEMax for a SAGE layer, GCN for a single-head layer without
// GAT attention, GAT (with its heads) otherwise. Only its MACs and sizes
// matter to the unit; the stage model reads the design.
func (d Design) Layer(i, f int) workload.Layer {
	l := d.Layers[i]
	last := i == len(d.Layers)-1
	if l.Attn == workload.AttSAGE {
		k := workload.SAGE
		if l.Aggr == workload.AggMax {
			k = workload.SAGEMax
		}
		return workload.Layer{Kind: k, F: f, G: l.Embed}
	}
	if l.Attn != workload.AttGAT && heads(l.Heads) == 1 {
		return workload.Layer{Kind: workload.GCN, F: f, G: l.Embed}
	}
	return workload.Layer{Kind: workload.GAT, F: f, G: l.Embed, Heads: int(heads(l.Heads)), Last: last}
}

// Block returns the workload of d on a graph of Size in with features
// input features per node: the work Run prices.
func (d Design) Block(in workload.Size, features int) workload.Block {
	b := workload.Block{Layers: make([]workload.Layer, 0, len(d.Layers))}
	d.BlockInto(&b, in, features)
	return b
}

// BlockInto sets *b to d.Block(in, features), reusing the storage of
// b.Layers: the allocation-free form for loops that price one design after
// another.
func (d Design) BlockInto(b *workload.Block, in workload.Size, features int) {
	*b = workload.Block{Name: "fgnas", Kind: workload.GNNLayer, In: in, Layers: b.Layers[:0]}
	f := features
	for i := range d.Layers {
		l := d.Layer(i, f)
		b.Layers = append(b.Layers, l)
		f = l.OutWidth()
	}
}

// outWidth is the width layer i writes: Heads*Embed, or Embed for the last
// layer (heads averaged).
func (d Design) outWidth(i int) int64 {
	l := d.Layers[i]
	if i == len(d.Layers)-1 {
		return int64(l.Embed)
	}
	return heads(l.Heads) * int64(l.Embed)
}
