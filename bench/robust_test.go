package bench

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// Tests of issue 17 (what a hostile tester found): concurrent specs in one
// directory (class 6), stale temp files (class 6), damaged part files on
// resume (class 9), cancellation inside a chunk (class 3).

// TestRunRefusesOtherSpec: while a sweep process works in a directory, a
// sweep of another spec into it is refused, naming the spec and pid,
// instead of both "succeeding" and leaving an inconsistent directory.
func TestRunRefusesOtherSpec(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a child process; skipped with -short")
	}
	dir := filepath.Join(t.TempDir(), "shared")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "GNNSIM_BENCH_CHILD="+dir)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cmd.Process.Kill()
		cmd.Wait()
	}()
	child := mustPlan(t, crashSpec)
	deadline := time.Now().Add(60 * time.Second)
	for !child.chunkDone(dir, 0) {
		if time.Now().After(deadline) {
			t.Fatal("child made no progress")
		}
		time.Sleep(5 * time.Millisecond)
	}
	_, err := mustPlan(t, smallSpec).Run(context.Background(), dir, Options{Workers: 1})
	if _, statErr := os.Stat(filepath.Join(dir, RunsFile)); statErr == nil && err == nil {
		t.Fatal("a second spec ran into a directory in use and wrote its tables")
	}
	if err == nil || !strings.Contains(err.Error(), "in use by a sweep of another spec") || !strings.Contains(err.Error(), child.Spec.Hash()) {
		t.Fatalf("second spec into a busy directory: %v", err)
	}
}

// TestRunRecomputesDamagedPart: a finished part file damaged on disk is
// removed and its chunk recomputed on resume, rather than failing the
// final assembly with "bad magic number".
func TestRunRecomputesDamagedPart(t *testing.T) {
	p := mustPlan(t, smallSpec)
	base := t.TempDir()
	clean, dir := filepath.Join(base, "clean"), filepath.Join(base, "damaged")
	for _, d := range []string{clean, dir} {
		if _, err := p.Run(context.Background(), d, Options{Workers: 2}); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{GraphsFile, RunsFile} {
		os.Remove(filepath.Join(dir, f))
	}
	part := p.partPath(dir, "runs", 2)
	if err := os.WriteFile(part, []byte("garbage, not parquet"), 0o644); err != nil {
		t.Fatal(err)
	}
	sum, err := p.Run(context.Background(), dir, Options{Workers: 2})
	if err != nil {
		t.Fatalf("resume over a damaged part: %v", err)
	}
	if sum.ChunksComputed != 1 || !sum.Complete {
		t.Fatalf("summary %+v, want chunk 2 recomputed", sum)
	}
	a, b := readBoth(t, dir), readBoth(t, clean)
	if !bytes.Equal(a[0], b[0]) || !bytes.Equal(a[1], b[1]) {
		t.Fatal("tables after recomputing a damaged part differ from a clean run")
	}
}

// TestRunRemovesStaleTemps: temp files a run killed during the final
// assembly (or mid-chunk) left are gone after a rerun.
func TestRunRemovesStaleTemps(t *testing.T) {
	p := mustPlan(t, smallSpec)
	dir := t.TempDir()
	if _, err := p.Run(context.Background(), dir, Options{Workers: 2}); err != nil {
		t.Fatal(err)
	}
	stale := []string{
		filepath.Join(dir, ".graphs.parquet.tmp-1234"),
		filepath.Join(dir, ".runs.parquet.tmp-99"),
		filepath.Join(dir, partsDir, p.Spec.Hash(), ".graphs-000001.parquet.tmp-7"),
	}
	for _, f := range stale {
		if err := os.WriteFile(f, nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := p.Run(context.Background(), dir, Options{Workers: 2}); err != nil {
		t.Fatal(err)
	}
	for _, f := range stale {
		if _, err := os.Stat(f); err == nil {
			t.Errorf("stale temp file %s survived a rerun", f)
		}
	}
}

// cancelUnit is a unit kind whose evaluator counts the graphs it sees and
// cancels the sweep's context at the fifth.
var cancelUnit struct {
	seen   atomic.Int32
	cancel context.CancelFunc
}

func init() {
	err := RegisterUnit(UnitKind{
		Name:  "cancel-at-5",
		Table: func(*Spec) Table { return &RowTable[CostRow]{} },
		Evaluator: func(*Spec) (Evaluator, error) {
			return RowEvaluator(func(dst []CostRow, c Case) ([]CostRow, error) {
				if cancelUnit.seen.Add(1) == 5 {
					cancelUnit.cancel()
				}
				return append(dst, CostRow{GraphID: int64(c.ID)}), nil
			}), nil
		},
	})
	if err != nil {
		panic(err)
	}
}

// TestRunCancelInsideChunk: cancelling stops a sweep between graphs of a
// chunk (the runner used to finish every chunk in flight, so a spec with
// large chunks ignored Ctrl-C and SIGTERM for minutes).
func TestRunCancelInsideChunk(t *testing.T) {
	p := mustPlan(t, `
seed: 5
unit: cancel-at-5
graphs:
  - generator: er
    count: 400
    nodes: [10, 20]
chunk_graphs: 400
`)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cancelUnit.seen.Store(0)
	cancelUnit.cancel = cancel
	sum, err := p.Run(ctx, t.TempDir(), Options{Workers: 1})
	if err == nil || !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled sweep: %+v, %v", sum, err)
	}
	if n := cancelUnit.seen.Load(); n != 5 {
		t.Fatalf("the sweep evaluated %d graphs after being cancelled at the 5th", n-5)
	}
}

// TestReadDatasetMismatchedFiles: a graphs.parquet from another sweep
// beside a runs.parquet (MAPE 2 % -> 106 % without a word), or a Parquet
// file of the wrong kind, is refused naming the files (issue 17, class 5).
func TestReadDatasetMismatchedFiles(t *testing.T) {
	src := tinyDataset(t)
	other := strings.Replace(datasetSpec, "seed: 5", "seed: 6", 1)
	s, err := ParseSpec([]byte(other))
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewPlan(s)
	if err != nil {
		t.Fatal(err)
	}
	od := t.TempDir()
	if _, err := p.Run(context.Background(), od, Options{Workers: 2}); err != nil {
		t.Fatal(err)
	}
	mixed := t.TempDir()
	copyFile(t, filepath.Join(od, GraphsFile), filepath.Join(mixed, GraphsFile))
	copyFile(t, filepath.Join(src, RunsFile), filepath.Join(mixed, RunsFile))
	if _, err := ReadDataset(mixed); err == nil || !strings.Contains(err.Error(), "different sweeps") {
		t.Errorf("graphs.parquet of another sweep: %v", err)
	}
	wrong := t.TempDir()
	copyFile(t, filepath.Join(src, GraphsFile), filepath.Join(wrong, GraphsFile))
	copyFile(t, filepath.Join(src, GraphsFile), filepath.Join(wrong, RunsFile))
	if _, err := ReadDataset(wrong); err == nil || !strings.Contains(err.Error(), "runs.parquet has no column") {
		t.Errorf("a graph set as runs.parquet: %v", err)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
