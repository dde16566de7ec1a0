package refset

import (
	"math"
	"os"
	"path/filepath"
	"testing"
)

func TestQuantile(t *testing.T) {
	for _, c := range []struct {
		x    []float64
		q    float64
		want float64
	}{
		{[]float64{1, 2, 3, 4}, 0.5, 2.5},
		{[]float64{1, 2, 3, 4}, 0.9, 3.7},
		{[]float64{1, 2, 3, 4}, 0, 1},
		{[]float64{1, 2, 3, 4}, 1, 4},
		{[]float64{7}, 0.9, 7},
	} {
		if got := Quantile(c.x, c.q); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("Quantile(%v, %v) = %v, want %v", c.x, c.q, got, c.want)
		}
	}
	if !math.IsNaN(Quantile(nil, 0.5)) {
		t.Error("Quantile of no values is not NaN")
	}
}

func TestFind(t *testing.T) {
	root := t.TempDir()
	ref := filepath.Join(root, "shared", "x-reference")
	if err := os.MkdirAll(filepath.Join(root, "repo", "pkg"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(ref, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ref, "x.csv"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GNNSIM_SHARED", "")
	t.Chdir(filepath.Join(root, "repo", "pkg"))
	if d, ok := Find("x-reference", "x.csv"); !ok || d != ref {
		t.Errorf("walking up: Find = %q, %v; want %q, true", d, ok, ref)
	}
	if _, ok := Find("x-reference", "y.csv"); ok {
		t.Error("found a file that does not exist")
	}
	t.Setenv("GNNSIM_SHARED", filepath.Join(root, "shared"))
	if d, ok := Find("x-reference", "x.csv"); !ok || d != ref {
		t.Errorf("GNNSIM_SHARED: Find = %q, %v; want %q, true", d, ok, ref)
	}
	t.Setenv("GNNSIM_SHARED", filepath.Join(root, "nowhere"))
	if _, ok := Find("x-reference", "x.csv"); ok {
		t.Error("GNNSIM_SHARED set elsewhere, yet found")
	}
}
