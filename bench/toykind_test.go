package bench

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
)

// toyPoint is the row of the toy design-point kind: a point and a cost
// that depends on it alone.
type toyPoint struct {
	PointID int64 `parquet:"point_id"`
	Cycles  int64 `parquet:"cycles"`
}

func init() {
	// A kind added through the table alone: a name, its points, its row
	// type and its evaluator. Nothing else in bench knows it.
	err := RegisterUnit(UnitKind{
		Name:   "toy-points",
		Points: func(*Spec) (int, error) { return 11, nil },
		Table:  func(*Spec) Table { return &RowTable[toyPoint]{} },
		Evaluator: func(*Spec) (Evaluator, error) {
			return RowEvaluator(func(dst []toyPoint, c Case) ([]toyPoint, error) {
				return append(dst, toyPoint{PointID: int64(c.ID), Cycles: int64(c.ID*c.ID + 7)}), nil
			}), nil
		},
	})
	if err != nil {
		panic(err)
	}
}

// TestToyPointKind: a design-point kind added through the unit table alone
// gets the sweep (every point once, in order), chunks, shards, resume and
// merge, and its Parquet runs table, byte-identical however it was run.
func TestToyPointKind(t *testing.T) {
	p := mustPlan(t, "name: toy\nseed: 3\nunit: toy-points\nchunk_points: 3\n")
	base := t.TempDir()
	whole, sharded := filepath.Join(base, "whole"), filepath.Join(base, "sharded")
	sum, err := p.Run(context.Background(), whole, Options{Workers: 2})
	if err != nil || !sum.Complete || sum.Points != 11 || sum.Chunks != 4 {
		t.Fatalf("%v, %+v: want 11 points in 4 chunks", err, sum)
	}
	rows := readRows[toyPoint](t, whole)
	if len(rows) != 11 {
		t.Fatalf("%d rows, want 11", len(rows))
	}
	for i, r := range rows {
		if r.PointID != int64(i) || r.Cycles != int64(i*i+7) {
			t.Fatalf("row %d = %+v", i, r)
		}
	}
	for i := range 3 {
		if _, err := p.Run(context.Background(), sharded, Options{Shard: Shard{i, 3}, Workers: 1}); err != nil {
			t.Fatal(err)
		}
	}
	// A rerun resumes: every chunk is reused.
	if sum, err := p.Run(context.Background(), whole, Options{}); err != nil || sum.ChunksReused != sum.Chunks {
		t.Fatalf("rerun: %v, %+v: want every chunk reused", err, sum)
	}
	merged := filepath.Join(base, "merged")
	if _, err := Merge([]string{sharded}, merged); err != nil {
		t.Fatal(err)
	}
	a, err := os.ReadFile(filepath.Join(whole, RunsFile))
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(merged, RunsFile))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Error("the sharded and merged toy sweep differs from the unsharded one")
	}
}
