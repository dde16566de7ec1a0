package main

import (
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"

	"gnnsim/graphs"
)

// TestTooLargeFailsEarly gives 'graphs gen' and 'simulate' less memory
// (GOMEMLIMIT) than their graphs need: both must refuse before any work,
// naming the graph's size, the memory it needs and the memory there is,
// and leave no file (not even a temp file) behind.
func TestTooLargeFailsEarly(t *testing.T) {
	dir := t.TempDir()
	set := filepath.Join(dir, "set.parquet")
	// A set written with memory to spare, read back with too little.
	if _, stderr, err := run(t, "graphs", "gen", "--generator", "rmat", "--count", "1", "--nodes", "4096",
		"--edges", "40000", "--out", set, "--quiet"); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	prev := debug.SetMemoryLimit(64 << 20)
	defer debug.SetMemoryLimit(prev)
	out := filepath.Join(dir, "big.parquet")
	_, _, err := run(t, "graphs", "gen", "--generator", "rmat", "--count", "1", "--nodes", "1048576",
		"--edges", "10000000", "--out", out)
	want := regexp.MustCompile(`R-MAT graph of 10000000 draws on 1048576 nodes needs about \d+\.\d GiB .* 0\.1 GiB are available \(GOMEMLIMIT\); nothing was started or written`)
	if err == nil || !want.MatchString(err.Error()) {
		t.Errorf("graphs gen: error %v, want one matching %s", err, want)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.Name() != "set.parquet" {
			t.Errorf("left %s behind", e.Name())
		}
	}
	// The reader's check (the small set is below the size checked, so
	// call it with a large estimate).
	if err := graphs.CheckMemory("reading x", 1<<30); err == nil || !strings.Contains(err.Error(), "reading x needs about 1.0 GiB") {
		t.Errorf("CheckMemory: error %v", err)
	}
	if err := graphs.CheckReadMemory(set); err != nil {
		t.Errorf("CheckReadMemory on a small set: %v", err)
	}
}
