package graphs

// The largest graphs the generators are asked for ('gnnsim graphs gen').
const (
	maxGenNodes = 10_000_000
	maxKNNNodes = 20_000 // k-NN construction is quadratic in the nodes
	maxGenEdges = 100_000_000
	// R-MAT, the generator of the scale runs (docs/scale.md), goes to the
	// int32 CSR limit; memory is checked before it starts (CheckGenMemory).
	maxRMATNodes = 1 << 30
	maxRMATEdges = MaxEntries / 2
)

// GenLimits returns the largest node and edge counts a request to
// generator may name.
func GenLimits(generator string) (nodes, edges int) {
	switch generator {
	case "knn":
		return maxKNNNodes, maxGenEdges
	case "rmat":
		return maxRMATNodes, maxRMATEdges
	}
	return maxGenNodes, maxGenEdges
}
