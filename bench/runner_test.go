package bench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const smallSpec = `
name: t
seed: 3
graphs:
  - generator: graphlaxy
    count: 20
    edges: [30, 300]
  - generator: er
    count: 7
    nodes: [10, 60]
sizes: {F: [16, 32], G: [8, 16]}
mode: extended
chunk_graphs: 4
`

func mustPlan(t testing.TB, text string) *Plan {
	t.Helper()
	s, err := ParseSpec([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewPlan(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func readBoth(t *testing.T, dir string) [2][]byte {
	t.Helper()
	var out [2][]byte
	for i, f := range []string{GraphsFile, RunsFile} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		out[i] = b
	}
	return out
}

// Same spec and seed give byte-identical tables with 1 worker or many,
// sharded and merged or not.
func TestSweepDeterminism(t *testing.T) {
	p := mustPlan(t, smallSpec)
	base := t.TempDir()
	one := filepath.Join(base, "one")
	sum, err := p.Run(context.Background(), one, Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !sum.Complete || sum.Graphs != 27 || sum.Runs != 27*24 {
		t.Fatalf("summary %+v", sum)
	}
	want := readBoth(t, one)

	many := filepath.Join(base, "many")
	if _, err := mustPlan(t, smallSpec).Run(context.Background(), many, Options{Workers: 3}); err != nil {
		t.Fatal(err)
	}
	if got := readBoth(t, many); !bytes.Equal(got[0], want[0]) || !bytes.Equal(got[1], want[1]) {
		t.Fatal("3 workers differ from 1")
	}

	shardDirs := runShards(t, smallSpec, base, 3)
	merged := filepath.Join(base, "merged")
	ms, err := Merge(shardDirs, merged)
	if err != nil {
		t.Fatal(err)
	}
	if !ms.Complete {
		t.Fatal("merge incomplete")
	}
	if got := readBoth(t, merged); !bytes.Equal(got[0], want[0]) || !bytes.Equal(got[1], want[1]) {
		t.Fatal("sharded+merged differs from unsharded")
	}
	if _, err := Merge(shardDirs[:2], filepath.Join(base, "partial")); err == nil {
		t.Fatal("merge of 2 of 3 shards succeeded")
	}

	// Resume: a rerun computes nothing.
	again, err := p.Run(context.Background(), one, Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if again.ChunksComputed != 0 || again.ChunksReused != again.Chunks {
		t.Fatalf("rerun recomputed: %+v", again)
	}
	if got := readBoth(t, one); !bytes.Equal(got[1], want[1]) {
		t.Fatal("rerun changed the runs table")
	}
}

// A cancelled context stops the sweep before any chunk starts and leaves a
// directory a rerun completes; of several failing chunks the lowest is
// reported, whatever the worker count.
func TestSweepCancelAndFailure(t *testing.T) {
	p := mustPlan(t, smallSpec)
	base := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	d := filepath.Join(base, "cancelled")
	sum, err := p.Run(ctx, d, Options{Workers: 2})
	if !errors.Is(err, context.Canceled) || sum.ChunksComputed != 0 || sum.ChunksDone != 0 || sum.Complete {
		t.Fatalf("cancelled run: err %v, summary %+v", err, sum)
	}
	sum, err = p.Run(context.Background(), d, Options{Workers: 2})
	if err != nil || !sum.Complete || sum.ChunksComputed != sum.Chunks {
		t.Fatalf("rerun after cancel: err %v, summary %+v", err, sum)
	}

	for _, workers := range []int{1, 2, 3} {
		for rep := range 3 {
			d := filepath.Join(base, fmt.Sprintf("fail-%d-%d", workers, rep))
			// A directory in the place of a chunk's runs part makes its
			// write fail.
			for _, c := range []int{5, 2} {
				if err := os.MkdirAll(p.partPath(d, "runs", c), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			sum, err := p.Run(context.Background(), d, Options{Workers: workers})
			if err == nil || !strings.Contains(err.Error(), "runs-000002") || strings.Contains(err.Error(), "runs-000005") {
				t.Fatalf("workers=%d: err %v, want chunk 2's", workers, err)
			}
			if sum.Complete || sum.ChunksComputed < 2 {
				t.Fatalf("workers=%d: summary %+v, want chunks 0 and 1 computed", workers, sum)
			}
		}
	}
}

// runShards runs the n shards of spec into directories under base and
// returns them; no shard may claim the whole sweep.
func runShards(t *testing.T, spec, base string, n int) []string {
	t.Helper()
	var dirs []string
	for i := range n {
		d := filepath.Join(base, "shard", fmt.Sprint(i))
		s, err := mustPlan(t, spec).Run(context.Background(), d, Options{Workers: 2, Shard: Shard{i, n}})
		if err != nil {
			t.Fatal(err)
		}
		if s.Complete {
			t.Fatalf("shard %d claims the whole sweep", i)
		}
		dirs = append(dirs, d)
	}
	return dirs
}
