package graphs

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gnnsim/internal/pqio"
)

// testSet returns a mix of graphs that exercises every column: empty and
// single-node graphs, A and A+I, labels, node attributes.
func testSet(t testing.TB) []*Graph {
	rng := rand.New(rand.NewPCG(21, 22))
	gs := []*Graph{
		mustFromEdges(t, 0, nil),
		mustFromEdges(t, 1, nil),
		mustFromEdges(t, 5, clique(5)).WithSelfLoops(),
	}
	for i := range 5 {
		g := randomGraph(rng, 5+rng.IntN(40), 0.2)
		g.Name = "rand" + string(rune('a'+i))
		g.Source = "test: G(n, 0.2)"
		if i%2 == 0 {
			g.Label, g.HasLabel = int64(i-2), true
		}
		if i == 1 {
			g.AttrDim = 3
			g.NodeAttr = make([]float64, 3*g.NumNodes())
			for j := range g.NodeAttr {
				g.NodeAttr[j] = rng.NormFloat64()
			}
		}
		gs = append(gs, g)
	}
	gs[2].Name = "K5+I"
	return gs
}

func graphsEqual(a, b *Graph) bool {
	return a.Name == b.Name && a.Source == b.Source && a.SelfLoops == b.SelfLoops &&
		slices.Equal(a.RowPtr, b.RowPtr) && slices.Equal(a.Col, b.Col) &&
		a.HasLabel == b.HasLabel && a.Label == b.Label &&
		a.AttrDim == b.AttrDim && slices.Equal(a.NodeAttr, b.NodeAttr) && (a.NodeAttr == nil) == (b.NodeAttr == nil)
}

func TestSetRoundTrip(t *testing.T) {
	dir := t.TempDir()
	gs := testSet(t)
	path := filepath.Join(dir, "set.parquet")
	meta := map[string]string{"generator": "test", "seed": "21"}
	if err := WriteSet(path, gs, meta); err != nil {
		t.Fatal(err)
	}
	got, gm, err := ReadSet(path)
	if err != nil {
		t.Fatal(err)
	}
	if gm["gnnsim.generator"] != "test" || gm["gnnsim.seed"] != "21" || gm[pqio.VersionKey] == "" {
		t.Errorf("metadata %v", gm)
	}
	if len(got) != len(gs) {
		t.Fatalf("read %d graphs, wrote %d", len(got), len(gs))
	}
	for i := range gs {
		if !graphsEqual(got[i], gs[i]) {
			t.Errorf("graph %d differs:\n got %+v\nwant %+v", i, got[i], gs[i])
		}
	}

	es, fm, err := ReadSetFeatures(path)
	if err != nil {
		t.Fatal(err)
	}
	if fm["gnnsim.seed"] != "21" || len(es) != len(gs) {
		t.Fatalf("ReadSetFeatures: %d entries, meta %v", len(es), fm)
	}
	for i, e := range es {
		g := gs[i]
		if e.ID != i || e.Name != g.Name || e.Source != g.Source || e.SelfLoops != g.SelfLoops ||
			e.HasLabel != g.HasLabel || e.Label != g.Label || e.AttrDim != g.AttrDim {
			t.Errorf("entry %d identity %+v", i, e)
		}
		if e.Features != ComputeFeatures(g) {
			t.Errorf("entry %d features %+v, want %+v", i, e.Features, ComputeFeatures(g))
		}
	}
}

func TestSetDeterministic(t *testing.T) {
	dir := t.TempDir()
	meta := map[string]string{"b": "2", "a": "1", "c": "3"}
	p1, p2 := filepath.Join(dir, "1.parquet"), filepath.Join(dir, "2.parquet")
	if err := WriteSet(p1, testSet(t), meta); err != nil {
		t.Fatal(err)
	}
	if err := WriteSet(p2, testSet(t), meta); err != nil {
		t.Fatal(err)
	}
	b1, _ := os.ReadFile(p1)
	b2, _ := os.ReadFile(p2)
	if !bytes.Equal(b1, b2) {
		t.Fatal("equal graph sets gave different files")
	}
}

func TestWriteSetRejects(t *testing.T) {
	dir := t.TempDir()
	bad := &Graph{Name: "broken", RowPtr: []int32{0, 1, 1}, Col: []int32{1}} // no mirror
	for _, tt := range []struct {
		name string
		gs   []*Graph
		want string
	}{
		{"invalid graph", []*Graph{mustFromEdges(t, 2, nil), bad}, `graph 1 ("broken")`},
		{"nil graph", []*Graph{nil}, "graph 0 is nil"},
	} {
		path := filepath.Join(dir, "x.parquet")
		err := WriteSet(path, tt.gs, nil)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want it to mention %s", tt.name, err, tt.want)
		}
		if _, serr := os.Stat(path); serr == nil {
			t.Errorf("%s: a file was written", tt.name)
		}
	}
}

// TestReadSetCorrupt covers files that are not Parquet, are damaged, have
// another schema, or are well-formed Parquet holding broken graphs; every
// one must give an error (naming the row when a row is at fault), never a
// panic and never a silent success.
func TestReadSetCorrupt(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.parquet")
	if err := WriteSet(good, testSet(t), nil); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	files := map[string]string{
		"missing":   filepath.Join(dir, "nope.parquet"),
		"garbage":   write("garbage", []byte("this is not parquet at all")),
		"empty":     write("empty", nil),
		"truncated": write("truncated", data[:len(data)/2]),
		"no footer": write("nofooter", data[:len(data)-8]),
	}
	// Another table: valid Parquet without the graph-set columns.
	type other struct {
		ID   int64  `parquet:"id"`
		Name string `parquet:"name"`
	}
	files["other schema"] = filepath.Join(dir, "other.parquet")
	if err := pqio.Write(files["other schema"], []other{{1, "x"}}, nil); err != nil {
		t.Fatal(err)
	}
	for name, p := range files {
		if _, _, err := ReadSet(p); err == nil {
			t.Errorf("ReadSet(%s): no error", name)
		}
		if _, _, err := ReadSetFeatures(p); err == nil {
			t.Errorf("ReadSetFeatures(%s): no error", name)
		}
	}

	// Well-formed files whose rows break an invariant.
	valid := func() setRow {
		g := mustFromEdges(t, 3, [][2]int32{{0, 1}, {1, 2}})
		r := setRow{featureRow: featureRow{Name: "p3", NumNodes: 3, NumEdges: 2}, RowPtr: g.RowPtr, Col: g.Col}
		return r
	}
	rowTests := []struct {
		name   string
		mutate func(r *setRow)
		want   string
	}{
		{"asymmetric", func(r *setRow) { r.Col = []int32{1, 0, 2, 0} }, "no mirror"},
		{"pointers past col", func(r *setRow) { r.RowPtr = []int32{0, 1, 3, 9} }, "row pointers"},
		{"empty row_ptr", func(r *setRow) { r.RowPtr, r.NumNodes = nil, 0 }, "row_ptr"},
		{"num_nodes mismatch", func(r *setRow) { r.NumNodes = 4 }, "num_nodes"},
		{"num_edges mismatch", func(r *setRow) { r.NumEdges = 3 }, "num_edges"},
		{"self_loops mismatch", func(r *setRow) { r.SelfLoops = true }, "self-loop"},
		{"attrs short", func(r *setRow) { r.AttrDim, r.NodeAttr = 2, []float64{1, 2, 3} }, "node attributes"},
		{"attrs without dim", func(r *setRow) { r.NodeAttr = []float64{1, 2, 3} }, "attr_dim 0"},
		{"negative attr_dim", func(r *setRow) { r.AttrDim = -1 }, "negative attr_dim"},
		{"wrong id", func(r *setRow) { r.ID = 5 }, "id 5"},
	}
	for _, tt := range rowTests {
		rows := []setRow{valid(), valid()}
		rows[1].ID = 1
		tt.mutate(&rows[1])
		p := filepath.Join(dir, "rows.parquet")
		if err := pqio.Write(p, rows, nil); err != nil {
			t.Fatal(err)
		}
		_, _, err := ReadSet(p)
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), `row 1 ("p3")`) {
			t.Errorf("%s: err = %v, want it to name row 1 and mention %q", tt.name, err, tt.want)
		}
	}
}

// BenchmarkReadSetFeatures compares reading only the feature columns with
// reading whole graphs, on 200 graphs of 2,000 nodes and ~20k edges each.
func BenchmarkReadSet(b *testing.B) {
	rng := rand.New(rand.NewPCG(4, 4))
	gs := make([]*Graph, 200)
	for i := range gs {
		u := make([]int32, 20000)
		v := make([]int32, 20000)
		for j := range u {
			u[j], v[j] = rng.Int32N(2000), rng.Int32N(2000)
		}
		g, err := FromEdges(2000, u, v)
		if err != nil {
			b.Fatal(err)
		}
		gs[i] = g
	}
	path := filepath.Join(b.TempDir(), "set.parquet")
	if err := WriteSet(path, gs, nil); err != nil {
		b.Fatal(err)
	}
	b.Run("graphs", func(b *testing.B) {
		for b.Loop() {
			if _, _, err := ReadSet(path); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("features", func(b *testing.B) {
		for b.Loop() {
			if _, _, err := ReadSetFeatures(path); err != nil {
				b.Fatal(err)
			}
		}
	})
}
