package fpga

import (
	"fmt"

	"gnnsim/workload"
)

// Attention is how a layer weights the messages between connected nodes
// (FGNAS Table 1, "attn").
type Attention uint8

// The attention types of FGNAS Table 1.
const (
	Constant Attention = iota // every coefficient 1: no hardware
	GCNNorm                   // 1/sqrt(d_i d_j), from precomputed degree norms
	GATAttn                   // softmax over neighbours of LeakyReLU(a_s.Wh_i + a_d.Wh_j)
	// SAGEAttn is GraphSAGE's layer (Hamilton et al. 2017; PyG's SAGEConv
	// with its root weight), not in FGNAS's space: W_self h_i plus the
	// mean or max over the neighbours (self-loop excluded) of W_neigh h_j,
	// one head. See the package doc for its stages.
	SAGEAttn
)

// Aggregation is how a node combines its weighted incoming messages.
type Aggregation uint8

// The aggregation types of FGNAS Table 1.
const (
	AggAdd Aggregation = iota
	AggMean
	AggMax
)

// Activation is a layer's nonlinearity.
type Activation uint8

// The activations of FGNAS Table 1, and Identity (none).
const (
	ReLU Activation = iota
	Tanh
	Sigmoid
	ELU
	// Identity is no activation (not in FGNAS's space; our model only): the
	// stage builds no units and takes no cycles, except that a multi-head
	// last layer still averages its heads there.
	Identity
)

var (
	attnNames = [...]string{Constant: "constant", GCNNorm: "gcn", GATAttn: "gat", SAGEAttn: "sage"}
	aggrNames = [...]string{AggAdd: "add", AggMean: "mean", AggMax: "max"}
	actNames  = [...]string{ReLU: "relu", Tanh: "tanh", Sigmoid: "sigmoid", ELU: "elu", Identity: "linear"}
)

func (a Attention) String() string   { return enumName(attnNames[:], uint8(a), "Attention") }
func (a Aggregation) String() string { return enumName(aggrNames[:], uint8(a), "Aggregation") }
func (a Activation) String() string  { return enumName(actNames[:], uint8(a), "Activation") }

func enumName(names []string, v uint8, typ string) string {
	if int(v) < len(names) {
		return names[v]
	}
	return fmt.Sprintf("%s(%d)", typ, v)
}

// ParseAttention, ParseAggregation and ParseActivation read the names of
// FGNAS Table 1 ("gcn", "mean", "elu", ...).
func ParseAttention(s string) (Attention, error) {
	v, err := parseEnum(attnNames[:], s, "attention")
	return Attention(v), err
}

// ParseAggregation: see ParseAttention.
func ParseAggregation(s string) (Aggregation, error) {
	v, err := parseEnum(aggrNames[:], s, "aggregation")
	return Aggregation(v), err
}

// ParseActivation: see ParseAttention; none and identity are Identity.
func ParseActivation(s string) (Activation, error) {
	if s == "none" || s == "identity" {
		return Identity, nil
	}
	v, err := parseEnum(actNames[:], s, "activation")
	return Activation(v), err
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
	Attn  Attention
	Aggr  Aggregation
	Act   Activation
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
	case int(l.Attn) >= len(attnNames):
		return fmt.Errorf("unknown attention %d", l.Attn)
	case l.Attn == SAGEAttn && heads(l.Heads) != 1:
		return fmt.Errorf("sage with %d heads, want 1", l.Heads)
	case l.Attn == SAGEAttn && l.Aggr == AggAdd:
		return fmt.Errorf("sage aggregates by mean or max, not add")
	case int(l.Aggr) >= len(aggrNames):
		return fmt.Errorf("unknown aggregation %d", l.Aggr)
	case int(l.Act) >= len(actNames):
		return fmt.Errorf("unknown activation %d", l.Act)
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
	if l.Attn == SAGEAttn {
		k := workload.SAGE
		if l.Aggr == AggMax {
			k = workload.SAGEMax
		}
		return workload.Layer{Kind: k, F: f, G: l.Embed}
	}
	if l.Attn != GATAttn && heads(l.Heads) == 1 {
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
