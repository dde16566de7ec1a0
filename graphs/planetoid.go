package graphs

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"gnnsim/internal/boundedio"
)

// Planetoid is a node-classification data set: a graph, a sparse feature
// row per node, a class per node and a train/validation/test split. It
// holds the Planetoid citation sets (Cora, CiteSeer, PubMed) as Kipf and
// Welling's GCN code reads them, and the gnn-benchmark .npz files.
type Planetoid struct {
	Name   string // data set name, e.g. "cora"
	Source string // "planetoid:ind.cora" or "npz:cora.npz"

	Graph *Graph // undirected, simple (no self-loops), Name and Source as above

	// Features is NumNodes x NumFeatures. Rows the files do not hold are
	// empty and marked false in FeatureRows; FeatureRows is nil when every
	// row was read.
	Features    *SparseMatrix
	FeatureRows []bool

	Labels     []int32 // class of each node in [0, NumClasses), -1 when the files give none
	NumClasses int

	// The split as ascending node ids. The ind files carry the public split
	// (Train the first len(ind.<name>.y) nodes, Val the 500 after them, Test
	// the nodes of ind.<name>.test.index); .npz files carry none (nil) until
	// SplitPerClass draws one.
	Train, Val, Test []int32

	// Missing names what the files lack (absent files and what follows),
	// one line each; empty for a complete data set.
	Missing []string
}

// NumNodes is the number of nodes.
func (p *Planetoid) NumNodes() int { return p.Graph.NumNodes() }

// NumFeatures is the feature dimension.
func (p *Planetoid) NumFeatures() int { return p.Features.Cols }

// FeatureDensity returns the fraction of the feature matrix's entries that
// are non-zero, counted over the rows the files hold (every row unless
// FeatureRows marks some missing: then the density of the rows present, an
// estimate of the whole), and the number of those rows. Stored zeros are
// not counted. It is 0 when no row is present or there are no features.
func (p *Planetoid) FeatureDensity() (density float64, rows int) {
	m := p.Features
	if m == nil || m.Cols == 0 {
		return 0, 0
	}
	rows = m.Rows
	if p.FeatureRows != nil {
		rows = 0
		for _, ok := range p.FeatureRows {
			if ok {
				rows++
			}
		}
	}
	nnz := 0
	for _, v := range m.Val {
		if v != 0 {
			nnz++
		}
	}
	if rows == 0 {
		return 0, 0
	}
	return float64(nnz) / (float64(rows) * float64(m.Cols)), rows
}

// SparseMatrix is a real matrix in compressed sparse row form: row r holds
// the column ids Col[RowPtr[r]:RowPtr[r+1]], strictly ascending, with the
// values Val at the same positions.
type SparseMatrix struct {
	Rows, Cols int
	RowPtr     []int32 // len Rows+1, RowPtr[0] == 0
	Col        []int32
	Val        []float32
}

// NNZ is the number of stored entries.
func (m *SparseMatrix) NNZ() int { return len(m.Col) }

// Row returns the column ids and values of row r (aliased, do not modify).
func (m *SparseMatrix) Row(r int) ([]int32, []float32) {
	a, b := m.RowPtr[r], m.RowPtr[r+1]
	return m.Col[a:b], m.Val[a:b]
}

// Validate checks the CSR invariants: row pointers monotone and spanning
// the entries, column ids in range and strictly ascending within a row,
// values finite.
func (m *SparseMatrix) Validate() error {
	if m.Rows < 0 || m.Cols < 0 || len(m.RowPtr) != m.Rows+1 || m.RowPtr[0] != 0 ||
		int(m.RowPtr[m.Rows]) != len(m.Col) || len(m.Val) != len(m.Col) {
		return fmt.Errorf("graphs: sparse matrix %dx%d with %d row pointers, %d column ids and %d values",
			m.Rows, m.Cols, len(m.RowPtr), len(m.Col), len(m.Val))
	}
	for r := range m.Rows {
		if m.RowPtr[r+1] < m.RowPtr[r] {
			return fmt.Errorf("graphs: sparse matrix row pointer decreases at row %d", r)
		}
		cols, vals := m.Row(r)
		for i, c := range cols {
			if c < 0 || int(c) >= m.Cols || i > 0 && c <= cols[i-1] {
				return fmt.Errorf("graphs: sparse matrix row %d: column %d out of range or order", r, c)
			}
			if x := float64(vals[i]); math.IsNaN(x) || math.IsInf(x, 0) {
				return fmt.Errorf("graphs: sparse matrix row %d: non-finite value", r)
			}
		}
	}
	return nil
}

// canonicalize sorts every row by column id and sums duplicate entries, as
// scipy's sum_duplicates does; the row pointers must already be monotone.
func (m *SparseMatrix) canonicalize() error {
	type entry struct {
		c int32
		v float32
	}
	var row []entry
	w := int32(0)
	for r := range m.Rows {
		a, b := m.RowPtr[r], m.RowPtr[r+1]
		row = row[:0]
		for k := a; k < b; k++ {
			row = append(row, entry{m.Col[k], m.Val[k]})
		}
		slices.SortStableFunc(row, func(x, y entry) int { return cmp.Compare(x.c, y.c) })
		m.RowPtr[r] = w
		for i, e := range row {
			if i > 0 && e.c == row[i-1].c {
				m.Val[w-1] += e.v
				continue
			}
			m.Col[w], m.Val[w] = e.c, e.v
			w++
		}
	}
	m.RowPtr[m.Rows] = w
	m.Col, m.Val = m.Col[:w], m.Val[:w]
	return m.Validate()
}

// The suffixes of a Planetoid file set ind.<name>.<suffix>.
var planetoidSuffixes = []string{"x", "y", "tx", "ty", "allx", "ally", "graph", "test.index"}

// planetoidPrefix resolves path to the prefix dir/ind.<name> of a
// Planetoid file set: path may be the prefix itself, dir/<name>, or one of
// the set's files. ok is false when no ind.<name>.graph file is found.
func planetoidPrefix(path string) (prefix, name string, ok bool) {
	dir, base := filepath.Split(path)
	if strings.HasPrefix(base, "ind.") {
		rest := base[len("ind."):]
		for _, s := range planetoidSuffixes {
			if n, found := strings.CutSuffix(rest, "."+s); found && n != "" {
				rest = n
				break
			}
		}
		base = rest
	}
	if base == "" {
		return "", "", false
	}
	prefix = filepath.Join(dir, "ind."+base)
	if st, err := os.Stat(prefix + ".graph"); err != nil || st.IsDir() {
		return "", "", false
	}
	return prefix, base, true
}

// IsPlanetoid reports whether LoadPlanetoid recognises path: an .npz file,
// or a Planetoid file set named by its prefix (dir/ind.cora or dir/cora)
// or by one of its files.
func IsPlanetoid(path string) bool {
	if strings.EqualFold(filepath.Ext(path), ".npz") {
		return true
	}
	_, _, ok := planetoidPrefix(path)
	return ok
}

// LoadPlanetoid reads a node-classification data set. A path ending in
// .npz is a gnn-benchmark archive (see ReadPlanetoidNPZ); anything else
// names a Planetoid file set ind.<name>.{x,y,tx,ty,allx,ally,graph,
// test.index} by its prefix dir/ind.<name>, by dir/<name>, or by one of
// its files.
//
// The ind files are read as Kipf and Welling's load_data does: node i < N
// of allx/ally is node i, tx/ty row k is node test.index[k], and when
// test.index has gaps (CiteSeer's isolated test nodes) the gap nodes get
// empty feature rows and no label, so CiteSeer has 3,327 nodes. Unlike
// that code, a node without a one-hot label gets -1, not class 0; no node
// of the public split of Cora, CiteSeer or PubMed is affected. A missing
// allx (PubMed in the shared data) is not an error: the data set then has
// features only for the x and tx rows, says so in Missing and FeatureRows,
// and keeps its full graph and labels.
func LoadPlanetoid(path string) (p *Planetoid, err error) {
	if strings.EqualFold(filepath.Ext(path), ".npz") {
		p, err = ReadPlanetoidNPZ(path)
	} else {
		p, err = loadPlanetoidInd(path)
	}
	if err != nil {
		return nil, err
	}
	// The feature matrix is sparse, so a file of a few kilobytes can
	// declare billions of columns; a model over them would then allocate
	// columns x width weights.
	if f := p.NumFeatures(); f > MaxFeatureCols {
		return nil, fmt.Errorf("graphs: %s declares %d feature columns, at most %d", path, f, MaxFeatureCols)
	}
	return p, nil
}

// MaxFeatureCols bounds the feature width of a node-classification data
// set: far above the shared sets (Cora 1,433, CoraFull 8,710 columns), low
// enough that a first layer over it fits in memory.
const MaxFeatureCols = 1 << 20

// loadPlanetoidInd reads the Planetoid file set path names.
func loadPlanetoidInd(path string) (*Planetoid, error) {
	prefix, name, ok := planetoidPrefix(path)
	if !ok {
		return nil, fmt.Errorf("graphs: %s: no Planetoid file set (want dir/ind.<name> with ind.<name>.graph, or an .npz file)", path)
	}
	read := func(suffix string, optional bool) ([]byte, string, error) {
		file := prefix + "." + suffix
		b, err := boundedio.ReadFile(file, boundedio.DataSet)
		if optional && errors.Is(err, fs.ErrNotExist) {
			return nil, file, nil
		}
		if err != nil {
			return nil, file, fmt.Errorf("graphs: %w", err)
		}
		return b, file, nil
	}
	files := map[string][]byte{}
	names := map[string]string{}
	for _, s := range planetoidSuffixes {
		b, file, err := read(s, s == "allx")
		if err != nil {
			return nil, err
		}
		files[s], names[s] = b, file
	}
	p, err := assemblePlanetoid(files, names)
	if err != nil {
		return nil, err
	}
	p.Name, p.Source = name, "planetoid:ind."+name
	p.Graph.Name, p.Graph.Source = p.Name, p.Source
	return p, nil
}

// planetoidValidation is the size of the public validation split.
const planetoidValidation = 500

// assemblePlanetoid builds the data set from the file contents by suffix
// (allx may be nil); names are the file names for errors.
func assemblePlanetoid(files map[string][]byte, names map[string]string) (*Planetoid, error) {
	fn := planetoidNames(names)
	pf, err := decodePlanetoid(files, fn)
	if err != nil {
		return nil, err
	}
	n, err := pf.nodes(fn)
	if err != nil {
		return nil, err
	}
	p, err := pf.labelsAndFeatures(n, fn)
	if err != nil {
		return nil, err
	}
	if p.Graph, err = FromEdges(n, pf.u, pf.v); err != nil {
		return nil, fn.errorf("graph", "%v", err)
	}
	nTrain := len(pf.y)
	p.Train = make([]int32, nTrain)
	p.Val = make([]int32, planetoidValidation)
	for i := range p.Train {
		p.Train[i] = int32(i)
	}
	for i := range p.Val {
		p.Val[i] = int32(nTrain + i)
	}
	p.Test = slices.Sorted(slices.Values(pf.test))
	return p, nil
}

// planetoidNames maps a Planetoid file suffix to its file name.
type planetoidNames map[string]string

// errorf returns a ParseError naming the file of suffix s.
func (fn planetoidNames) errorf(s, format string, args ...any) error {
	return &ParseError{File: fn[s], Err: fmt.Errorf(format, args...)}
}

// planetoidFiles are the decoded contents of a Planetoid file set, before
// their shapes are checked against each other.
type planetoidFiles struct {
	x, tx, allx *SparseMatrix // allx nil when absent
	y, ty, ally []int32
	classes     int
	test        []int32 // test.index, in file order
	u, v        []int32 // graph edges
	graphNodes  int     // nodes the graph's ids need
}

// decodePlanetoid decodes each file of the set on its own (pickles of
// sparse matrices, one-hot labels and the adjacency dict; the test index
// text) and checks only that the three label files agree on the classes.
// It is the pass that reads bytes; the next ones only compare and lay out
// what it decoded.
func decodePlanetoid(files map[string][]byte, fn planetoidNames) (pf planetoidFiles, err error) {
	if pf.x, err = pickleSparse(files["x"], fn["x"]); err != nil {
		return pf, err
	}
	if pf.tx, err = pickleSparse(files["tx"], fn["tx"]); err != nil {
		return pf, err
	}
	if files["allx"] != nil {
		if pf.allx, err = pickleSparse(files["allx"], fn["allx"]); err != nil {
			return pf, err
		}
	}
	var c2, c3 int
	if pf.y, pf.classes, err = pickleOneHot(files["y"], fn["y"]); err != nil {
		return pf, err
	}
	if pf.ty, c2, err = pickleOneHot(files["ty"], fn["ty"]); err != nil {
		return pf, err
	}
	if pf.ally, c3, err = pickleOneHot(files["ally"], fn["ally"]); err != nil {
		return pf, err
	}
	if c2 != pf.classes || c3 != pf.classes || pf.classes == 0 {
		return pf, fn.errorf("ty", "label files have %d (y), %d (ty) and %d (ally) classes", pf.classes, c2, c3)
	}
	if pf.test, err = readTestIndex(files["test.index"], fn["test.index"]); err != nil {
		return pf, err
	}
	pf.u, pf.v, pf.graphNodes, err = pickleAdjacency(files["graph"], fn["graph"])
	return pf, err
}

// nodes checks the files' shapes against each other and returns the
// number of nodes of the data set. x/y are the training rows, the first
// rows of allx/ally; tx/ty are the test rows, in test.index order; the
// test ids follow the rows of ally, possibly with gaps. Every shape error
// is found here, before any per-node array is allocated.
func (pf *planetoidFiles) nodes(fn planetoidNames) (int, error) {
	x, tx, allx, test := pf.x, pf.tx, pf.allx, pf.test
	nAll, nTrain := len(pf.ally), len(pf.y)
	switch {
	case x.Rows != nTrain:
		return 0, fn.errorf("x", "%d rows for %d training labels", x.Rows, nTrain)
	case allx != nil && allx.Rows != nAll:
		return 0, fn.errorf("allx", "%d rows for %d labels in ally", allx.Rows, nAll)
	case tx.Rows != len(pf.ty) || len(test) != len(pf.ty):
		return 0, fn.errorf("tx", "%d test rows, %d test labels, %d test indices", tx.Rows, len(pf.ty), len(test))
	case tx.Cols != x.Cols || allx != nil && allx.Cols != x.Cols:
		return 0, fn.errorf("tx", "feature dimensions differ between x, tx and allx")
	case nTrain+planetoidValidation > nAll:
		return 0, fn.errorf("ally", "%d rows cannot hold %d training and %d validation nodes", nAll, nTrain, planetoidValidation)
	case !slices.Equal(pf.y, pf.ally[:nTrain]):
		return 0, fn.errorf("y", "training labels differ from the first %d rows of ally", nTrain)
	}
	if len(test) == 0 {
		return 0, fn.errorf("test.index", "no test nodes")
	}
	lo, hi := slices.Min(test), slices.Max(test)
	if int(lo) != nAll {
		return 0, fn.errorf("test.index", "test ids start at %d, want %d (the node after the %d rows of allx/ally)", lo, nAll, nAll)
	}
	n := int(hi) + 1
	if gaps := n - nAll - len(test); gaps > len(test) {
		// CiteSeer has 15 gaps for 1,000 test nodes; this many means a corrupt index.
		return 0, fn.errorf("test.index", "test ids span %d nodes for %d test rows", n-nAll, len(test))
	}
	if pf.graphNodes > n {
		return 0, fn.errorf("graph", "node id %d beyond the %d nodes of the feature and label files", pf.graphNodes-1, n)
	}
	if n > math.MaxInt32 {
		return 0, fn.errorf("test.index", "%d nodes exceed the int32 id range", n)
	}
	return n, nil
}

// planetoidRow is where a node's feature row comes from: row r of m, or
// no row when m is nil.
type planetoidRow struct {
	m *SparseMatrix
	r int
}

// labelsAndFeatures lays the labels and feature rows of the files out by
// node id over n nodes: node r < len(ally) is row r of allx (or of x),
// test node test[k] is row k of tx, and every other node (a gap in
// test.index, or a validation node without allx) has no features and, past
// ally, label -1. Without allx it records which rows have features and
// says so in Missing. It is the pass that builds per-node arrays, once
// nodes has found the shapes consistent.
func (pf *planetoidFiles) labelsAndFeatures(n int, fn planetoidNames) (*Planetoid, error) {
	x, tx, allx := pf.x, pf.tx, pf.allx
	nAll, nTrain := len(pf.ally), len(pf.y)
	p := &Planetoid{NumClasses: pf.classes, Labels: make([]int32, n)}
	src := make([]planetoidRow, n)
	for r := range nAll {
		p.Labels[r] = pf.ally[r]
		switch {
		case allx != nil:
			src[r] = planetoidRow{allx, r}
		case r < nTrain:
			src[r] = planetoidRow{x, r}
		}
	}
	for r := nAll; r < n; r++ {
		p.Labels[r] = -1
	}
	seen := make([]bool, n)
	for k, id := range pf.test {
		if seen[id] {
			return nil, fn.errorf("test.index", "node %d listed twice", id)
		}
		seen[id] = true
		src[id] = planetoidRow{tx, k}
		p.Labels[id] = pf.ty[k]
	}
	feat := &SparseMatrix{Rows: n, Cols: x.Cols, RowPtr: make([]int32, n+1)}
	missing := 0
	for r, s := range src {
		if s.m == nil {
			missing++
		} else {
			cols, vals := s.m.Row(s.r)
			feat.Col = append(feat.Col, cols...)
			feat.Val = append(feat.Val, vals...)
		}
		if len(feat.Col) > math.MaxInt32 {
			return nil, fn.errorf("tx", "more than %d feature entries", math.MaxInt32)
		}
		feat.RowPtr[r+1] = int32(len(feat.Col))
	}
	p.Features = feat
	if allx == nil {
		p.FeatureRows = make([]bool, n)
		for r, s := range src {
			p.FeatureRows[r] = s.m != nil
		}
		p.Missing = append(p.Missing, fmt.Sprintf(
			"%s absent: features only for the %d training rows (x) and the %d test rows (tx); the other %d of %d nodes, the %d validation nodes among them, have none",
			filepath.Base(fn["allx"]), nTrain, tx.Rows, missing, n, planetoidValidation))
	}
	return p, nil
}

// readTestIndex parses ind.<name>.test.index: one node id per line.
func readTestIndex(data []byte, file string) ([]int32, error) {
	s := newLineScanner(strings.NewReader(string(data)), file)
	var ids []int32
	for s.scan() {
		t := s.text()
		if len(t) == 0 {
			continue
		}
		x, ok := parseDecInt(t)
		if !ok || x < 0 || x >= math.MaxInt32 {
			return nil, s.errorf("node id %s is not a non-negative int32", quoteToken(t))
		}
		ids = append(ids, int32(x))
	}
	if err := s.err(); err != nil {
		return nil, err
	}
	return ids, nil
}

// SplitPerClass draws a split the way the gnn-benchmark study does
// (Shchur et al., "Pitfalls of GNN evaluation", 2018): trainPerClass
// labelled nodes of every class for training, valPerClass for validation,
// and every other labelled node for testing, chosen by a PCG stream of
// seed. It replaces p's Train, Val and Test (ascending) and fails when a
// class has fewer than trainPerClass+valPerClass nodes.
func (p *Planetoid) SplitPerClass(trainPerClass, valPerClass int, seed uint64) error {
	if trainPerClass < 1 || valPerClass < 0 {
		return fmt.Errorf("graphs: split of %d training and %d validation nodes per class", trainPerClass, valPerClass)
	}
	byClass := make([][]int32, p.NumClasses)
	for v, c := range p.Labels {
		if c >= 0 {
			byClass[c] = append(byClass[c], int32(v))
		}
	}
	rng := rand.New(rand.NewPCG(seed, 0x73706c6974)) // stream "split"
	var train, val, test []int32
	for c, nodes := range byClass {
		if len(nodes) < trainPerClass+valPerClass {
			return fmt.Errorf("graphs: %s: class %d has %d nodes, fewer than %d+%d", p.Name, c, len(nodes), trainPerClass, valPerClass)
		}
		rng.Shuffle(len(nodes), func(i, j int) { nodes[i], nodes[j] = nodes[j], nodes[i] })
		train = append(train, nodes[:trainPerClass]...)
		val = append(val, nodes[trainPerClass:trainPerClass+valPerClass]...)
		test = append(test, nodes[trainPerClass+valPerClass:]...)
	}
	slices.Sort(train)
	slices.Sort(val)
	slices.Sort(test)
	p.Train, p.Val, p.Test = train, val, test
	return nil
}
