package graphs

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"

	"gnnsim/internal/par"
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

	released int // stored entries whose column ids ReleaseCols dropped
}

// NumNodes returns V.
func (g *Graph) NumNodes() int {
	if len(g.RowPtr) == 0 {
		return 0
	}
	return len(g.RowPtr) - 1
}

// NNZ returns the number of stored entries (directed, self-loops included),
// also after ReleaseCols.
func (g *Graph) NNZ() int { return len(g.Col) + g.released }

// ReleaseCols drops the column ids of g, keeping its row pointers: for a
// consumer that needs only the row lengths, once the graph has been
// validated (the accelerator model of package accel times a row by its
// length alone, and at 10^9 edges the column ids are 8 GB). NNZ and
// NumEdges keep their values; nothing that reads the columns (Neighbors,
// Validate, the features, writing a set) may be called afterwards.
func (g *Graph) ReleaseCols() {
	g.released = g.NNZ()
	g.Col = nil
}

// ColsReleased reports whether ReleaseCols dropped g's column ids.
func (g *Graph) ColsReleased() bool { return g.released > 0 }

// NumEdges returns the number of undirected edges, self-loops excluded.
func (g *Graph) NumEdges() int {
	nnz := g.NNZ()
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
	return fromEdges(n, u, v, noMeter{})
}

// fromEdges is FromEdges telling meter about its three passes (count,
// fill, sort) as one stage of 6*len(u) entry visits, two per edge and
// pass; graphs below parallelEntries entries report nothing.
func fromEdges(n int, u, v []int32, meter Meter) (*Graph, error) {
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
	if 2*len(u) < parallelEntries {
		meter = noMeter{}
	}
	meter.Stage("csr", "entry visits", 6*int64(len(u)))
	deg := make([]int32, n+1)
	for i := range u {
		a, b := u[i], v[i]
		if a < 0 || int(a) >= n || b < 0 || int(b) >= n {
			return nil, fmt.Errorf("graphs: edge %d (%d,%d) out of range [0,%d)", i, a, b, n)
		}
		if (i+1)%meterBlock == 0 {
			meter.Add(2 * meterBlock)
		}
		if a == b {
			continue
		}
		deg[a+1]++
		deg[b+1]++
	}
	meter.Add(2 * int64(len(u)%meterBlock))
	for i := 1; i <= n; i++ {
		deg[i] += deg[i-1]
	}
	col := make([]int32, deg[n])
	next := slices.Clone(deg[:n])
	for i := range u {
		if (i+1)%meterBlock == 0 {
			meter.Add(2 * meterBlock)
		}
		a, b := u[i], v[i]
		if a == b {
			continue
		}
		col[next[a]] = b
		next[a]++
		col[next[b]] = a
		next[b]++
	}
	meter.Add(2 * int64(len(u)%meterBlock))
	g := finishCSR(n, deg, col, next, meter)
	meter.Add(2*int64(len(u)) - int64(deg[n]))
	return g, nil
}

// finishCSR sorts and dedupes each row of col (row r at
// col[deg[r]:deg[r+1]]) in place (rows are independent, so large graphs do
// it on every core), then closes the gaps left by duplicates; next is
// scratch of n entries (it becomes the number of distinct entries of each
// row). The meter hears the entries sorted.
func finishCSR(n int, deg, col, next []int32, meter Meter) *Graph {
	sortRows(n, deg, col, next, func(entries int) { meter.Add(int64(entries)) })
	rowPtr := make([]int32, n+1)
	w := int32(0)
	for r := 0; r < n; r++ {
		k := next[r]
		if w != deg[r] {
			copy(col[w:w+k], col[deg[r]:deg[r]+k])
		}
		w += k
		rowPtr[r+1] = w
	}
	return &Graph{RowPtr: rowPtr, Col: slices.Clip(col[:w])}
}

// parallelEntries is the size from which sortRows splits its work between
// the cores; below it, goroutines cost more than they save (and sets of
// small graphs are already made in parallel, one per core).
const parallelEntries = 1 << 20

// sortRows sorts each row r, col[ptr[r]:ptr[r+1]], removes its duplicates
// in place and stores its distinct length in uniq[r].
// done (when not nil) hears the entries of every range sorted.
func sortRows(n int, ptr, col, uniq []int32, done func(entries int)) {
	sortRange := func(lo, hi int) {
		for r := lo; r < hi; r++ {
			row := col[ptr[r]:ptr[r+1]]
			slices.Sort(row)
			uniq[r] = int32(len(slices.Compact(row)))
		}
		if done != nil {
			done(int(ptr[hi] - ptr[lo]))
		}
	}
	if len(col) < parallelEntries {
		sortRange(0, n)
		return
	}
	bounds := rowChunks(ptr, n, max(4*runtime.GOMAXPROCS(0), len(col)/meterBlock))
	par.For(len(bounds)-1, 0, func(c int) error {
		sortRange(bounds[c], bounds[c+1])
		return nil
	})
}

// rowChunks splits rows [0, n) into at most k ranges of about equal entry
// counts (ptr are row pointers) and returns their bounds.
func rowChunks(ptr []int32, n, k int) []int {
	bounds := make([]int, 1, k+1)
	total := int64(ptr[n])
	for c := 1; c < k; c++ {
		want := int32(total * int64(c) / int64(k))
		r, _ := slices.BinarySearch(ptr[:n+1], want)
		if r > bounds[len(bounds)-1] && r < n {
			bounds = append(bounds, r)
		}
	}
	return append(bounds, n)
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
// says. It runs in O(V + E) time. Large graphs are checked on every core
// in a fixed number of row ranges that depends only on the graph, so the
// error reported for a broken graph does not depend on the core count.
// It is meant for loaders, set readers, tests and fuzzing.
func (g *Graph) Validate() error {
	return g.validate(validateChunks(len(g.Col)))
}

// validateChunks is the number of row ranges Validate splits a graph of
// nnz entries into: one per 2^25 entries from 2^26 on, at most 8. Ranges
// only pay when a core is free: on 2 shared cores one range was fastest up
// to 10^7 edges. Ranges of equal entry counts hold unequal work in the
// merge of an asymmetric graph (the hubs' entries are mostly upper), so
// large graphs get more ranges than cores and par.For balances them. The
// count depends only on the graph, so the error reported for a broken
// graph does not depend on the core count.
func validateChunks(nnz int) int {
	if nnz < 1<<26 {
		return 1
	}
	return min(nnz>>25, 8)
}

// validate is Validate with k row ranges of about equal entry counts.
func (g *Graph) validate(k int) error {
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
	// All pointers first: the checks below read other rows.
	for v := 0; v < n; v++ {
		if g.RowPtr[v+1] < g.RowPtr[v] {
			return fmt.Errorf("graphs: row pointer decreases at row %d", v)
		}
	}
	bounds := rowChunks(g.RowPtr, n, k)
	// Every row on its own first (the merge below needs sorted rows),
	// summing the hashes of the upper and the mirrored lower entries.
	sums := make([]mirrorSums, len(bounds)-1)
	err := par.For(len(bounds)-1, 0, func(c int) error {
		return g.checkRows(bounds[c], bounds[c+1], &sums[c])
	})
	if err != nil {
		return err
	}
	var total mirrorSums
	for _, s := range sums {
		total.add(s)
	}
	if total.up == total.down {
		return nil
	}
	// Not symmetric: the merge names the first entry without its mirror.
	// One cursor pair per row, shared: each range of rows c (the rows
	// whose lower entries it matches) uses only its own rows' cursors.
	cur := make([]mirrorCursor, n)
	err = par.For(len(bounds)-1, 0, func(c int) error {
		return g.checkMirrors(bounds[c], bounds[c+1], cur)
	})
	if err == nil {
		// Equal entry sets have equal sums: this is a bug, not bad input.
		err = errors.New("graphs: internal error: the symmetry sums differ but every entry has its mirror")
	}
	return err
}

// mirrorSums are the sums (mod 2^64) of two independent hashes of every
// upper entry (v, c), c > v, and of every lower entry (c, v) mirrored to
// (v, c). Rows hold no duplicates (checkRows), so the upper and the
// mirrored lower entries are two sets, equal exactly when the matrix is
// symmetric: a symmetric matrix always has up == down, and an asymmetric
// one has it only if both 64-bit sums of the hashes of the entries that
// differ vanish, which for hashes that behave as random happens with
// probability 2^-128. So symmetry costs one sequential pass over the
// entries instead of a random access per entry (the merge, checkMirrors,
// which now runs only to name the entry of an asymmetric matrix): at 10^9
// edges, seconds instead of the 20 s the accesses took on 2 cores.
type mirrorSums struct{ up, down [2]uint64 }

func (s *mirrorSums) add(t mirrorSums) {
	for i := range 2 {
		s.up[i] += t.up[i]
		s.down[i] += t.down[i]
	}
}

// pairHashes returns two independent hashes of the pair (a, b): the
// SplitMix64 and MurmurHash3 64-bit finalizers (bijections of 64 bits
// with full avalanche) of the pair's 64-bit key, mixed with different
// constants.
func pairHashes(a, b int32) (uint64, uint64) {
	k := uint64(uint32(a))<<32 | uint64(uint32(b))
	x := k*0x9e3779b97f4a7c15 + 0x632be59bd9b4e019
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	x ^= x >> 31
	y := k ^ 0xd6e8feb86659fd93
	y = (y ^ y>>33) * 0xff51afd7ed558ccd
	y = (y ^ y>>33) * 0xc4ceb9fe1a85ec53
	y ^= y >> 33
	return x, y
}

// checkRows checks rows [lo, hi) on their own: ids in range, strictly
// ascending, and a self-loop exactly when SelfLoops says so; it adds the
// rows' upper and mirrored lower entries to s.
func (g *Graph) checkRows(lo, hi int, s *mirrorSums) error {
	n := g.NumNodes()
	var up, down [2]uint64
	for v := lo; v < hi; v++ {
		row := g.Neighbors(v)
		loop := false
		for i, c := range row {
			if c < 0 || int(c) >= n {
				return fmt.Errorf("graphs: row %d: column %d out of range", v, c)
			}
			if i > 0 && c <= row[i-1] {
				return fmt.Errorf("graphs: row %d not strictly ascending", v)
			}
			switch {
			case int(c) > v:
				x, y := pairHashes(int32(v), c)
				up[0] += x
				up[1] += y
			case int(c) < v:
				x, y := pairHashes(c, int32(v))
				down[0] += x
				down[1] += y
			default:
				loop = true
			}
		}
		if loop != g.SelfLoops {
			return fmt.Errorf("graphs: row %d self-loop=%v, graph SelfLoops=%v", v, loop, g.SelfLoops)
		}
	}
	*s = mirrorSums{up, down}
	return nil
}

// mirrorCursor is a row's next unmatched entry and its end (row c's
// pointers ptr[c] and ptr[c+1] to begin with): side by side, a match
// costs one random access for both.
type mirrorCursor struct{ next, end int32 }

// checkMirrors checks the symmetry of the entries (v, c) and (c, v) with
// c > v and c in [lo, hi), on sorted rows. It matches each upper entry
// (v, c) with the lower entry (c, v) by merging: visiting v in ascending
// order, (c, v) must be the next unmatched entry of row c, because row c
// lists its neighbours in that same ascending order; cur[c].next is that
// position (cur is scratch of V entries, of which rows [lo, hi) are
// used). A lower entry skipped over, or left unmatched at the end, has no
// upper mirror. When every range passes, every off-diagonal entry has its
// mirror, so the matrix is symmetric; only half the entries need the
// random accesses of a match, and only the rows v < hi are visited. With
// one range [0, V) the errors are those of a serial merge over all rows.
func (g *Graph) checkMirrors(lo, hi int, cur []mirrorCursor) error {
	ptr, col := g.RowPtr, g.Col
	for c := lo; c < hi; c++ {
		cur[c] = mirrorCursor{ptr[c], ptr[c+1]}
	}
	for v := 0; v < hi-1; v++ {
		p0, p1 := ptr[v], ptr[v+1]
		first := int32(max(v+1, lo)) // the first column of interest
		if p0 == p1 || col[p1-1] < first || col[p0] >= int32(hi) {
			continue
		}
		row := col[p0:p1]
		i := 0
		if col[p0] < first {
			i, _ = slices.BinarySearch(row, first)
		}
		for _, c := range row[i:] {
			if c >= int32(hi) {
				break
			}
			m := &cur[c]
			k := m.next
			if k == m.end || col[k] > int32(v) {
				return fmt.Errorf("graphs: edge (%d,%d) has no mirror", v, c)
			}
			if col[k] < int32(v) {
				return fmt.Errorf("graphs: edge (%d,%d) has no mirror", c, col[k])
			}
			m.next++
		}
	}
	// Every lower entry (c, x), x < c, must have been matched.
	for c := lo; c < hi; c++ {
		if m := cur[c]; m.next < m.end && col[m.next] < int32(c) {
			return fmt.Errorf("graphs: edge (%d,%d) has no mirror", c, col[m.next])
		}
	}
	return nil
}
