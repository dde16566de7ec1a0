package workload

import (
	"fmt"
	"slices"
	"strings"
)

// The GNN vocabulary: the attention, aggregation and activation of a
// message-passing layer, shared by every package that builds, prices or
// trains one (accel/fpga, nas/fgnas, nas/gcos, train). Each package
// takes the subset it can run (its search space, its hardware, its
// trainer) and rejects the rest; the names are the ones FGNAS and the
// trainer print.

// Attention is how a layer weights the message of neighbour j to node i.
type Attention uint8

// The attention types: FGNAS Table 1's constant, GCN and GAT; GraphSAGE's
// layer; G-CoS Table II's (after GraphNAS) other scored types.
const (
	// AttConstant weights every message 1 (FGNAS "constant", G-CoS "skip").
	AttConstant Attention = iota
	// AttGCN weights the message of j to i by 1/sqrt(deg(i) deg(j)) with
	// the degrees of A+I (Kipf and Welling).
	AttGCN
	// AttGAT learns the weights: softmax over j of
	// LeakyReLU_0.2(a_l . z_i + a_r . z_j), per head (Velickovic et al.).
	AttGAT
	// AttSAGE is GraphSAGE's layer (Hamilton et al. 2017, PyG's SAGEConv
	// with its root weight): a self term and the aggregate of the
	// neighbours without the self-loop, each through its own weight. Not
	// in the FGNAS or G-CoS search spaces; one head only.
	AttSAGE
	// AttGATSym, AttCOS, AttLinear and AttGeneLinear are G-CoS Table II's
	// other per-edge scores (GraphNAS): GAT's score in both directions,
	// cosine, linear and generalised linear.
	AttGATSym
	AttCOS
	AttLinear
	AttGeneLinear
)

// Aggregation is how a layer combines the weighted messages of a node's
// neighbourhood.
type Aggregation uint8

// The aggregation types: FGNAS Table 1's, and G-CoS Table II's MLP.
const (
	AggAdd  Aggregation = iota // sum (G-CoS "sum")
	AggMean                    // sum / deg(i)
	AggMax                     // element-wise maximum
	AggMLP                     // G-CoS: an MLP over the sum
)

// Activation is a layer's element-wise non-linearity: G-CoS Table II's
// nine, which contain FGNAS Table 1's four (relu, tanh, sigmoid, elu).
type Activation uint8

// The activations.
const (
	ActLinear    Activation = iota // x
	ActReLU                        // max(x, 0)
	ActTanh                        // tanh x
	ActSigmoid                     // 1 / (1 + e^-x)
	ActELU                         // x > 0 ? x : e^x - 1 (alpha 1)
	ActLeakyReLU                   // x > 0 ? x : 0.01 x (PyTorch's default slope)
	ActReLU6                       // min(max(x, 0), 6)
	ActSoftplus                    // log(1 + e^x)
	// ActSkip is G-CoS's "skip": no activation block at all. It maps x to
	// x as ActLinear does; a hardware model may price the two apart.
	ActSkip
)

var (
	attentionNames   = [...]string{"constant", "gcn", "gat", "sage", "gat-sym", "cos", "linear", "gene-linear"}
	aggregationNames = [...]string{"add", "mean", "max", "mlp"}
	activationNames  = [...]string{"linear", "relu", "tanh", "sigmoid", "elu", "leaky_relu", "relu6", "softplus", "skip"}

	// Other spellings the parsers accept.
	attentionAliases   = map[string]Attention{"none": AttConstant, "skip": AttConstant}
	aggregationAliases = map[string]Aggregation{"sum": AggAdd}
	activationAliases  = map[string]Activation{"identity": ActLinear, "none": ActLinear, "leakyrelu": ActLeakyReLU, "leaky-relu": ActLeakyReLU}
)

func (a Attention) String() string   { return vocabName(attentionNames[:], int(a), "Attention") }
func (a Aggregation) String() string { return vocabName(aggregationNames[:], int(a), "Aggregation") }
func (a Activation) String() string  { return vocabName(activationNames[:], int(a), "Activation") }

// Valid reports whether a is one of the attention types.
func (a Attention) Valid() bool { return int(a) < len(attentionNames) }

// Valid reports whether a is one of the aggregation types.
func (a Aggregation) Valid() bool { return int(a) < len(aggregationNames) }

// Valid reports whether a is one of the activations.
func (a Activation) Valid() bool { return int(a) < len(activationNames) }

// Scored reports whether the attention computes a learned score per edge
// (the GAT family), which hardware runs as GAT kernels with heads.
func (a Attention) Scored() bool {
	return a == AttGAT || a >= AttGATSym && a.Valid()
}

// Identity reports whether the activation maps x to x (linear or skip).
func (a Activation) Identity() bool { return a == ActLinear || a == ActSkip }

func vocabName(names []string, i int, typ string) string {
	if i < len(names) {
		return names[i]
	}
	return fmt.Sprintf("%s(%d)", typ, i)
}

// ParseAttention reads an attention name (any case): the names String
// prints, and none or skip for AttConstant.
func ParseAttention(s string) (Attention, error) {
	return parseVocab(attentionNames[:], attentionAliases, s, "attention")
}

// ParseAggregation reads an aggregation name (any case): the names
// String prints, and sum for AggAdd.
func ParseAggregation(s string) (Aggregation, error) {
	return parseVocab(aggregationNames[:], aggregationAliases, s, "aggregation")
}

// ParseActivation reads an activation name (any case): the names String
// prints, identity and none for ActLinear, leakyrelu and leaky-relu for
// ActLeakyReLU.
func ParseActivation(s string) (Activation, error) {
	return parseVocab(activationNames[:], activationAliases, s, "activation")
}

// ParseIn reads name s with parse (ParseAttention, ParseAggregation or
// ParseActivation) and checks that it names one of in (nil: any): the
// parser of a package that runs part of the vocabulary.
func ParseIn[T interface {
	~uint8
	fmt.Stringer
}](parse func(string) (T, error), s string, in []T) (T, error) {
	v, err := parse(s)
	if err == nil && in != nil && !slices.Contains(in, v) {
		names := make([]string, len(in))
		for i, x := range in {
			names[i] = x.String()
		}
		err = fmt.Errorf("%s is not one of %s", v, strings.Join(names, ", "))
	}
	return v, err
}

func parseVocab[T ~uint8](names []string, aliases map[string]T, s, what string) (T, error) {
	k := strings.ToLower(strings.TrimSpace(s))
	for i, n := range names {
		if n == k {
			return T(i), nil
		}
	}
	if v, ok := aliases[k]; ok {
		return v, nil
	}
	return 0, fmt.Errorf("unknown %s %q (want one of %s)", what, s, strings.Join(names, ", "))
}
