package graphs

import (
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestEstimateWithinBound checks the wedge-sampling estimates against the
// exact clustering and triangle count on graphs of different shapes: each
// must lie within its stated bound (a miss has probability 1e-6), the
// estimate must be the same on every run, and the same as the serial
// estimator's (serialEstimate), hubs, stored diagonals and nodes of degree
// below 2 included.
func TestEstimateWithinBound(t *testing.T) {
	if testing.Short() {
		t.Skip("draws 2^23 wedges per graph")
	}
	for i, spec := range []GenSpec{
		{Generator: "rmat", Seed: 7, MinNodes: 1 << 14, MaxNodes: 1 << 14, MinEdges: 200_000, MaxEdges: 200_000},
		{Generator: "ws", Seed: 2, MinNodes: 5000, MaxNodes: 5000},
	} {
		g, err := Generate(spec, 0)
		if err != nil {
			t.Fatal(err)
		}
		variants := []*Graph{g}
		if i == 0 {
			variants = append(variants, g.WithSelfLoops())
		}
		for j, h := range variants {
			exact := ComputeFeatures(h)
			c, tri, bound := estimateStructure(h, noMeter{})
			if d := math.Abs(c - exact.Clustering); d > EstimateBound() {
				t.Errorf("%s: clustering %.5f, exact %.5f: off by %.5f > %.5f", spec.Generator, c, exact.Clustering, d, EstimateBound())
			}
			if d := math.Abs(float64(tri - exact.Triangles)); d > bound+0.5 {
				t.Errorf("%s: %d triangles, exact %d: off by %.0f > %.1f", spec.Generator, tri, exact.Triangles, d, bound)
			}
			if i+j == 0 {
				if c2, tri2, _ := estimateStructure(h, noMeter{}); c2 != c || tri2 != tri {
					t.Errorf("%s: a second estimate differs", spec.Generator)
				}
			}
			// The wedges are checked on every core: the outcome must be
			// what drawing and checking each in turn gives.
			if wc, wt, wb := serialEstimate(h); c != wc || tri != wt || bound != wb {
				t.Errorf("%s (self-loops %v): (%v, %d, %v), serial (%v, %d, %v)", spec.Generator, h.SelfLoops, c, tri, bound, wc, wt, wb)
			}
		}
	}
}

// TestWriteSetEstimates lowers the size from which WriteSetWith estimates
// and checks the set's metadata names the estimated graph and its bounds,
// that FeaturesExact stores the exact count, and that the caller's
// metadata map is left as it was.
func TestWriteSetEstimates(t *testing.T) {
	small, err := Generate(GenSpec{Generator: "er", Seed: 1, MinNodes: 50, MaxNodes: 50}, 0)
	if err != nil {
		t.Fatal(err)
	}
	large, err := Generate(GenSpec{Generator: "ws", Seed: 1, MinNodes: 4000, MaxNodes: 4000}, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer func(v int) { estimateAbove = v }(estimateAbove)
	estimateAbove = large.NNZ() - 1
	dir := t.TempDir()
	meta := map[string]string{"command": "test"}
	for _, mode := range []FeatureMode{FeaturesAuto, FeaturesExact} {
		path := filepath.Join(dir, "set.parquet")
		if err := WriteSetWith(path, []*Graph{small, large}, meta, WriteOptions{Features: mode}); err != nil {
			t.Fatal(err)
		}
		es, got, err := ReadSetFeatures(path)
		if err != nil {
			t.Fatal(err)
		}
		note, ok := got["gnnsim.features.estimated.1"]
		if _, other := got["gnnsim.features.estimated.0"]; other {
			t.Errorf("%v: the small graph is marked estimated", mode)
		}
		exact := ComputeFeatures(large)
		switch mode {
		case FeaturesAuto:
			if !ok || !strings.Contains(note, "wedge sampling") || !strings.Contains(note, "exact with --features exact") {
				t.Errorf("estimate note %q", note)
			}
			if math.Abs(es[1].Clustering-exact.Clustering) > EstimateBound() {
				t.Errorf("stored clustering %v, exact %v", es[1].Clustering, exact.Clustering)
			}
		case FeaturesExact:
			if ok {
				t.Errorf("exact mode wrote note %q", note)
			}
			if es[1].Clustering != exact.Clustering || es[1].Triangles != exact.Triangles {
				t.Errorf("exact mode stored %v, %d; exact %v, %d", es[1].Clustering, es[1].Triangles, exact.Clustering, exact.Triangles)
			}
		}
	}
	if len(meta) != 1 {
		t.Errorf("caller's metadata changed: %v", meta)
	}
}

// serialEstimate is the estimator as first written: each wedge drawn and
// checked in turn, nodes found by a binary search of the whole cumulated
// wedge counts, adjacency looked up in the first end's row.
func serialEstimate(g *Graph) (clustering float64, triangles int64, triBound float64) {
	n := g.NumNodes()
	if n == 0 {
		return 0, 0, 0
	}
	loop := 0
	if g.SelfLoops {
		loop = 1
	}
	deg := func(v int) int { return g.Degree(v) - loop }
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
		v, _ := slices.BinarySearch(cum, x+1)
		if closedWedge(rng, v-1) {
			closed++
		}
	}
	t := float64(closed) / EstimateSamples
	triangles = int64(math.Round(t * float64(w) / 3))
	return clustering, triangles, float64(w) / 3 * EstimateBound()
}

// TestWedgeIndex checks the two-level search against a plain binary
// search of the cumulated counts, zero-wedge nodes and a short last block
// included.
func TestWedgeIndex(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 2, wedgeBlock - 1, wedgeBlock, wedgeBlock + 1, 5*wedgeBlock + 17} {
		cum := make([]int64, n+1)
		for v := range n {
			cum[v+1] = cum[v]
			if rng.IntN(3) > 0 {
				cum[v+1] += rng.Int64N(50)
			}
		}
		if cum[n] == 0 {
			cum[n] = 1
		}
		ix := newWedgeIndex(cum)
		for x := range cum[n] {
			want, _ := slices.BinarySearch(cum, x+1)
			if got := ix.node(x); got != want-1 {
				t.Fatalf("n=%d, x=%d: node %d, want %d", n, x, got, want-1)
			}
		}
	}
}
