package graphs

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"gnnsim/internal/pqio"
)

// TestReadSetManyRowGroups reads a set that spans several row groups and
// pages, with empty graphs, empty adjacency lists and attributes mixed in,
// so that rows are split across column chunks the way large sets are.
func TestReadSetManyRowGroups(t *testing.T) {
	n := pqio.RowGroupRows + 100
	gs := make([]*Graph, n)
	for i := range gs {
		switch i % 4 {
		case 0:
			gs[i] = mustFromEdges(t, 0, nil)
		case 1:
			gs[i] = mustFromEdges(t, 1+i%3, nil)
		case 2:
			gs[i] = mustFromEdges(t, 3, [][2]int32{{0, 1}, {1, 2}, {int32(i % 3), int32((i + 1) % 3)}})
		default:
			g := mustFromEdges(t, 2, [][2]int32{{0, 1}})
			g.AttrDim, g.NodeAttr = 1, []float64{float64(i), -float64(i)}
			gs[i] = g
		}
		gs[i].Name = "g"
	}
	path := filepath.Join(t.TempDir(), "many.parquet")
	if err := WriteSet(path, gs, nil); err != nil {
		t.Fatal(err)
	}
	got, _, err := ReadSet(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != n {
		t.Fatalf("read %d graphs, want %d", len(got), n)
	}
	for i := range gs {
		if !graphsEqual(got[i], gs[i]) {
			t.Fatalf("graph %d differs:\n got %+v\nwant %+v", i, got[i], gs[i])
		}
	}
}

// dictRow is setRow with dictionary-encoded list columns, as other Parquet
// writers may produce them.
type dictRow struct {
	featureRow
	RowPtr   []int32   `parquet:"row_ptr,list,dict"`
	Col      []int32   `parquet:"col,list,dict"`
	NodeAttr []float64 `parquet:"node_attr,list,dict"`
}

func TestReadSetDictionaryPages(t *testing.T) {
	gs := testSet(t)
	rows := make([]dictRow, len(gs))
	for i, g := range gs {
		f := ComputeFeatures(g)
		r := dictRow{RowPtr: g.RowPtr, Col: g.Col, NodeAttr: g.NodeAttr}
		if len(r.RowPtr) == 0 {
			r.RowPtr = []int32{0}
		}
		r.ID, r.Name, r.Source, r.SelfLoops = int64(i), g.Name, g.Source, g.SelfLoops
		r.NumNodes, r.NumEdges, r.Label, r.HasLabel, r.AttrDim = int64(f.Nodes), int64(f.Edges), g.Label, g.HasLabel, int64(g.AttrDim)
		if !g.HasLabel {
			r.Label = 0
		}
		r.setFeatures(&f)
		rows[i] = r
	}
	path := filepath.Join(t.TempDir(), "dict.parquet")
	if err := pqio.Write(path, rows, nil); err != nil {
		t.Fatal(err)
	}
	// Make sure the file really uses dictionary pages for col.
	pf, err := pqio.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	leaf, _ := pf.Schema().Lookup(listLeaf("col")...)
	pages := pf.RowGroups()[0].ColumnChunks()[leaf.ColumnIndex].Pages()
	p, err := pages.ReadPage()
	if err != nil || p.Dictionary() == nil {
		t.Fatalf("col is not dictionary-encoded (err %v)", err)
	}
	pages.Close()
	pf.Close()

	got, _, err := ReadSet(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := range gs {
		if !graphsEqual(got[i], gs[i]) {
			t.Errorf("graph %d differs:\n got %+v\nwant %+v", i, got[i], gs[i])
		}
	}
}

// TestReadSetListErrors covers list columns that parse as Parquet but
// cannot be a CSR: a null element inside a list, and a list column of the
// wrong shape.
func TestReadSetListErrors(t *testing.T) {
	dir := t.TempDir()
	g := mustFromEdges(t, 3, [][2]int32{{0, 1}, {1, 2}})
	base := featureRow{Name: "p3", NumNodes: 3, NumEdges: 2}

	// col as a list of optional elements holding a null.
	type nullRow struct {
		featureRow
		RowPtr   []int32   `parquet:"row_ptr,list"`
		Col      []*int32  `parquet:"col,list"`
		NodeAttr []float64 `parquet:"node_attr,list"`
	}
	col := make([]*int32, len(g.Col))
	for i := range g.Col {
		col[i] = &g.Col[i]
	}
	col[2] = nil
	p := filepath.Join(dir, "null.parquet")
	if err := pqio.Write(p, []nullRow{{featureRow: base, RowPtr: g.RowPtr, Col: col}}, nil); err != nil {
		t.Fatal(err)
	}
	if _, _, err := ReadSet(p); err == nil || !strings.Contains(err.Error(), "null element") {
		t.Errorf("null element: err = %v", err)
	}

	// The same schema without the null reads fine: optional elements are
	// how pyarrow writes lists.
	col[2] = &g.Col[2]
	if err := pqio.Write(p, []nullRow{{featureRow: base, RowPtr: g.RowPtr, Col: col}}, nil); err != nil {
		t.Fatal(err)
	}
	got, _, err := ReadSet(p)
	if err != nil || !slices.Equal(got[0].Col, g.Col) {
		t.Errorf("optional elements: err = %v, col %v", err, got)
	}

	// col as a plain repeated column (no list group).
	type flatRow struct {
		featureRow
		RowPtr   []int32   `parquet:"row_ptr,list"`
		Col      []int32   `parquet:"col"`
		NodeAttr []float64 `parquet:"node_attr,list"`
	}
	p = filepath.Join(dir, "flat.parquet")
	if err := pqio.Write(p, []flatRow{{featureRow: base, RowPtr: g.RowPtr, Col: g.Col}}, nil); err != nil {
		t.Fatal(err)
	}
	if _, _, err := ReadSet(p); err == nil {
		t.Error("flat repeated col: no error")
	}
}

func TestReadListMissingColumn(t *testing.T) {
	type other struct {
		ID int64 `parquet:"id"`
	}
	p := filepath.Join(t.TempDir(), "o.parquet")
	if err := pqio.Write(p, []other{{1}}, nil); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := readList(pf, "col", 1, nil, int32Values); err == nil || !strings.Contains(err.Error(), "no column") {
		t.Errorf("err = %v, want no column", err)
	}
}

// FuzzReadSet feeds damaged graph-set files to ReadSet: every one must be
// refused with an error or read as valid graphs, never panic.
func FuzzReadSet(f *testing.F) {
	dir := f.TempDir()
	good := filepath.Join(dir, "seed.parquet")
	if err := WriteSet(good, testSet(f)[:4], nil); err != nil {
		f.Fatal(err)
	}
	data, err := os.ReadFile(good)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data, 0, byte(0))
	f.Add(data, len(data)/2, byte(0xff))
	f.Add(data, 100, byte(1))
	// A streamed set (pages beginning inside rows, several row groups).
	streamed := filepath.Join(dir, "streamed.parquet")
	oa, op := streamAbove, streamPageValues
	streamAbove, streamPageValues = 40, 13
	err = WriteSet(streamed, testSet(f), nil)
	streamAbove, streamPageValues = oa, op
	if err != nil {
		f.Fatal(err)
	}
	if data, err = os.ReadFile(streamed); err != nil {
		f.Fatal(err)
	}
	f.Add(data, 0, byte(0))
	f.Add(data, len(data)/3, byte(0x10))
	f.Fuzz(func(t *testing.T, data []byte, at int, x byte) {
		if len(data) > 0 {
			at %= len(data)
			if at < 0 {
				at += len(data)
			}
			data = slices.Clone(data)
			data[at] ^= x
		}
		p := filepath.Join(t.TempDir(), "f.parquet")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		gs, _, err := ReadSet(p)
		if err != nil {
			return
		}
		for i, g := range gs {
			if err := g.Validate(); err != nil {
				t.Fatalf("graph %d read without error but invalid: %v", i, err)
			}
		}
	})
}

// TestPrefetchedRead checks that reading a set's pages one ahead on a
// second goroutine (the large-chunk path of readList) gives the graphs,
// and on damaged files the errors, of the plain reader: a streamed set
// (pages inside rows, several row groups) read intact and with one byte
// changed at many places, panics of the decoder included.
func TestPrefetchedRead(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "streamed.parquet")
	oa, op := streamAbove, streamPageValues
	streamAbove, streamPageValues = 40, 13
	err := WriteSet(path, testSet(t), nil)
	streamAbove, streamPageValues = oa, op
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	read := func(p string, ahead bool) ([]*Graph, error) {
		old := prefetchValues
		if ahead {
			prefetchValues = 0
		}
		defer func() { prefetchValues = old }()
		gs, _, err := ReadSet(p)
		return gs, err
	}
	plain, err := read(path, false)
	if err != nil {
		t.Fatal(err)
	}
	ahead, err := read(path, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(plain) != len(ahead) {
		t.Fatalf("%d graphs prefetched, want %d", len(ahead), len(plain))
	}
	for i := range plain {
		if !graphsEqual(plain[i], ahead[i]) {
			t.Fatalf("graph %d differs when prefetched", i)
		}
	}
	bad := filepath.Join(dir, "bad.parquet")
	failures := 0
	for at := 0; at < len(data); at += 1 + len(data)/150 {
		for _, x := range []byte{0xff, 0x01} {
			d := slices.Clone(data)
			d[at] ^= x
			if err := os.WriteFile(bad, d, 0o644); err != nil {
				t.Fatal(err)
			}
			_, e1 := read(bad, false)
			_, e2 := read(bad, true)
			if (e1 == nil) != (e2 == nil) || (e1 != nil && e1.Error() != e2.Error()) {
				t.Fatalf("byte %d ^ %#x: error %v prefetched, want %v", at, x, e2, e1)
			}
			if e1 != nil {
				failures++
			}
		}
	}
	if failures == 0 {
		t.Fatal("no damaged file failed to read")
	}
}
