package accel

import (
	"fmt"

	"gnnsim/dataflow"
	"gnnsim/workload"
)

// Layer is one GNN layer: its kind and its input and output feature widths.
// The zero Kind means GCN.
type Layer struct {
	Kind workload.LayerKind
	F, G int
}

// GCN returns a GCN layer with F input and G output features.
func GCN(F, G int) Layer { return Layer{Kind: workload.GCN, F: F, G: G} }

// maxGemms is the most GEMMs a layer's combination phase runs.
const maxGemms = 2

// gemm is one dense product of the combination phase: a V x K matrix
// times K x N weights.
type gemm struct{ k, n int64 }

// work is what a layer kind asks of the two phases.
type work struct {
	selfLoops  bool  // aggregate over A+I (true) or A
	aggF       int64 // feature width the aggregation streams
	gemms      []gemm
	extraSteps int64 // extra cycles per neighbour step (per-edge work)
}

// Work per layer kind (the package doc's "Layer kinds"):
//
//	GCN   aggregate A+I over F;   combine F x G
//	GIN   aggregate A+I over F;   combine F x G, then G x G (the MLP)
//	SAGE  aggregate A over F;     combine 2F x G ([h_v || mean] times W)
//	GAT   aggregate A+I over G;   combine F x (G+2) (W and the two
//	      attention projections) plus one step per neighbour step for the
//	      attention weights
func (l Layer) work() (work, error) {
	if l.F <= 0 || l.G <= 0 || l.F > workload.MaxFeatures || l.G > workload.MaxFeatures {
		return work{}, fmt.Errorf("accel: layer F = %d, G = %d, want 1..%d", l.F, l.G, workload.MaxFeatures)
	}
	F, G := int64(l.F), int64(l.G)
	switch l.kind() {
	case workload.GCN:
		return work{selfLoops: true, aggF: F, gemms: []gemm{{F, G}}}, nil
	case workload.GIN:
		return work{selfLoops: true, aggF: F, gemms: []gemm{{F, G}, {G, G}}}, nil
	case workload.SAGE:
		return work{selfLoops: false, aggF: F, gemms: []gemm{{2 * F, G}}}, nil
	case workload.GAT:
		return work{selfLoops: true, aggF: G, gemms: []gemm{{F, G + 2}}, extraSteps: 1}, nil
	}
	return work{}, fmt.Errorf("accel: unknown layer kind %v", l.Kind)
}

func (l Layer) kind() workload.LayerKind {
	if l.Kind == 0 {
		return workload.GCN
	}
	return l.Kind
}

// Dims returns the layer's dataflow dimensions on a graph of v nodes.
func (l Layer) Dims(v int) dataflow.Dims { return dataflow.Dims{V: v, F: l.F, G: l.G} }
