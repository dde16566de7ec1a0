package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// writeTU writes a TU data set of two triangles named name under dir/tu.
func writeTU(t *testing.T, dir, name string) {
	t.Helper()
	d := filepath.Join(dir, "tu", name)
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Fatal(err)
	}
	var a strings.Builder
	for g := range 2 {
		o := 3 * g
		for _, e := range [][2]int{{1, 2}, {2, 3}, {3, 1}} {
			fmt.Fprintf(&a, "%d, %d\n%d, %d\n", o+e[0], o+e[1], o+e[1], o+e[0])
		}
	}
	files := map[string]string{
		name + "_A.txt":               a.String(),
		name + "_graph_indicator.txt": "1\n1\n1\n2\n2\n2\n",
		name + "_graph_labels.txt":    "1\n2\n",
	}
	for f, body := range files {
		if err := os.WriteFile(filepath.Join(d, f), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// A set placed at one of its catalogue paths is picked up, in catalogue
// order; absent sets are left out; an empty directory is an error.
func TestRealSpecPicksUpPlacedSets(t *testing.T) {
	dir := t.TempDir()
	if _, err := RealSpec(dir, DatasetOptions{Seed: 1}); err == nil || !strings.Contains(err.Error(), "no real data set") {
		t.Fatalf("empty directory: error %v", err)
	}
	// Placed in reverse catalogue order: the spec keeps the catalogue's.
	writeTU(t, dir, "REDDIT-BINARY")
	writeTU(t, dir, "PROTEINS")
	writeTU(t, dir, "ENZYMES")
	q := filepath.Join(dir, "qoptlib")
	if err := os.MkdirAll(q, 0o755); err != nil {
		t.Fatal(err)
	}
	mtx := "%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 2\n"
	if err := os.WriteFile(filepath.Join(q, "maxcut1.mtx"), []byte(mtx), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := RealSpec(dir, DatasetOptions{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, g := range s.Graphs {
		got = append(got, g.Dataset)
	}
	if want := []string{"ENZYMES", "PROTEINS", "REDDIT-BINARY", "QOPTLib"}; !slices.Equal(got, want) {
		t.Errorf("data sets %v, want %v", got, want)
	}
	if s.Mode != DatasetMode {
		t.Errorf("mode %q, want the data set default %q", s.Mode, DatasetMode)
	}
	plan, err := NewPlan(s)
	if err != nil {
		t.Fatal(err)
	}
	if plan.NumGraphs() != 3*2+1 {
		t.Errorf("%d graphs, want 7 (three TU sets of two, one matrix)", plan.NumGraphs())
	}
	// A TU directory takes precedence over the set's other paths.
	writeTU(t, dir, "QOPTLib")
	if p, ok := RealSetNamed("QOPTLib").Find(dir); !ok || p.Format != "tu" {
		t.Errorf("QOPTLib found as %+v, %v; want the TU directory first", p, ok)
	}
}

// Every catalogued set says where it comes from and under which terms;
// seed 002's sets come first in the order of the shared data's sets.
func TestRealSetsCatalogue(t *testing.T) {
	seen := map[string]bool{}
	for _, rs := range RealSets {
		if seen[rs.Name] {
			t.Errorf("%s listed twice", rs.Name)
		}
		seen[rs.Name] = true
		if rs.Source == "" || rs.Licence == "" || len(rs.Paths) == 0 {
			t.Errorf("%s: source %q, licence %q, %d paths", rs.Name, rs.Source, rs.Licence, len(rs.Paths))
		}
		for _, p := range rs.Paths {
			switch p.Format {
			case "tu", "cites":
			case "mtx", "edgelist":
				if p.Files == "" {
					t.Errorf("%s: %s files need a glob", rs.Name, p.Path)
				}
			default:
				t.Errorf("%s: format %q", rs.Name, p.Format)
			}
		}
	}
	for _, n := range []string{"ENZYMES", "PROTEINS", "REDDIT-BINARY", "SuiteSparse", "QOPTLib", "PATTERN", "TSP"} {
		if rs := RealSetNamed(n); rs == nil || !rs.InSeed() {
			t.Errorf("seed 002's set %s missing from the catalogue or not marked as the seed's", n)
		}
	}
}

// The preset data sets take the documented defaults and the sizes given;
// the defaults are the ones a spec file gets.
func TestPresetSizes(t *testing.T) {
	s, err := GraphlaxySpec("small", DatasetOptions{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	d := DefaultSizes()
	if !slices.Equal(s.Sizes.F, d.F) || !slices.Equal(s.Sizes.G, d.G) || s.Sizes.Mode != d.Mode || s.Mode != DatasetMode {
		t.Errorf("default preset: sizes %+v mode %s, want %+v %s", s.Sizes, s.Mode, d, DatasetMode)
	}
	f, err := ParseSpec([]byte("graphs:\n  - generator: er\n    count: 1\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(f.Sizes.F, d.F) || !slices.Equal(f.Sizes.G, d.G) {
		t.Errorf("spec file default sizes %+v, want %+v", f.Sizes, d)
	}
	s, err = GraphlaxySpec("small", DatasetOptions{Seed: 1, Mode: "extended", Sizes: SizeSpec{F: []int{512, 64}, G: []int{16}, Mode: "cross"}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.Sizes.F, []int{512, 64}) || s.Sizes.Mode != "cross" || s.Mode != "extended" {
		t.Errorf("sized preset: %+v, mode %s", s.Sizes, s.Mode)
	}
	for _, bad := range []SizeSpec{{F: []int{0}}, {G: []int{MaxFeatures + 1}}, {Mode: "zip"}} {
		if _, err := GraphlaxySpec("small", DatasetOptions{Sizes: bad}); err == nil {
			t.Errorf("sizes %+v accepted", bad)
		}
	}
}
