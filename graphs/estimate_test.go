package graphs

import (
	"math"
	"path/filepath"
	"strings"
	"testing"
)

// TestEstimateWithinBound checks the wedge-sampling estimates against the
// exact clustering and triangle count on graphs of different shapes: each
// must lie within its stated bound (a miss has probability 1e-6), and the
// estimate must be the same on every run.
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
			c, tri, bound := estimateStructure(h)
			if d := math.Abs(c - exact.Clustering); d > EstimateBound() {
				t.Errorf("%s: clustering %.5f, exact %.5f: off by %.5f > %.5f", spec.Generator, c, exact.Clustering, d, EstimateBound())
			}
			if d := math.Abs(float64(tri - exact.Triangles)); d > bound+0.5 {
				t.Errorf("%s: %d triangles, exact %d: off by %.0f > %.1f", spec.Generator, tri, exact.Triangles, d, bound)
			}
			if i+j == 0 {
				if c2, tri2, _ := estimateStructure(h); c2 != c || tri2 != tri {
					t.Errorf("%s: a second estimate differs", spec.Generator)
				}
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
