package predict

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"gnnsim/dataflow"
	"gnnsim/graphs"
)

// FeatureSet selects the input columns of the latency models: the sets of
// seed 002's Table 1.
type FeatureSet uint8

const (
	// Base is Table 1's "base" set plus the layer sizes: V, E, the six tile
	// sizes, density, clustering, the seven degree quantiles, F and G.
	Base FeatureSet = iota
	// Full is "base+features": Base followed by the composite features
	// S1..S6 (dataflow.Composite).
	Full
)

// Column indices of a feature row; Full rows continue with S1..S6 from
// ColS1 on.
const (
	ColV          = iota // nodes
	ColE                 // NNZ(A+I), Table 1's E (see graphs.Features)
	ColTVa               // T_Va
	ColTFa               // T_Fa
	ColTN                // T_N
	ColTVc               // T_Vc
	ColTGc               // T_Gc
	ColTFc               // T_Fc
	ColDensity           // E/V²
	ColClustering        // average local clustering of A
	ColDegQ1             // first of the seven normalised degree quantiles
	ColF          = ColDegQ1 + graphs.NumDegreeQuantiles
	ColG          = ColF + 1
	ColS1         = ColG + 1 // first composite feature (Full only)

	// NumBaseFeatures and NumFullFeatures are the row widths of the sets.
	NumBaseFeatures = ColS1
	NumFullFeatures = ColS1 + dataflow.NumComposite
)

var featureSetNames = [...]string{Base: "base", Full: "full"}

// String returns "base" or "full".
func (s FeatureSet) String() string {
	if int(s) < len(featureSetNames) {
		return featureSetNames[s]
	}
	return fmt.Sprintf("FeatureSet(%d)", uint8(s))
}

// ParseFeatureSet parses "base" or "full" ("base+features" is accepted for
// full, the seed's name for it), ignoring case.
func ParseFeatureSet(s string) (FeatureSet, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "base":
		return Base, nil
	case "full", "base+features":
		return Full, nil
	}
	return 0, fmt.Errorf("predict: unknown feature set %q (want base or full)", s)
}

// NumFeatures returns the row width of the set.
func (s FeatureSet) NumFeatures() int {
	if s == Full {
		return NumFullFeatures
	}
	return NumBaseFeatures
}

// Names returns the column names of the set, in row order; they are the
// feature_names of the model files.
func (s FeatureSet) Names() []string {
	names := []string{"V", "E", "T_Va", "T_Fa", "T_N", "T_Vc", "T_Gc", "T_Fc", "density", "clustering"}
	for i := range graphs.NumDegreeQuantiles {
		names = append(names, fmt.Sprintf("deg_q%d", i+1))
	}
	names = append(names, "F", "G")
	if s == Full {
		names = append(names, dataflow.CompositeNames[:]...)
	}
	return slices.Clip(names)
}

func (s FeatureSet) valid() bool { return s == Base || s == Full }

// AppendRow appends the feature row of graph g (with features gf, as
// graphs.ComputeFeatures returns them) for a layer of F input and G output
// features under tiles t, and returns the extended slice. g is only read by
// the Full set (S5 sums over the nodes) and may be nil for Base. It does not
// allocate when dst has room for s.NumFeatures() more values.
func (s FeatureSet) AppendRow(dst []float64, g *graphs.Graph, gf *graphs.Features, F, G int, t dataflow.Tiles) []float64 {
	dst = appendBase(dst, gf, F, G, t)
	if s == Full {
		c := dataflow.Composite(g, F, G, t)
		dst = append(dst, c[:]...)
	}
	return dst
}

func appendBase(dst []float64, gf *graphs.Features, F, G int, t dataflow.Tiles) []float64 {
	dst = append(dst,
		float64(gf.Nodes), float64(gf.NNZ),
		float64(t.Va), float64(t.Fa), float64(t.N), float64(t.Vc), float64(t.Gc), float64(t.Fc),
		gf.Density, gf.Clustering)
	dst = append(dst, gf.DegreeQuantiles[:]...)
	return append(dst, float64(F), float64(G))
}

// linearColumns returns the columns the log-linear baseline regresses on:
// the sizes and counts, whose effect on latency is a power law (V, E, F, G
// and, in the Full set, S1..S6; the tile sizes enter through S2..S6). Tile
// sizes and the fractions are left to the trees: on the Graphlaxy training
// sets some of them barely vary for a configuration, so a linear fit gives
// them large coefficients that explode on graphs unlike the training ones
// (a 2-node graph's T_Va, say).
func (s FeatureSet) linearColumns() []int {
	cols := []int{ColV, ColE, ColF, ColG}
	if s == Full {
		for j := ColS1; j < NumFullFeatures; j++ {
			cols = append(cols, j)
		}
	}
	return cols
}

// linearInputNames returns the names of the baseline's inputs, "log(V)"
// and so on, in linearColumns order.
func (s FeatureSet) linearInputNames() []string {
	names := s.Names()
	var out []string
	for _, j := range s.linearColumns() {
		out = append(out, "log("+names[j]+")")
	}
	return out
}

// minLogInput floors a value before its logarithm is taken, so a zero (an
// empty graph's S1..S6) gives a finite baseline input.
const minLogInput = 1e-12

// logInput is a baseline input: log(max(x, minLogInput)).
func logInput(x float64) float64 { return math.Log(max(x, minLogInput)) }
