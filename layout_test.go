package gnnsim_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// module is the module path of go.mod.
const module = "gnnsim"

// Layers of the dependency rule of MISSION section 1: a package imports
// only packages of lower layers,
//
//	cmd -> {repro/*, bench} -> {nas, sched, predict} -> {accel*, soc, train,
//	search} -> {hw, dataflow} -> {workload, graphs, sim}
//
// plus the shared utilities (the root package and internal/*), which every
// package may import and which import only each other. Packages of one
// layer may import each other (accel/omegaref imports accel, nas may use
// sched) except where a rule below forbids it. Top-level directories are
// listed even before they exist, so the test holds as the tree grows; a
// package in a directory not listed here fails the test until it is given
// a layer.
var layers = map[string]int{
	"":         -1, // the root package: version
	"internal": -1,
	"sim":      0, "graphs": 0, "workload": 0,
	"hw": 1, "dataflow": 1,
	"accel": 2, "soc": 2, "train": 2, "search": 2,
	"nas": 3, "sched": 3, "predict": 3,
	"bench": 4, "repro": 4,
	"cmd": 5,
}

// allowedOnly lists packages (by top-level directory) that may import only
// the given project directories, whatever their layer allows, besides the
// shared utilities and themselves: sim knows nothing of GNNs, graphs no
// models, search no hardware; hw is the contract over workloads, graphs and
// time; workload describes work, not hardware.
var allowedOnly = map[string][]string{
	"sim":      {},
	"graphs":   {},
	"search":   {},
	"hw":       {"workload", "graphs", "sim"},
	"workload": {"graphs", "sim"},
}

// top returns the top-level directory of a project package path relative
// to the module ("accel/omegaref" -> "accel", the root -> "").
func top(rel string) string {
	t, _, _ := strings.Cut(rel, "/")
	return t
}

// checkEdge returns why importing package to from package from (both
// relative to the module root) breaks the layout, or "" when it does not.
// test is set for imports of _test.go files, which need only keep away
// from cmd and repro (a test may reach across layers to check agreement).
func checkEdge(from, to string, test bool) string {
	ft, tt := top(from), top(to)
	if ft == tt && (ft != "" || from == to) {
		return "" // within one package tree (and the root itself)
	}
	if (tt == "cmd" || tt == "repro") && ft != "cmd" {
		return "nothing but cmd imports cmd/... or repro/..."
	}
	if test {
		return ""
	}
	fl, ok := layers[ft]
	if !ok {
		return "package " + from + " has no layer: add its directory to layers in layout_test.go"
	}
	tl, ok := layers[tt]
	if !ok {
		return "package " + to + " has no layer: add its directory to layers in layout_test.go"
	}
	if tl == -1 {
		return "" // the shared utilities
	}
	if fl == -1 {
		return "the root package and internal/* import only each other"
	}
	if allow, ok := allowedOnly[ft]; ok && !slices.Contains(allow, tt) {
		return ft + " may import only " + strings.Join(append(allow[:len(allow):len(allow)], "internal/*", "the root"), ", ")
	}
	if tl > fl {
		return "imports point down the layers: " + ft + " (layer " + strconv.Itoa(fl) + ") cannot import " + tt + " (layer " + strconv.Itoa(tl) + ")"
	}
	return ""
}

// TestImportLayout parses the imports of every Go file in the module and
// fails on each import that breaks the layout, naming file and line.
func TestImportLayout(t *testing.T) {
	fset := token.NewFileSet()
	var nfiles, nedges int
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path != "." && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || name == "results") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		nfiles++
		from := filepath.ToSlash(filepath.Dir(path))
		if from == "." {
			from = ""
		}
		test := strings.HasSuffix(path, "_test.go")
		for _, imp := range f.Imports {
			p, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				return err
			}
			if p == "testing" && !test && !strings.HasSuffix(from, "test") {
				// Only test-helper packages (hw/hwtest, internal/shared/sharedtest)
				// may link package testing: the gnnsim binary must not.
				t.Errorf("%s: imports \"testing\" outside a _test.go file or a *test helper package", fset.Position(imp.Pos()))
			}
			var to string
			switch {
			case p == module:
			case strings.HasPrefix(p, module+"/"):
				to = strings.TrimPrefix(p, module+"/")
			default:
				continue // standard library or another module
			}
			nedges++
			if why := checkEdge(from, to, test); why != "" {
				t.Errorf("%s: imports %q: %s", fset.Position(imp.Pos()), p, why)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat("go.mod"); err != nil || nfiles == 0 || nedges == 0 {
		t.Fatalf("not run from the module root (%d files, %d project imports): %v", nfiles, nedges, err)
	}
}

// TestCheckEdge checks the rules on edges that do not exist in the tree
// (yet): each forbidden kind is caught, the allowed ones pass.
func TestCheckEdge(t *testing.T) {
	for _, tc := range []struct {
		from, to string
		test     bool
		bad      bool
	}{
		{"accel", "sim", false, false},
		{"accel/omegaref", "accel", false, false},
		{"accel/gcos", "hw", false, false},
		{"soc", "accel", false, false},
		{"nas", "search", false, false},
		{"repro/seed002", "bench", false, false},
		{"cmd/gnnsim", "repro/seed002", false, false},
		{"internal/pqio", "", false, false},
		{"graphs", "internal/par", false, false},
		{"hw/hwtest", "hw", false, false},
		{"sim", "accel", true, false}, // a test may reach across layers

		{"sim", "workload", false, true},
		{"graphs", "workload", false, true},
		{"search", "hw", false, true},
		{"search/problems", "workload", false, true},
		{"hw", "dataflow", false, true},
		{"hw", "accel", false, true},
		{"workload", "hw", false, true},
		{"workload", "dataflow", false, true},
		{"dataflow", "accel", false, true},
		{"accel", "sched", false, true},
		{"predict", "bench", false, true},
		{"bench", "repro/seed002", false, true},
		{"bench", "cmd/gnnsim", false, true},
		{"nas", "repro/seed000", true, true},
		{"internal/pqio", "graphs", false, true},
		{"plots", "sim", false, true}, // no layer yet
	} {
		why := checkEdge(tc.from, tc.to, tc.test)
		if (why != "") != tc.bad {
			t.Errorf("%s -> %s (test %v): %q, want forbidden = %v", tc.from, tc.to, tc.test, why, tc.bad)
		}
	}
}
