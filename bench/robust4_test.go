package bench

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Tests of issue 38 (round 4 of the hostile runs): a second spec into a
// finished sweep directory, and parts copied over other chunks.

// TestRunRefusesFinishedDirOfOtherSpec: a sweep of another spec into a
// directory that holds a finished (or started) sweep is refused naming
// both specs, and leaves the first sweep's tables as they were; the same
// spec resumes; a merge into another spec's directory is refused too.
func TestRunRefusesFinishedDirOfOtherSpec(t *testing.T) {
	first := mustPlan(t, smallSpec)
	other := mustPlan(t, strings.Replace(smallSpec, "seed: 3", "seed: 4", 1))
	dir := filepath.Join(t.TempDir(), "m")
	if _, err := first.Run(context.Background(), dir, Options{Workers: 2}); err != nil {
		t.Fatal(err)
	}
	before := readBoth(t, dir)
	for _, tc := range []struct {
		name string
		run  func() error
	}{
		{"sweep", func() error { _, err := other.Run(context.Background(), dir, Options{Workers: 2}); return err }},
		{"merge", func() error {
			od := filepath.Join(t.TempDir(), "o")
			if _, err := other.Run(context.Background(), od, Options{Workers: 2}); err != nil {
				t.Fatal(err)
			}
			_, err := Merge([]string{od}, dir)
			return err
		}},
	} {
		err := tc.run()
		if err == nil || !strings.Contains(err.Error(), "another spec") || !strings.Contains(err.Error(), first.Spec.Hash()) {
			t.Errorf("%s of another spec into a finished directory: %v", tc.name, err)
		}
		if after := readBoth(t, dir); !bytes.Equal(before[0], after[0]) || !bytes.Equal(before[1], after[1]) {
			t.Errorf("%s of another spec changed the first sweep's tables", tc.name)
		}
	}
	sum, err := first.Run(context.Background(), dir, Options{Workers: 2})
	if err != nil || sum.ChunksReused != sum.Chunks {
		t.Fatalf("rerun of the same spec: %+v, %v", sum, err)
	}
}

// TestResumeRecomputesForeignPart: a valid part file of another chunk
// copied over a chunk's part is not trusted on resume: the chunk is
// recomputed and the tables equal a clean run's (issue 38 item 4: "resumed:
// 7 of 7" with point_ids 8-15 twice and 16-23 missing).
func TestResumeRecomputesForeignPart(t *testing.T) {
	p := mustPlan(t, smallSpec)
	base := t.TempDir()
	clean := filepath.Join(base, "clean")
	if _, err := p.Run(context.Background(), clean, Options{Workers: 2}); err != nil {
		t.Fatal(err)
	}
	want := readBoth(t, clean)
	for _, table := range []string{"runs", "graphs"} {
		dir := filepath.Join(base, table)
		if _, err := p.Run(context.Background(), dir, Options{Workers: 2}); err != nil {
			t.Fatal(err)
		}
		for _, f := range []string{GraphsFile, RunsFile} {
			os.Remove(filepath.Join(dir, f))
		}
		data, err := os.ReadFile(p.partPath(dir, table, 1))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p.partPath(dir, table, 2), data, 0o644); err != nil {
			t.Fatal(err)
		}
		sum, err := p.Run(context.Background(), dir, Options{Workers: 2})
		if err != nil {
			t.Fatalf("%s: resume over a foreign part: %v", table, err)
		}
		if sum.ChunksComputed != 1 || len(sum.Removed) != 1 || !sum.Complete {
			t.Errorf("%s: summary %+v, want chunk 2 recomputed", table, sum)
		}
		if got := readBoth(t, dir); !bytes.Equal(got[0], want[0]) || !bytes.Equal(got[1], want[1]) {
			t.Errorf("%s: tables after a foreign part differ from a clean run", table)
		}
	}
}
