package graphs

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// bruteTriangles counts, for each node, the triangles through it by testing
// every pair of other nodes against a dense adjacency matrix: O(V^3), the
// oracle for Triangles.
func bruteTriangles(g *Graph) []int64 {
	n := g.NumNodes()
	adj := make([][]bool, n)
	for v := range n {
		adj[v] = make([]bool, n)
		for _, c := range g.Neighbors(v) {
			if int(c) != v {
				adj[v][c] = true
			}
		}
	}
	tri := make([]int64, n)
	for v := range n {
		for a := range n {
			for b := a + 1; b < n; b++ {
				if adj[v][a] && adj[v][b] && adj[a][b] {
					tri[v]++
				}
			}
		}
	}
	return tri
}

// bruteClustering is networkx's average_clustering written from its
// definition on top of bruteTriangles.
func bruteClustering(g *Graph) float64 {
	n := g.NumNodes()
	if n == 0 {
		return 0
	}
	tri := bruteTriangles(g)
	sum := 0.0
	for v := range n {
		d := 0
		for _, c := range g.Neighbors(v) {
			if int(c) != v {
				d++
			}
		}
		if d >= 2 {
			sum += float64(tri[v]) / float64(d*(d-1)/2)
		}
	}
	return sum / float64(n)
}

func TestTrianglesHandComputed(t *testing.T) {
	tests := []struct {
		name       string
		n          int
		edges      [][2]int32
		tri        []int64
		clustering float64
	}{
		{"empty", 0, nil, []int64{}, 0},
		{"single node", 1, nil, []int64{0}, 0},
		{"edge", 2, [][2]int32{{0, 1}}, []int64{0, 0}, 0},
		{"triangle", 3, [][2]int32{{0, 1}, {1, 2}, {2, 0}}, []int64{1, 1, 1}, 1},
		{"star", 5, [][2]int32{{0, 1}, {0, 2}, {0, 3}, {0, 4}}, []int64{0, 0, 0, 0, 0}, 0},
		{"path", 4, [][2]int32{{0, 1}, {1, 2}, {2, 3}}, []int64{0, 0, 0, 0}, 0},
		{"K5", 5, clique(5), []int64{6, 6, 6, 6, 6}, 1},
		// Triangle 0-1-2, pendant 2-3, isolated 4 and 5:
		// c = (1 + 1 + 1/3 + 0 + 0 + 0) / 6.
		{"isolated nodes", 6, [][2]int32{{0, 1}, {1, 2}, {0, 2}, {2, 3}}, []int64{1, 1, 1, 0, 0, 0}, 7.0 / 18},
		// Two triangles sharing edge 1-2 (a diamond): nodes 1 and 2 have
		// degree 3 and 2 triangles, c = 2/3; nodes 0 and 3 have c = 1.
		{"diamond", 4, [][2]int32{{0, 1}, {0, 2}, {1, 2}, {1, 3}, {2, 3}}, []int64{1, 2, 2, 1}, (1 + 2.0/3 + 2.0/3 + 1) / 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := mustFromEdges(t, tt.n, tt.edges)
			for _, h := range []*Graph{g, g.WithSelfLoops()} {
				tri := Triangles(h)
				if len(tri) != len(tt.tri) {
					t.Fatalf("loops=%v: %d counts, want %d", h.SelfLoops, len(tri), len(tt.tri))
				}
				for v := range tri {
					if tri[v] != tt.tri[v] {
						t.Fatalf("loops=%v: Triangles = %v, want %v", h.SelfLoops, tri, tt.tri)
					}
				}
				if c := Clustering(h); math.Abs(c-tt.clustering) > 1e-15 {
					t.Fatalf("loops=%v: Clustering = %v, want %v", h.SelfLoops, c, tt.clustering)
				}
			}
		})
	}
}

// TestClusteringKarate checks Zachary's karate club against networkx 3.6:
// nx.average_clustering(nx.karate_club_graph()) and its 45 triangles.
func TestClusteringKarate(t *testing.T) {
	g := mustFromEdges(t, 34, karateEdges)
	if c, want := Clustering(g), 0.5706384782076823; math.Abs(c-want) > 1e-12 {
		t.Errorf("Clustering = %v, networkx gives %v", c, want)
	}
	f := ComputeFeatures(g)
	if f.Triangles != 45 {
		t.Errorf("Triangles = %d, want 45", f.Triangles)
	}
	if want := 0.13903743315508021; math.Abs(f.NXDensity-want) > 1e-15 {
		t.Errorf("NXDensity = %v, networkx gives %v", f.NXDensity, want)
	}
}

func TestTrianglesAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for trial := range 60 {
		n := rng.IntN(45)
		if trial%2 == 1 {
			n = 64 + rng.IntN(150) // large enough for the core bit matrix
		}
		p := []float64{0.02, 0.1, 0.3, 0.7, 1}[trial%5]
		g := randomGraph(rng, n, p)
		if trial%3 == 0 {
			g = g.WithSelfLoops()
		}
		got, want := Triangles(g), bruteTriangles(g)
		for v := range want {
			if got[v] != want[v] {
				t.Fatalf("trial %d (V=%d, p=%v, loops=%v): node %d has %d triangles, brute force %d",
					trial, n, p, g.SelfLoops, v, got[v], want[v])
			}
		}
		if c, w := Clustering(g), bruteClustering(g); math.Abs(c-w) > 1e-12 {
			t.Fatalf("trial %d: Clustering %v, brute force %v", trial, c, w)
		}
	}
}

// TestTrianglesHubs covers the orientation on skewed degrees: hubs joined
// to everything plus a sparse random background, where a naive
// orientation by id alone would still be correct but slow, and an
// off-by-one in the (degree, id) order would double- or under-count.
func TestTrianglesHubs(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	n := 60
	var u, v []int32
	for h := range 3 {
		for w := range n {
			u, v = append(u, int32(h*17)), append(v, int32(w))
		}
	}
	for range 150 {
		u, v = append(u, rng.Int32N(int32(n))), append(v, rng.Int32N(int32(n)))
	}
	g, err := FromEdges(n, u, v)
	if err != nil {
		t.Fatal(err)
	}
	got, want := Triangles(g), bruteTriangles(g)
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("node %d: %d triangles, brute force %d", i, got[i], want[i])
		}
	}
}

// TestTrianglesAllocations checks that Triangles allocates a fixed set of
// arrays, not per node or per edge: the count must not grow with the graph.
// (AllocsPerRun runs on one core, so this is the serial path.)
func TestTrianglesAllocations(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	small, large := randomGraph(rng, 200, 0.1), randomGraph(rng, 2000, 0.05)
	as := testing.AllocsPerRun(5, func() { Triangles(small) })
	al := testing.AllocsPerRun(5, func() { Triangles(large) })
	// The result; the orientation's ranks, degree counts, pointers, lists,
	// row-range closures, core matrix and header; the chunk bounds and their
	// work (the meter's units); the counts and bitset with their header.
	if as != al || al > 13 {
		t.Errorf("Triangles allocates %v times on 200 nodes, %v on 2000; want the same, at most 13", as, al)
	}
}

// TestTrianglesPaths checks the three ways countRanks intersects two lists
// (core bit matrix, binary search, marker scan) against each other on a
// skewed R-MAT graph, where all three occur, and the parallel count
// against the serial one. (TestTrianglesAgainstBruteForce checks the
// counts themselves on graphs small enough for the O(V^3) oracle.)
func TestTrianglesPaths(t *testing.T) {
	g, err := RMAT(1<<12, 40000, 0.57, 0.19, 0.19, rand.New(rand.NewPCG(7, 7)))
	if err != nil {
		t.Fatal(err)
	}
	o := orient(g, noMeter{})
	if o.core == int32(len(o.rank)) {
		t.Fatal("no core on a skewed graph")
	}
	want := o.count(1, noMeter{})
	for _, workers := range []int{2, 3, 8} {
		if got := o.count(workers, noMeter{}); !slices.Equal(got, want) {
			t.Fatalf("%d workers differ from one", workers)
		}
	}
	o.core = int32(len(o.rank)) // no core: search and scan only
	if got := o.count(1, noMeter{}); !slices.Equal(got, want) {
		t.Fatal("counts without the core matrix differ")
	}
}

func clique(n int) [][2]int32 {
	var e [][2]int32
	for i := range n {
		for j := i + 1; j < n; j++ {
			e = append(e, [2]int32{int32(i), int32(j)})
		}
	}
	return e
}

// karateEdges is sorted(nx.karate_club_graph().edges()).
var karateEdges = [][2]int32{
	{0, 1}, {0, 2}, {0, 3}, {0, 4}, {0, 5}, {0, 6}, {0, 7}, {0, 8}, {0, 10}, {0, 11}, {0, 12}, {0, 13},
	{0, 17}, {0, 19}, {0, 21}, {0, 31}, {1, 2}, {1, 3}, {1, 7}, {1, 13}, {1, 17}, {1, 19}, {1, 21}, {1, 30},
	{2, 3}, {2, 7}, {2, 8}, {2, 9}, {2, 13}, {2, 27}, {2, 28}, {2, 32}, {3, 7}, {3, 12}, {3, 13}, {4, 6},
	{4, 10}, {5, 6}, {5, 10}, {5, 16}, {6, 16}, {8, 30}, {8, 32}, {8, 33}, {9, 33}, {13, 33}, {14, 32},
	{14, 33}, {15, 32}, {15, 33}, {18, 32}, {18, 33}, {19, 33}, {20, 32}, {20, 33}, {22, 32}, {22, 33},
	{23, 25}, {23, 27}, {23, 29}, {23, 32}, {23, 33}, {24, 25}, {24, 27}, {24, 31}, {25, 31}, {26, 29},
	{26, 33}, {27, 33}, {28, 31}, {28, 33}, {29, 32}, {29, 33}, {30, 32}, {30, 33}, {31, 32}, {31, 33},
	{32, 33},
}

// BenchmarkClusteringRMAT measures Clustering on a Graph500-style R-MAT
// graph (a, b, c = 0.57, 0.19, 0.19) of about one million undirected edges
// after symmetrization and de-duplication. Target: well under 1 s per op.
func BenchmarkClusteringRMAT(b *testing.B) {
	g, err := RMAT(1<<17, 1_150_000, 0.57, 0.19, 0.19, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		Clustering(g)
	}
	b.ReportMetric(float64(g.NumEdges()), "edges")
	b.ReportMetric(float64(g.MaxDegree()), "maxdeg")
}
