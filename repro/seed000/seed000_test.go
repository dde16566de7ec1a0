package seed000

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

func TestQuickRun(t *testing.T) {
	if testing.Short() {
		t.Skip("quick reproduction takes seconds")
	}
	dir := t.TempDir()
	rep, err := Run(context.Background(), Options{Out: dir, Quick: true, Seed: 1, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Findings {
		t.Log(f)
	}
	for _, f := range rep.Files {
		if st, err := os.Stat(f); err != nil || st.Size() == 0 {
			t.Errorf("%s missing or empty: %v", f, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "report.md")); err != nil {
		t.Error(err)
	}
}
