package graphs

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadEdgeList(t *testing.T) {
	for _, tc := range []struct {
		name  string
		in    string
		nodes int
		edges [][2]int32
	}{
		{
			name:  "whitespace, tabs and commas",
			in:    "1 2\n2\t3\n3,4\n4 , 1\n 5\t\t6 \n",
			nodes: 6, edges: edgePairs([2]int32{0, 1}, [2]int32{1, 2}, [2]int32{2, 3}, [2]int32{3, 0}, [2]int32{4, 5}),
		},
		{
			// Ids are numbered in order of first appearance, first id of
			// a line before the second: 42->0, 7->1, x->2.
			name:  "ids remapped in order of first appearance",
			in:    "42 7\n7 x\nx 42\n",
			nodes: 3, edges: edgePairs([2]int32{0, 1}, [2]int32{1, 2}, [2]int32{0, 2}),
		},
		{
			name:  "comments, blank lines, weights ignored",
			in:    "# SNAP header\n% KONECT header\n\n  # indented comment\na b 0.5\nb c -3\r\nc a 1e3\n",
			nodes: 3, edges: edgePairs([2]int32{0, 1}, [2]int32{1, 2}, [2]int32{0, 2}),
		},
		{
			name:  "ids are opaque tokens",
			in:    "1 01\n01 1\n",
			nodes: 2, edges: edgePairs([2]int32{0, 1}),
		},
		{
			name:  "duplicates and both directions merged, self-loop-only node kept isolated",
			in:    "a b\nb a\na b\nc c\n",
			nodes: 3, edges: edgePairs([2]int32{0, 1}),
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := ReadEdgeList(strings.NewReader(tc.in), "some/dir/toy.edges")
			if err != nil {
				t.Fatal(err)
			}
			checkLoadedGraph(t, g, tc.nodes, tc.edges)
			if g.Name != "toy" || g.Source != "edgelist:toy.edges" {
				t.Errorf("Name %q Source %q", g.Name, g.Source)
			}
		})
	}
}

func TestReadEdgeListErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		line int
		frag string
	}{
		{"empty file", "", 0, "no edges"},
		{"only comments", "# nothing\n%\n\n", 0, "no edges"},
		{"one field", "1 2\n3\n", 2, "got 1 fields"},
		{"four fields", "1 2 3 4\n", 1, "got 4 fields"},
		{"NaN weight", "1 2 1\n2 3 NaN\n", 2, `weight: non-finite number "NaN"`},
		{"malformed weight", "1 2 heavy\n", 1, `weight: bad number "heavy"`},
		{"trailing comment is a field", "1 2 # why\n", 1, "got 4 fields"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadEdgeList(strings.NewReader(tc.in), "e.txt")
			wantParseError(t, err, "e.txt", tc.line, tc.frag)
		})
	}
}

// BenchmarkReadEdgeList parses cora.cites (10,556 lines) as an edge list
// from memory.
func BenchmarkReadEdgeList(b *testing.B) {
	data, err := os.ReadFile(filepath.Join(loaderDataDir(b, "planetoid", "cora"), "cora.cites"))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := ReadEdgeList(bytes.NewReader(data), "cora.cites"); err != nil {
			b.Fatal(err)
		}
	}
}
