package train

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"gnnsim/workload"
)

// The layer vocabulary (package workload) the trainer runs: attention
// constant (FGNAS "constant", G-CoS "skip"), GCN (1/sqrt(deg(i) deg(j))
// with the degrees of A+I), GAT and SAGE (GraphSAGE's layer, one head);
// aggregation add (sum), mean (sum / deg(i), deg of A+I) and max; every
// activation of G-CoS Table II (linear and skip alike the identity).
// G-CoS's other scored attentions and its MLP aggregation are not here.
var (
	Attentions   = []workload.Attention{workload.AttConstant, workload.AttGCN, workload.AttGAT, workload.AttSAGE}
	Aggregations = []workload.Aggregation{workload.AggAdd, workload.AggMean, workload.AggMax}
)

// ParseAttention reads an attention name the trainer runs (workload's
// names, any case; none and skip are constant).
func ParseAttention(s string) (workload.Attention, error) {
	return trainable(workload.ParseIn(workload.ParseAttention, s, Attentions))
}

// ParseAggregation reads an aggregation name the trainer runs (add or
// sum, mean, max).
func ParseAggregation(s string) (workload.Aggregation, error) {
	return trainable(workload.ParseIn(workload.ParseAggregation, s, Aggregations))
}

// ParseActivation reads an activation name (workload.ParseActivation):
// the trainer runs every one; skip is linear, the one identity it names.
func ParseActivation(s string) (workload.Activation, error) {
	a, err := trainable(workload.ParseActivation(s))
	if a == workload.ActSkip {
		a = workload.ActLinear
	}
	return a, err
}

// trainable prefixes a parse error with the package.
func trainable[T any](v T, err error) (T, error) {
	if err != nil {
		return v, fmt.Errorf("train: %w", err)
	}
	return v, nil
}

// Layer is one message-passing layer: a linear map to Heads x Hidden
// features, per-head attention weights on the edges of A+I, aggregation,
// a bias and an activation. Heads are concatenated in every layer but the
// last, where they are averaged (FGNAS 3.1.1), so a hidden layer is
// Heads*Hidden wide and the output layer has one column per class.
type Layer struct {
	Hidden      int // features per head; 0 or the class count in the output layer
	Heads       int // attention heads, at least 1
	Attention   workload.Attention
	Aggregation workload.Aggregation
	Activation  workload.Activation // the output layer's applies to the logits: linear for plain softmax regression
}

// SAGEArch is a GraphSAGE network of layers SAGE layers (PyG's SAGEConv,
// root weight on) with hidden features and ReLU between them, a linear
// output layer, and agg (Mean or Max; Add is the sum aggregator) in
// every layer.
func SAGEArch(layers, hidden int, agg workload.Aggregation) Arch {
	a := Arch{Layers: make([]Layer, layers)}
	for i := range a.Layers {
		a.Layers[i] = Layer{Hidden: hidden, Heads: 1, Attention: workload.AttSAGE, Aggregation: agg, Activation: workload.ActReLU}
	}
	if layers > 0 {
		a.Layers[layers-1].Hidden, a.Layers[layers-1].Activation = 0, workload.ActLinear
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
		{Hidden: hidden, Heads: 1, Attention: workload.AttGCN, Aggregation: workload.AggAdd, Activation: workload.ActReLU},
		{Heads: 1, Attention: workload.AttGCN, Aggregation: workload.AggAdd, Activation: workload.ActLinear},
	}}
}

// GATArch is Velickovic et al.'s two-layer GAT: heads x hidden with ELU,
// then outHeads averaged output heads (1 for Cora and CiteSeer, 8 for
// PubMed in the paper).
func GATArch(hidden, heads, outHeads int) Arch {
	return Arch{Layers: []Layer{
		{Hidden: hidden, Heads: heads, Attention: workload.AttGAT, Aggregation: workload.AggAdd, Activation: workload.ActELU},
		{Heads: outHeads, Attention: workload.AttGAT, Aggregation: workload.AggAdd, Activation: workload.ActLinear},
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
		case !slices.Contains(Attentions, l.Attention):
			return fmt.Errorf("train: layer %d: invalid attention %d", i, l.Attention)
		case l.Attention == workload.AttSAGE && l.Heads != 1:
			return fmt.Errorf("train: layer %d: sage with %d heads, want 1", i, l.Heads)
		case !slices.Contains(Aggregations, l.Aggregation):
			return fmt.Errorf("train: layer %d: invalid aggregation %d", i, l.Aggregation)
		case !l.Activation.Valid():
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
		l := Layer{Hidden: ls.Width, Heads: ls.HeadCount(), Aggregation: workload.AggAdd}
		switch k := strings.ToLower(ls.Kind); k {
		case "gcn":
			l.Attention = workload.AttGCN
		case "gat":
			l.Attention = workload.AttGAT
		case "sage":
			l.Attention, l.Aggregation = workload.AttSAGE, workload.AggMean
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
