package gcos

import (
	"fmt"

	"gnnsim/workload"
)

// Attention is an attention type of the G-CoS supernet (seed 001, Table II,
// following GraphNAS).
type Attention uint8

// The attention types of Table II.
const (
	AttSkip Attention = iota
	AttGCN
	AttGAT
	AttGATSym
	AttCOS
	AttLinear
	AttGeneLinear
	numAttentions
)

var attNames = [...]string{"skip", "gcn", "gat", "gat-sym", "cos", "linear", "gene-linear"}

func (a Attention) String() string {
	if a < numAttentions {
		return attNames[a]
	}
	return fmt.Sprintf("Attention(%d)", uint8(a))
}

// Scored reports whether the attention computes a score per edge (the GAT
// family), which the hardware runs as GAT kernels with heads.
func (a Attention) Scored() bool { return a >= AttGAT && a < numAttentions }

// Aggregation is an aggregation type of Table II.
type Aggregation uint8

// The aggregation types of Table II.
const (
	AggSum Aggregation = iota
	AggMean
	AggMax
	AggMLP
	numAggregations
)

var aggNames = [...]string{"sum", "mean", "max", "mlp"}

func (a Aggregation) String() string {
	if a < numAggregations {
		return aggNames[a]
	}
	return fmt.Sprintf("Aggregation(%d)", uint8(a))
}

// Activation is one of the nine activations of Table II.
type Activation uint8

// The activations of Table II.
const (
	ActSkip Activation = iota
	ActSigmoid
	ActTanh
	ActReLU
	ActLinear
	ActSoftplus
	ActLeakyReLU
	ActReLU6
	ActELU
	numActivations
)

var actNames = [...]string{"skip", "sigmoid", "tanh", "relu", "linear", "softplus", "leaky-relu", "relu6", "elu"}

func (a Activation) String() string {
	if a < numActivations {
		return actNames[a]
	}
	return fmt.Sprintf("Activation(%d)", uint8(a))
}

// The numeric choices of Table II.
var (
	HiddenChoices   = []int{4, 8, 16, 32, 64, 128, 256}
	HeadChoices     = []int{1, 2, 4, 6, 8, 16}
	SamplingChoices = []float64{0.1, 0.5, 1}
)

// Layer is one layer of a G-CoS GNN: the attributes of the supernet's
// attention, combination, sampling, aggregation and activation blocks.
type Layer struct {
	Attention   Attention
	Aggregation Aggregation
	Activation  Activation
	Hidden      int     // output width per head (the last layer's: the classes)
	Heads       int     // attention heads (scored attention only; else 1)
	Sampling    float64 // fraction of each node's neighbours kept
}

// Arch is a two-layer G-CoS GNN. The last layer's width is the number of
// classes and its activation is fixed (softmax in training, not run on the
// accelerator).
type Arch struct{ Layers [2]Layer }

// String names the architecture compactly.
func (a Arch) String() string {
	s := ""
	for i, l := range a.Layers {
		if i > 0 {
			s += " / "
		}
		s += fmt.Sprintf("%s/%s/%s h%d x%d s%g", l.Attention, l.Aggregation, l.Activation, l.Hidden, l.Heads, l.Sampling)
	}
	return s
}

// Handcrafted returns the handcrafted GNNs of the paper's Figure 7 in this
// space: GCN (hidden 16), GAT (8 heads x 8) and GraphSAGE (mean over
// neighbours sampled at rate 0.5, hidden 16; our sampling rate stands for
// GraphSAGE's fixed fan-out).
func Handcrafted(classes int) map[string]Arch {
	gcn := Arch{Layers: [2]Layer{
		{Attention: AttGCN, Aggregation: AggSum, Activation: ActReLU, Hidden: 16, Heads: 1, Sampling: 1},
		{Attention: AttGCN, Aggregation: AggSum, Hidden: classes, Heads: 1, Sampling: 1}}}
	gat := Arch{Layers: [2]Layer{
		{Attention: AttGAT, Aggregation: AggSum, Activation: ActELU, Hidden: 8, Heads: 8, Sampling: 1},
		{Attention: AttGAT, Aggregation: AggSum, Hidden: classes, Heads: 1, Sampling: 1}}}
	sage := Arch{Layers: [2]Layer{
		{Attention: AttSkip, Aggregation: AggMean, Activation: ActReLU, Hidden: 16, Heads: 1, Sampling: 0.5},
		{Attention: AttSkip, Aggregation: AggMean, Hidden: classes, Heads: 1, Sampling: 0.5}}}
	return map[string]Arch{"GCN": gcn, "GAT": gat, "GraphSAGE": sage}
}

// HandcraftedNames lists Handcrafted's keys in a fixed order.
var HandcraftedNames = []string{"GCN", "GAT", "GraphSAGE"}

// Validate reports an attribute outside Table II.
func (a Arch) Validate() error {
	for i, l := range a.Layers {
		switch {
		case l.Attention >= numAttentions:
			return fmt.Errorf("gcos: layer %d: unknown attention %d", i, l.Attention)
		case l.Aggregation >= numAggregations:
			return fmt.Errorf("gcos: layer %d: unknown aggregation %d", i, l.Aggregation)
		case l.Activation >= numActivations:
			return fmt.Errorf("gcos: layer %d: unknown activation %d", i, l.Activation)
		case l.Hidden < 1 || l.Hidden > workload.MaxFeatures:
			return fmt.Errorf("gcos: layer %d: width %d", i, l.Hidden)
		case l.Heads < 1 || l.Heads > 16:
			return fmt.Errorf("gcos: layer %d: %d heads, want 1..16", i, l.Heads)
		case !(l.Sampling > 0 && l.Sampling <= 1):
			return fmt.Errorf("gcos: layer %d: sampling rate %v, want (0, 1]", i, l.Sampling)
		}
	}
	return nil
}

// Workload returns the layers the accelerator runs for layer i of a, whose
// input is f wide, and the layer's output width. The mapping onto
// workload's kinds (one definition of the work, package workload):
//
//	scored attention (GAT, GAT-sym, COS, Linear, Gene-Linear)  GAT with Heads
//	                 (per-edge score, softmax, weighted SpMM; every scored
//	                 type costs what GAT costs: GAT-sym's second direction
//	                 and COS's norms are left out); an MLP aggregation adds
//	                 an FC G x G
//	skip / GCN attention with sum or mean                        GCN (SpMM over A+I, GEMM)
//	skip / GCN attention with max                                SAGEMax
//	skip / GCN attention with MLP                                GIN (SpMM, GEMM, GEMM)
//	activation (but skip)                                        Act
func (a Arch) Workload(i, f int) ([]workload.Layer, int, error) {
	l := a.Layers[i]
	last := i == len(a.Layers)-1
	var out []workload.Layer
	var w int
	switch {
	case l.Attention.Scored():
		gl := workload.Layer{Kind: workload.GAT, F: f, G: l.Hidden, Heads: l.Heads, Last: last}
		out = append(out, gl)
		w = gl.OutWidth()
		if l.Aggregation == AggMLP {
			out = append(out, workload.Layer{Kind: workload.FC, F: w, G: w})
		}
	case l.Aggregation == AggMax:
		out, w = append(out, workload.Layer{Kind: workload.SAGEMax, F: f, G: l.Hidden}), l.Hidden
	case l.Aggregation == AggMLP:
		out, w = append(out, workload.Layer{Kind: workload.GIN, F: f, G: l.Hidden}), l.Hidden
	default:
		out, w = append(out, workload.Layer{Kind: workload.GCN, F: f, G: l.Hidden}), l.Hidden
	}
	if !last && l.Activation != ActSkip {
		out = append(out, workload.Layer{Kind: workload.Act, F: w, G: w})
	}
	for _, x := range out {
		if err := x.Validate(); err != nil {
			return nil, 0, fmt.Errorf("gcos: layer %d: %w", i, err)
		}
	}
	return out, w, nil
}
