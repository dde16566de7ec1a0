package graphs

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gnnsim/internal/par"
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
// estimates: 2^27. Exact counting is the one superlinear stage of
// generation; on 2 cores it takes about 1 s at 10^7 R-MAT draws (1.9e7
// entries, exact) and 29 s at 10^8 (1.94e8 entries), more than half of the
// 40 s the 10^8 bar allows the whole generation, where the estimate takes
// 2.6 s (docs/scale.md). The threshold lies between the two, so every set
// the tests, the demo and the 10^7 bar write stays exact. The 10^8 set's
// clustering and triangle columns are estimates since this threshold came
// down from 2^28; --features exact writes the earlier bytes.
const EstimateAbove = 1 << 27

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
// triangle count (the clustering's is EstimateBound()). meter hears the
// wedges drawn and checked.
//
// The samples are drawn on one goroutine, in the PCG's order, and checked
// (two neighbour look-ups and one adjacency test each, the cache misses)
// on every core: the closed count is a sum, so the estimate is the same
// whatever the core count, and the same as drawing and checking each
// wedge in turn.
func estimateStructure(g *Graph, meter Meter) (clustering float64, triangles int64, triBound float64) {
	n := g.NumNodes()
	if n == 0 {
		return 0, 0, 0
	}
	s := wedgeSampler{g: g}
	if g.SelfLoops {
		s.loop = 1
	}
	meter.Stage("estimate", "wedges drawn and checked", 4*EstimateSamples)
	rng := rand.New(rand.NewPCG(0x39c1, 0x7e57))
	ws := make([]wedge, EstimateSamples)
	bm := blockMeter{m: meter}
	for k := range ws {
		ws[k] = s.draw(rng, rng.IntN(n)) // nodes of degree < 2 count as open
		bm.add(1)
	}
	bm.flush()
	clustering = float64(s.closed(ws, meter)) / EstimateSamples
	// Wedges per node, cumulated, for sampling a node by its wedges.
	cum := make([]int64, n+1)
	for v := range n {
		d := int64(max(s.degree(v), 0))
		cum[v+1] = cum[v] + d*(d-1)/2
	}
	w := cum[n]
	if w == 0 {
		meter.Add(2 * EstimateSamples)
		return clustering, 0, 0
	}
	idx := newWedgeIndex(cum)
	for k := range ws {
		ws[k] = s.draw(rng, idx.node(rng.Int64N(w)))
		bm.add(1)
	}
	bm.flush()
	t := float64(s.closed(ws, meter)) / EstimateSamples
	triangles = int64(math.Round(t * float64(w) / 3))
	return clustering, triangles, float64(w) / 3 * EstimateBound()
}

// A wedge is a drawn node v and the positions i != j of two of its
// neighbours (among those other than v); v < 0 marks a node of degree
// below 2, which closes no wedge.
type wedge struct{ v, i, j int32 }

// wedgeSampler draws and checks wedges of the simple graph A of g.
type wedgeSampler struct {
	g    *Graph
	loop int // 1 when g stores its diagonal, which A leaves out
}

func (s wedgeSampler) degree(v int) int { return s.g.Degree(v) - s.loop }

// draw draws a uniform pair of v's neighbours: two draws from rng when v
// has degree >= 2, none otherwise.
func (s wedgeSampler) draw(rng *rand.Rand, v int) wedge {
	d := s.degree(v)
	if d < 2 {
		return wedge{v: -1}
	}
	i := rng.IntN(d)
	j := rng.IntN(d - 1)
	if j >= i {
		j++
	}
	return wedge{int32(v), int32(i), int32(j)}
}

// neighbour returns the k-th neighbour of v other than v itself.
func (s wedgeSampler) neighbour(v, k int) int32 {
	row := s.g.Neighbors(v)
	if s.loop == 1 {
		if i, _ := slices.BinarySearch(row, int32(v)); k >= i {
			k++
		}
	}
	return row[k]
}

// closed counts the wedges of ws whose two ends are adjacent, on every
// core. A is symmetric (WriteSetWith validates what it did not generate),
// so the shorter of the two rows is searched.
func (s wedgeSampler) closed(ws []wedge, meter Meter) int64 {
	const chunk = 1 << 16
	nc := (len(ws) + chunk - 1) / chunk
	counts := make([]int64, nc)
	par.For(nc, 0, func(c int) error {
		part := ws[c*chunk : min(c*chunk+chunk, len(ws))]
		for _, x := range part {
			if x.v < 0 {
				continue
			}
			a, b := s.neighbour(int(x.v), int(x.i)), s.neighbour(int(x.v), int(x.j))
			if s.g.Degree(int(a)) > s.g.Degree(int(b)) {
				a, b = b, a
			}
			if _, ok := slices.BinarySearch(s.g.Neighbors(int(a)), b); ok {
				counts[c]++
			}
		}
		meter.Add(int64(len(part)))
		return nil
	})
	var sum int64
	for _, c := range counts {
		sum += c
	}
	return sum
}

// wedgeIndex finds the node of a wedge number in the cumulated wedge
// counts cum: the v with cum[v] <= x < cum[v+1]. A plain binary search of
// cum misses the cache on most of its last steps (cum has V+1 entries); a
// first search of every wedgeBlock-th entry, small enough to stay cached,
// leaves one block of a few cache lines to search.
type wedgeIndex struct {
	cum, coarse []int64
}

const wedgeBlock = 64

func newWedgeIndex(cum []int64) wedgeIndex {
	n := len(cum) - 1
	coarse := make([]int64, 0, n/wedgeBlock+1)
	for v := 0; v < n; v += wedgeBlock {
		coarse = append(coarse, cum[v])
	}
	return wedgeIndex{cum, coarse}
}

// node returns the v with cum[v] <= x < cum[v+1], for 0 <= x < cum[V].
func (ix wedgeIndex) node(x int64) int {
	k, _ := slices.BinarySearch(ix.coarse, x+1) // first block starting above x
	lo := (k - 1) * wedgeBlock                  // v lies in [lo, lo+wedgeBlock)
	hi := min(lo+wedgeBlock, len(ix.cum)-1)
	p, _ := slices.BinarySearch(ix.cum[lo+1:hi+1], x+1) // first cum[lo+1+p] > x
	return lo + p
}

// estimateNote is the metadata value recording graph i's estimate.
func estimateNote(triBound float64) string {
	return fmt.Sprintf("clustering and triangles estimated by wedge sampling (%d wedges each, above %d stored entries); "+
		"|error| <= %.3g (clustering) and <= %.4g (triangles), both with probability >= %g; exact with --features exact",
		EstimateSamples, EstimateAbove, EstimateBound(), triBound, 1-EstimateDelta)
}
