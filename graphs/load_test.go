package graphs

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// loaderDataDir returns the shared real-data folder (env GNNSIM_DATA, else
// ../../shared/data relative to this package) joined with sub, or skips the
// test when it is absent.
func loaderDataDir(tb testing.TB, sub ...string) string {
	tb.Helper()
	dir := os.Getenv("GNNSIM_DATA")
	if dir == "" {
		dir = filepath.Join("..", "..", "shared", "data")
	}
	p := filepath.Join(append([]string{dir}, sub...)...)
	if _, err := os.Stat(p); err != nil {
		tb.Skipf("real data %s absent (set GNNSIM_DATA to the shared data folder): %v", p, err)
	}
	return p
}

// loaderOmegaDir returns the STONNE-Omega reference folder (env
// GNNSIM_OMEGA_REF, else omega-reference beside the data folder), or skips.
func loaderOmegaDir(tb testing.TB) string {
	tb.Helper()
	dir := os.Getenv("GNNSIM_OMEGA_REF")
	if dir == "" {
		data := os.Getenv("GNNSIM_DATA")
		if data == "" {
			data = filepath.Join("..", "..", "shared", "data")
		}
		dir = filepath.Join(data, "..", "omega-reference")
	}
	if _, err := os.Stat(filepath.Join(dir, "graphs.tsv")); err != nil {
		tb.Skipf("omega reference %s absent (set GNNSIM_OMEGA_REF): %v", dir, err)
	}
	return dir
}

// loadedEdges lists g's edges as sorted pairs u < v.
func loadedEdges(g *Graph) [][2]int32 {
	var out [][2]int32
	for v := 0; v < g.NumNodes(); v++ {
		for _, c := range g.Neighbors(v) {
			if int32(v) < c {
				out = append(out, [2]int32{int32(v), c})
			}
		}
	}
	return out
}

// edgePairs normalises an edge list the way undirectedEdges reports it.
func edgePairs(es ...[2]int32) [][2]int32 {
	out := make([][2]int32, 0, len(es))
	for _, e := range es {
		if e[0] > e[1] {
			e[0], e[1] = e[1], e[0]
		}
		if e[0] != e[1] && !slices.Contains(out, e) {
			out = append(out, e)
		}
	}
	slices.SortFunc(out, func(a, b [2]int32) int {
		if a[0] != b[0] {
			return int(a[0] - b[0])
		}
		return int(a[1] - b[1])
	})
	return out
}

// checkLoadedGraph asserts node count, edges and validity.
func checkLoadedGraph(t *testing.T, g *Graph, nodes int, edges [][2]int32) {
	t.Helper()
	if err := g.Validate(); err != nil {
		t.Fatalf("Validate: %v", err)
	}
	if g.NumNodes() != nodes {
		t.Errorf("NumNodes = %d, want %d", g.NumNodes(), nodes)
	}
	if got := loadedEdges(g); !slices.Equal(got, edges) {
		t.Errorf("edges = %v, want %v", got, edges)
	}
}

// wantParseError asserts err is a ParseError with the given file and line
// whose message contains every fragment.
func wantParseError(t *testing.T, err error, file string, line int, fragments ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want %s:%d: %q", file, line, fragments)
	}
	var pe *ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("error %q (%T) is not a *ParseError", err, err)
	}
	if pe.File != file || pe.Line != line {
		t.Errorf("error %q at %s:%d, want %s:%d", err, pe.File, pe.Line, file, line)
	}
	for _, f := range fragments {
		if !strings.Contains(err.Error(), f) {
			t.Errorf("error %q lacks %q", err, f)
		}
	}
}

func writeLoaderFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestParseErrorMessage(t *testing.T) {
	e := &ParseError{File: "ENZYMES_A.txt", Line: 17, Err: errors.New("bad node id")}
	if got, want := e.Error(), "ENZYMES_A.txt:17: bad node id"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	e.Line = 0
	if got, want := e.Error(), "ENZYMES_A.txt: bad node id"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

func TestParseDecInt(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"0", 0, true}, {"42", 42, true}, {"+7", 7, true}, {"-13", -13, true}, {"007", 7, true},
		{"9223372036854775807", math.MaxInt64, true},
		{"-9223372036854775808", math.MinInt64, true},
		{"9223372036854775808", 0, false},
		{"-9223372036854775809", 0, false},
		{"99999999999999999999", 0, false},
		{"", 0, false}, {"-", 0, false}, {"+", 0, false}, {"1.0", 0, false}, {"1e3", 0, false},
		{"12a", 0, false}, {" 1", 0, false}, {"--1", 0, false}, {"0x10", 0, false},
	} {
		got, ok := parseDecInt([]byte(tc.in))
		if got != tc.want || ok != tc.ok {
			t.Errorf("parseDecInt(%q) = %d, %v; want %d, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestSplitters(t *testing.T) {
	str := func(fs [][]byte) []string {
		out := []string{}
		for _, f := range fs {
			out = append(out, string(f))
		}
		return out
	}
	for _, tc := range []struct {
		in          string
		comma       bool
		space, coma []string
	}{
		{"8,1", true, []string{"8", "1"}, []string{"8", "1"}},
		{" 8 ,\t1 ", true, []string{"8", "1"}, []string{"8", "1"}},
		{"a\tb  c", false, []string{"a", "b", "c"}, []string{"a\tb  c"}},
		{"a,b", false, []string{"a,b"}, []string{"a", "b"}},
		{"1,,2", true, []string{"1", "2"}, []string{"1", "", "2"}},
		{"1,", true, []string{"1"}, []string{"1", ""}},
	} {
		if got := str(splitSpace(nil, []byte(tc.in), tc.comma)); !slices.Equal(got, tc.space) {
			t.Errorf("splitSpace(%q, %v) = %q, want %q", tc.in, tc.comma, got, tc.space)
		}
		if got := str(splitComma(nil, []byte(tc.in))); !slices.Equal(got, tc.coma) {
			t.Errorf("splitComma(%q) = %q, want %q", tc.in, got, tc.coma)
		}
	}
}

func TestLineTooLong(t *testing.T) {
	long := "1 2\n" + strings.Repeat("x", maxLineBytes+10) + " 3\n"
	_, err := ReadEdgeList(strings.NewReader(long), "long.txt")
	wantParseError(t, err, "long.txt", 2, "line longer than")
}

func TestLoadFormats(t *testing.T) {
	dir := t.TempDir()
	// A two-graph TU set in its own directory.
	tuDir := filepath.Join(dir, "TOY")
	if err := os.Mkdir(tuDir, 0o755); err != nil {
		t.Fatal(err)
	}
	writeLoaderFile(t, filepath.Join(tuDir, "TOY_A.txt"), "1, 2\n2, 1\n3,4\n")
	writeLoaderFile(t, filepath.Join(tuDir, "TOY_graph_indicator.txt"), "1\n1\n2\n2\n2\n")
	writeLoaderFile(t, filepath.Join(tuDir, "TOY_graph_labels.txt"), "3\n-1\n")
	mtx := filepath.Join(dir, "tri.mtx")
	writeLoaderFile(t, mtx, "%%MatrixMarket matrix coordinate pattern symmetric\n3 3 3\n2 1\n3 1\n3 2\n")
	noExt := filepath.Join(dir, "tri.dat")
	writeLoaderFile(t, noExt, "%%MatrixMarket matrix coordinate pattern symmetric\n3 3 3\n2 1\n3 1\n3 2\n")
	el := filepath.Join(dir, "path.edges")
	writeLoaderFile(t, el, "a b\nb c\n")
	cites := filepath.Join(dir, "toy.cites")
	writeLoaderFile(t, cites, "10 20\n20 30\n")
	odd := filepath.Join(dir, "path.xyz")
	writeLoaderFile(t, odd, "a b\n")

	tuPrefix := filepath.Join(tuDir, "TOY")
	for _, tc := range []struct {
		path    string
		format  Format
		graphs  int
		name    string
		source  string
		errFrag string
	}{
		{path: tuDir, graphs: 2, name: "TOY_g1", source: "TU:TOY graph_id=1"},
		{path: tuPrefix, graphs: 2, name: "TOY_g1", source: "TU:TOY graph_id=1"},
		{path: tuPrefix + "_A.txt", graphs: 2, name: "TOY_g1", source: "TU:TOY graph_id=1"},
		{path: tuDir, format: FormatTU, graphs: 2, name: "TOY_g1", source: "TU:TOY graph_id=1"},
		{path: tuPrefix + "_A.txt", format: FormatTU, graphs: 2, name: "TOY_g1", source: "TU:TOY graph_id=1"},
		{path: mtx, graphs: 1, name: "tri", source: "mtx:tri.mtx"},
		{path: noExt, graphs: 1, name: "tri", source: "mtx:tri.dat"},
		{path: el, graphs: 1, name: "path", source: "edgelist:path.edges"},
		{path: cites, graphs: 1, name: "toy", source: "cites:toy.cites"},
		{path: odd, format: FormatEdgeList, graphs: 1, name: "path", source: "edgelist:path.xyz"},
		{path: odd, errFrag: "cannot tell the format"},
		{path: mtx, format: "graphml", errFrag: `unknown format "graphml"`},
		{path: filepath.Join(dir, "missing.mtx"), errFrag: "no such file"},
		{path: filepath.Join(dir, "missing.mtx"), format: FormatMTX, errFrag: "no such file"},
		{path: dir, errFrag: "no *_A.txt file"},
		{path: el, format: FormatMTX, errFrag: "path.edges:1: bad banner"},
	} {
		gs, err := Load(tc.path, tc.format)
		if tc.errFrag != "" {
			if err == nil || !strings.Contains(err.Error(), tc.errFrag) {
				t.Errorf("Load(%s, %q) error %v, want %q", tc.path, tc.format, err, tc.errFrag)
			}
			continue
		}
		if err != nil {
			t.Errorf("Load(%s, %q): %v", tc.path, tc.format, err)
			continue
		}
		if len(gs) != tc.graphs || gs[0].Name != tc.name || gs[0].Source != tc.source {
			t.Errorf("Load(%s, %q) = %d graphs, first %q %q; want %d, %q %q",
				tc.path, tc.format, len(gs), gs[0].Name, gs[0].Source, tc.graphs, tc.name, tc.source)
		}
		for _, g := range gs {
			if err := g.Validate(); err != nil {
				t.Errorf("Load(%s): %s: %v", tc.path, g.Name, err)
			}
		}
	}
}

func TestLoadTUDirectoryWithTwoSets(t *testing.T) {
	dir := t.TempDir()
	for _, ds := range []string{"A1", "B2"} {
		writeLoaderFile(t, filepath.Join(dir, ds+"_A.txt"), "1, 2\n")
		writeLoaderFile(t, filepath.Join(dir, ds+"_graph_indicator.txt"), "1\n1\n")
	}
	if _, err := LoadTU(dir); err == nil || !strings.Contains(err.Error(), "several data sets") {
		t.Errorf("LoadTU on two sets: %v, want a 'several data sets' error", err)
	}
	gs, err := LoadTU(filepath.Join(dir, "B2"))
	if err != nil || len(gs) != 1 || gs[0].Name != "B2_g1" {
		t.Errorf("LoadTU(prefix B2) = %v, %v", gs, err)
	}
	if _, err := LoadTU(filepath.Join(dir, "C3")); err == nil || !strings.Contains(err.Error(), "C3_A.txt") {
		t.Errorf("LoadTU(missing prefix) error %v, want it to name C3_A.txt", err)
	}
}
