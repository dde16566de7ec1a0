package graphs

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestComputeFeaturesHandComputed(t *testing.T) {
	// Degrees below are A+I row lengths; quantiles follow numpy "linear" at
	// levels k/7: position h = (V-1)k/7 between sorted order statistics.
	tests := []struct {
		name  string
		n     int
		edges [][2]int32
		want  Features
	}{
		{"empty", 0, nil, Features{}},
		{"single node", 1, nil, Features{
			Nodes: 1, NNZ: 1, Density: 1, DegreeQuantiles: [7]float64{1, 1, 1, 1, 1, 1, 1},
			MeanDegree: 1, MaxDegree: 1,
		}},
		{"triangle", 3, [][2]int32{{0, 1}, {1, 2}, {2, 0}}, Features{
			Nodes: 3, Edges: 3, NNZ: 9, Density: 1, NXDensity: 1, Clustering: 1, Triangles: 1,
			DegreeQuantiles: [7]float64{1, 1, 1, 1, 1, 1, 1}, MeanDegree: 3, MaxDegree: 3,
		}},
		// Degrees 5,2,2,2,2: only the last level (h = 24/7) reaches the hub,
		// 2 + 3/7*(5-2) = 23/7.
		{"star", 5, [][2]int32{{0, 1}, {0, 2}, {0, 3}, {0, 4}}, Features{
			Nodes: 5, Edges: 4, NNZ: 13, Density: 13.0 / 25, NXDensity: 8.0 / 20,
			DegreeQuantiles: [7]float64{0.4, 0.4, 0.4, 0.4, 0.4, 0.4, 23.0 / 35}, MeanDegree: 13.0 / 5, MaxDegree: 5,
		}},
		{"K5", 5, clique(5), Features{
			Nodes: 5, Edges: 10, NNZ: 25, Density: 1, NXDensity: 1, Clustering: 1, Triangles: 10,
			DegreeQuantiles: [7]float64{1, 1, 1, 1, 1, 1, 1}, MeanDegree: 5, MaxDegree: 5,
		}},
		// Degrees sorted 2,2,3,3; h = 3k/7.
		{"path", 4, [][2]int32{{0, 1}, {1, 2}, {2, 3}}, Features{
			Nodes: 4, Edges: 3, NNZ: 10, Density: 10.0 / 16, NXDensity: 6.0 / 12,
			DegreeQuantiles: [7]float64{2.0 / 3, 2.0 / 3, 2.0 / 3, 16.0 / 21, 19.0 / 21, 1, 1},
			MeanDegree:      2.5, MaxDegree: 3,
		}},
		// Triangle 0-1-2, pendant 3, isolated 4 and 5. Degrees sorted
		// 1,1,2,3,3,4; h = 5k/7.
		{"isolated nodes", 6, [][2]int32{{0, 1}, {1, 2}, {0, 2}, {2, 3}}, Features{
			Nodes: 6, Edges: 4, NNZ: 14, Density: 14.0 / 36, NXDensity: 8.0 / 30, Clustering: 7.0 / 18, Triangles: 1,
			DegreeQuantiles: [7]float64{1.0 / 4, 1.0 / 4, 10.0 / 28, 15.0 / 28, 20.0 / 28, 3.0 / 4, 23.0 / 28},
			MeanDegree:      14.0 / 6, MaxDegree: 4,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := mustFromEdges(t, tt.n, tt.edges)
			for _, h := range []*Graph{g, g.WithSelfLoops()} {
				got := ComputeFeatures(h)
				if !featuresClose(got, tt.want, 1e-12) {
					t.Fatalf("loops=%v:\n got %+v\nwant %+v", h.SelfLoops, got, tt.want)
				}
			}
		})
	}
}

// TestComputeFeaturesRandom checks every field against an independent
// computation on random graphs: brute-force triangles, and quantiles by
// sorting with numpy's floating-point formula.
func TestComputeFeaturesRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	for trial := range 40 {
		n := 1 + rng.IntN(50)
		g := randomGraph(rng, n, rng.Float64()*0.5)
		if trial%2 == 1 {
			g = g.WithSelfLoops()
		}
		got := ComputeFeatures(g)
		if got != ComputeFeatures(g.WithSelfLoops()) || got != ComputeFeatures(g.WithoutSelfLoops()) {
			t.Fatalf("trial %d: features depend on how self-loops are stored", trial)
		}
		a := g.WithoutSelfLoops()
		e := a.NNZ() / 2
		deg := make([]float64, n)
		var tri int64
		for _, c := range bruteTriangles(a) {
			tri += c
		}
		for v := range n {
			deg[v] = float64(a.Degree(v) + 1)
		}
		slices.Sort(deg)
		want := Features{
			Nodes: n, Edges: e, NNZ: 2*e + n,
			Density:    float64(2*e+n) / float64(n*n),
			Clustering: bruteClustering(a),
			Triangles:  tri / 3,
			MeanDegree: float64(2*e+n) / float64(n),
			MaxDegree:  int(deg[n-1]),
		}
		if n > 1 {
			want.NXDensity = float64(2*e) / float64(n*(n-1))
		}
		for i := range want.DegreeQuantiles {
			want.DegreeQuantiles[i] = npQuantile(deg, float64(i)/7) / deg[n-1]
		}
		if !featuresClose(got, want, 1e-12) {
			t.Fatalf("trial %d:\n got %+v\nwant %+v", trial, got, want)
		}
		for i := 1; i < NumDegreeQuantiles; i++ {
			if got.DegreeQuantiles[i] < got.DegreeQuantiles[i-1] || got.DegreeQuantiles[i] > 1 {
				t.Fatalf("trial %d: quantiles not monotone in (0,1]: %v", trial, got.DegreeQuantiles)
			}
		}
	}
}

// npQuantile is numpy.quantile(x, p) with the default "linear" method on
// sorted x.
func npQuantile(x []float64, p float64) float64 {
	h := float64(len(x)-1) * p
	lo := int(math.Floor(h))
	if lo+1 >= len(x) {
		return x[len(x)-1]
	}
	return x[lo] + (h-float64(lo))*(x[lo+1]-x[lo])
}

func featuresClose(a, b Features, tol float64) bool {
	close := func(x, y float64) bool { return math.Abs(x-y) <= tol }
	if a.Nodes != b.Nodes || a.Edges != b.Edges || a.NNZ != b.NNZ || a.Triangles != b.Triangles || a.MaxDegree != b.MaxDegree {
		return false
	}
	if !close(a.Density, b.Density) || !close(a.NXDensity, b.NXDensity) || !close(a.Clustering, b.Clustering) ||
		!close(a.MeanDegree, b.MeanDegree) {
		return false
	}
	for i := range a.DegreeQuantiles {
		if !close(a.DegreeQuantiles[i], b.DegreeQuantiles[i]) {
			return false
		}
	}
	return true
}

func TestDegreeQuantileLevels(t *testing.T) {
	if DegreeQuantileLevel(0) != 0 {
		t.Error("the first quantile must be the minimum")
	}
	for i := 1; i < NumDegreeQuantiles; i++ {
		if l := DegreeQuantileLevel(i); !(l > DegreeQuantileLevel(i-1) && l < 1) {
			t.Errorf("level %d = %v", i, l)
		}
	}
}

func TestFeatureVector(t *testing.T) {
	g := mustFromEdges(t, 6, [][2]int32{{0, 1}, {1, 2}, {0, 2}, {2, 3}})
	f := ComputeFeatures(g)
	names := FeatureNames()
	vec := f.AppendVector(nil)
	if len(vec) != len(names) {
		t.Fatalf("%d values for %d names", len(vec), len(names))
	}
	byName := map[string]float64{}
	for i, n := range names {
		if _, dup := byName[n]; dup {
			t.Fatalf("duplicate feature name %q", n)
		}
		byName[n] = vec[i]
	}
	checks := map[string]float64{
		"num_nodes": 6, "num_edges": 4, "nnz": 14, "triangles": 1, "max_degree": 4,
		"clustering": f.Clustering, "deg_q1": 0.25, "deg_q7": f.DegreeQuantiles[6], "mean_degree": f.MeanDegree,
		"density": f.Density, "nx_density": f.NXDensity,
	}
	for n, want := range checks {
		if byName[n] != want {
			t.Errorf("%s = %v, want %v", n, byName[n], want)
		}
	}
	buf := make([]float64, 0, len(names))
	if a := testing.AllocsPerRun(10, func() { buf = f.AppendVector(buf[:0]) }); a != 0 {
		t.Errorf("AppendVector allocates %v times into a large enough buffer", a)
	}
}

func TestSpread(t *testing.T) {
	s := NewSpread(10, -5, 0, 10)
	add := func(c, d float64) { s.Add(&Features{Clustering: c, NXDensity: d}) }
	add(0, 1)                      // complete graph: top density bin, clustering bin 0
	add(1, 1)                      // clustering 1 goes to the last bin
	add(0.55, 1e-5)                // left edge of the density axis
	add(0.55, math.Pow(10, -1.25)) // bin 7 of [-5, 0] by 0.5
	add(0.3, 0)                    // no edges: off the axis
	add(0.3, 1e-6)                 // below the axis
	if s.Outside != 2 {
		t.Errorf("Outside = %d, want 2", s.Outside)
	}
	want := map[[2]int]int{{0, 9}: 1, {9, 9}: 1, {5, 0}: 1, {5, 7}: 1}
	total := 0
	for i := range s.Counts {
		for j, c := range s.Counts[i] {
			total += c
			if c != want[[2]int{i, j}] {
				t.Errorf("Counts[%d][%d] = %d, want %d", i, j, c, want[[2]int{i, j}])
			}
		}
	}
	if total != 4 {
		t.Errorf("%d graphs binned, want 4", total)
	}
}

func BenchmarkComputeFeatures(b *testing.B) {
	g := randomGraph(rand.New(rand.NewPCG(1, 2)), 2000, 0.01)
	b.ReportAllocs()
	for b.Loop() {
		ComputeFeatures(g)
	}
}
