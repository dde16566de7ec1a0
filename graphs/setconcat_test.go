package graphs

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gnnsim/internal/pqio"
)

// TestConcatSets: joining set files cut from a set gives the file WriteSet
// writes for all of it, byte for byte, however it was cut, estimate notes
// included (a graph sweep's graphs.parquet is joined this way from its
// parts, issue 38 item 1).
func TestConcatSets(t *testing.T) {
	defer func(v int64) { setGroupBytes = v }(setGroupBytes)
	for _, budget := range []int64{setGroupBytes, 300} {
		setGroupBytes = budget
		t.Run(fmt.Sprintf("row groups of %d bytes", budget), testConcatSets)
	}
}

func testConcatSets(t *testing.T) {
	defer func(v int) { estimateAbove = v }(estimateAbove)
	gs := testSet(t)
	big := 0
	for i, g := range gs {
		if g.NNZ() > gs[big].NNZ() {
			big = i
		}
	}
	estimateAbove = gs[big].NNZ() - 1 // one graph's features estimated
	dir := t.TempDir()
	meta := map[string]string{"gnnsim.spec_hash": "abc"}
	want := filepath.Join(dir, "want.parquet")
	if err := WriteSet(want, gs, meta); err != nil {
		t.Fatal(err)
	}
	wantBytes, err := os.ReadFile(want)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(wantBytes, []byte(fmt.Sprintf("%s%d", estimatedKey, big))) {
		t.Fatalf("no estimate note for graph %d: the test does not exercise re-keying", big)
	}
	back, _, err := ReadSet(want)
	if err != nil || len(back) != len(gs) {
		t.Fatalf("read back %d graphs (%v), want %d", len(back), err, len(gs))
	}
	for i := range gs {
		if !graphsEqual(back[i], gs[i]) {
			t.Fatalf("graph %d differs when read back", i)
		}
	}
	f, err := pqio.Open(want)
	if err != nil {
		t.Fatal(err)
	}
	groups := len(f.RowGroups())
	f.Close()
	if small := setGroupBytes < 1000; small != (groups > 2) {
		t.Fatalf("budget %d bytes: %d row groups for %d graphs", setGroupBytes, groups, len(gs))
	}
	for _, tc := range []struct {
		name string
		cuts []int // part boundaries
	}{
		{"one part", nil},
		{"every graph", []int{1, 2, 3, 4, 5, 6, 7}},
		{"uneven", []int{3, 5}},
		{"empty part", []int{0, 4, 4}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var parts []string
			lo := 0
			for k, hi := range append(tc.cuts, len(gs)) {
				p := filepath.Join(t.TempDir(), fmt.Sprintf("part-%d.parquet", k))
				pm := map[string]string{"gnnsim.chunk": fmt.Sprint(k)}
				if err := WriteSet(p, gs[lo:hi], pm); err != nil {
					t.Fatal(err)
				}
				parts, lo = append(parts, p), hi
			}
			got := filepath.Join(t.TempDir(), "got.parquet")
			if err := ConcatSets(got, parts, meta); err != nil {
				t.Fatal(err)
			}
			gotBytes, err := os.ReadFile(got)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(gotBytes, wantBytes) {
				t.Fatalf("joined file (%d bytes) differs from WriteSet's (%d bytes)", len(gotBytes), len(wantBytes))
			}
			if meta["gnnsim.features.estimated.0"] != "" || len(meta) != 1 {
				t.Fatalf("caller's metadata changed: %v", meta)
			}
		})
	}
}

// TestConcatSetsRejects: a part that is not a graph-set file, or is
// damaged, fails naming it, and nothing is written.
func TestConcatSetsRejects(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.parquet")
	if err := WriteSet(good, testSet(t), nil); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(good)
	cut := filepath.Join(dir, "cut.parquet")
	os.WriteFile(cut, data[:len(data)/2], 0o644)
	notSet := filepath.Join(dir, "x.parquet")
	os.WriteFile(notSet, []byte("PAR1 not a set PAR1"), 0o644)
	for _, bad := range []string{cut, notSet, filepath.Join(dir, "missing.parquet")} {
		out := filepath.Join(dir, "out.parquet")
		err := ConcatSets(out, []string{good, bad}, nil)
		if err == nil || !strings.Contains(err.Error(), filepath.Base(bad)) {
			t.Errorf("%s: err %v, want one naming it", bad, err)
		}
		var pe *PartError
		if !errors.As(err, &pe) || pe.Path != bad {
			t.Errorf("%s: err %v, want a PartError naming it", bad, err)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s: output written", bad)
		}
	}
}
