package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gnnsim/graphs"
)

// genSet writes a small graph-set file and returns its path.
func genSet(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	mustRun(t, append([]string{"graphs", "gen", "--out", path}, args...)...)
	return path
}

func TestGraphsGenDeterministic(t *testing.T) {
	tests := []struct {
		generator string
		args      []string
	}{
		{"er", []string{"--nodes", "10:40", "--param", "avg_degree=3"}},
		{"ba", []string{"--nodes", "10:40"}},
		{"ws", []string{"--nodes", "10:40", "--param", "k=4"}},
		{"sbm", []string{"--nodes", "20:40"}},
		{"knn", []string{"--nodes", "20"}},
		{"rmat", []string{"--nodes", "16:64", "--edges", "20:100"}},
		{"graphlaxy", []string{"--edges", "50:200"}},
	}
	for _, tt := range tests {
		t.Run(tt.generator, func(t *testing.T) {
			dir := t.TempDir()
			args := func(seed int) []string {
				return append([]string{"--generator", tt.generator, "--count", "4", "--seed", strconv.Itoa(seed)}, tt.args...)
			}
			a := genSet(t, dir, "a.parquet", args(7)...)
			b := genSet(t, dir, "b.parquet", args(7)...)
			c := genSet(t, dir, "c.parquet", args(8)...)
			ab, bb, cb := readFile(t, a), readFile(t, b), readFile(t, c)
			if !bytes.Equal(ab, bb) {
				t.Errorf("same flags, different files")
			}
			if bytes.Equal(ab, cb) {
				t.Errorf("seeds 7 and 8 gave the same file")
			}
		})
	}
}

// TestGraphsGenExtends checks that a larger --count keeps the first graphs.
func TestGraphsGenExtends(t *testing.T) {
	dir := t.TempDir()
	args := []string{"--generator", "graphlaxy", "--seed", "3", "--edges", "50:300"}
	short := genSet(t, dir, "short.parquet", append(args, "--count", "3")...)
	long := genSet(t, dir, "long.parquet", append(args, "--count", "6")...)
	gs, _, err := graphs.ReadSet(short)
	if err != nil {
		t.Fatal(err)
	}
	gl, _, err := graphs.ReadSet(long)
	if err != nil {
		t.Fatal(err)
	}
	if len(gs) != 3 || len(gl) != 6 {
		t.Fatalf("read %d and %d graphs, want 3 and 6", len(gs), len(gl))
	}
	for i, g := range gs {
		h := gl[i]
		if g.Name != h.Name || !slices.Equal(g.RowPtr, h.RowPtr) || !slices.Equal(g.Col, h.Col) {
			t.Errorf("graph %d differs between --count 3 and --count 6", i)
		}
	}
}

func TestGraphsGenBadFlags(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want []string // all in the error message
	}{
		{"empty node range", []string{"--nodes", "5:3"}, []string{"--nodes", "5 > 3"}},
		{"zero nodes", []string{"--nodes", "0:3"}, []string{"--nodes", `"0"`}},
		{"bare colon", []string{"--nodes", ":"}, []string{"--nodes"}},
		{"not a number", []string{"--nodes", "abc"}, []string{"--nodes", `"abc"`}},
		{"empty edge range", []string{"--edges", "10:2"}, []string{"--edges", "10 > 2"}},
		{"zero count", []string{"--count", "0"}, []string{"--count 0"}},
		{"negative count", []string{"--count", "-2"}, []string{"--count -2"}},
		{"param without value", []string{"--param", "p"}, []string{"--param", "KEY=VALUE"}},
		{"NaN param", []string{"--param", "p=NaN"}, []string{"--param", "finite"}},
		{"param twice", []string{"--param", "p=0.1", "--param", "p=0.2"}, []string{"--param", "twice"}},
		{"unknown param", []string{"--param", "zz=1"}, []string{`"zz"`}},
		{"unknown generator", []string{"--generator", "nosuch"}, []string{`"nosuch"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "g.parquet")
			args := append([]string{"graphs", "gen", "--generator", "er", "--count", "2", "--out", out}, tt.args...)
			_, _, err := run(t, args...)
			if err == nil {
				t.Fatalf("gnnsim %s: no error", strings.Join(args, " "))
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("%s was written despite the error", out)
			}
		})
	}
	// A missing output directory is an error too.
	out := filepath.Join(t.TempDir(), "nodir", "g.parquet")
	if _, _, err := run(t, "graphs", "gen", "--generator", "er", "--count", "2", "--out", out); err == nil {
		t.Errorf("gen into a missing directory: no error")
	}
}

// occupancy parses the occupancy table of 'graphs info': the row labels,
// the column edges, the counts and the off-axis count.
func occupancy(t *testing.T, out string) (rows, cols []string, counts [][]int, outside int) {
	t.Helper()
	lines := strings.Split(out, "\n")
	i := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "occupancy: ") })
	if i < 0 || i+12 >= len(lines) {
		t.Fatalf("no occupancy table in:\n%s", out)
	}
	cols = strings.Fields(lines[i+1])
	for _, l := range lines[i+2 : i+12] {
		f := strings.Fields(l)
		if len(f) != 1+len(cols) {
			t.Fatalf("occupancy row %q: %d cells, want %d", l, len(f)-1, len(cols))
		}
		rows = append(rows, f[0])
		var r []int
		for _, c := range f[1:] {
			n := 0
			if c != "." {
				var err error
				if n, err = strconv.Atoi(c); err != nil || n <= 0 {
					t.Fatalf("occupancy cell %q: want '.' or a positive count", c)
				}
			}
			r = append(r, n)
		}
		counts = append(counts, r)
	}
	last := lines[i+12]
	if _, err := fmt.Sscanf(last, "off the density axis (density 0 or below 1e-5): %d", &outside); err != nil {
		t.Fatalf("occupancy footer %q: %v", last, err)
	}
	return rows, cols, counts, outside
}

func TestGraphsInfo(t *testing.T) {
	dir := t.TempDir()
	const n = 12
	path := genSet(t, dir, "g.parquet", "--generator", "graphlaxy", "--count", strconv.Itoa(n), "--seed", "5", "--edges", "50:400")
	out := mustRun(t, "graphs", "info", path)
	if first := strings.SplitN(out, "\n", 2)[0]; first != fmt.Sprintf("%s: %d graphs", path, n) {
		t.Errorf("first line %q", first)
	}
	for _, kv := range []string{"gnnsim.generator = graphlaxy", "gnnsim.seed = 5", "gnnsim.count = 12", "gnnsim.edges = 50:400", "gnnsim.command = graphs gen"} {
		if !strings.Contains(out, "  "+kv+"\n") {
			t.Errorf("metadata line %q missing", kv)
		}
	}
	for _, f := range graphs.FeatureNames() {
		if !strings.Contains(out, "\n"+f+" ") {
			t.Errorf("feature %s missing from the summary", f)
		}
	}
	rows, cols, counts, outside := occupancy(t, out)
	wantCols := []string{"-5.0", "-4.5", "-4.0", "-3.5", "-3.0", "-2.5", "-2.0", "-1.5", "-1.0", "-0.5"}
	if !slices.Equal(cols, wantCols) {
		t.Errorf("columns %v, want %v", cols, wantCols)
	}
	wantRows := []string{"0.9-1.0", "0.8-0.9", "0.7-0.8", "0.6-0.7", "0.5-0.6", "0.4-0.5", "0.3-0.4", "0.2-0.3", "0.1-0.2", "0.0-0.1"}
	if !slices.Equal(rows, wantRows) {
		t.Errorf("rows %v, want %v", rows, wantRows)
	}
	total := outside
	for _, r := range counts {
		for _, c := range r {
			total += c
		}
	}
	if total != n {
		t.Errorf("occupancy counts %d graphs, want %d", total, n)
	}
}

// TestGraphsLoadInfo loads a hand-made edge list and checks the occupancy
// cell worked out by hand: a triangle 0-1-2 with a pendant 3 on node 2 has
// networkx density 2*4/(4*3) = 0.667 (log10 -0.18, the last column) and
// average clustering (1 + 1 + 1/3 + 0)/4 = 0.583 (row 0.5-0.6).
func TestGraphsLoadInfo(t *testing.T) {
	dir := t.TempDir()
	el := filepath.Join(dir, "paw.edgelist")
	if err := os.WriteFile(el, []byte("# a paw\n0 1\n1 2\n2 0\n2 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	set := filepath.Join(dir, "paw.parquet")
	out := mustRun(t, "graphs", "load", el, "--out", set)
	if want := fmt.Sprintf("wrote 1 graph (V 4..4, E 4..4) to %s\n", set); out != want {
		t.Errorf("load printed %q, want %q", out, want)
	}
	out = mustRun(t, "graphs", "info", set)
	if !strings.Contains(out, "format = auto") {
		t.Errorf("metadata does not record the detected format:\n%s", out)
	}
	rows, _, counts, outside := occupancy(t, out)
	if outside != 0 {
		t.Errorf("%d graphs off the density axis, want 0", outside)
	}
	for i, r := range counts {
		for j, c := range r {
			want := 0
			if rows[i] == "0.5-0.6" && j == len(r)-1 {
				want = 1
			}
			if c != want {
				t.Errorf("cell (%s, column %d) = %d, want %d", rows[i], j, c, want)
			}
		}
	}
	// --json holds the same summary: the paw in clustering bin 5, the last
	// density bin, 4 nodes and 4 edges.
	var info graphs.SetInfo
	if err := json.Unmarshal([]byte(mustRun(t, "graphs", "info", set, "--json")), &info); err != nil {
		t.Fatal(err)
	}
	if info.File != set || info.Graphs != 1 || info.Meta["gnnsim.format"] != "auto" || info.Occupancy == nil {
		t.Fatalf("info --json: %+v", info)
	}
	for i, r := range info.Occupancy.Counts {
		for j, c := range r {
			if want := b2i(i == 5 && j == len(r)-1); c != want {
				t.Errorf("--json counts[%d][%d] = %d, want %d", i, j, c, want)
			}
		}
	}
	for _, f := range info.Features {
		if (f.Name == "num_nodes" || f.Name == "num_edges") && (f.Min != 4 || f.Mean != 4 || f.Max != 4) {
			t.Errorf("--json feature %+v, want 4", f)
		}
	}
	if _, _, err := run(t, "graphs", "load", el, "--format", "xml", "--out", set); err == nil || !strings.Contains(err.Error(), "--format") {
		t.Errorf("--format xml: error %v, want one naming --format", err)
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
