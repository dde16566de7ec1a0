package graphs

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// Estimated structural features. Exact triangle counting is superlinear
// (O(E sqrt E)) and needs about as much memory again as the CSR; above a
// size WriteSetWith may estimate the two features built on it, the average
// clustering and the triangle count, by wedge sampling (Schank and Wagner
// 2005; Seshadhri, Pinar and Kolda 2013), in time independent of E, with
// an error bound that holds with probability at least 1 - EstimateDelta:
//
//   - clustering: pick a node uniformly and, if its degree d >= 2, a
//     uniform pair of its neighbours (a wedge); the wedge is closed with
//     probability c_v, so the closed fraction over k samples estimates
//     networkx's average clustering (nodes of degree < 2 count as 0), within
//     sqrt(ln(4/delta)/(2k)) by Hoeffding's inequality;
//   - triangles: pick a wedge uniformly among all W = sum d(d-1)/2 (a node
//     with probability proportional to its wedges, then a pair); the closed
//     fraction estimates the transitivity T, and triangles = T*W/3, within
//     W/3 * sqrt(ln(4/delta)/(2k)).
//
// The two bounds each hold with probability 1 - delta/2, so both at once
// with 1 - delta. The samples come from a PCG seeded by constants, so an
// estimate is as reproducible as an exact count.

// FeatureMode says how WriteSetWith computes clustering and triangles.
type FeatureMode int

const (
	// FeaturesAuto counts exactly up to EstimateAbove stored entries and
	// estimates above (the default).
	FeaturesAuto FeatureMode = iota
	// FeaturesExact always counts exactly.
	FeaturesExact
)

// EstimateAbove is the CSR size (stored entries) above which FeaturesAuto
// estimates: 2^28, above every graph set gnnsim wrote before (the largest,
// the 10^8 R-MAT graph of docs/scale.md, has 1.94e8), so their bytes stay
// the same, and about where exact counting passes a minute and the memory
// of a second CSR on 2 cores.
const EstimateAbove = 1 << 28

// estimateAbove is EstimateAbove, lowered by tests.
var estimateAbove = EstimateAbove

// EstimateSamples is the number of wedges each estimate draws.
const EstimateSamples = 1 << 22

// EstimateDelta is the probability that an estimate misses its bound.
const EstimateDelta = 1e-6

// EstimateBound is the Hoeffding half-width of a closed-wedge fraction
// estimated from EstimateSamples samples, at confidence EstimateDelta/2.
func EstimateBound() float64 {
	return math.Sqrt(math.Log(4/EstimateDelta) / (2 * EstimateSamples))
}

// estimateStructure estimates the average clustering and the triangle
// count of the simple graph A of g, and returns the error bound of the
// triangle count (the clustering's is EstimateBound()).
func estimateStructure(g *Graph) (clustering float64, triangles int64, triBound float64) {
	n := g.NumNodes()
	if n == 0 {
		return 0, 0, 0
	}
	loop := 0
	if g.SelfLoops {
		loop = 1
	}
	deg := func(v int) int { return g.Degree(v) - loop }
	// neighbour returns the k-th neighbour of v other than v itself.
	neighbour := func(v, k int) int32 {
		row := g.Neighbors(v)
		if loop == 1 {
			if i, _ := slices.BinarySearch(row, int32(v)); k >= i {
				k++
			}
		}
		return row[k]
	}
	adjacent := func(a, b int32) bool {
		_, ok := slices.BinarySearch(g.Neighbors(int(a)), b)
		return ok
	}
	// closedWedge draws a uniform pair of v's neighbours (d >= 2) and
	// reports whether they are adjacent.
	closedWedge := func(rng *rand.Rand, v int) bool {
		d := deg(v)
		i := rng.IntN(d)
		j := rng.IntN(d - 1)
		if j >= i {
			j++
		}
		return adjacent(neighbour(v, i), neighbour(v, j))
	}
	rng := rand.New(rand.NewPCG(0x39c1, 0x7e57))
	closed := 0
	for range EstimateSamples {
		v := rng.IntN(n)
		if deg(v) >= 2 && closedWedge(rng, v) {
			closed++
		}
	}
	clustering = float64(closed) / EstimateSamples
	// Wedges per node, cumulated, for sampling a node by its wedges.
	cum := make([]int64, n+1)
	for v := range n {
		d := int64(max(deg(v), 0))
		cum[v+1] = cum[v] + d*(d-1)/2
	}
	w := cum[n]
	if w == 0 {
		return clustering, 0, 0
	}
	closed = 0
	for range EstimateSamples {
		x := rng.Int64N(w)
		v, _ := slices.BinarySearch(cum, x+1) // first v+1 with cum[v+1] > x
		if closedWedge(rng, v-1) {
			closed++
		}
	}
	t := float64(closed) / EstimateSamples
	triangles = int64(math.Round(t * float64(w) / 3))
	return clustering, triangles, float64(w) / 3 * EstimateBound()
}

// estimateNote is the metadata value recording graph i's estimate.
func estimateNote(triBound float64) string {
	return fmt.Sprintf("clustering and triangles estimated by wedge sampling (%d wedges each, above %d stored entries); "+
		"|error| <= %.3g (clustering) and <= %.4g (triangles), both with probability >= %g; exact with --features exact",
		EstimateSamples, EstimateAbove, EstimateBound(), triBound, 1-EstimateDelta)
}
