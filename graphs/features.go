package graphs

import (
	"fmt"
	"math"
	"sort"
)

// NumDegreeQuantiles is the number of normalised degree quantiles in
// Features (seed 002, Table 1: "seven node degree quantiles normalized with
// respect to maximum degree including minimum degree").
const NumDegreeQuantiles = 7

// DegreeQuantileLevel returns the probability level of quantile i (0-based):
// i/7, so the seven levels are 0 (the minimum), 1/7, ..., 6/7. The paper
// does not list its levels; these are evenly spaced like
// numpy.linspace(0, 1, 8)[:7]. Level 1 (the maximum) is left out on purpose:
// normalised by the maximum degree it would be the constant 1.
func DegreeQuantileLevel(i int) float64 { return float64(i) / NumDegreeQuantiles }

// Features are the graph-only inputs of seed 002's latency predictor
// (Table 1), plus the quantities they are built from.
//
// Conventions. The accelerator runs GCN, whose aggregation multiplies by
// A+I, so every quantity that describes the sparse matrix the hardware
// streams is taken on A+I: NNZ, Density, the degrees (row lengths, the N_v
// of Table 1, always >= 1) and their quantiles, MeanDegree and MaxDegree.
// This matches the "E = nnz(A+I)" of the STONNE-Omega reference tables.
// Structural quantities are taken on the simple undirected graph A, as
// networkx and Graphlaxy compute them: Edges, NXDensity, Triangles and
// Clustering. Every field is therefore the same whether g stores its
// self-loops or not.
type Features struct {
	Nodes int // V
	Edges int // undirected edges of A, self-loops excluded (Graphlaxy's edge count)
	NNZ   int // stored entries of A+I: 2*Edges + Nodes (Table 1's E, the omega reference's E)

	// Density is Table 1's E/V^2 with E = NNZ: the fill fraction of the
	// V x V matrix A+I, in (0, 1]; 0 when V = 0.
	Density float64
	// NXDensity is networkx's density of A, 2*Edges/(V(V-1)) (0 when V < 2):
	// the density axis of Graphlaxy's (clustering, log10 density) plane.
	NXDensity float64

	Clustering float64 // average local clustering of A (see Clustering)
	Triangles  int64   // triangles of A

	// DegreeQuantiles[i] is the quantile at level DegreeQuantileLevel(i) of
	// the A+I degrees, divided by MaxDegree; index 0 is the minimum.
	// Quantiles interpolate linearly between order statistics, as numpy's
	// default (method "linear"): np.quantile(deg, i/7) / deg.max().
	DegreeQuantiles [NumDegreeQuantiles]float64

	MeanDegree float64 // NNZ / V: mean A+I row length (0 when V = 0)
	MaxDegree  int     // largest A+I row length (0 when V = 0)
}

// ComputeFeatures computes the Features of a valid graph g in
// O(V + E*sqrt(E)) time (triangle counting dominates).
func ComputeFeatures(g *Graph) Features {
	f, _ := computeFeatures(g, noMeter{}, false)
	return f
}

// computeFeatures is ComputeFeatures telling meter about the triangle
// counting stages; with estimate it estimates clustering and triangles
// instead (see estimate.go) and returns the triangle count's error bound.
func computeFeatures(g *Graph, meter Meter, estimate bool) (Features, float64) {
	n := g.NumNodes()
	e := g.NumEdges()
	f := Features{Nodes: n, Edges: e, NNZ: 2*e + n}
	if n == 0 {
		return f, 0
	}
	nf := float64(n)
	f.Density = float64(f.NNZ) / (nf * nf)
	if n >= 2 {
		f.NXDensity = 2 * float64(e) / (nf * (nf - 1))
	}
	var triBound float64
	if estimate {
		f.Clustering, f.Triangles, triBound = estimateStructure(g, meter)
	} else {
		tri := triangles(g, meter)
		for _, t := range tri {
			f.Triangles += t
		}
		f.Triangles /= 3
		f.Clustering = clusteringFrom(g, tri)
	}
	f.MeanDegree = float64(f.NNZ) / nf
	f.MaxDegree, f.DegreeQuantiles = degreeQuantiles(g)
	return f, triBound
}

// degreeQuantiles returns the largest A+I row length and the normalised
// quantiles. It sorts the degrees implicitly with a counting histogram, so
// it costs O(V + maxdeg) time and maxdeg+1 ints of memory.
func degreeQuantiles(g *Graph) (maxDeg int, q [NumDegreeQuantiles]float64) {
	n := g.NumNodes()
	loop := 1 // A+I adds one entry per row unless g already stores it
	if g.SelfLoops {
		loop = 0
	}
	for v := range n {
		maxDeg = max(maxDeg, g.Degree(v)+loop)
	}
	// cum[d] = number of nodes with A+I degree <= d.
	cum := make([]int, maxDeg+1)
	for v := range n {
		cum[g.Degree(v)+loop]++
	}
	for d := 1; d <= maxDeg; d++ {
		cum[d] += cum[d-1]
	}
	// orderStat returns the k-th smallest degree (0-based).
	orderStat := func(k int) int {
		return sort.Search(len(cum), func(d int) bool { return cum[d] > k })
	}
	for i := range q {
		// numpy "linear": h = (n-1)p, interpolate x[floor h] .. x[floor h + 1].
		// With p = i/7 the position is exact in integers.
		num := (n - 1) * i
		lo, rem := num/NumDegreeQuantiles, num%NumDegreeQuantiles
		x := float64(orderStat(lo))
		if rem != 0 {
			x += float64(rem) / NumDegreeQuantiles * (float64(orderStat(lo+1)) - x)
		}
		q[i] = x / float64(maxDeg)
	}
	return maxDeg, q
}

// FeatureNames returns the names of the values AppendVector produces, in
// order. They are also the column names of the graph-set file.
func FeatureNames() []string {
	names := []string{"num_nodes", "num_edges", "nnz", "density", "nx_density", "clustering", "triangles"}
	for i := range NumDegreeQuantiles {
		names = append(names, fmt.Sprintf("deg_q%d", i+1))
	}
	return append(names, "mean_degree", "max_degree")
}

// AppendVector appends the features to dst as float64 values in
// FeatureNames order and returns the extended slice. It does not allocate
// when dst has room.
func (f *Features) AppendVector(dst []float64) []float64 {
	dst = append(dst, float64(f.Nodes), float64(f.Edges), float64(f.NNZ), f.Density, f.NXDensity,
		f.Clustering, float64(f.Triangles))
	dst = append(dst, f.DegreeQuantiles[:]...)
	return append(dst, f.MeanDegree, float64(f.MaxDegree))
}

// Spread is an occupancy histogram of a graph set over Graphlaxy's feature
// plane: average clustering (rows) against log10 of the networkx density
// (columns). Bins are half-open [lo, hi) except the last of each axis,
// which also takes its upper edge (clustering 1, density 1).
type Spread struct {
	ClusteringBins int     // bins over clustering [0, 1]
	LogDensityMin  float64 // left edge of the density axis (log10)
	LogDensityMax  float64 // right edge of the density axis (log10)
	LogDensityBins int     // bins over [LogDensityMin, LogDensityMax]

	Counts  [][]int // Counts[clustering bin][density bin]
	Outside int     // graphs off the density axis (including density 0)
}

// NewSpread returns an empty Spread. It panics on non-positive bin counts
// or an empty range, which are programming errors.
func NewSpread(clusteringBins int, logDensityMin, logDensityMax float64, logDensityBins int) *Spread {
	if clusteringBins <= 0 || logDensityBins <= 0 || !(logDensityMin < logDensityMax) {
		panic("graphs: NewSpread: invalid bins")
	}
	s := &Spread{
		ClusteringBins: clusteringBins,
		LogDensityMin:  logDensityMin,
		LogDensityMax:  logDensityMax,
		LogDensityBins: logDensityBins,
		Counts:         make([][]int, clusteringBins),
	}
	for i := range s.Counts {
		s.Counts[i] = make([]int, logDensityBins)
	}
	return s
}

// Add counts one graph.
func (s *Spread) Add(f *Features) {
	i, j, ok := s.cell(f.Clustering, math.Log10(f.NXDensity))
	if !ok {
		s.Outside++
		return
	}
	s.Counts[i][j]++
}

// cell returns the clustering and density bins of a point, and false when
// it lies off the density axis.
func (s *Spread) cell(clustering, logDensity float64) (i, j int, ok bool) {
	if math.IsNaN(logDensity) || logDensity < s.LogDensityMin || logDensity > s.LogDensityMax {
		return 0, 0, false
	}
	return bin(clustering, 0, 1, s.ClusteringBins), bin(logDensity, s.LogDensityMin, s.LogDensityMax, s.LogDensityBins), true
}

// bin maps x in [lo, hi] to one of n equal bins, hi going to the last.
func bin(x, lo, hi float64, n int) int {
	k := int(math.Floor((x - lo) / (hi - lo) * float64(n)))
	return min(max(k, 0), n-1)
}
