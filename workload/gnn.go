package workload

import "fmt"

// GNN returns a node-classification GNN of len(widths)-1 layers of kind on a
// graph of Size in: layer i maps the previous layer's output (widths[0], the
// input features, for the first) to widths[i+1] outputs. heads gives each
// layer's GAT attention heads (none: one head each); a GAT layer
// concatenates its heads, but the last averages them. Each layer is a block
// of its own (Kind GNNLayer), the granularity at which a search maps or
// sizes it.
//
// Activations between layers are left out: element-wise work that the
// Omega model does not price; a caller whose unit prices them appends an
// Act layer to the blocks.
func GNN(kind LayerKind, in Size, widths []int, heads ...int) (Model, error) {
	if len(widths) < 2 {
		return Model{}, fmt.Errorf("workload: GNN needs an input width and at least one layer width, got %d widths", len(widths))
	}
	if !kind.Valid() || !kind.NeighbourOp() || kind == KNN {
		return Model{}, fmt.Errorf("workload: GNN of %s layers: want a graph layer kind", kind)
	}
	nl := len(widths) - 1
	if len(heads) != 0 && len(heads) != nl {
		return Model{}, fmt.Errorf("workload: GNN: %d head counts for %d layers", len(heads), nl)
	}
	if len(heads) != 0 && kind != GAT {
		return Model{}, fmt.Errorf("workload: GNN: heads given for %s layers (only gat has heads)", kind)
	}
	if err := in.Validate(); err != nil {
		return Model{}, err
	}
	m := Model{Name: fmt.Sprintf("%s-%d", kind, nl)}
	f := widths[0]
	for i := range nl {
		l := Layer{Kind: kind, F: f, G: widths[i+1]}
		if len(heads) != 0 {
			l.Heads = heads[i]
		}
		l.Last = kind == GAT && i == nl-1
		if err := l.Validate(); err != nil {
			return Model{}, fmt.Errorf("workload: GNN layer %d: %w", i, err)
		}
		m.Blocks = append(m.Blocks, Block{Name: fmt.Sprintf("layer%d", i), Kind: GNNLayer, In: in, Layers: []Layer{l}})
		f = l.OutWidth()
	}
	return m, nil
}
