package graphs

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestReadCites(t *testing.T) {
	for _, tc := range []struct {
		name  string
		in    string
		nodes int
		edges [][2]int32
	}{
		{
			name:  "integer ids, both directions",
			in:    "35\t1033\n1033\t35\n35\t103482\n",
			nodes: 3, edges: edgePairs([2]int32{0, 1}, [2]int32{0, 2}),
		},
		{
			// CiteSeer: string ids, self-citations, ids that look like
			// comments or contain commas are still ids.
			name:  "string ids",
			in:    "100157 100157\nbradshaw97introduction #id\na,b bradshaw97introduction\n\n",
			nodes: 4, edges: edgePairs([2]int32{1, 2}, [2]int32{3, 1}),
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := ReadCites(strings.NewReader(tc.in), "x/toy.cites")
			if err != nil {
				t.Fatal(err)
			}
			checkLoadedGraph(t, g, tc.nodes, tc.edges)
			if g.Name != "toy" || g.Source != "cites:toy.cites" {
				t.Errorf("Name %q Source %q", g.Name, g.Source)
			}
		})
	}
}

func TestReadCitesErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		line int
		frag string
	}{
		{"empty file", "", 0, "no edges"},
		{"weight column", "1 2\n2 3 1.0\n", 2, `want "cited citing", got 3 fields`},
		{"single id", "1\n", 1, "got 1 fields"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadCites(strings.NewReader(tc.in), "c.cites")
			wantParseError(t, err, "c.cites", tc.line, tc.frag)
		})
	}
}

// TestReadCitesCora checks the Planetoid Cora citation graph: 2,708 papers
// and 5,278 undirected citations (data README).
func TestReadCitesCora(t *testing.T) {
	path := filepath.Join(loaderDataDir(t, "planetoid", "cora"), "cora.cites")
	gs, err := Load(path, FormatAuto)
	if err != nil {
		t.Fatal(err)
	}
	g := gs[0]
	if err := g.Validate(); err != nil {
		t.Fatal(err)
	}
	if g.NumNodes() != 2708 || g.NumEdges() != 5278 || g.Name != "cora" || g.Source != "cites:cora.cites" {
		t.Errorf("cora: V=%d E=%d Name %q Source %q, want 2708, 5278, cora, cites:cora.cites",
			g.NumNodes(), g.NumEdges(), g.Name, g.Source)
	}
	// Read as an edge list the file gives the same graph.
	el, err := Load(path, FormatEdgeList)
	if err != nil {
		t.Fatal(err)
	}
	if el[0].NumNodes() != g.NumNodes() || el[0].NumEdges() != g.NumEdges() {
		t.Errorf("as edge list: V=%d E=%d", el[0].NumNodes(), el[0].NumEdges())
	}
}
