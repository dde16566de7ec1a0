package bench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gnnsim/graphs"
)

// TestResolveData checks names and paths against a data folder laid out as
// the shared one, for each need: what resolves, to which path, and the
// errors (naming the argument, the known names or the files looked for).
func TestResolveData(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"planetoid/ind/ind.cora.graph", "planetoid/npz/citeseer.npz", "planetoid/cora/cora.cites",
		"tu/ENZYMES/ENZYMES_A.txt", "matrix-market/karate.mtx", "matrix-market/jazz.mtx"} {
		p := filepath.Join(dir, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	j := func(p string) string { return filepath.Join(dir, filepath.FromSlash(p)) }
	tests := []struct {
		arg      string
		need     DataNeed
		path     string // want ("" with an error)
		name     string
		labelled bool
		err      string // substring of the error
	}{
		{arg: "cora", need: NeedLabels, path: j("planetoid/ind/ind.cora"), name: "cora", labelled: true},
		{arg: "Cora", need: NeedGraph, path: j("planetoid/ind/ind.cora"), name: "cora", labelled: true},
		{arg: "citeseer", need: NeedLabels, path: j("planetoid/npz/citeseer.npz"), name: "citeseer", labelled: true},
		{arg: "pubmed", need: NeedStats, name: "pubmed"},
		{arg: "reddit", need: NeedStats, name: "reddit"},
		{arg: "pubmed", need: NeedLabels, err: "planetoid/ind/ind.pubmed"},
		{arg: "reddit", need: NeedGraph, err: "published statistics"},
		{arg: "enzymes", need: NeedGraph, path: j("tu/ENZYMES"), name: "ENZYMES"},
		{arg: "ENZYMES", need: NeedLabels, err: "without node labels"},
		{arg: "MUTAG", need: NeedGraph, err: "tu/MUTAG"},
		{arg: "SuiteSparse", need: NeedGraph, err: "name one by its file name"},
		{arg: "karate", need: NeedGraph, path: j("matrix-market/karate.mtx"), name: "karate"},
		{arg: "karate", need: NeedLabels, err: "a SuiteSparse matrix (a graph without node labels or features); this command takes a node-classification set"},
		{arg: "nothing", need: NeedLabels, err: "not a data set this command takes (cora, citeseer"},
		{arg: "nothing", need: NeedGraph, err: "not a known data set (names: cora"},
		{arg: "nope", need: NeedGraph, err: "cora, citeseer, pubmed, reddit, ENZYMES"},
		{arg: "", need: NeedGraph, err: "no data set given"},
		{arg: j("matrix-market/jazz.mtx"), need: NeedGraph, path: j("matrix-market/jazz.mtx"), name: "jazz"},
		{arg: j("planetoid/ind/cora"), need: NeedLabels, path: j("planetoid/ind/cora"), name: "cora", labelled: true},
		{arg: j("planetoid/npz/citeseer.npz"), need: NeedStats, path: j("planetoid/npz/citeseer.npz"), name: "citeseer", labelled: true},
		{arg: j("tu/ENZYMES"), need: NeedGraph, path: j("tu/ENZYMES"), name: "ENZYMES"},
		{arg: j("tu/ENZYMES"), need: NeedLabels, err: "not a node-classification set"},
		{arg: j("none.mtx"), need: NeedGraph, err: "no such file or directory"},
		{arg: j("planetoid/npz/cora.npz"), need: NeedLabels, err: "no such file"},
	}
	for _, tt := range tests {
		d, err := ResolveData(tt.arg, dir, tt.need)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ResolveData(%q, %d) = %+v, %v; want an error with %q", tt.arg, tt.need, d, err, tt.err)
			}
			continue
		}
		if err != nil || d.Path != tt.path || d.Name != tt.name || d.Labelled != tt.labelled {
			t.Errorf("ResolveData(%q, %d) = %+v, %v; want path %q, name %q, labelled %v", tt.arg, tt.need, d, err, tt.path, tt.name, tt.labelled)
		}
		if d.Format != graphs.FormatAuto && d.Format != graphs.FormatTU && d.Format != graphs.FormatMTX {
			t.Errorf("ResolveData(%q): format %q", tt.arg, d.Format)
		}
	}
}
