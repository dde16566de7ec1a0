package train

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"gnnsim/workload"
)

// Attention is how a layer weights the message of neighbour j to node i
// (FGNAS Table 1 "attention type"; G-CoS Table II's skip, GCN and GAT).
type Attention uint8

const (
	// Constant weights every message 1 (FGNAS "constant", G-CoS "skip").
	Constant Attention = iota
	// GCN weights the message of j to i by 1/sqrt(deg(i) deg(j)) with the
	// degrees of A+I (Kipf and Welling).
	GCN
	// GAT learns the weights: softmax over j of
	// LeakyReLU_0.2(a_l . z_i + a_r . z_j), per head (Velickovic et al.).
	GAT
	// SAGE is GraphSAGE's layer (Hamilton et al. 2017, PyG's SAGEConv
	// with its root weight): a self term and the aggregate of the
	// neighbours without the self-loop, each through its own weight,
	// o_i = W_self x_i + AGG_{j in N(i)} W_neigh x_j + b. Not in the
	// FGNAS or G-CoS search spaces; one head only.
	SAGE
)

// Aggregation is how a layer combines the weighted messages of a node's
// neighbourhood (FGNAS Table 1; G-CoS Table II without its MLP option).
type Aggregation uint8

const (
	Add  Aggregation = iota // sum
	Mean                    // sum / deg(i), deg of A+I
	Max                     // element-wise maximum
)

// Activation is a layer's element-wise non-linearity. The set is G-CoS's
// Table II (skip, sigmoid, tanh, relu, linear, softplus, leaky relu, relu6,
// elu), which contains FGNAS's four (relu, tanh, sigmoid, elu). G-CoS's
// "skip" (no activation block) and "linear" are the same map, Identity.
type Activation uint8

const (
	Identity  Activation = iota // x ("linear", "skip")
	ReLU                        // max(x, 0)
	Tanh                        // tanh x
	Sigmoid                     // 1 / (1 + e^-x)
	ELU                         // x > 0 ? x : e^x - 1 (alpha 1)
	LeakyReLU                   // x > 0 ? x : 0.01 x (PyTorch's default slope)
	ReLU6                       // min(max(x, 0), 6)
	Softplus                    // log(1 + e^x)
)

var (
	attentionNames   = []string{"constant", "gcn", "gat", "sage"}
	aggregationNames = []string{"add", "mean", "max"}
	activationNames  = []string{"linear", "relu", "tanh", "sigmoid", "elu", "leaky_relu", "relu6", "softplus"}
)

func (a Attention) String() string   { return enumName(attentionNames, int(a)) }
func (a Aggregation) String() string { return enumName(aggregationNames, int(a)) }
func (a Activation) String() string  { return enumName(activationNames, int(a)) }

func enumName(names []string, i int) string {
	if i < len(names) {
		return names[i]
	}
	return "invalid(" + strconv.Itoa(i) + ")"
}

// ParseAttention accepts constant (or none, skip), gcn, gat and sage.
func ParseAttention(s string) (Attention, error) {
	switch strings.ToLower(s) {
	case "none", "skip":
		return Constant, nil
	}
	i, err := parseEnum("attention", attentionNames, s)
	return Attention(i), err
}

// ParseAggregation accepts add (or sum), mean and max.
func ParseAggregation(s string) (Aggregation, error) {
	if strings.EqualFold(s, "sum") {
		return Add, nil
	}
	i, err := parseEnum("aggregation", aggregationNames, s)
	return Aggregation(i), err
}

// ParseActivation accepts the names of Activation's constants as
// String prints them, plus identity, skip and none for Identity and
// leakyrelu for LeakyReLU.
func ParseActivation(s string) (Activation, error) {
	switch strings.ToLower(s) {
	case "identity", "skip", "none":
		return Identity, nil
	case "leakyrelu":
		return LeakyReLU, nil
	}
	i, err := parseEnum("activation", activationNames, s)
	return Activation(i), err
}

func parseEnum(what string, names []string, s string) (int, error) {
	for i, n := range names {
		if strings.EqualFold(s, n) {
			return i, nil
		}
	}
	return 0, fmt.Errorf("train: unknown %s %q (want %s)", what, s, strings.Join(names, ", "))
}

// Layer is one message-passing layer: a linear map to Heads x Hidden
// features, per-head attention weights on the edges of A+I, aggregation,
// a bias and an activation. Heads are concatenated in every layer but the
// last, where they are averaged (FGNAS 3.1.1), so a hidden layer is
// Heads*Hidden wide and the output layer has one column per class.
type Layer struct {
	Hidden      int // features per head; 0 or the class count in the output layer
	Heads       int // attention heads, at least 1
	Attention   Attention
	Aggregation Aggregation
	Activation  Activation // the output layer's applies to the logits: Identity for plain softmax regression
}

// SAGEArch is a GraphSAGE network of layers SAGE layers (PyG's SAGEConv,
// root weight on) with hidden features and ReLU between them, a linear
// output layer, and agg (Mean or Max; Add is the sum aggregator) in
// every layer.
func SAGEArch(layers, hidden int, agg Aggregation) Arch {
	a := Arch{Layers: make([]Layer, layers)}
	for i := range a.Layers {
		a.Layers[i] = Layer{Hidden: hidden, Heads: 1, Attention: SAGE, Aggregation: agg, Activation: ReLU}
	}
	if layers > 0 {
		a.Layers[layers-1].Hidden, a.Layers[layers-1].Activation = 0, Identity
	}
	return a
}

// Arch is a network: its layers in order, the last one the output layer.
type Arch struct {
	Layers []Layer
}

// GCNArch is Kipf and Welling's two-layer GCN: hidden width hidden, ReLU,
// GCN-normalised sum aggregation, a linear output layer.
func GCNArch(hidden int) Arch {
	return Arch{Layers: []Layer{
		{Hidden: hidden, Heads: 1, Attention: GCN, Aggregation: Add, Activation: ReLU},
		{Heads: 1, Attention: GCN, Aggregation: Add, Activation: Identity},
	}}
}

// GATArch is Velickovic et al.'s two-layer GAT: heads x hidden with ELU,
// then outHeads averaged output heads (1 for Cora and CiteSeer, 8 for
// PubMed in the paper).
func GATArch(hidden, heads, outHeads int) Arch {
	return Arch{Layers: []Layer{
		{Hidden: hidden, Heads: heads, Attention: GAT, Aggregation: Add, Activation: ELU},
		{Heads: outHeads, Attention: GAT, Aggregation: Add, Activation: Identity},
	}}
}

// MaxWidth bounds Heads*Hidden: far above the seeds' spaces (G-CoS: 256
// hidden x 16 heads) and small enough that a typo cannot allocate the
// machine away.
const MaxWidth = 1 << 14

// MaxHeads bounds a layer's attention heads.
const MaxHeads = 64

// Validate checks the architecture against a class count.
func (a Arch) Validate(classes int) error {
	if len(a.Layers) == 0 {
		return errors.New("train: an architecture needs at least one layer")
	}
	for i, l := range a.Layers {
		last := i == len(a.Layers)-1
		switch {
		case l.Heads < 1 || l.Heads > MaxHeads:
			return fmt.Errorf("train: layer %d: %d heads, want 1..%d", i, l.Heads, MaxHeads)
		case !last && (l.Hidden < 1 || l.Hidden*l.Heads > MaxWidth):
			return fmt.Errorf("train: layer %d: hidden width %d x %d heads, want 1..%d features", i, l.Hidden, l.Heads, MaxWidth)
		case last && l.Hidden != 0 && l.Hidden != classes:
			return fmt.Errorf("train: output layer width %d, want 0 or the %d classes", l.Hidden, classes)
		case int(l.Attention) >= len(attentionNames):
			return fmt.Errorf("train: layer %d: invalid attention %d", i, l.Attention)
		case l.Attention == SAGE && l.Heads != 1:
			return fmt.Errorf("train: layer %d: sage with %d heads, want 1", i, l.Heads)
		case int(l.Aggregation) >= len(aggregationNames):
			return fmt.Errorf("train: layer %d: invalid aggregation %d", i, l.Aggregation)
		case int(l.Activation) >= len(activationNames):
			return fmt.Errorf("train: layer %d: invalid activation %d", i, l.Activation)
		}
	}
	return nil
}

// String is the canonical text of the architecture, one
// "attention:hidden x heads:aggregation:activation" group per layer joined
// by "/", the output width written 0; for example Kipf's GCN is
// "gcn:16x1:add:relu/gcn:0x1:add:linear". Equal architectures have equal
// strings, so it keys caches.
func (a Arch) String() string {
	var b strings.Builder
	for i, l := range a.Layers {
		if i > 0 {
			b.WriteByte('/')
		}
		h := l.Hidden
		if i == len(a.Layers)-1 {
			h = 0
		}
		fmt.Fprintf(&b, "%v:%dx%d:%v:%v", l.Attention, h, l.Heads, l.Aggregation, l.Activation)
	}
	return b.String()
}

// ParseArch reads the form String writes.
func ParseArch(s string) (Arch, error) {
	var a Arch
	for _, part := range strings.Split(s, "/") {
		f := strings.Split(part, ":")
		if len(f) != 4 {
			return Arch{}, fmt.Errorf("train: layer %q: want attention:HIDDENxHEADS:aggregation:activation", part)
		}
		var l Layer
		var err error
		if l.Attention, err = ParseAttention(f[0]); err != nil {
			return Arch{}, err
		}
		hs, ks, ok := strings.Cut(f[1], "x")
		if l.Hidden, err = strconv.Atoi(hs); !ok || err != nil {
			return Arch{}, fmt.Errorf("train: layer %q: width %q is not HIDDENxHEADS", part, f[1])
		}
		if l.Heads, err = strconv.Atoi(ks); err != nil {
			return Arch{}, fmt.Errorf("train: layer %q: width %q is not HIDDENxHEADS", part, f[1])
		}
		if l.Aggregation, err = ParseAggregation(f[2]); err != nil {
			return Arch{}, err
		}
		if l.Activation, err = ParseActivation(f[3]); err != nil {
			return Arch{}, err
		}
		a.Layers = append(a.Layers, l)
	}
	return a, nil
}

// SpecArch builds an architecture from a GNN stack model file
// (workload.ModelSpec): kind gcn is GCN attention with sum, gat GAT
// attention (with its heads) with sum, sage a SAGE layer with the file's
// aggregation (mean by default, or max); activations relu, elu,
// leaky_relu, relu6, sigmoid, tanh or none. The last layer's width must be
// the class count (Validate checks it). Other kinds (gin, edgeconv,
// mrconv, fc), gelu and zoo models are errors naming the layer.
func SpecArch(s *workload.ModelSpec) (Arch, error) {
	if s.Zoo != "" {
		return Arch{}, fmt.Errorf("train: model %s: a zoo model cannot be trained here; give a GNN stack (layers:)", s.Name)
	}
	var a Arch
	for i, ls := range s.Layers {
		l := Layer{Hidden: ls.Width, Heads: ls.HeadCount(), Aggregation: Add}
		switch k := strings.ToLower(ls.Kind); k {
		case "gcn":
			l.Attention = GCN
		case "gat":
			l.Attention = GAT
		case "sage":
			l.Attention, l.Aggregation = SAGE, Mean
			if ls.Aggregation != "" {
				var err error
				if l.Aggregation, err = ParseAggregation(ls.Aggregation); err != nil {
					return Arch{}, fmt.Errorf("train: model %s: layers[%d]: %w", s.Name, i, err)
				}
			}
		default:
			return Arch{}, fmt.Errorf("train: model %s: layers[%d]: kind %s cannot be trained here (want gcn, gat or sage)", s.Name, i, ls.Kind)
		}
		if ls.Activation != "" {
			var err error
			if l.Activation, err = ParseActivation(ls.Activation); err != nil {
				return Arch{}, fmt.Errorf("train: model %s: layers[%d]: %w", s.Name, i, err)
			}
		}
		a.Layers = append(a.Layers, l)
	}
	return a, nil
}
