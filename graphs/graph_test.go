package graphs

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// mustFromEdges builds a graph from "u-v" pairs or fails the test.
func mustFromEdges(t testing.TB, n int, edges [][2]int32) *Graph {
	t.Helper()
	u := make([]int32, len(edges))
	v := make([]int32, len(edges))
	for i, e := range edges {
		u[i], v[i] = e[0], e[1]
	}
	g, err := FromEdges(n, u, v)
	if err != nil {
		t.Fatalf("FromEdges(%d, %v): %v", n, edges, err)
	}
	return g
}

func TestFromEdges(t *testing.T) {
	tests := []struct {
		name   string
		n      int
		edges  [][2]int32
		rowPtr []int32
		col    []int32
		nEdges int
	}{
		{"empty", 0, nil, []int32{0}, []int32{}, 0},
		{"single node", 1, nil, []int32{0, 0}, []int32{}, 0},
		{"isolated nodes", 4, [][2]int32{{1, 2}}, []int32{0, 0, 1, 2, 2}, []int32{2, 1}, 1},
		{"symmetrized", 3, [][2]int32{{0, 1}, {2, 1}}, []int32{0, 1, 3, 4}, []int32{1, 0, 2, 1}, 2},
		{"duplicates merged", 2, [][2]int32{{0, 1}, {1, 0}, {0, 1}}, []int32{0, 1, 2}, []int32{1, 0}, 1},
		{"self-loops dropped", 3, [][2]int32{{0, 0}, {0, 2}, {2, 2}}, []int32{0, 1, 1, 2}, []int32{2, 0}, 1},
		{"rows sorted", 4, [][2]int32{{0, 3}, {0, 1}, {0, 2}}, []int32{0, 3, 4, 5, 6}, []int32{1, 2, 3, 0, 0, 0}, 3},
		{"only loops", 2, [][2]int32{{0, 0}, {1, 1}}, []int32{0, 0, 0}, []int32{}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := mustFromEdges(t, tt.n, tt.edges)
			if !slices.Equal(g.RowPtr, tt.rowPtr) || !slices.Equal(g.Col, tt.col) {
				t.Fatalf("got RowPtr %v Col %v, want %v %v", g.RowPtr, g.Col, tt.rowPtr, tt.col)
			}
			if g.NumNodes() != tt.n || g.NumEdges() != tt.nEdges || g.NNZ() != 2*tt.nEdges || g.SelfLoops {
				t.Fatalf("V=%d E=%d NNZ=%d loops=%v", g.NumNodes(), g.NumEdges(), g.NNZ(), g.SelfLoops)
			}
			if err := g.Validate(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestFromEdgesErrors(t *testing.T) {
	tests := []struct {
		name string
		n    int
		u, v []int32
		want string
	}{
		{"negative n", -1, nil, nil, "negative"},
		{"length mismatch", 3, []int32{0, 1}, []int32{1}, "differ in length"},
		{"id too large", 3, []int32{0}, []int32{3}, "out of range"},
		{"negative id", 3, []int32{-1}, []int32{0}, "out of range"},
		{"loop out of range", 2, []int32{5}, []int32{5}, "out of range"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := FromEdges(tt.n, tt.u, tt.v)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want it to mention %q", err, tt.want)
			}
		})
	}
}

func TestDegreeNeighbors(t *testing.T) {
	g := mustFromEdges(t, 5, [][2]int32{{0, 1}, {0, 2}, {0, 3}, {3, 2}})
	wantDeg := []int{3, 1, 2, 2, 0}
	for v, d := range wantDeg {
		if g.Degree(v) != d || len(g.Neighbors(v)) != d {
			t.Errorf("node %d: degree %d, neighbours %v, want %d", v, g.Degree(v), g.Neighbors(v), d)
		}
	}
	if !slices.Equal(g.Neighbors(0), []int32{1, 2, 3}) {
		t.Errorf("Neighbors(0) = %v", g.Neighbors(0))
	}
	if g.MaxDegree() != 3 {
		t.Errorf("MaxDegree = %d", g.MaxDegree())
	}
	var zero Graph
	if zero.NumNodes() != 0 || zero.NumEdges() != 0 || zero.MaxDegree() != 0 || zero.Validate() != nil {
		t.Error("zero Graph is not the valid empty graph")
	}
}

func TestSelfLoopsRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 20 {
		n := 1 + rng.IntN(30)
		g := randomGraph(rng, n, rng.Float64())
		g.Name = "g"
		h := g.WithSelfLoops()
		if err := h.Validate(); err != nil {
			t.Fatalf("trial %d: A+I invalid: %v", trial, err)
		}
		if !h.SelfLoops || h.NNZ() != g.NNZ()+n || h.NumEdges() != g.NumEdges() || h.Name != "g" {
			t.Fatalf("trial %d: A+I has NNZ %d (A %d), E %d", trial, h.NNZ(), g.NNZ(), h.NumEdges())
		}
		for v := range n {
			if _, ok := slices.BinarySearch(h.Neighbors(v), int32(v)); !ok || h.Degree(v) != g.Degree(v)+1 {
				t.Fatalf("trial %d: row %d of A+I is %v", trial, v, h.Neighbors(v))
			}
		}
		if h.WithSelfLoops() != h {
			t.Fatal("WithSelfLoops on A+I should return it unchanged")
		}
		a := h.WithoutSelfLoops()
		if a.SelfLoops || !slices.Equal(a.RowPtr, g.RowPtr) || !slices.Equal(a.Col, g.Col) {
			t.Fatalf("trial %d: (A+I)-I differs from A", trial)
		}
		if g.WithoutSelfLoops() != g {
			t.Fatal("WithoutSelfLoops on A should return it unchanged")
		}
		if len(g.Col) > 0 && &h.Col[0] == &g.Col[0] {
			t.Fatal("WithSelfLoops aliases the input")
		}
	}
}

func TestValidate(t *testing.T) {
	// base is the path 0-1-2 plus isolated node 3.
	base := func() *Graph {
		return &Graph{RowPtr: []int32{0, 1, 3, 4, 4}, Col: []int32{1, 0, 2, 1}}
	}
	tests := []struct {
		name   string
		mutate func(g *Graph)
		want   string // "" = valid
	}{
		{"valid", func(g *Graph) {}, ""},
		{"valid with attrs", func(g *Graph) { g.NodeAttr, g.AttrDim = make([]float64, 8), 2 }, ""},
		{"valid A+I", func(g *Graph) { *g = *g.WithSelfLoops() }, ""},
		{"col without row pointers", func(g *Graph) { g.RowPtr = nil }, "without row pointers"},
		{"first pointer not 0", func(g *Graph) { g.RowPtr[0] = 1 }, "row pointers span"},
		{"last pointer short", func(g *Graph) { g.RowPtr[4] = 3 }, "row pointers span"},
		{"pointer decreases", func(g *Graph) { g.RowPtr[2] = 0 }, "decreases"},
		{"pointer decreases late", func(g *Graph) { g.RowPtr[1], g.RowPtr[2], g.RowPtr[3] = 2, 4, 3 }, "decreases"},
		{"column out of range", func(g *Graph) { g.Col[0] = 4 }, "out of range"},
		{"negative column", func(g *Graph) { g.Col[0] = -1 }, "out of range"},
		{"unsorted row", func(g *Graph) {
			g.RowPtr = []int32{0, 2, 4, 6, 6}
			g.Col = []int32{2, 1, 0, 2, 0, 1}
		}, "not strictly ascending"},
		{"duplicate in row", func(g *Graph) {
			g.RowPtr = []int32{0, 1, 3, 4, 4}
			g.Col = []int32{1, 0, 0, 1}
		}, "not strictly ascending"},
		{"asymmetric", func(g *Graph) { g.Col[3] = 3 }, "no mirror"},
		{"stray self-loop", func(g *Graph) {
			g.RowPtr = []int32{0, 2, 4, 5, 5}
			g.Col = []int32{0, 1, 0, 2, 1}
		}, "self-loop"},
		{"missing self-loop", func(g *Graph) { g.SelfLoops = true }, "self-loop"},
		{"attrs wrong length", func(g *Graph) { g.NodeAttr, g.AttrDim = make([]float64, 7), 2 }, "node attributes"},
		{"attrs without dim", func(g *Graph) { g.NodeAttr = make([]float64, 4) }, "node attributes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := base()
			tt.mutate(g)
			err := g.Validate()
			for k := 2; k <= 5; k++ {
				if errk := g.validate(k); (errk == nil) != (err == nil) {
					t.Fatalf("%d ranges: err = %v, one range: %v", k, errk, err)
				}
			}
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("unexpected error %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Fatalf("err = %v, want it to mention %q", err, tt.want)
			}
		})
	}
}

// TestValidateSymmetryRandom compares Validate with a dense brute-force
// check on random sorted CSR patterns, about half of them symmetric.
func TestValidateSymmetryRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for trial := range 1000 {
		n := 1 + rng.IntN(12)
		dense := make([][]bool, n)
		for i := range dense {
			dense[i] = make([]bool, n)
		}
		for i := range n {
			for j := i + 1; j < n; j++ {
				if rng.IntN(2) == 0 {
					dense[i][j], dense[j][i] = true, true
				}
			}
		}
		if trial%2 == 1 { // flip one to three off-diagonal entries
			for range 1 + rng.IntN(3) {
				i, j := rng.IntN(n), rng.IntN(n)
				if i != j {
					dense[i][j] = !dense[i][j]
				}
			}
		}
		g := &Graph{RowPtr: make([]int32, n+1), Col: []int32{}}
		symmetric := true
		for i := range n {
			for j := range n {
				if dense[i][j] {
					g.Col = append(g.Col, int32(j))
				}
				symmetric = symmetric && dense[i][j] == dense[j][i]
			}
			g.RowPtr[i+1] = int32(len(g.Col))
		}
		if err := g.Validate(); (err == nil) != symmetric {
			t.Fatalf("trial %d: symmetric=%v but Validate = %v (%v)", trial, symmetric, err, dense)
		}
		// The row ranges large graphs are split into must agree.
		for k := 2; k <= n+1; k++ {
			if err := g.validate(k); (err == nil) != symmetric {
				t.Fatalf("trial %d, %d ranges: symmetric=%v but validate = %v (%v)", trial, k, symmetric, err, dense)
			}
		}
	}
}

// TestValidateNamesTheEntry moves one entry of a symmetric R-MAT graph to
// a column its row lacks (the entry count, every row's length and the
// pointers stay the same) and checks that Validate rejects it with the
// error the merge alone gives: the symmetry sums only decide whether the
// merge runs, never what it reports.
func TestValidateNamesTheEntry(t *testing.T) {
	g, err := Generate(GenSpec{Generator: "rmat", Seed: 5, MinNodes: 1 << 10, MaxNodes: 1 << 10, MinEdges: 8000, MaxEdges: 8000}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Validate(); err != nil {
		t.Fatal(err)
	}
	n := g.NumNodes()
	rng := rand.New(rand.NewPCG(5, 39))
	for trial := 0; trial < 200; {
		h := *g
		h.Col = slices.Clone(g.Col)
		v := rng.IntN(n)
		row := h.Col[h.RowPtr[v]:h.RowPtr[v+1]]
		c := int32(rng.IntN(n))
		if len(row) == 0 || int(c) == v || slices.Contains(row, c) {
			continue
		}
		trial++
		row[rng.IntN(len(row))] = c
		slices.Sort(row)
		got := h.Validate()
		want := h.checkMirrors(0, n, make([]mirrorCursor, n))
		if got == nil || want == nil || got.Error() != want.Error() {
			t.Fatalf("row %d given column %d: Validate = %v, the merge = %v", v, c, got, want)
		}
	}
}

// randomGraph returns an Erdos-Renyi G(n, p) graph built through FromEdges.
func randomGraph(rng *rand.Rand, n int, p float64) *Graph {
	var u, v []int32
	for i := range n {
		for j := i + 1; j < n; j++ {
			if rng.Float64() < p {
				// Random orientation and occasional duplicates and loops
				// exercise FromEdges' clean-up.
				if rng.IntN(2) == 0 {
					u, v = append(u, int32(i)), append(v, int32(j))
				} else {
					u, v = append(u, int32(j)), append(v, int32(i))
				}
				if rng.IntN(10) == 0 {
					u, v = append(u, int32(i)), append(v, int32(j))
				}
			}
		}
		if rng.IntN(10) == 0 {
			u, v = append(u, int32(i)), append(v, int32(i))
		}
	}
	g, err := FromEdges(n, u, v)
	if err != nil {
		panic(err)
	}
	return g
}

// TestFromEdgesLarge runs FromEdges above parallelEntries, where rows are
// sorted on every core, and checks the result against the edge set
// deduplicated by sorting the (u, v) pairs.
func TestFromEdgesLarge(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	const n, m = 3000, parallelEntries/2 + 100_000
	u, v := make([]int32, m), make([]int32, m)
	for i := range u {
		// Skewed ids, so that some rows are long, plus loops and repeats.
		u[i], v[i] = int32(rng.IntN(n)*rng.IntN(n)/n), int32(rng.IntN(n))
	}
	g, err := FromEdges(n, u, v)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Col) < parallelEntries {
		t.Fatalf("only %d entries, want the parallel path", len(g.Col))
	}
	if err := g.Validate(); err != nil {
		t.Fatal(err)
	}
	var pairs []int64
	for i := range u {
		if u[i] != v[i] {
			pairs = append(pairs, int64(u[i])<<32|int64(v[i]), int64(v[i])<<32|int64(u[i]))
		}
	}
	slices.Sort(pairs)
	pairs = slices.Compact(pairs)
	if len(pairs) != len(g.Col) {
		t.Fatalf("%d entries, want %d", len(g.Col), len(pairs))
	}
	k := 0
	for r := range n {
		for _, c := range g.Neighbors(r) {
			if pairs[k] != int64(r)<<32|int64(c) {
				t.Fatalf("entry %d is (%d,%d), want (%d,%d)", k, r, c, pairs[k]>>32, pairs[k]&(1<<32-1))
			}
			k++
		}
	}
}
