package seed000

import (
	"context"
	"os"
	"path/filepath"
	"strings"
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

// TestBadDataset: an unknown data set is a clear error before any output
// is written (issue 28: it panicked and left an empty directory).
func TestBadDataset(t *testing.T) {
	out := filepath.Join(t.TempDir(), "x")
	_, err := Run(context.Background(), Options{Out: out, Quick: true, Dataset: "foo"})
	if err == nil || !strings.Contains(err.Error(), `"foo"`) || !strings.Contains(err.Error(), "cifar100") {
		t.Fatalf("want an error naming the data set and the allowed ones, got %v", err)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("output directory created on bad input: %v", err)
	}
}
