// This file is over 600 lines on purpose: one table-driven test per seeded
// generator (ER, BA, WS, SBM, grid, k-NN, R-MAT, Graphlaxy) with their shared
// degree and determinism checks; each generator's block is short.

package graphs

import (
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"
)

func testRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x5eed)) }

// mustValid fails the test unless g passes Validate.
func mustValid(t *testing.T, g *Graph) {
	t.Helper()
	if err := g.Validate(); err != nil {
		t.Fatalf("%s: %v", g.Name, err)
	}
}

// connected reports whether g is one component.
func connected(g *Graph) bool { return LargestComponent(g) == g }

func sameGraph(a, b *Graph) bool {
	return a.Name == b.Name && a.Source == b.Source && sameCSR(a, b)
}

func sameCSR(a, b *Graph) bool {
	return a.SelfLoops == b.SelfLoops && slices.Equal(a.RowPtr, b.RowPtr) && slices.Equal(a.Col, b.Col)
}

func TestGenerators(t *testing.T) {
	want := []string{"ba", "er", "graphlaxy", "grid", "knn", "rmat", "sbm", "ws"}
	if got := Generators(); !slices.Equal(got, want) {
		t.Fatalf("Generators() = %v, want %v", got, want)
	}
}

func TestErdosRenyiEdgeCount(t *testing.T) {
	for _, tc := range []struct {
		n    int
		p    float64
		runs int
	}{
		{200, 0.05, 20},
		{1000, 0.004, 20},
		{50, 0.5, 40},
		{3000, 1e-4, 40},
	} {
		pairs := float64(tc.n) * float64(tc.n-1) / 2
		sum := 0.0
		for r := range tc.runs {
			g, err := ErdosRenyi(tc.n, tc.p, testRand(uint64(r)))
			if err != nil {
				t.Fatal(err)
			}
			mustValid(t, g)
			if g.NumNodes() != tc.n {
				t.Fatalf("n=%d: %d nodes", tc.n, g.NumNodes())
			}
			sum += float64(g.NumEdges())
		}
		mean := sum / float64(tc.runs)
		want := tc.p * pairs
		// The mean of runs binomial draws: 4 standard errors.
		tol := 4 * math.Sqrt(pairs*tc.p*(1-tc.p)/float64(tc.runs))
		if math.Abs(mean-want) > tol {
			t.Errorf("G(%d, %v): mean %.1f edges, want %.1f ± %.1f", tc.n, tc.p, mean, want, tol)
		}
	}
}

func TestErdosRenyiExtremes(t *testing.T) {
	g, _ := ErdosRenyi(30, 0, testRand(1))
	if g.NumEdges() != 0 {
		t.Errorf("p=0: %d edges", g.NumEdges())
	}
	g, _ = ErdosRenyi(30, 1, testRand(1))
	mustValid(t, g)
	if g.NumEdges() != 30*29/2 {
		t.Errorf("p=1: %d edges, want %d", g.NumEdges(), 30*29/2)
	}
	g, _ = ErdosRenyi(1, 1, testRand(1))
	if g.NumNodes() != 1 || g.NumEdges() != 0 {
		t.Errorf("n=1: %d nodes %d edges", g.NumNodes(), g.NumEdges())
	}
}

// TestErdosRenyiUniformPairs checks that geometric skipping favours no pair:
// on K_6's 15 pairs, each is drawn about p*runs times.
func TestErdosRenyiUniformPairs(t *testing.T) {
	const n, p, runs = 6, 0.3, 4000
	var hits [n][n]int
	rng := testRand(3)
	for range runs {
		g, _ := ErdosRenyi(n, p, rng)
		for v := range n {
			for _, w := range g.Neighbors(v) {
				hits[v][w]++
			}
		}
	}
	sd := math.Sqrt(runs * p * (1 - p))
	for v := range n {
		for w := range v {
			if d := math.Abs(float64(hits[v][w]) - runs*p); d > 4.5*sd {
				t.Errorf("pair (%d,%d) drawn %d times, want %.0f ± %.0f", v, w, hits[v][w], runs*p, 4.5*sd)
			}
		}
	}
}

func TestBarabasiAlbert(t *testing.T) {
	for _, tc := range []struct{ n, m int }{{10, 1}, {100, 3}, {1000, 5}, {50, 49}} {
		g, err := BarabasiAlbert(tc.n, tc.m, testRand(7))
		if err != nil {
			t.Fatal(err)
		}
		mustValid(t, g)
		if g.NumNodes() != tc.n || g.NumEdges() != tc.m*(tc.n-tc.m) {
			t.Errorf("BA(%d,%d): %d nodes %d edges, want %d edges", tc.n, tc.m, g.NumNodes(), g.NumEdges(), tc.m*(tc.n-tc.m))
		}
		if !connected(g) {
			t.Errorf("BA(%d,%d) is not connected", tc.n, tc.m)
		}
		for v := tc.m; v < tc.n; v++ {
			if g.Degree(v) < tc.m {
				t.Fatalf("BA(%d,%d): node %d has degree %d < m", tc.n, tc.m, v, g.Degree(v))
			}
		}
	}
	// Preferential attachment: early nodes end up as hubs.
	g, _ := BarabasiAlbert(5000, 2, testRand(1))
	if g.MaxDegree() < 50 {
		t.Errorf("BA(5000,2): max degree %d, no hub", g.MaxDegree())
	}
}

func TestWattsStrogatz(t *testing.T) {
	for _, tc := range []struct {
		n, k int
		beta float64
	}{{10, 2, 0}, {100, 6, 0}, {101, 10, 0}, {100, 6, 0.2}, {200, 8, 1}, {9, 8, 0.5}} {
		g, err := WattsStrogatz(tc.n, tc.k, tc.beta, testRand(5))
		if err != nil {
			t.Fatal(err)
		}
		mustValid(t, g)
		if g.NumNodes() != tc.n || g.NumEdges() != tc.n*tc.k/2 {
			t.Errorf("WS(%d,%d,%v): %d nodes %d edges, want %d", tc.n, tc.k, tc.beta, g.NumNodes(), g.NumEdges(), tc.n*tc.k/2)
		}
		if tc.beta == 0 {
			for v := range tc.n {
				if g.Degree(v) != tc.k {
					t.Fatalf("WS(%d,%d,0): node %d degree %d, want k-regular", tc.n, tc.k, v, g.Degree(v))
				}
				// The ring lattice: v joins v±1..v±k/2.
				for j := 1; j <= tc.k/2; j++ {
					if _, ok := slices.BinarySearch(g.Neighbors(v), int32((v+j)%tc.n)); !ok {
						t.Fatalf("WS lattice: %d-%d missing", v, (v+j)%tc.n)
					}
				}
			}
		}
	}
	// Rewiring moves about beta of the lattice edges.
	const n, k, beta = 2000, 6, 0.3
	g, _ := WattsStrogatz(n, k, beta, testRand(9))
	kept := 0
	for v := range n {
		for j := 1; j <= k/2; j++ {
			if _, ok := slices.BinarySearch(g.Neighbors(v), int32((v+j)%n)); ok {
				kept++
			}
		}
	}
	if frac := 1 - float64(kept)/(n*k/2); math.Abs(frac-beta) > 0.03 {
		t.Errorf("WS rewired fraction %.3f, want about %v", frac, beta)
	}
}

func TestSBMDensities(t *testing.T) {
	sizes := []int{300, 500, 200}
	p := [][]float64{
		{0.10, 0.01, 0.00},
		{0.01, 0.05, 0.02},
		{0.00, 0.02, 1.00},
	}
	g, err := SBM(sizes, p, testRand(11))
	if err != nil {
		t.Fatal(err)
	}
	mustValid(t, g)
	if g.NumNodes() != 1000 {
		t.Fatalf("%d nodes", g.NumNodes())
	}
	block := func(v int32) int {
		switch {
		case v < 300:
			return 0
		case v < 800:
			return 1
		}
		return 2
	}
	var count [3][3]float64
	for v := range g.NumNodes() {
		for _, w := range g.Neighbors(v) {
			if int32(v) < w {
				r, s := block(int32(v)), block(w)
				count[min(r, s)][max(r, s)]++
			}
		}
	}
	for r := range 3 {
		for s := r; s < 3; s++ {
			pairs := float64(sizes[r]) * float64(sizes[s])
			if r == s {
				pairs = float64(sizes[r]) * float64(sizes[r]-1) / 2
			}
			got := count[r][s] / pairs
			tol := 4*math.Sqrt(p[r][s]*(1-p[r][s])/pairs) + 1e-12
			if math.Abs(got-p[r][s]) > tol {
				t.Errorf("blocks %d-%d: density %.4f, want %.4f ± %.4f", r, s, got, p[r][s], tol)
			}
		}
	}
}

func TestGridClosedForm(t *testing.T) {
	for _, tc := range []struct {
		rows, cols int
		diag       bool
	}{{1, 1, false}, {1, 7, false}, {7, 1, true}, {14, 14, false}, {14, 14, true}, {3, 5, true}, {56, 56, false}} {
		g, err := Grid(tc.rows, tc.cols, tc.diag)
		if err != nil {
			t.Fatal(err)
		}
		mustValid(t, g)
		r, c := tc.rows, tc.cols
		want := r*(c-1) + c*(r-1)
		if tc.diag {
			want += 2 * (r - 1) * (c - 1)
		}
		if g.NumNodes() != r*c || g.NumEdges() != want {
			t.Errorf("Grid(%d,%d,%v): %d nodes %d edges, want %d", r, c, tc.diag, g.NumNodes(), g.NumEdges(), want)
		}
		if r >= 3 && c >= 3 {
			inner, corner := 4, 2
			if tc.diag {
				inner, corner = 8, 3
			}
			if d := g.Degree(c + 1); d != inner {
				t.Errorf("Grid(%d,%d,%v): interior degree %d, want %d", r, c, tc.diag, d, inner)
			}
			if d := g.Degree(0); d != corner {
				t.Errorf("Grid(%d,%d,%v): corner degree %d, want %d", r, c, tc.diag, d, corner)
			}
		}
	}
}

func TestKNN(t *testing.T) {
	rng := testRand(13)
	for _, tc := range []struct{ n, dim, k int }{{20, 2, 1}, {196, 2, 9}, {300, 16, 9}, {50, 3, 49}} {
		pts := make([][]float64, tc.n)
		for i := range pts {
			pts[i] = make([]float64, tc.dim)
			for j := range pts[i] {
				pts[i][j] = rng.Float64()
			}
		}
		g, err := KNN(pts, tc.k)
		if err != nil {
			t.Fatal(err)
		}
		mustValid(t, g)
		if g.NumNodes() != tc.n {
			t.Fatalf("%d nodes", g.NumNodes())
		}
		// Every point is joined to its k nearest, found by a full sort.
		for i := range tc.n {
			if g.Degree(i) < tc.k {
				t.Fatalf("kNN(n=%d,k=%d): node %d degree %d < k", tc.n, tc.k, i, g.Degree(i))
			}
			idx := make([]int, 0, tc.n-1)
			for j := range tc.n {
				if j != i {
					idx = append(idx, j)
				}
			}
			dist := func(j int) float64 {
				s := 0.0
				for t := range pts[i] {
					s += (pts[i][t] - pts[j][t]) * (pts[i][t] - pts[j][t])
				}
				return s
			}
			sort.SliceStable(idx, func(a, b int) bool { return dist(idx[a]) < dist(idx[b]) })
			for _, j := range idx[:tc.k] {
				if _, ok := slices.BinarySearch(g.Neighbors(i), int32(j)); !ok {
					t.Fatalf("kNN: %d is among the %d nearest of %d but not joined", j, tc.k, i)
				}
			}
		}
	}
}

// TestKNNTies: on a 1-D lattice every inner point has two neighbours at
// distance 1; with k = 1 the lower index must win.
func TestKNNTies(t *testing.T) {
	pts := [][]float64{{0}, {1}, {2}, {3}}
	g, err := KNN(pts, 1)
	if err != nil {
		t.Fatal(err)
	}
	// 0->1, 1->0, 2->1, 3->2: edges {0,1}, {1,2}, {2,3}.
	want := []int32{1, 0, 2, 1, 3, 2}
	if !slices.Equal(g.Col, want) {
		t.Errorf("kNN ties: columns %v, want %v", g.Col, want)
	}
}

func TestRMAT(t *testing.T) {
	for _, tc := range []struct {
		n, m    int
		a, b, c float64
	}{{1, 10, 0.57, 0.19, 0.19}, {1000, 8000, 0.57, 0.19, 0.19}, {1024, 8000, 0.25, 0.25, 0.25}, {700, 5000, 0.9, 0.05, 0.05}, {64, 100, 0.4, 0.6, 0}} {
		g, err := RMAT(tc.n, tc.m, tc.a, tc.b, tc.c, testRand(17))
		if err != nil {
			t.Fatal(err)
		}
		mustValid(t, g)
		if g.NumNodes() != tc.n || g.NumEdges() > tc.m {
			t.Errorf("RMAT(%d,%d): %d nodes %d edges", tc.n, tc.m, g.NumNodes(), g.NumEdges())
		}
	}
	// a = 1 puts every draw on (0,0): only self-loops, all dropped.
	if g, _ := RMAT(100, 1000, 1, 0, 0, testRand(1)); g.NumEdges() != 0 {
		t.Errorf("RMAT a=1: %d edges, want 0", g.NumEdges())
	}
	// b = 1 draws (0, 2^scale-1): one edge.
	if g, _ := RMAT(128, 1000, 0, 1, 0, testRand(1)); g.NumEdges() != 1 || g.Degree(0) != 1 || g.Degree(127) != 1 {
		t.Errorf("RMAT b=1: %d edges, want the single edge 0-127", g.NumEdges())
	}
	// Uniform quadrants on a power of two give G(n, m)-like graphs: few
	// duplicates, no skew. A skewed a gives node 0 the largest degree.
	g, _ := RMAT(1<<12, 20000, 0.25, 0.25, 0.25, testRand(2))
	if e := g.NumEdges(); e < 19800 {
		t.Errorf("uniform RMAT: %d of 20000 draws survive", e)
	}
	g, _ = RMAT(1<<12, 20000, 0.7, 0.1, 0.1, testRand(2))
	if g.Degree(0) != g.MaxDegree() {
		t.Errorf("skewed RMAT: node 0 degree %d, max %d", g.Degree(0), g.MaxDegree())
	}
}

// TestRMATQuadrants checks the per-level quadrant frequencies on a 2-node
// graph (scale 1): the edge 0-1 appears iff a draw picks b or c.
func TestRMATQuadrants(t *testing.T) {
	const runs = 20000
	a, b, c := 0.5, 0.2, 0.1
	hit := 0
	rng := testRand(4)
	for range runs {
		if g, _ := RMAT(2, 1, a, b, c, rng); g.NumEdges() == 1 {
			hit++
		}
	}
	p := b + c
	if sd := math.Sqrt(runs * p * (1 - p)); math.Abs(float64(hit)-runs*p) > 4*sd {
		t.Errorf("P(b or c) = %.4f, want %.2f", float64(hit)/runs, p)
	}
}

func TestLargestComponent(t *testing.T) {
	// Components {0,2,4} (path), {1,3} and {5}; 6 is isolated.
	g, _ := FromEdges(7, []int32{0, 2, 1}, []int32{2, 4, 3})
	g.Name, g.Source = "x", "src"
	g.NodeAttr, g.AttrDim = []float64{0, 10, 20, 30, 40, 50, 60}, 1
	h := LargestComponent(g)
	mustValid(t, h)
	if h.NumNodes() != 3 || h.NumEdges() != 2 {
		t.Fatalf("component: %d nodes %d edges", h.NumNodes(), h.NumEdges())
	}
	// Old 0,2,4 become 0,1,2 in order: the path 0-1-2.
	if !slices.Equal(h.RowPtr, []int32{0, 1, 3, 4}) || !slices.Equal(h.Col, []int32{1, 0, 2, 1}) {
		t.Errorf("relabelled CSR %v %v", h.RowPtr, h.Col)
	}
	if !slices.Equal(h.NodeAttr, []float64{0, 20, 40}) || h.Name != "x" || h.Source != "src" {
		t.Errorf("carried fields: attr %v name %q source %q", h.NodeAttr, h.Name, h.Source)
	}
	// Ties go to the component with the lowest node.
	g, _ = FromEdges(4, []int32{2, 0}, []int32{3, 1})
	g.NodeAttr, g.AttrDim = []float64{0, 1, 2, 3}, 1
	if h := LargestComponent(g); !slices.Equal(h.NodeAttr, []float64{0, 1}) {
		t.Errorf("tie: kept nodes %v, want 0 and 1", h.NodeAttr)
	}
	// A connected graph comes back as is; so does the empty graph.
	g, _ = Grid(3, 3, false)
	if LargestComponent(g) != g {
		t.Error("connected graph was copied")
	}
	g.SelfLoops = false
	if gl := g.WithSelfLoops(); LargestComponent(gl) != gl {
		t.Error("A+I of a connected graph was copied")
	}
	empty := &Graph{}
	if LargestComponent(empty) != empty {
		t.Error("empty graph was copied")
	}
}

// TestGenerateSetAll runs every generator with its defaults (few graphs,
// graphlaxy on a small edge range) and checks every output.
func TestGenerateSetAll(t *testing.T) {
	for _, name := range Generators() {
		spec := GenSpec{Generator: name, Count: 4, Seed: 42}
		if name == "graphlaxy" {
			spec.MinEdges, spec.MaxEdges = 50, 2000
		}
		gs, err := GenerateSet(spec)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(gs) != 4 {
			t.Fatalf("%s: %d graphs", name, len(gs))
		}
		for i, g := range gs {
			mustValid(t, g)
			if want := name + "_" + string(rune('0'+i)); g.Name != want {
				t.Errorf("name %q, want %q", g.Name, want)
			}
			if !strings.HasPrefix(g.Source, name+" ") {
				t.Errorf("%s: source %q", g.Name, g.Source)
			}
			if g.NumNodes() == 0 || g.SelfLoops {
				t.Errorf("%s: %d nodes, self-loops %v", g.Name, g.NumNodes(), g.SelfLoops)
			}
		}
	}
}

func TestGenerateSetRanges(t *testing.T) {
	gs, err := GenerateSet(GenSpec{Generator: "ba", Count: 30, Seed: 1, MinNodes: 100, MaxNodes: 120, Params: map[string]float64{"m": 2}})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range gs {
		if n := g.NumNodes(); n < 100 || n > 120 || g.NumEdges() != 2*(n-2) {
			t.Errorf("%s: %d nodes %d edges", g.Name, n, g.NumEdges())
		}
	}
	gs, _ = GenerateSet(GenSpec{Generator: "er", Count: 20, Seed: 1, MinNodes: 400, MaxNodes: 400, MinEdges: 2000, MaxEdges: 2000})
	sum := 0
	for _, g := range gs {
		sum += g.NumEdges()
	}
	if mean := float64(sum) / 20; math.Abs(mean-2000) > 4*math.Sqrt(2000.0/20) {
		t.Errorf("er with m=2000: mean %.1f edges", mean)
	}
	gs, _ = GenerateSet(GenSpec{Generator: "grid", Count: 2, Params: map[string]float64{"rows": 3, "cols": 5, "diagonal": 1}})
	if gs[0].NumNodes() != 15 || gs[0].NumEdges() != 3*4+5*2+2*2*4 {
		t.Errorf("grid 3x5 diag: %d nodes %d edges", gs[0].NumNodes(), gs[0].NumEdges())
	}
	gs, _ = GenerateSet(GenSpec{Generator: "grid", Count: 1, MinNodes: 50, MaxNodes: 50})
	if gs[0].NumNodes() != 49 {
		t.Errorf("grid from 50 nodes: %d nodes, want 7x7", gs[0].NumNodes())
	}
	gs, _ = GenerateSet(GenSpec{Generator: "rmat", Count: 3, MinNodes: 256, MaxNodes: 256, MinEdges: 1000, MaxEdges: 1000})
	for _, g := range gs {
		if g.NumNodes() != 256 || g.NumEdges() > 1000 || g.NumEdges() == 0 {
			t.Errorf("rmat n=256 m=1000: %d nodes %d edges", g.NumNodes(), g.NumEdges())
		}
	}
}

func TestGenerateSetDeterminism(t *testing.T) {
	for _, name := range Generators() {
		spec := GenSpec{Generator: name, Count: 6, Seed: 99}
		if name == "graphlaxy" {
			spec.MinEdges, spec.MaxEdges = 100, 3000
		}
		a, err := GenerateSet(spec)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := GenerateSet(spec)
		spec.Count = 3
		prefix, _ := GenerateSet(spec)
		prev := runtime.GOMAXPROCS(1)
		serial, _ := GenerateSet(spec)
		runtime.GOMAXPROCS(prev)
		for i := range a {
			if !sameGraph(a[i], b[i]) {
				t.Fatalf("%s: graph %d differs between identical runs", name, i)
			}
			one, err := Generate(spec, i)
			if err != nil || !sameGraph(a[i], one) {
				t.Fatalf("%s: Generate(spec, %d) differs from the set's graph (%v)", name, i, err)
			}
			if i < 3 && (!sameGraph(a[i], prefix[i]) || !sameGraph(a[i], serial[i])) {
				t.Fatalf("%s: graph %d depends on Count or GOMAXPROCS", name, i)
			}
		}
		if name == "grid" {
			continue // no randomness
		}
		spec.Seed = 100
		other, _ := GenerateSet(spec)
		if sameCSR(a[0], other[0]) && sameCSR(a[1], other[1]) {
			t.Errorf("%s: seeds 99 and 100 give the same graphs", name)
		}
		if sameCSR(a[0], a[1]) && sameCSR(a[1], a[2]) {
			t.Errorf("%s: graphs 0..2 are identical", name)
		}
	}
}

func TestGenerateSetErrors(t *testing.T) {
	nan := math.NaN()
	for _, tc := range []struct {
		spec GenSpec
		want string
	}{
		{GenSpec{Generator: "nope"}, "valid: ba, er, graphlaxy, grid, knn, rmat, sbm, ws"},
		{GenSpec{Generator: ""}, "unknown generator"},
		{GenSpec{Generator: "er", Count: -1}, "negative count"},
		{GenSpec{Generator: "er", Count: MaxCount + 1}, "in parts"},
		{GenSpec{Generator: "er", MinNodes: -5}, "negative node"},
		{GenSpec{Generator: "er", MinNodes: 50, MaxNodes: 10}, "empty"},
		{GenSpec{Generator: "ba", MinEdges: 10}, "no edge range"},
		{GenSpec{Generator: "graphlaxy", MinNodes: 10}, "MinEdges/MaxEdges instead"},
		{GenSpec{Generator: "ws", Params: map[string]float64{"m": 2}}, `unknown parameter "m" (valid: beta, k)`},
		{GenSpec{Generator: "er", Params: map[string]float64{"p": nan}}, "not finite"},
		{GenSpec{Generator: "er", Params: map[string]float64{"p": math.Inf(1)}}, "not finite"},
		{GenSpec{Generator: "er", Params: map[string]float64{"p": 1.5}}, "outside [0, 1]"},
		{GenSpec{Generator: "er", Params: map[string]float64{"p": -0.1}}, "outside [0, 1]"},
		{GenSpec{Generator: "er", Params: map[string]float64{"p": 0.1, "avg_degree": 3}}, "not both"},
		{GenSpec{Generator: "er", MinNodes: 10, MaxNodes: 10, Params: map[string]float64{"avg_degree": 30}}, "needs more than 10 nodes"},
		{GenSpec{Generator: "er", MinNodes: 10, MaxNodes: 10, MinEdges: 100}, "do not fit"},
		{GenSpec{Generator: "ba", Params: map[string]float64{"m": 2.5}}, "must be an integer"},
		{GenSpec{Generator: "ba", Params: map[string]float64{"m": 0}}, "must be an integer >= 1"},
		{GenSpec{Generator: "ba", MinNodes: 3, MaxNodes: 3}, "m = 4 must lie in [1, n)"},
		{GenSpec{Generator: "ws", Params: map[string]float64{"k": 3}}, "must be even"},
		{GenSpec{Generator: "ws", Params: map[string]float64{"beta": 2}}, "beta = 2 outside"},
		{GenSpec{Generator: "sbm", Params: map[string]float64{"p_in": -1}}, "outside [0, 1]"},
		{GenSpec{Generator: "sbm", MinNodes: 3, MaxNodes: 3}, "4 blocks for 3 nodes"},
		{GenSpec{Generator: "grid", Params: map[string]float64{"diagonal": 2}}, "0 or 1"},
		{GenSpec{Generator: "grid", MinNodes: 9, Params: map[string]float64{"rows": 3}}, "not both"},
		{GenSpec{Generator: "knn", Params: map[string]float64{"k": 196}}, "needs more than 196"},
		{GenSpec{Generator: "knn", Params: map[string]float64{"dim": 0}}, "dim"},
		{GenSpec{Generator: "rmat", Params: map[string]float64{"a": 0.6, "b": 0.3, "c": 0.3}}, "exceeds 1"},
		{GenSpec{Generator: "rmat", MinEdges: 10, Params: map[string]float64{"edge_factor": 3}}, "replaces edge_factor"},
		{GenSpec{Generator: "graphlaxy", Params: map[string]float64{"alpha_a": 0}}, "alpha_a = 0 must be positive"},
		{GenSpec{Generator: "graphlaxy", Params: map[string]float64{"log_edges": 2}}, "0 or 1"},
	} {
		_, err := GenerateSet(tc.spec)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want it to mention %q", tc.spec, err, tc.want)
		}
		if _, err := Generate(tc.spec, 0); err == nil && tc.spec.Count == 0 {
			t.Errorf("%+v: Generate accepted it", tc.spec)
		}
	}
	if _, err := Generate(GenSpec{Generator: "er"}, -1); err == nil {
		t.Error("Generate accepted index -1")
	}
}

func TestGeneratorErrors(t *testing.T) {
	rng := testRand(1)
	nan := math.NaN()
	for _, tc := range []struct {
		name string
		f    func() (*Graph, error)
	}{
		{"er zero nodes", func() (*Graph, error) { return ErdosRenyi(0, 0.1, rng) }},
		{"er negative nodes", func() (*Graph, error) { return ErdosRenyi(-3, 0.1, rng) }},
		{"er NaN p", func() (*Graph, error) { return ErdosRenyi(10, nan, rng) }},
		{"er p > 1", func() (*Graph, error) { return ErdosRenyi(10, 1.01, rng) }},
		{"er too many edges", func() (*Graph, error) { return ErdosRenyi(1<<30, 0.5, rng) }},
		{"ba m = 0", func() (*Graph, error) { return BarabasiAlbert(10, 0, rng) }},
		{"ba m >= n", func() (*Graph, error) { return BarabasiAlbert(5, 5, rng) }},
		{"ws odd k", func() (*Graph, error) { return WattsStrogatz(10, 3, 0.1, rng) }},
		{"ws k >= n", func() (*Graph, error) { return WattsStrogatz(6, 6, 0.1, rng) }},
		{"ws NaN beta", func() (*Graph, error) { return WattsStrogatz(10, 2, nan, rng) }},
		{"sbm no blocks", func() (*Graph, error) { return SBM(nil, nil, rng) }},
		{"sbm zero size", func() (*Graph, error) { return SBM([]int{3, 0}, [][]float64{{0, 0}, {0, 0}}, rng) }},
		{"sbm ragged", func() (*Graph, error) { return SBM([]int{3, 3}, [][]float64{{0, 0}, {0}}, rng) }},
		{"sbm asymmetric", func() (*Graph, error) { return SBM([]int{3, 3}, [][]float64{{0, 0.1}, {0.2, 0}}, rng) }},
		{"sbm NaN", func() (*Graph, error) { return SBM([]int{3}, [][]float64{{nan}}, rng) }},
		{"rmat zero nodes", func() (*Graph, error) { return RMAT(0, 10, 0.25, 0.25, 0.25, rng) }},
		{"rmat negative m", func() (*Graph, error) { return RMAT(10, -1, 0.25, 0.25, 0.25, rng) }},
		{"rmat NaN", func() (*Graph, error) { return RMAT(10, 10, nan, 0.25, 0.25, rng) }},
		{"rmat negative b", func() (*Graph, error) { return RMAT(10, 10, 0.5, -0.1, 0.25, rng) }},
		{"rmat sum > 1", func() (*Graph, error) { return RMAT(10, 10, 0.5, 0.3, 0.3, rng) }},
		{"grid zero rows", func() (*Graph, error) { return Grid(0, 5, false) }},
		{"grid negative cols", func() (*Graph, error) { return Grid(5, -1, true) }},
		{"grid too big", func() (*Graph, error) { return Grid(1<<20, 1<<20, false) }},
		{"knn no points", func() (*Graph, error) { return KNN(nil, 1) }},
		{"knn k >= n", func() (*Graph, error) { return KNN([][]float64{{0}, {1}}, 2) }},
		{"knn k = 0", func() (*Graph, error) { return KNN([][]float64{{0}, {1}}, 0) }},
		{"knn ragged", func() (*Graph, error) { return KNN([][]float64{{0, 1}, {1}}, 1) }},
		{"knn empty points", func() (*Graph, error) { return KNN([][]float64{{}, {}}, 1) }},
		{"knn NaN", func() (*Graph, error) { return KNN([][]float64{{0}, {nan}}, 1) }},
	} {
		if g, err := tc.f(); err == nil || g != nil {
			t.Errorf("%s: got graph %v, error %v", tc.name, g != nil, err)
		}
	}
}

func BenchmarkRMAT1M(b *testing.B) {
	// Graph500-style: 2^17 nodes, 1M edge draws.
	rng := testRand(1)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := RMAT(1<<17, 1_000_000, 0.57, 0.19, 0.19, rng); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ns/edge")
}

func BenchmarkErdosRenyi1M(b *testing.B) {
	rng := testRand(1)
	const n = 100_000
	p := 2e6 / (float64(n) * (n - 1)) // about 1M edges
	for b.Loop() {
		if _, err := ErdosRenyi(n, p, rng); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkKNN196(b *testing.B) {
	rng := testRand(1)
	pts := make([][]float64, 196)
	for i := range pts {
		pts[i] = []float64{rng.Float64(), rng.Float64()}
	}
	for b.Loop() {
		if _, err := KNN(pts, 9); err != nil {
			b.Fatal(err)
		}
	}
}

// TestPCGAdvance pins pcgAdvance to math/rand/v2's PCG: jumping k steps
// must give the state that k calls of Uint64 leave behind.
func TestPCGAdvance(t *testing.T) {
	for _, seed := range [][2]uint64{{0, 0}, {1, 2}, {^uint64(0), 12345}} {
		p := rand.NewPCG(seed[0], seed[1])
		for k := range uint64(300) {
			h, l := pcgState(p)
			if gh, gl := pcgAdvance(seed[0], seed[1], k); gh != h || gl != l {
				t.Fatalf("seed %v: advance %d = (%x,%x), want (%x,%x)", seed, k, gh, gl, h, l)
			}
			p.Uint64()
		}
		// A long jump equals two shorter ones.
		h1, l1 := pcgAdvance(seed[0], seed[1], 1<<40+12345)
		h2, l2 := pcgAdvance(seed[0], seed[1], 1<<40)
		h2, l2 = pcgAdvance(h2, l2, 12345)
		if h1 != h2 || l1 != l2 {
			t.Fatalf("seed %v: jumps do not compose", seed)
		}
	}
}

// TestRMATParallelDraws checks that drawing on every core gives the graph
// of the serial draws and leaves the stream where the serial loop does.
func TestRMATParallelDraws(t *testing.T) {
	for _, n := range []int{1, 2, 3000, 1 << 12} {
		m := rmatParallelDraws + 777
		serial := rand.NewPCG(4, 9)
		want, err := rmat(n, m, 0.57, 0.19, 0.19, rand.New(serial), nil, noMeter{})
		if err != nil {
			t.Fatal(err)
		}
		par := rand.NewPCG(4, 9)
		got, err := rmat(n, m, 0.57, 0.19, 0.19, rand.New(par), par, noMeter{})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.RowPtr, want.RowPtr) || !slices.Equal(got.Col, want.Col) {
			t.Fatalf("n=%d: parallel draws give another graph", n)
		}
		if serial.Uint64() != par.Uint64() {
			t.Fatalf("n=%d: the stream continues differently", n)
		}
	}
}
