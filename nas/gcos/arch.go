package gcos

import (
	"fmt"
	"slices"

	"gnnsim/workload"
)

// The choices of Table II (after GraphNAS), in its order: a layer's
// attention, aggregation and activation are the workload package's, and
// a search genome indexes these lists.
var (
	Attentions = []workload.Attention{workload.AttConstant, workload.AttGCN, workload.AttGAT,
		workload.AttGATSym, workload.AttCOS, workload.AttLinear, workload.AttGeneLinear}
	Aggregations = []workload.Aggregation{workload.AggAdd, workload.AggMean, workload.AggMax, workload.AggMLP}
	Activations  = []workload.Activation{workload.ActSkip, workload.ActSigmoid, workload.ActTanh, workload.ActReLU,
		workload.ActLinear, workload.ActSoftplus, workload.ActLeakyReLU, workload.ActReLU6, workload.ActELU}
)

// Table II spells three names its own way: the constant attention is
// "skip", the add aggregation "sum" and leaky_relu "leaky-relu". Outputs
// (Arch.String, the search's labels) keep the paper's spelling.
func attName(a workload.Attention) string {
	if a == workload.AttConstant {
		return "skip"
	}
	return a.String()
}

func aggName(a workload.Aggregation) string {
	if a == workload.AggAdd {
		return "sum"
	}
	return a.String()
}

func actName(a workload.Activation) string {
	if a == workload.ActLeakyReLU {
		return "leaky-relu"
	}
	return a.String()
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
	Attention   workload.Attention
	Aggregation workload.Aggregation
	Activation  workload.Activation // the last layer's: ActSkip (softmax in training)
	Hidden      int                 // output width per head (the last layer's: the classes)
	Heads       int                 // attention heads (scored attention only; else 1)
	Sampling    float64             // fraction of each node's neighbours kept
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
		s += fmt.Sprintf("%s/%s/%s h%d x%d s%g", attName(l.Attention), aggName(l.Aggregation), actName(l.Activation), l.Hidden, l.Heads, l.Sampling)
	}
	return s
}

// Handcrafted returns the handcrafted GNNs of the paper's Figure 7 in this
// space: GCN (hidden 16), GAT (8 heads x 8) and GraphSAGE (mean over
// neighbours sampled at rate 0.5, hidden 16; our sampling rate stands for
// GraphSAGE's fixed fan-out).
func Handcrafted(classes int) map[string]Arch {
	gcn := Arch{Layers: [2]Layer{
		{Attention: workload.AttGCN, Aggregation: workload.AggAdd, Activation: workload.ActReLU, Hidden: 16, Heads: 1, Sampling: 1},
		{Attention: workload.AttGCN, Aggregation: workload.AggAdd, Activation: workload.ActSkip, Hidden: classes, Heads: 1, Sampling: 1}}}
	gat := Arch{Layers: [2]Layer{
		{Attention: workload.AttGAT, Aggregation: workload.AggAdd, Activation: workload.ActELU, Hidden: 8, Heads: 8, Sampling: 1},
		{Attention: workload.AttGAT, Aggregation: workload.AggAdd, Activation: workload.ActSkip, Hidden: classes, Heads: 1, Sampling: 1}}}
	sage := Arch{Layers: [2]Layer{
		{Attention: workload.AttConstant, Aggregation: workload.AggMean, Activation: workload.ActReLU, Hidden: 16, Heads: 1, Sampling: 0.5},
		{Attention: workload.AttConstant, Aggregation: workload.AggMean, Activation: workload.ActSkip, Hidden: classes, Heads: 1, Sampling: 0.5}}}
	return map[string]Arch{"GCN": gcn, "GAT": gat, "GraphSAGE": sage}
}

// HandcraftedNames lists Handcrafted's keys in a fixed order.
var HandcraftedNames = []string{"GCN", "GAT", "GraphSAGE"}

// Validate reports an attribute outside Table II.
func (a Arch) Validate() error {
	for i, l := range a.Layers {
		switch {
		case !slices.Contains(Attentions, l.Attention):
			return fmt.Errorf("gcos: layer %d: attention %s not in Table II", i, l.Attention)
		case !slices.Contains(Aggregations, l.Aggregation):
			return fmt.Errorf("gcos: layer %d: aggregation %s not in Table II", i, l.Aggregation)
		case !slices.Contains(Activations, l.Activation):
			return fmt.Errorf("gcos: layer %d: activation %s not in Table II", i, l.Activation)
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
		if l.Aggregation == workload.AggMLP {
			out = append(out, workload.Layer{Kind: workload.FC, F: w, G: w})
		}
	case l.Aggregation == workload.AggMax:
		out, w = append(out, workload.Layer{Kind: workload.SAGEMax, F: f, G: l.Hidden}), l.Hidden
	case l.Aggregation == workload.AggMLP:
		out, w = append(out, workload.Layer{Kind: workload.GIN, F: f, G: l.Hidden}), l.Hidden
	default:
		out, w = append(out, workload.Layer{Kind: workload.GCN, F: f, G: l.Hidden}), l.Hidden
	}
	if !last && l.Activation != workload.ActSkip {
		out = append(out, workload.Layer{Kind: workload.Act, F: w, G: w})
	}
	for _, x := range out {
		if err := x.Validate(); err != nil {
			return nil, 0, fmt.Errorf("gcos: layer %d: %w", i, err)
		}
	}
	return out, w, nil
}
