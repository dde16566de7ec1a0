package graphs

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sbinet/npyio/npz"
)

// pyPickle writes Python 2 style protocol-2 pickles of the objects the
// Planetoid files hold, opcode by opcode as Python 2's cPickle emits them,
// so that the loader can be tested without the shared data.
type pyPickle struct{ bytes.Buffer }

func newPyPickle() *pyPickle {
	p := &pyPickle{}
	p.WriteString("\x80\x02")
	return p
}

func (p *pyPickle) global(module, name string) { p.WriteString("c" + module + "\n" + name + "\n") }

func (p *pyPickle) int(x int) {
	p.WriteByte('J')
	binary.Write(&p.Buffer, binary.LittleEndian, int32(x))
}

func (p *pyPickle) str(s string) {
	if len(s) < 256 {
		p.WriteByte('U')
		p.WriteByte(byte(len(s)))
	} else {
		p.WriteByte('T')
		binary.Write(&p.Buffer, binary.LittleEndian, int32(len(s)))
	}
	p.WriteString(s)
}

func (p *pyPickle) tuple(xs ...int) {
	p.WriteByte('(')
	for _, x := range xs {
		p.int(x)
	}
	p.WriteByte('t')
}

// ndarray pickles a numpy array of the given type code ("f4", "i4", "f8")
// and shape from little-endian raw data.
func (p *pyPickle) ndarray(code string, shape []int, raw []byte) {
	p.global("numpy.core.multiarray", "_reconstruct")
	p.global("numpy", "ndarray")
	p.WriteString("K\x00\x85")
	p.str("b")
	p.WriteString("\x87R(K\x01")
	p.tuple(shape...)
	p.global("numpy", "dtype")
	p.str(code)
	p.WriteString("K\x00K\x01\x87R(K\x03")
	p.str("<")
	p.WriteString("NNNJ\xff\xff\xff\xffJ\xff\xff\xff\xffK\x00tb\x89")
	p.str(string(raw))
	p.WriteString("tb")
}

func le[T int32 | float32 | float64](xs ...T) []byte {
	var b bytes.Buffer
	binary.Write(&b, binary.LittleEndian, xs)
	return b.Bytes()
}

// pickleCSRBytes pickles a scipy csr_matrix.
func pickleCSRBytes(rows, cols int, ptr, idx []int32, vals []float32) []byte {
	p := newPyPickle()
	p.global("scipy.sparse.csr", "csr_matrix")
	p.WriteString(")\x81}(")
	p.str("_shape")
	p.tuple(rows, cols)
	p.str("maxprint")
	p.int(50)
	p.str("indptr")
	p.ndarray("i4", []int{len(ptr)}, le(ptr...))
	p.str("indices")
	p.ndarray("i4", []int{len(idx)}, le(idx...))
	p.str("data")
	p.ndarray("f4", []int{len(vals)}, le(vals...))
	p.str("format")
	p.str("csr")
	p.WriteString("ub.")
	return p.Bytes()
}

// pickleDenseCSR pickles a dense row-major matrix as a csr_matrix.
func pickleDenseCSR(rows, cols int, dense []float32) []byte {
	ptr := []int32{0}
	var idx []int32
	var vals []float32
	for r := range rows {
		for c := range cols {
			if x := dense[r*cols+c]; x != 0 {
				idx, vals = append(idx, int32(c)), append(vals, x)
			}
		}
		ptr = append(ptr, int32(len(idx)))
	}
	return pickleCSRBytes(rows, cols, ptr, idx, vals)
}

// pickleOneHotBytes pickles a float64 one-hot label matrix; label -1 is an
// all-zero row.
func pickleOneHotBytes(classes int, labels ...int) []byte {
	m := make([]float64, len(labels)*classes)
	for r, c := range labels {
		if c >= 0 {
			m[r*classes+c] = 1
		}
	}
	p := newPyPickle()
	p.ndarray("f8", []int{len(labels), classes}, le(m...))
	p.WriteByte('.')
	return p.Bytes()
}

// pickleGraphBytes pickles a defaultdict(list) of adjacency lists.
func pickleGraphBytes(adj map[int][]int) []byte {
	p := newPyPickle()
	p.global("collections", "defaultdict")
	p.global("__builtin__", "list")
	p.WriteString("\x85R(")
	keys := make([]int, 0, len(adj))
	for k := range adj {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		p.int(k)
		p.WriteString("](")
		for _, x := range adj[k] {
			p.int(x)
		}
		p.WriteByte('e')
	}
	p.WriteString("u.")
	return p.Bytes()
}

// toyPlanetoid writes a CiteSeer-like file set: 2 training nodes, 500
// validation nodes, test nodes 502, 503 and 505 (504 is a gap), 3 features
// and 2 classes. It returns the prefix dir/ind.toy.
func toyPlanetoid(t *testing.T, withAllx bool) string {
	t.Helper()
	dir := t.TempDir()
	const nAll = 502
	feat := func(r int) []float32 { return []float32{float32(r % 2), 1, float32(r % 3)} }
	label := func(r int) int { return r % 2 }
	var allx []float32
	var ally []int
	for r := range nAll {
		allx = append(allx, feat(r)...)
		ally = append(ally, label(r))
	}
	test := []int{505, 502, 503}
	var tx []float32
	var ty []int
	for _, r := range test {
		tx = append(tx, feat(r)...)
		ty = append(ty, label(r))
	}
	files := map[string][]byte{
		"x":          pickleDenseCSR(2, 3, allx[:6]),
		"y":          pickleOneHotBytes(2, ally[:2]...),
		"tx":         pickleDenseCSR(3, 3, tx),
		"ty":         pickleOneHotBytes(2, ty...),
		"ally":       pickleOneHotBytes(2, ally...),
		"graph":      pickleGraphBytes(map[int][]int{0: {1, 505, 0}, 1: {0}, 502: {503}, 505: {0, 0}}),
		"test.index": []byte("505\n502\n503\n"),
	}
	if withAllx {
		files["allx"] = pickleDenseCSR(nAll, 3, allx)
	}
	for s, b := range files {
		if err := os.WriteFile(filepath.Join(dir, "ind.toy."+s), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "ind.toy")
}

func TestLoadPlanetoidToy(t *testing.T) {
	for _, withAllx := range []bool{true, false} {
		prefix := toyPlanetoid(t, withAllx)
		p, err := LoadPlanetoid(filepath.Join(filepath.Dir(prefix), "toy"))
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Graph.Validate(); err != nil {
			t.Fatal(err)
		}
		if err := p.Features.Validate(); err != nil {
			t.Fatal(err)
		}
		if p.Name != "toy" || p.Source != "planetoid:ind.toy" || p.NumNodes() != 506 || p.NumFeatures() != 3 || p.NumClasses != 2 {
			t.Fatalf("toy: %q %q V=%d F=%d C=%d", p.Name, p.Source, p.NumNodes(), p.NumFeatures(), p.NumClasses)
		}
		if got := loadedEdges(p.Graph); !slices.Equal(got, [][2]int32{{0, 1}, {0, 505}, {502, 503}}) {
			t.Errorf("edges %v", got)
		}
		if len(p.Train) != 2 || p.Train[1] != 1 || len(p.Val) != 500 || p.Val[0] != 2 || p.Val[499] != 501 ||
			!slices.Equal(p.Test, []int32{502, 503, 505}) {
			t.Errorf("split: train %v, val %d from %d, test %v", p.Train, len(p.Val), p.Val[0], p.Test)
		}
		// Node 504 is test.index's gap: no features, no label. Every
		// other row r holds feat(r), whatever file it came from.
		for r := range 506 {
			cols, vals := p.Features.Row(r)
			has := r < 2 || r >= 502 && r != 504 || withAllx && r < 502
			if !has {
				if len(cols) != 0 {
					t.Errorf("row %d has features %v", r, vals)
				}
				if r == 504 && p.Labels[r] != -1 {
					t.Errorf("gap node label %d, want -1", p.Labels[r])
				}
				continue
			}
			want := []float32{float32(r % 2), 1, float32(r % 3)}
			got := make([]float32, 3)
			for i, c := range cols {
				got[c] = vals[i]
			}
			if !slices.Equal(got, want) || p.Labels[r] != int32(r%2) {
				t.Errorf("row %d: features %v label %d, want %v %d", r, got, p.Labels[r], want, r%2)
			}
		}
		// The density counts the non-zero values over the rows present
		// (with allx every row, the gap node's empty one included).
		nz, present := 0, 0
		for r := range 506 {
			if p.FeatureRows == nil || p.FeatureRows[r] {
				present++
			}
			if r < 2 || r >= 502 && r != 504 || withAllx && r < 502 {
				nz += 1 + min(r%2, 1) + min(r%3, 1)
			}
		}
		if d, rows := p.FeatureDensity(); rows != present || math.Abs(d-float64(nz)/float64(3*present)) > 1e-15 {
			t.Errorf("allx %v: density %v over %d rows, want %v over %d", withAllx, d, rows, float64(nz)/float64(3*present), present)
		}
		if withAllx != (p.FeatureRows == nil) || withAllx != (len(p.Missing) == 0) {
			t.Errorf("allx %v: FeatureRows %v, Missing %q", withAllx, p.FeatureRows != nil, p.Missing)
		}
		if !withAllx && (!strings.Contains(p.Missing[0], "ind.toy.allx absent") || !p.FeatureRows[505] || p.FeatureRows[2]) {
			t.Errorf("Missing %q", p.Missing)
		}
		// Load and detection see the same graph through every name.
		for _, path := range []string{prefix, prefix + ".graph", prefix + ".test.index", filepath.Join(filepath.Dir(prefix), "toy")} {
			gs, err := Load(path, FormatAuto)
			if err != nil || len(gs) != 1 || gs[0].NumEdges() != 3 || gs[0].Source != "planetoid:ind.toy" {
				t.Errorf("Load(%s) = %v, %v", path, gs, err)
			}
		}
	}
}

func TestLoadPlanetoidErrors(t *testing.T) {
	write := func(prefix, suffix string, b []byte) {
		if err := os.WriteFile(prefix+"."+suffix, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name    string
		break_  func(prefix string)
		file    string // suffix of the file the error must name
		errFrag string
	}{
		{"missing tx", func(p string) { os.Remove(p + ".tx") }, "tx", "no such file"},
		{"truncated x", func(p string) {
			b, _ := os.ReadFile(p + ".x")
			write(p, "x", b[:len(b)/2])
		}, "x", "truncated"},
		{"labels in x", func(p string) { write(p, "x", pickleOneHotBytes(2, 0, 1)) }, "x", "want a scipy.sparse.csr_matrix"},
		{"not one-hot", func(p string) { write(p, "y", pickleOneHotBytes(3, 0, 1)) }, "ty", "classes"},
		{"bad test id", func(p string) { write(p, "test.index", []byte("505\nabc\n503\n")) }, "test.index", "not a non-negative int32"},
		{"test ids too high", func(p string) { write(p, "test.index", []byte("507\n503\n505\n")) }, "test.index", "start at 503, want 502"},
		{"duplicate test id", func(p string) { write(p, "test.index", []byte("502\n505\n505\n")) }, "test.index", "listed twice"},
		{"graph beyond nodes", func(p string) { write(p, "graph", pickleGraphBytes(map[int][]int{0: {900}})) }, "graph", "beyond the 506 nodes"},
		{"foreign class", func(p string) {
			b := newPyPickle()
			b.global("os", "system")
			b.WriteString("(U\x02ist")
			b.WriteString("R.")
			write(p, "graph", b.Bytes())
		}, "graph", "unsupported Python class os.system"},
		{"csr out of range", func(p string) {
			write(p, "tx", pickleCSRBytes(3, 3, []int32{0, 1, 1, 1}, []int32{7}, []float32{1}))
		}, "tx", "outside [0, 2]"},
		{"csr nan", func(p string) {
			write(p, "tx", pickleCSRBytes(3, 3, []int32{0, 1, 1, 1}, []int32{0}, []float32{float32(math.NaN())}))
		}, "tx", "not a finite"},
	} {
		prefix := toyPlanetoid(t, true)
		tc.break_(prefix)
		_, err := LoadPlanetoid(prefix)
		if err == nil || !strings.Contains(err.Error(), tc.errFrag) || !strings.Contains(err.Error(), "ind.toy."+tc.file) {
			t.Errorf("%s: error %v, want %q naming ind.toy.%s", tc.name, err, tc.errFrag, tc.file)
		}
	}
	if _, err := LoadPlanetoid(filepath.Join(t.TempDir(), "cora")); err == nil || !strings.Contains(err.Error(), "no Planetoid file set") {
		t.Errorf("absent set: %v", err)
	}
}

// TestCSRDuplicatesSummed checks that an unsorted CSR row with a duplicate
// column is sorted and summed, as scipy's sum_duplicates does.
func TestCSRDuplicatesSummed(t *testing.T) {
	m, err := pickleSparse(pickleCSRBytes(2, 4, []int32{0, 3, 3}, []int32{3, 1, 3}, []float32{1, 2, 4}), "m")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m.RowPtr, []int32{0, 2, 2}) || !slices.Equal(m.Col, []int32{1, 3}) || !slices.Equal(m.Val, []float32{2, 5}) {
		t.Errorf("got %+v", m)
	}
}

// planetoidCase is one real data set and what the literature says of it
// (Kipf & Welling 2017, Table 1; FGNAS Table 2; the data README).
type planetoidCase struct {
	name                            string
	nodes, edges, features, classes int
	train                           int
	featureRows                     int // rows with features; 0: all
	unlabelled                      int // nodes with label -1
	featureNNZ                      int // non-zero features; 0: not checked
}

// Feature non-zeros: Cora's 49,216 are MISSION section 12's (FGNAS's
// input), CiteSeer's 105,165 the full Planetoid count nas/fgnas records;
// PubMed's matrix is incomplete here (0: not checked).
var planetoidCases = []planetoidCase{
	{"cora", 2708, 5278, 1433, 7, 140, 0, 0, 49216},
	// 15 isolated test-range nodes: no features, no label.
	{"citeseer", 3327, 4552, 3703, 6, 120, 0, 15, 105165},
	// No ind.pubmed.allx: features only for the 60 x rows and 1,000 tx rows.
	{"pubmed", 19717, 44324, 500, 3, 60, 1060, 0, 0},
}

func TestLoadPlanetoidReal(t *testing.T) {
	dir := loaderDataDir(t, "planetoid", "ind")
	for _, c := range planetoidCases {
		p, err := LoadPlanetoid(filepath.Join(dir, c.name))
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Graph.Validate(); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if err := p.Features.Validate(); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if p.NumNodes() != c.nodes || p.Graph.NumEdges() != c.edges || p.NumFeatures() != c.features || p.NumClasses != c.classes {
			t.Errorf("%s: V=%d E=%d F=%d C=%d, want %d %d %d %d", c.name, p.NumNodes(), p.Graph.NumEdges(),
				p.NumFeatures(), p.NumClasses, c.nodes, c.edges, c.features, c.classes)
		}
		if len(p.Train) != c.train || len(p.Val) != 500 || len(p.Test) != 1000 {
			t.Errorf("%s: split %d/%d/%d", c.name, len(p.Train), len(p.Val), len(p.Test))
		}
		unlabelled, inSplit := 0, 0
		for v, l := range p.Labels {
			if l < 0 {
				unlabelled++
			}
			if l >= int32(c.classes) {
				t.Fatalf("%s: node %d label %d", c.name, v, l)
			}
		}
		for _, ids := range [][]int32{p.Train, p.Val, p.Test} {
			for _, v := range ids {
				if p.Labels[v] < 0 {
					inSplit++
				}
			}
		}
		if unlabelled != c.unlabelled || inSplit != 0 {
			t.Errorf("%s: %d unlabelled nodes (%d in the split), want %d (0)", c.name, unlabelled, inSplit, c.unlabelled)
		}
		rows := 0
		for r := range p.NumNodes() {
			if p.FeatureRows == nil || p.FeatureRows[r] {
				rows++
			}
		}
		if want := cmpOr(c.featureRows, c.nodes); rows != want || (c.featureRows != 0) != (len(p.Missing) > 0) {
			t.Errorf("%s: %d feature rows (Missing %q), want %d", c.name, rows, p.Missing, want)
		}
		// Bag-of-words / TF-IDF features: sparse. Cora's and CiteSeer's
		// complete matrices hold their published non-zero counts.
		d, drows := p.FeatureDensity()
		if drows != rows || !(d > 0 && d < 0.2) {
			t.Errorf("%s: feature density %v over %d rows", c.name, d, drows)
		}
		if c.featureNNZ > 0 {
			if got := d * float64(rows) * float64(c.features); math.Abs(got-float64(c.featureNNZ)) > 1e-6 {
				t.Errorf("%s: %.1f non-zero features, want %d", c.name, got, c.featureNNZ)
			}
		}
		// The training rows come from allx (when present) and must equal x.
		raw, err := os.ReadFile(filepath.Join(dir, "ind."+c.name+".x"))
		if err != nil {
			t.Fatal(err)
		}
		x, err := pickleSparse(raw, "x")
		if err != nil {
			t.Fatal(err)
		}
		for r := range c.train {
			c1, v1 := x.Row(r)
			c2, v2 := p.Features.Row(r)
			if !slices.Equal(c1, c2) || !slices.Equal(v1, v2) {
				t.Fatalf("%s: feature row %d differs between x and the assembled matrix", c.name, r)
			}
		}
	}
}

func cmpOr(a, b int) int {
	if a != 0 {
		return a
	}
	return b
}

// TestPlanetoidNPZMatchesInd checks the gnn-benchmark Cora archive against
// the Planetoid files: the same graph up to node order (sorted degree
// sequences), the same feature count and entries, the same class sizes.
func TestPlanetoidNPZMatchesInd(t *testing.T) {
	dir := loaderDataDir(t, "planetoid")
	ind, err := LoadPlanetoid(filepath.Join(dir, "ind", "cora"))
	if err != nil {
		t.Fatal(err)
	}
	np, err := LoadPlanetoid(filepath.Join(dir, "npz", "cora.npz"))
	if err != nil {
		t.Fatal(err)
	}
	if err := np.Graph.Validate(); err != nil {
		t.Fatal(err)
	}
	if np.Name != "cora" || np.Source != "npz:cora.npz" || np.Train != nil || len(np.Missing) != 0 {
		t.Errorf("npz: %q %q split %v missing %q", np.Name, np.Source, np.Train, np.Missing)
	}
	degrees := func(g *Graph) []int {
		d := make([]int, g.NumNodes())
		for v := range d {
			d[v] = g.Degree(v)
		}
		slices.Sort(d)
		return d
	}
	classSizes := func(p *Planetoid) []int {
		s := make([]int, p.NumClasses)
		for _, l := range p.Labels {
			s[l]++
		}
		slices.Sort(s)
		return s
	}
	if !slices.Equal(degrees(ind.Graph), degrees(np.Graph)) || ind.Graph.NumEdges() != np.Graph.NumEdges() {
		t.Errorf("degree sequences differ (E %d vs %d)", ind.Graph.NumEdges(), np.Graph.NumEdges())
	}
	if ind.NumFeatures() != np.NumFeatures() || ind.Features.NNZ() != np.Features.NNZ() {
		t.Errorf("features %dx%d nnz %d vs %dx%d nnz %d", ind.NumNodes(), ind.NumFeatures(), ind.Features.NNZ(),
			np.NumNodes(), np.NumFeatures(), np.Features.NNZ())
	}
	if !slices.Equal(classSizes(ind), classSizes(np)) {
		t.Errorf("class sizes %v vs %v", classSizes(ind), classSizes(np))
	}
	cs, err := LoadPlanetoid(filepath.Join(dir, "npz", "citeseer.npz"))
	if err != nil {
		t.Fatal(err)
	}
	if cs.NumNodes() != 3312 || cs.NumFeatures() != 3703 || cs.NumClasses != 6 {
		t.Errorf("citeseer.npz: V=%d F=%d C=%d, want 3312 3703 6", cs.NumNodes(), cs.NumFeatures(), cs.NumClasses)
	}
	gs, err := Load(filepath.Join(dir, "npz", "cora.npz"), FormatAuto)
	if err != nil || len(gs) != 1 || gs[0].NumEdges() != 5278 {
		t.Errorf("Load(cora.npz) = %v, %v", gs, err)
	}
}

// npzBytes writes an in-memory archive of the given arrays with npyio.
func npzBytes(t testing.TB, arrays map[string]any) []byte {
	t.Helper()
	var b bytes.Buffer
	w := npz.NewWriter(&b)
	keys := make([]string, 0, len(arrays))
	for k := range arrays {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if err := w.Write(k, arrays[k]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// toyNPZ is a 4-node path 0->1->2, 3->3 (a self-loop), 2 features, 2 classes.
func toyNPZ(t testing.TB) map[string]any {
	return map[string]any{
		"adj_data": []float32{1, 1, 1}, "adj_indices": []int32{1, 2, 3}, "adj_indptr": []int32{0, 1, 2, 2, 3},
		"adj_shape": []int64{4, 4}, "attr_data": []float32{1, 2, 3}, "attr_indices": []int32{1, 0, 1},
		"attr_indptr": []int32{0, 1, 1, 3, 3}, "attr_shape": []int64{4, 2}, "labels": []int8{0, 1, 1, 0},
	}
}

func TestReadPlanetoidNPZToy(t *testing.T) {
	path := filepath.Join(t.TempDir(), "toy.npz")
	if err := os.WriteFile(path, npzBytes(t, toyNPZ(t)), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := LoadPlanetoid(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := loadedEdges(p.Graph); !slices.Equal(got, [][2]int32{{0, 1}, {1, 2}}) || p.NumNodes() != 4 {
		t.Errorf("edges %v of %d nodes", got, p.NumNodes())
	}
	if !slices.Equal(p.Labels, []int32{0, 1, 1, 0}) || p.NumClasses != 2 || p.Features.NNZ() != 3 || p.Features.Val[2] != 3 {
		t.Errorf("labels %v classes %d features %+v", p.Labels, p.NumClasses, p.Features)
	}
	if err := p.SplitPerClass(1, 1, 7); err != nil {
		t.Fatal(err)
	}
	if len(p.Train) != 2 || len(p.Val) != 2 || len(p.Test) != 0 {
		t.Errorf("split %v %v %v", p.Train, p.Val, p.Test)
	}
	if err := p.SplitPerClass(2, 1, 7); err == nil {
		t.Error("split larger than a class accepted")
	}

	for _, tc := range []struct {
		edit    func(m map[string]any)
		errFrag string
	}{
		{func(m map[string]any) { delete(m, "labels") }, "no labels"},
		{func(m map[string]any) { m["adj_indices"] = []int32{1, 2, 9} }, "outside [0, 4)"},
		{func(m map[string]any) { m["adj_indptr"] = []int32{0, 2, 1, 2, 3} }, "out of order"},
		{func(m map[string]any) { m["adj_shape"] = []int64{4, 5} }, "not square"},
		{func(m map[string]any) { m["labels"] = []float64{0, 1, 0.5, 0} }, "not a class id"},
		{func(m map[string]any) { m["attr_shape"] = []int64{3, 2} }, "attr"},
	} {
		m := toyNPZ(t)
		tc.edit(m)
		_, err := decodePlanetoidNPZ(npzBytes(t, m), "bad.npz")
		var pe *ParseError
		if err == nil || !strings.Contains(err.Error(), tc.errFrag) || !errors.As(err, &pe) || pe.File != "bad.npz" {
			t.Errorf("error %v, want %q naming bad.npz", err, tc.errFrag)
		}
	}
}
