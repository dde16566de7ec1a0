package graphs

import (
	"bytes"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"gnnsim/internal/pqio"
)

// streamAt lowers the streamed writer's thresholds for one test, so that
// small sets take the path of graphs of 10^8 and more edges.
func streamAt(t testing.TB, above, page int) {
	t.Helper()
	oa, op := streamAbove, streamPageValues
	streamAbove, streamPageValues = above, page
	t.Cleanup(func() { streamAbove, streamPageValues = oa, op })
}

// streamSets are the sets the streamed writer is checked on: every column
// (empty graphs, attributes, labels), an R-MAT graph, many small graphs.
func streamSets(t *testing.T) map[string][]*Graph {
	g, err := Generate(GenSpec{Generator: "rmat", Seed: 3, MinNodes: 1 << 10, MaxNodes: 1 << 10,
		MinEdges: 20000, MaxEdges: 20000}, 0)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	var many []*Graph
	for i := range 300 {
		h := randomGraph(rng, rng.IntN(12), 0.3)
		if i%7 == 0 {
			h.AttrDim = 2
			h.NodeAttr = make([]float64, 2*h.NumNodes())
			for j := range h.NodeAttr {
				h.NodeAttr[j] = rng.NormFloat64()
			}
		}
		many = append(many, h)
	}
	return map[string][]*Graph{"mixed": testSet(t), "rmat": {g}, "many": many}
}

// TestStreamedSetEquivalence writes each set through parquet-go (the path
// of every set up to 2^27 list values) and through the streamed writer
// with its thresholds lowered (several row groups, pages that begin inside
// rows), and checks that both read back to the same graphs, features and
// metadata, by gnnsim's reader and by parquet-go's row reader.
func TestStreamedSetEquivalence(t *testing.T) {
	for name, gs := range streamSets(t) {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			meta := map[string]string{"generator": "test", "seed": "7"}
			plain := filepath.Join(dir, "plain.parquet")
			if err := WriteSet(plain, gs, meta); err != nil {
				t.Fatal(err)
			}
			for _, c := range []struct{ above, page int }{{500, 97}, {1, 1}, {1 << 30, 1000}} {
				streamAt(t, c.above, c.page)
				if c.above == 1<<30 {
					streamAbove = 0 // every set streamed, every row its own row group
				}
				path := filepath.Join(dir, "streamed.parquet")
				if err := WriteSet(path, gs, meta); err != nil {
					t.Fatal(err)
				}
				a, _ := os.ReadFile(plain)
				b, _ := os.ReadFile(path)
				if bytes.Equal(a, b) {
					t.Fatalf("%+v: the streamed writer was not used", c)
				}
				checkSameSet(t, plain, path)
				pf, err := pqio.Open(path)
				if err != nil {
					t.Fatal(err)
				}
				groups := len(pf.Metadata().RowGroups)
				pf.Close()
				if c.above == 1 && len(gs) > 1 && groups != len(gs) {
					t.Errorf("%+v: %d row groups for %d graphs above the threshold", c, groups, len(gs))
				}
				streamAbove, streamPageValues = 1<<27, 1<<20
			}
		})
	}
}

// checkSameSet fails unless the sets at paths a and b hold the same
// graphs, features and metadata.
func checkSameSet(t *testing.T, a, b string) {
	t.Helper()
	ga, ma, err := ReadSet(a)
	if err != nil {
		t.Fatal(err)
	}
	gb, mb, err := ReadSet(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(ga) != len(gb) {
		t.Fatalf("%d graphs, want %d", len(gb), len(ga))
	}
	for i := range ga {
		if !graphsEqual(ga[i], gb[i]) {
			t.Fatalf("graph %d differs:\n got %+v\nwant %+v", i, gb[i], ga[i])
		}
	}
	if !maps.Equal(ma, mb) {
		t.Errorf("metadata %v, want %v", mb, ma)
	}
	ea, _, err := ReadSetFeatures(a)
	if err != nil {
		t.Fatal(err)
	}
	eb, _, err := ReadSetFeatures(b)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(ea, eb) {
		t.Errorf("features differ")
	}
	// parquet-go's own row reader, independent of readList.
	ra, _, err := pqio.Read[setRow](a)
	if err != nil {
		t.Fatal(err)
	}
	rb, _, err := pqio.Read[setRow](b)
	if err != nil {
		t.Fatalf("parquet-go's row reader: %v", err)
	}
	for i := range ra {
		x, y := &ra[i], &rb[i]
		if x.featureRow != y.featureRow || !slices.Equal(x.RowPtr, y.RowPtr) || !slices.Equal(x.Col, y.Col) ||
			!slices.Equal(x.NodeAttr, y.NodeAttr) {
			t.Fatalf("row %d differs by parquet-go's reader", i)
		}
	}
}

// TestStreamedSetDeterministic: the streamed file does not depend on the
// number of cores encoding its pages.
func TestStreamedSetDeterministic(t *testing.T) {
	streamAt(t, 1000, 333)
	gs := streamSets(t)["rmat"]
	dir := t.TempDir()
	var files [][]byte
	for _, procs := range []int{1, 3} {
		old := runtime.GOMAXPROCS(procs)
		path := filepath.Join(dir, "s.parquet")
		err := WriteSet(path, gs, nil)
		runtime.GOMAXPROCS(old)
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, b)
	}
	if !bytes.Equal(files[0], files[1]) {
		t.Fatal("the streamed file depends on GOMAXPROCS")
	}
}
