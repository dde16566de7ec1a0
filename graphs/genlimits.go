package graphs

import "fmt"

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

// MaxGenCount bounds the graphs of one request.
const MaxGenCount = 1_000_000

// SetRequest fills s's ranges and parameters from their text ('graphs
// gen --nodes, --edges, --param': A:B, A:, :B or N; KEY=VALUE) and checks
// the count and the sizes against the generator's limits before any
// work. Its errors name those flags.
func (s *GenSpec) SetRequest(nodes, edges string, params []string) error {
	var err error
	if s.MinNodes, s.MaxNodes, err = ParseRange(nodes); err != nil {
		return fmt.Errorf("--nodes: %w", err)
	}
	if s.MinEdges, s.MaxEdges, err = ParseRange(edges); err != nil {
		return fmt.Errorf("--edges: %w", err)
	}
	if s.Params, err = ParseParams(params); err != nil {
		return fmt.Errorf("--param: %w", err)
	}
	if s.Count < 1 || s.Count > MaxGenCount {
		return fmt.Errorf("--count %d: want %d to %d", s.Count, 1, MaxGenCount)
	}
	maxN, maxE := GenLimits(s.Generator)
	if max(s.MinNodes, s.MaxNodes) > maxN {
		return fmt.Errorf("--nodes %s: at most %d nodes for %s", nodes, maxN, s.Generator)
	}
	if max(s.MinEdges, s.MaxEdges) > maxE {
		return fmt.Errorf("--edges %s: at most %d edges for %s", edges, maxE, s.Generator)
	}
	return nil
}
