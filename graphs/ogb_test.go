package graphs

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// writeOGB writes an OGB raw folder dir/name/raw with the given files
// (name -> content), gzip-compressed as ogb ships them unless plain.
func writeOGB(t testing.TB, dir string, files map[string]string, plain bool) string {
	t.Helper()
	raw := filepath.Join(dir, "ogbn-tiny", "raw")
	if err := os.MkdirAll(raw, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, content := range files {
		p := filepath.Join(raw, name+".csv")
		data := []byte(content)
		if !plain {
			var b bytes.Buffer
			z := gzip.NewWriter(&b)
			z.Write(data)
			z.Close()
			p, data = p+".gz", b.Bytes()
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Dir(raw)
}

// ogbFromGraph writes g's edges (each once, u < v, in a scrambled but
// fixed order and direction) as an OGB folder.
func ogbFromGraph(t testing.TB, dir string, g *Graph, feat bool) string {
	var e strings.Builder
	k := 0
	for v := range g.NumNodes() {
		for _, w := range g.Neighbors(v) {
			if int(w) > v {
				if k%2 == 0 {
					fmt.Fprintf(&e, "%d,%d\n", v, w)
				} else {
					fmt.Fprintf(&e, "%d,%d\n", w, v)
				}
				k++
			}
		}
	}
	files := map[string]string{"edge": e.String(), "num-node-list": fmt.Sprintf("%d\n", g.NumNodes())}
	if feat {
		var f strings.Builder
		for v := range g.NumNodes() {
			fmt.Fprintf(&f, "%d,-0.5\n", v)
		}
		files["node-feat"] = f.String()
	}
	return writeOGB(t, dir, files, false)
}

// TestLoadOGB round-trips generated graphs through the OGB raw layout:
// the graph read is the graph written (edges listed once, in either
// direction), features land as node attributes, and Load detects the
// folder (and its raw subfolder).
func TestLoadOGB(t *testing.T) {
	for _, spec := range []GenSpec{
		{Generator: "rmat", Seed: 2, MinNodes: 300, MaxNodes: 300, MinEdges: 2000, MaxEdges: 2000},
		{Generator: "ba", Seed: 5, MinNodes: 500, MaxNodes: 500},
	} {
		want, err := Generate(spec, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, feat := range []bool{false, true} {
			dir := ogbFromGraph(t, t.TempDir(), want, feat)
			for _, path := range []string{dir, filepath.Join(dir, "raw")} {
				gs, err := Load(path, FormatAuto)
				if err != nil {
					t.Fatal(err)
				}
				g := gs[0]
				if err := g.Validate(); err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(g.RowPtr, want.RowPtr) || !slices.Equal(g.Col, want.Col) {
					t.Errorf("%s: CSR differs from the graph written", path)
				}
				if g.Name != "ogbn-tiny" || g.Source != "ogb:ogbn-tiny" {
					t.Errorf("name %q source %q", g.Name, g.Source)
				}
				if !feat {
					if g.NodeAttr != nil {
						t.Errorf("attributes without node-feat")
					}
					continue
				}
				if g.AttrDim != 2 || len(g.NodeAttr) != 2*g.NumNodes() {
					t.Fatalf("AttrDim %d, %d attributes", g.AttrDim, len(g.NodeAttr))
				}
				for v := range g.NumNodes() {
					if g.NodeAttr[2*v] != float64(v) || g.NodeAttr[2*v+1] != -0.5 {
						t.Fatalf("node %d attributes %v", v, g.NodeAttr[2*v:2*v+2])
					}
				}
			}
		}
	}
}

// TestLoadOGBPlainAndIsolated reads uncompressed files, keeps isolated
// nodes (the node count comes from num-node-list) and merges both
// directions of an edge.
func TestLoadOGBPlainAndIsolated(t *testing.T) {
	dir := writeOGB(t, t.TempDir(), map[string]string{
		"edge":          "0,1\n1,0\n2,3\n3,3\n",
		"num-node-list": "6\n",
	}, true)
	g, err := LoadOGB(dir)
	if err != nil {
		t.Fatal(err)
	}
	if g.NumNodes() != 6 || g.NumEdges() != 2 {
		t.Errorf("V=%d E=%d, want 6 and 2", g.NumNodes(), g.NumEdges())
	}
}

// TestLoadOGBErrors checks that malformed folders give errors naming the
// file and line.
func TestLoadOGBErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		frag  string
	}{
		{"no node count", map[string]string{"edge": "0,1\n"}, "num-node-list"},
		{"no edges file", map[string]string{"num-node-list": "3\n"}, "no raw/edge.csv.gz"},
		{"id out of range", map[string]string{"edge": "0,1\n1,3\n", "num-node-list": "3\n"}, "edge.csv.gz:2: edge (1,3): node id out of range"},
		{"negative id", map[string]string{"edge": "0,-1\n", "num-node-list": "3\n"}, "out of range"},
		{"one field", map[string]string{"edge": "0 1\n", "num-node-list": "3\n"}, `want "u,v"`},
		{"not a number", map[string]string{"edge": "0,x\n", "num-node-list": "3\n"}, "integer node ids"},
		{"two graphs", map[string]string{"edge": "0,1\n", "num-node-list": "3\n4\n"}, "more than one graph"},
		{"bad count", map[string]string{"edge": "0,1\n", "num-node-list": "3.5\n"}, "node count"},
		{"feature rows", map[string]string{"edge": "0,1\n", "num-node-list": "3\n", "node-feat": "1,2\n3,4\n"}, "2 feature rows for 3 nodes"},
		{"feature width", map[string]string{"edge": "0,1\n", "num-node-list": "2\n", "node-feat": "1,2\n3\n"}, "1 features, want 2"},
		{"feature NaN", map[string]string{"edge": "0,1\n", "num-node-list": "2\n", "node-feat": "1,2\n3,NaN\n"}, "non-finite"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeOGB(t, t.TempDir(), tc.files, false)
			_, err := LoadOGB(dir)
			if err == nil || !strings.Contains(err.Error(), tc.frag) {
				t.Errorf("error %v, want one containing %q", err, tc.frag)
			}
		})
	}
	dir := writeOGB(t, t.TempDir(), map[string]string{"num-node-list": "2\n"}, false)
	if err := os.WriteFile(filepath.Join(dir, "raw", "edge.csv.gz"), []byte("not gzip"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadOGB(dir); err == nil || !strings.Contains(err.Error(), "gzip") {
		t.Errorf("error %v, want a gzip error", err)
	}
}

// binEdges encodes edges as a binary edge list.
func binEdges(pairs ...uint32) []byte {
	b := make([]byte, 4*len(pairs))
	for i, x := range pairs {
		binary.LittleEndian.PutUint32(b[4*i:], x)
	}
	return b
}

// TestReadBinaryEdges round-trips a generated graph through the binary
// layout and checks its errors; Load detects .bel.
func TestReadBinaryEdges(t *testing.T) {
	want, err := Generate(GenSpec{Generator: "rmat", Seed: 4, MinNodes: 256, MaxNodes: 256, MinEdges: 3000, MaxEdges: 3000}, 0)
	if err != nil {
		t.Fatal(err)
	}
	var pairs []uint32
	last := 0
	for v := range want.NumNodes() {
		for _, w := range want.Neighbors(v) {
			if int(w) > v {
				pairs = append(pairs, uint32(w), uint32(v))
				last = max(last, int(w))
			}
		}
	}
	path := filepath.Join(t.TempDir(), "g.bel")
	if err := os.WriteFile(path, binEdges(pairs...), 0o644); err != nil {
		t.Fatal(err)
	}
	gs, err := Load(path, FormatAuto)
	if err != nil {
		t.Fatal(err)
	}
	g := gs[0]
	// The node count is the largest id + 1: trailing isolated nodes of
	// the generated graph are not in the file.
	if g.NumNodes() != last+1 || !slices.Equal(g.Col, want.Col) || !slices.Equal(g.RowPtr, want.RowPtr[:last+2]) {
		t.Errorf("V=%d (want %d) or CSR differs", g.NumNodes(), last+1)
	}
	if g.Name != "g" || g.Source != "binedges:g.bel" {
		t.Errorf("name %q source %q", g.Name, g.Source)
	}
	for _, tc := range []struct {
		name string
		data []byte
		frag string
	}{
		{"empty", nil, "no edges"},
		{"ragged", append(binEdges(1, 2), 7, 0, 0), "not a multiple of 8"},
		{"id too large", binEdges(1, 1<<31), "node id above"},
	} {
		if _, err := ReadBinaryEdges(bytes.NewReader(tc.data), "x.bel"); err == nil || !strings.Contains(err.Error(), tc.frag) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.frag)
		}
	}
}

// FuzzOGB feeds arbitrary node counts, edge and feature files to the OGB
// parsers: every outcome is a valid graph or a ParseError naming the file.
//
//	go test -run XXX -fuzz FuzzOGB -fuzztime 60s ./graphs/
func FuzzOGB(f *testing.F) {
	f.Add([]byte("3\n"), []byte("0,1\n1,2\n 2 , 0 \n"), []byte("1,2\n3,4\n5,6\n"))
	f.Add([]byte("2\n\n"), []byte("0,1\r\n\n1,1\n"), []byte(""))
	f.Add([]byte("-1\n"), []byte("0,9\n"), []byte("1\n"))
	f.Add([]byte("1\n2\n"), []byte("0,\n"), []byte("1,,2\n"))
	f.Fuzz(func(t *testing.T, count, edges, feat []byte) {
		n, err := readOGBNodeCount(bytes.NewReader(count), "c.csv")
		if err != nil {
			fuzzParseError(t, err, "c.csv")
			return
		}
		if n > 1<<16 {
			return // FromEdges would allocate the rows of every node
		}
		u, v, err := readOGBEdges(bytes.NewReader(edges), "e.csv", n)
		if err != nil {
			fuzzParseError(t, err, "e.csv")
			return
		}
		g, err := FromEdges(n, u, v)
		if err != nil {
			t.Fatal(err) // ids were checked against n
		}
		if err := g.Validate(); err != nil {
			t.Fatal(err)
		}
		attr, d, err := readOGBFeatures(bytes.NewReader(feat), "f.csv", n)
		if err != nil {
			fuzzParseError(t, err, "f.csv")
			return
		}
		if len(attr) != n*d {
			t.Fatalf("%d attributes for %d nodes x %d", len(attr), n, d)
		}
	})
}

// FuzzBinaryEdges feeds arbitrary bytes to ReadBinaryEdges.
func FuzzBinaryEdges(f *testing.F) {
	f.Add(binEdges(0, 1, 1, 2, 2, 0))
	f.Add(binEdges(5, 5))
	f.Add([]byte{1, 2, 3})
	f.Fuzz(func(t *testing.T, data []byte) {
		data = slices.Clone(data) // a fuzz target must not modify its input
		if len(data) >= 8 {
			// Keep the node count small: ids above 2^16 allocate rows.
			for i := 0; i+4 <= len(data); i += 4 {
				data[i+2], data[i+3] = 0, 0
			}
		}
		g, err := ReadBinaryEdges(bytes.NewReader(data), "b.bel")
		if err != nil {
			fuzzParseError(t, err, "b.bel")
			return
		}
		if err := g.Validate(); err != nil {
			t.Fatal(err)
		}
		if g.NumEdges() > len(data)/8 {
			t.Fatalf("%d edges from %d bytes", g.NumEdges(), len(data))
		}
	})
}
