package accel

import (
	"fmt"

	"gnnsim/dataflow"
	"gnnsim/workload"
)

// maxGemms is the most GEMMs a layer's combination phase runs.
const maxGemms = 2

// gemm is one dense product of the combination phase: a V x K matrix
// times K x N weights.
type gemm struct{ k, n int64 }

// work is what a layer asks of the two phases.
type work struct {
	selfLoops  bool  // aggregate over A+I (true) or A
	aggF       int64 // feature width the aggregation streams
	gemms      []gemm
	extraSteps int64 // extra cycles per neighbour step (per-edge work)
}

// layerWork maps a workload layer onto the accelerator's two phases (the
// package doc's "Layer kinds"), the same work workload.Layer.Kernels states
// (a test checks the MACs agree):
//
//	GCN   aggregate A+I over F;   combine F x G
//	GIN   aggregate A+I over F;   combine F x G, then G x G (the MLP)
//	SAGE  aggregate A over F;     combine 2F x G ([h_v || mean] times W)
//	GAT   aggregate A+I over G;   combine F x (G+2) (W and the two
//	      attention projections) plus one step per neighbour step for the
//	      attention weights
//
// The accelerator runs seed 002's graph layers on the graph it is given:
// other kinds, GAT with more than one head, k-NN aggregation (Layer.K) and
// grouped products are errors.
func layerWork(l workload.Layer) (work, error) {
	if err := l.Validate(); err != nil {
		return work{}, fmt.Errorf("accel: %w", err)
	}
	switch {
	case !l.Kind.Graph():
		return work{}, fmt.Errorf("accel: %s layers are not modelled: the Omega accelerator runs gcn, gin, sage and gat layers", l.Kind)
	case l.Heads > 1:
		return work{}, fmt.Errorf("accel: gat layer with %d heads is not modelled: one head per layer", l.Heads)
	case l.K > 0:
		return work{}, fmt.Errorf("accel: %s layer over a k-NN graph (k = %d) is not modelled: the accelerator aggregates over the graph it is given", l.Kind, l.K)
	case l.Groups > 1:
		return work{}, fmt.Errorf("accel: %s layer with %d groups is not modelled", l.Kind, l.Groups)
	}
	F, G := int64(l.F), int64(l.G)
	switch l.Kind {
	case workload.GIN:
		return work{selfLoops: true, aggF: F, gemms: []gemm{{F, G}, {G, G}}}, nil
	case workload.SAGE:
		return work{selfLoops: false, aggF: F, gemms: []gemm{{2 * F, G}}}, nil
	case workload.GAT:
		return work{selfLoops: true, aggF: G, gemms: []gemm{{F, G + 2}}, extraSteps: 1}, nil
	}
	return work{selfLoops: true, aggF: F, gemms: []gemm{{F, G}}}, nil // GCN
}

// dims returns l's dataflow dimensions on a graph of v nodes.
func dims(l workload.Layer, v int) dataflow.Dims { return dataflow.Dims{V: v, F: l.F, G: l.G} }

// ModelLayers returns the layers of model m the accelerator runs, in
// order, each named as the model names it (workload.Model.Graph). An
// element-wise activation (workload.Act) is left out, by decision: the
// accelerator applies it to the combination phase's outputs as they leave
// the PEs, inside the write the combination phase already costs, so it
// adds no traffic; its cycles are hidden behind that write and its energy
// is not modelled (activation functions are left out, see the package
// doc). Every other layer is kept, and Prepare refuses the kinds the
// accelerator does not model, naming them.
func ModelLayers(m workload.Model) ([]workload.Layer, error) {
	nodes, err := m.Graph()
	if err != nil {
		return nil, fmt.Errorf("accel: %w", err)
	}
	var ls []workload.Layer
	for _, n := range nodes {
		if n.Layer.Kind == workload.Act {
			continue
		}
		l := n.Layer
		l.Name = n.Name
		ls = append(ls, l)
	}
	return ls, nil
}
