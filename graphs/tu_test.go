package graphs

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// readTUStrings runs readTU on inline files; labels and attrs are absent
// when "-".
func readTUStrings(a, ind, labels, attrs string) ([]*Graph, error) {
	var lr, ar io.Reader
	if labels != "-" {
		lr = strings.NewReader(labels)
	}
	if attrs != "-" {
		ar = strings.NewReader(attrs)
	}
	return readTU("T", strings.NewReader(a), strings.NewReader(ind), lr, ar)
}

func TestReadTU(t *testing.T) {
	type want struct {
		nodes int
		edges [][2]int32
		label int64 // checked when labels are given
		attr  []float64
	}
	for _, tc := range []struct {
		name               string
		a, ind, lab, attrs string
		graphs             []want
	}{
		{
			name:  "spacing variants, both directions",
			a:     "1, 2\n2,1\n  3 ,  4\n4,\t3\n",
			ind:   "1\n1\n2\n2\n",
			lab:   "1\n-1\n",
			attrs: " 1.5, 2\n3,4\n5, 6\n7,8e0\n",
			graphs: []want{
				{2, edgePairs([2]int32{0, 1}), 1, []float64{1.5, 2, 3, 4}},
				{2, edgePairs([2]int32{0, 1}), -1, []float64{5, 6, 7, 8}},
			},
		},
		{
			name: "one direction only, duplicates, self-loop, isolated node",
			a:    "1,2\n1,2\n3,3\n2,3\n",
			ind:  "1\n1\n1\n1\n",
			lab:  "-", attrs: "-",
			graphs: []want{{4, edgePairs([2]int32{0, 1}, [2]int32{1, 2}), 0, nil}},
		},
		{
			name: "graphs without edges, CRLF, trailing blank lines",
			a:    "",
			ind:  "1\r\n2\r\n2\r\n\r\n\n",
			lab:  "0\n1\n\n", attrs: "-",
			graphs: []want{{1, nil, 0, nil}, {2, nil, 1, nil}},
		},
		{
			// Nodes of the two graphs interleave: each keeps its nodes in
			// global order, so global 1,3,5 -> graph 1 nodes 0,1,2 and
			// global 2,4 -> graph 2 nodes 0,1; attributes follow.
			name:  "interleaved graphs renumbered in global order",
			a:     "1,5\n5,3\n4,2\n",
			ind:   "1\n2\n1\n2\n1\n",
			lab:   "7\n8\n",
			attrs: "1\n2\n3\n4\n5\n",
			graphs: []want{
				{3, edgePairs([2]int32{0, 2}, [2]int32{1, 2}), 7, []float64{1, 3, 5}},
				{2, edgePairs([2]int32{0, 1}), 8, []float64{2, 4}},
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gs, err := readTUStrings(tc.a, tc.ind, tc.lab, tc.attrs)
			if err != nil {
				t.Fatal(err)
			}
			if len(gs) != len(tc.graphs) {
				t.Fatalf("%d graphs, want %d", len(gs), len(tc.graphs))
			}
			for k, w := range tc.graphs {
				g := gs[k]
				checkLoadedGraph(t, g, w.nodes, w.edges)
				if name := "T_g" + strconv.Itoa(k+1); g.Name != name {
					t.Errorf("graph %d Name %q, want %q", k, g.Name, name)
				}
				if src := "TU:T graph_id=" + strconv.Itoa(k+1); g.Source != src {
					t.Errorf("graph %d Source %q, want %q", k, g.Source, src)
				}
				if g.HasLabel != (tc.lab != "-") || g.Label != w.label {
					t.Errorf("graph %d label %d (has %v), want %d", k, g.Label, g.HasLabel, w.label)
				}
				if !slices.Equal(g.NodeAttr, w.attr) || (w.attr != nil && g.AttrDim != len(w.attr)/w.nodes) {
					t.Errorf("graph %d attrs %v dim %d, want %v", k, g.NodeAttr, g.AttrDim, w.attr)
				}
				if cap(g.NodeAttr) != len(g.NodeAttr) {
					t.Errorf("graph %d NodeAttr has spare capacity: appending would clobber the next graph", k)
				}
			}
		})
	}
}

func TestReadTUErrors(t *testing.T) {
	const (
		fA   = "T_A.txt"
		fInd = "T_graph_indicator.txt"
		fLab = "T_graph_labels.txt"
		fAtt = "T_node_attributes.txt"
	)
	okA, okInd := "1,2\n3,4\n", "1\n1\n2\n2\n"
	for _, tc := range []struct {
		name               string
		a, ind, lab, attrs string
		file               string
		line               int
		frag               string
	}{
		{"node id zero", "1,2\n0,1\n", okInd, "-", "-", fA, 2, "node id 0 out of range [1, 4]"},
		{"node id above count", "1,2\n3,5\n", okInd, "-", "-", fA, 2, "node id 5 out of range [1, 4]"},
		{"negative node id", "-1,2\n", okInd, "-", "-", fA, 1, "node id -1 out of range"},
		{"huge node id", "1,99999999999999999999\n", okInd, "-", "-", fA, 1, "bad node id"},
		{"edge across graphs", "1,2\n\n2,3\n", okInd, "-", "-", fA, 3, "edge (2, 3) joins graph 1 and graph 2"},
		{"space instead of comma", "1 2\n", okInd, "-", "-", fA, 1, "got 1 comma-separated fields"},
		{"three fields", "1,2,3\n", okInd, "-", "-", fA, 1, "got 3 comma-separated fields"},
		{"empty field", "1,\n", okInd, "-", "-", fA, 1, `bad node id ""`},
		{"garbage id", "1,x2\n", okInd, "-", "-", fA, 1, `bad node id "x2"`},
		{"empty indicator", okA, "", "-", "-", fInd, 0, "empty file"},
		{"graph id zero", okA, "1\n0\n2\n2\n", "-", "-", fInd, 2, "graph id 0 out of range"},
		{"graph id gap", okA, "1\n1\n3\n3\n", "-", "-", fInd, 0, "graph id 2 has no nodes"},
		{"graph id above node count", "1,2\n", "1\n1\n9\n", "-", "-", fInd, 3, "graph id 9 exceeds the node count 3"},
		{"graph id beyond int32", okA, "1\n1\n2\n4294967296\n", "-", "-", fInd, 4, "out of range"},
		{"bad graph id", okA, "1\n1\n2\n2.0\n", "-", "-", fInd, 4, `bad graph id "2.0"`},
		{"blank line inside indicator", okA, "1\n\n1\n2\n2\n", "-", "-", fInd, 2, "blank line inside the data"},
		{"too few labels", okA, okInd, "1\n", "-", fLab, 0, "1 labels for 2 graphs"},
		{"too many labels", okA, okInd, "1\n2\n3\n", "-", fLab, 3, "more labels than the 2 graphs"},
		{"bad label", okA, okInd, "1\nA\n", "-", fLab, 2, `bad graph label "A"`},
		{"empty labels file", okA, okInd, "", "-", fLab, 0, "0 labels for 2 graphs"},
		{"too few attribute lines", okA, okInd, "-", "1\n2\n3\n", fAtt, 0, "3 attribute lines for 4 nodes"},
		{"too many attribute lines", okA, okInd, "-", "1\n2\n3\n4\n5\n", fAtt, 5, "more attribute lines than the 4 nodes"},
		{"NaN attribute", okA, okInd, "-", "1,2\n3,NaN\n5,6\n7,8\n", fAtt, 2, `non-finite number "NaN"`},
		{"infinite attribute", okA, okInd, "-", "1,2\n3,4\n-Inf,6\n7,8\n", fAtt, 3, "non-finite number"},
		{"malformed attribute", okA, okInd, "-", "1,2\n3,4\n5,6\n7,8.8.8\n", fAtt, 4, `bad number "8.8.8"`},
		{"ragged attributes", okA, okInd, "-", "1,2\n3,4\n5\n7,8\n", fAtt, 3, "1 attributes, line 1 has 2"},
		{"empty attribute field", okA, okInd, "-", "1,2\n3,\n5,6\n7,8\n", fAtt, 2, `bad number ""`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := readTUStrings(tc.a, tc.ind, tc.lab, tc.attrs)
			wantParseError(t, err, tc.file, tc.line, tc.frag)
		})
	}
}

// TestLoadTURealData checks facts about the TU data sets: graph counts from
// the data README, node totals from the indicator files' line counts, the
// ENZYMES edge total from the brief, label ranges and attribute dimensions.
func TestLoadTURealData(t *testing.T) {
	for _, tc := range []struct {
		ds             string
		graphs         int
		nodes, edges   int // 0: not checked
		attrDim        int
		labelLo, labHi int64
	}{
		{"ENZYMES", 600, 19580, 37282, 18, 1, 6},
		{"NCI1", 4110, 122747, 0, 0, 0, 1},
		{"MUTAG", 188, 3371, 0, 0, -1, 1},
		{"AIDS", 2000, 31385, 0, 4, 0, 1},
	} {
		t.Run(tc.ds, func(t *testing.T) {
			dir := loaderDataDir(t, "tu", tc.ds)
			gs, err := LoadTU(dir)
			if err != nil {
				t.Fatal(err)
			}
			if len(gs) != tc.graphs {
				t.Fatalf("%d graphs, want %d", len(gs), tc.graphs)
			}
			nodes, edges := 0, 0
			for k, g := range gs {
				if err := g.Validate(); err != nil {
					t.Fatalf("%s: %v", g.Name, err)
				}
				if want := tc.ds + "_g" + strconv.Itoa(k+1); g.Name != want {
					t.Fatalf("graph %d named %q, want %q", k, g.Name, want)
				}
				if !g.HasLabel || g.Label < tc.labelLo || g.Label > tc.labHi {
					t.Fatalf("%s: label %d (has %v) outside [%d, %d]", g.Name, g.Label, g.HasLabel, tc.labelLo, tc.labHi)
				}
				if g.AttrDim != tc.attrDim || len(g.NodeAttr) != tc.attrDim*g.NumNodes() {
					t.Fatalf("%s: %d attributes of dim %d, want dim %d", g.Name, len(g.NodeAttr), g.AttrDim, tc.attrDim)
				}
				nodes += g.NumNodes()
				edges += g.NumEdges()
			}
			if tc.nodes != 0 && nodes != tc.nodes {
				t.Errorf("%d nodes in total, want %d", nodes, tc.nodes)
			}
			if tc.edges != 0 && edges != tc.edges {
				t.Errorf("%d undirected edges in total, want %d", edges, tc.edges)
			}
			t.Logf("%s: %d graphs, %d nodes, %d undirected edges", tc.ds, len(gs), nodes, edges)
		})
	}
}

// TestLoadTUMatchesOmegaReference compares every TU graph used by the
// STONNE-Omega reference, byte for byte, with the CSR of A+I the reference
// simulated: same naming, node order and edges.
func TestLoadTUMatchesOmegaReference(t *testing.T) {
	ref := loaderOmegaDir(t)
	sets := map[string][]*Graph{}
	checked := 0
	for _, row := range readOmegaGraphsTSV(t, ref) {
		name, source := row[1], row[2]
		if !strings.HasPrefix(source, "TU:") {
			continue
		}
		ds := strings.Fields(strings.TrimPrefix(source, "TU:"))[0]
		if _, ok := sets[ds]; !ok {
			gs, err := LoadTU(loaderDataDir(t, "tu", ds))
			if err != nil {
				t.Fatal(err)
			}
			sets[ds] = gs
		}
		var g *Graph
		for _, h := range sets[ds] {
			if h.Name == name {
				g = h
				break
			}
		}
		if g == nil {
			t.Errorf("%s: no such graph in %s", name, ds)
			continue
		}
		if !strings.HasPrefix(source, g.Source+" ") {
			t.Errorf("%s: Source %q is not a prefix of the reference's %q", name, g.Source, source)
		}
		compareOmegaCSR(t, g, filepath.Join(ref, "graphs", name+".csr"))
		checked++
	}
	if checked == 0 {
		t.Fatal("no TU graphs in the omega reference")
	}
	t.Logf("%d TU graphs match the omega reference", checked)
}

// readOmegaGraphsTSV returns the rows of graphs.tsv without its header.
func readOmegaGraphsTSV(t *testing.T, ref string) [][]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(ref, "graphs.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	var rows [][]string
	for i, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if i > 0 {
			rows = append(rows, strings.Split(line, "\t"))
		}
	}
	return rows
}

// compareOmegaCSR checks that g with self-loops added equals the reference
// CSR file (line 1 row pointers, line 2 column ids).
func compareOmegaCSR(t *testing.T, g *Graph, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<26)
	var lines [2][]int32
	for k := range lines {
		if !sc.Scan() {
			t.Fatalf("%s: short file", path)
		}
		for _, s := range strings.Split(sc.Text(), ",") {
			x, err := strconv.Atoi(s)
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			lines[k] = append(lines[k], int32(x))
		}
	}
	ai := g.WithSelfLoops()
	if !slices.Equal(ai.RowPtr, lines[0]) || !slices.Equal(ai.Col, lines[1]) {
		t.Errorf("%s: CSR of A+I differs from %s (V %d vs %d, nnz %d vs %d)",
			g.Name, path, ai.NumNodes(), len(lines[0])-1, ai.NNZ(), len(lines[1]))
	}
}

// BenchmarkLoadTUNCI1 loads the largest TU set in the test data (4,110
// graphs, 122,747 nodes, 265,506 A lines) from disk.
func BenchmarkLoadTUNCI1(b *testing.B) {
	dir := loaderDataDir(b, "tu", "NCI1")
	b.ReportAllocs()
	for b.Loop() {
		gs, err := LoadTU(dir)
		if err != nil || len(gs) != 4110 {
			b.Fatal(len(gs), err)
		}
	}
}

// BenchmarkReadTUENZYMES parses ENZYMES (600 graphs, 19,580 nodes with 18
// attributes each, 74,564 A lines) from memory, attributes included.
func BenchmarkReadTUENZYMES(b *testing.B) {
	dir := loaderDataDir(b, "tu", "ENZYMES")
	var files [4][]byte
	for k, suf := range []string{tuSuffixA, tuSuffixIndicator, tuSuffixLabels, tuSuffixAttrs} {
		var err error
		if files[k], err = os.ReadFile(filepath.Join(dir, "ENZYMES"+suf)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(files[0]) + len(files[1]) + len(files[2]) + len(files[3])))
	for b.Loop() {
		gs, err := readTU("ENZYMES", bytes.NewReader(files[0]), bytes.NewReader(files[1]), bytes.NewReader(files[2]), bytes.NewReader(files[3]))
		if err != nil || len(gs) != 600 {
			b.Fatal(len(gs), err)
		}
	}
}
