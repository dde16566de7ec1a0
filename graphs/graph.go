package graphs

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// MaxEntries is the largest number of stored (directed) adjacency entries a
// Graph can hold: row pointers and column ids are int32 to halve the memory
// traffic of the aggregation loops, and every graph in the seed papers fits.
const MaxEntries = math.MaxInt32

// Graph is an undirected graph stored as a symmetric CSR adjacency matrix.
//
// Row v lists the neighbours of node v in ascending order, each undirected
// edge {u,v} appears twice (u in row v, v in row u), and there are no
// duplicates. Self-loops appear only when SelfLoops is true, and then every
// node has exactly one (A+I, as GCN uses it).
type Graph struct {
	Name   string // human-readable identifier, unique within a set when possible
	Source string // provenance: file, generator and parameters, ...

	RowPtr    []int32 // len NumNodes()+1, RowPtr[0] == 0
	Col       []int32 // len RowPtr[NumNodes()], sorted within each row
	SelfLoops bool    // every node carries a self-loop (A+I)

	// Optional per-node attributes (TUDataset node_attributes), row-major
	// NumNodes() x AttrDim. Nil when absent.
	NodeAttr []float64
	AttrDim  int

	// Optional graph label (TUDataset graph_labels). Valid when HasLabel.
	Label    int64
	HasLabel bool
}

// NumNodes returns V.
func (g *Graph) NumNodes() int {
	if len(g.RowPtr) == 0 {
		return 0
	}
	return len(g.RowPtr) - 1
}

// NNZ returns the number of stored entries (directed, self-loops included).
func (g *Graph) NNZ() int { return len(g.Col) }

// NumEdges returns the number of undirected edges, self-loops excluded.
func (g *Graph) NumEdges() int {
	nnz := len(g.Col)
	if g.SelfLoops {
		nnz -= g.NumNodes()
	}
	return nnz / 2
}

// Degree returns the number of stored entries of row v (self-loop included
// when SelfLoops is set).
func (g *Graph) Degree(v int) int { return int(g.RowPtr[v+1] - g.RowPtr[v]) }

// Neighbors returns row v of the adjacency (aliased, do not modify).
func (g *Graph) Neighbors(v int) []int32 { return g.Col[g.RowPtr[v]:g.RowPtr[v+1]] }

// MaxDegree returns the largest row length.
func (g *Graph) MaxDegree() int {
	m := 0
	for v := 0; v < g.NumNodes(); v++ {
		m = max(m, g.Degree(v))
	}
	return m
}

// FromEdges builds a Graph on n nodes from the endpoint lists u and v
// (edge i joins u[i] and v[i]). Edges are symmetrized, duplicates are merged
// and self-loops dropped; ids must lie in [0, n). Isolated nodes are kept.
// It runs in O(n + len(u)) time with a counting sort.
func FromEdges(n int, u, v []int32) (*Graph, error) {
	if n < 0 {
		return nil, fmt.Errorf("graphs: negative node count %d", n)
	}
	if n > math.MaxInt32 {
		return nil, fmt.Errorf("graphs: %d nodes exceed the int32 id range", n)
	}
	if len(u) != len(v) {
		return nil, fmt.Errorf("graphs: endpoint lists differ in length (%d vs %d)", len(u), len(v))
	}
	if 2*int64(len(u)) > MaxEntries {
		return nil, fmt.Errorf("graphs: %d edges exceed the CSR limit of %d entries", len(u), MaxEntries)
	}
	deg := make([]int32, n+1)
	for i := range u {
		a, b := u[i], v[i]
		if a < 0 || int(a) >= n || b < 0 || int(b) >= n {
			return nil, fmt.Errorf("graphs: edge %d (%d,%d) out of range [0,%d)", i, a, b, n)
		}
		if a == b {
			continue
		}
		deg[a+1]++
		deg[b+1]++
	}
	for i := 1; i <= n; i++ {
		deg[i] += deg[i-1]
	}
	col := make([]int32, deg[n])
	next := slices.Clone(deg[:n])
	for i := range u {
		a, b := u[i], v[i]
		if a == b {
			continue
		}
		col[next[a]] = b
		next[a]++
		col[next[b]] = a
		next[b]++
	}
	// Sort and dedupe each row in place, compacting as we go.
	rowPtr := make([]int32, n+1)
	w := int32(0)
	for r := 0; r < n; r++ {
		row := col[deg[r]:deg[r+1]]
		slices.Sort(row)
		for i, c := range row {
			if i > 0 && c == row[i-1] {
				continue
			}
			col[w] = c
			w++
		}
		rowPtr[r+1] = w
	}
	return &Graph{RowPtr: rowPtr, Col: slices.Clip(col[:w])}, nil
}

// WithSelfLoops returns A+I: a copy of g with a self-loop on every node, as
// GCN's normalised adjacency needs. A graph that already has them is returned
// as is.
func (g *Graph) WithSelfLoops() *Graph {
	if g.SelfLoops {
		return g
	}
	n := g.NumNodes()
	h := *g
	h.SelfLoops = true
	h.RowPtr = make([]int32, n+1)
	h.Col = make([]int32, 0, len(g.Col)+n)
	for v := 0; v < n; v++ {
		row := g.Neighbors(v)
		i, _ := slices.BinarySearch(row, int32(v))
		h.Col = append(h.Col, row[:i]...)
		h.Col = append(h.Col, int32(v))
		h.Col = append(h.Col, row[i:]...)
		h.RowPtr[v+1] = int32(len(h.Col))
	}
	return &h
}

// WithoutSelfLoops returns A from A+I (g itself when it has no self-loops).
func (g *Graph) WithoutSelfLoops() *Graph {
	if !g.SelfLoops {
		return g
	}
	n := g.NumNodes()
	h := *g
	h.SelfLoops = false
	h.RowPtr = make([]int32, n+1)
	h.Col = make([]int32, 0, len(g.Col)-n)
	for v := 0; v < n; v++ {
		for _, c := range g.Neighbors(v) {
			if int(c) != v {
				h.Col = append(h.Col, c)
			}
		}
		h.RowPtr[v+1] = int32(len(h.Col))
	}
	return &h
}

// Validate checks the CSR invariants: monotone row pointers, ids in range,
// sorted duplicate-free rows, symmetry, and self-loops exactly as SelfLoops
// says. It runs in O(V + E) time with one int32 array of V entries, and is
// meant for loaders, set readers, tests and fuzzing.
func (g *Graph) Validate() error {
	n := g.NumNodes()
	if len(g.RowPtr) == 0 {
		if len(g.Col) != 0 {
			return errors.New("graphs: column ids without row pointers")
		}
		return nil
	}
	if g.RowPtr[0] != 0 || int(g.RowPtr[n]) != len(g.Col) {
		return fmt.Errorf("graphs: row pointers span [%d,%d], want [0,%d]", g.RowPtr[0], g.RowPtr[n], len(g.Col))
	}
	if g.NodeAttr != nil && (g.AttrDim <= 0 || len(g.NodeAttr) != n*g.AttrDim) {
		return fmt.Errorf("graphs: %d node attributes for %d nodes of dimension %d", len(g.NodeAttr), n, g.AttrDim)
	}
	// All pointers first: the symmetry check below reads other rows.
	for v := 0; v < n; v++ {
		if g.RowPtr[v+1] < g.RowPtr[v] {
			return fmt.Errorf("graphs: row pointer decreases at row %d", v)
		}
	}
	for v := 0; v < n; v++ {
		row := g.Neighbors(v)
		loop := false
		for i, c := range row {
			if c < 0 || int(c) >= n {
				return fmt.Errorf("graphs: row %d: column %d out of range", v, c)
			}
			if i > 0 && c <= row[i-1] {
				return fmt.Errorf("graphs: row %d not strictly ascending", v)
			}
			loop = loop || int(c) == v
		}
		if loop != g.SelfLoops {
			return fmt.Errorf("graphs: row %d self-loop=%v, graph SelfLoops=%v", v, loop, g.SelfLoops)
		}
	}
	// Symmetry by merging instead of binary searches: visiting rows v in
	// ascending order, every entry c of row v must match the next unvisited
	// entry of row c, because row c lists its neighbours in that same
	// ascending order. Each entry consumes one entry of another row and no
	// row can be over-consumed, so when every match succeeds all rows are
	// consumed exactly and the matrix is symmetric.
	next := slices.Clone(g.RowPtr[:n])
	for v := 0; v < n; v++ {
		for _, c := range g.Neighbors(v) {
			k := next[c]
			if k == g.RowPtr[c+1] || g.Col[k] > int32(v) {
				return fmt.Errorf("graphs: edge (%d,%d) has no mirror", v, c)
			}
			if g.Col[k] < int32(v) {
				return fmt.Errorf("graphs: edge (%d,%d) has no mirror", c, g.Col[k])
			}
			next[c]++
		}
	}
	return nil
}
