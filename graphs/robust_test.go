package graphs

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sbinet/npyio/npz"
)

// TestNPZDeclaredSizes (issue 28, classes 2 and 5): an archive declaring a
// feature width far beyond the shared sets, or holding one array twice, is
// refused instead of being trained on (or the second copy silently used).
func TestNPZDeclaredSizes(t *testing.T) {
	dir := t.TempDir()
	wide := toyNPZ(t)
	wide["attr_shape"] = []int64{4, 1<<31 - 2}
	var dup bytes.Buffer
	w := npz.NewWriter(&dup)
	for _, k := range []string{"adj_data", "adj_indices", "adj_indptr", "adj_shape", "attr_data", "attr_indices", "attr_indptr", "attr_shape", "labels"} {
		if err := w.Write(k, toyNPZ(t)[k]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Write("labels", []int8{1, 1, 1, 1}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"wide.npz", npzBytes(t, wide), "declares 2147483646 feature columns, at most 1048576"},
		{"dup.npz", dup.Bytes(), "two members named labels"},
	} {
		p := filepath.Join(dir, tc.name)
		if err := os.WriteFile(p, tc.data, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := LoadPlanetoid(p); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
}
