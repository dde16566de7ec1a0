package graphs

import (
	"bytes"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// recordMeter records every stage with the units added to it.
type recordMeter struct {
	mu     sync.Mutex
	stages []meterStage
}

type meterStage struct {
	name        string
	total, done int64
}

func (m *recordMeter) Stage(name, _ string, total int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.stages = append(m.stages, meterStage{name: name, total: total})
}

func (m *recordMeter) Add(n int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.stages) == 0 {
		panic("Add before any Stage")
	}
	m.stages[len(m.stages)-1].done += n
}

// TestMeterStages generates, writes and reads one R-MAT graph above the
// metering sizes and checks that every stage with a known total ends
// exactly at it (the display's ETA reaches 0 when, and only when, the
// stage is done), in the order the work runs, and that metering changes
// no byte of the file.
func TestMeterStages(t *testing.T) {
	spec := GenSpec{Generator: "rmat", Seed: 3, MinNodes: 1 << 16, MaxNodes: 1 << 16,
		MinEdges: rmatParallelDraws + 5, MaxEdges: rmatParallelDraws + 5}
	var m recordMeter
	g, err := GenerateMeter(spec, 0, &m)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := Generate(spec, 0)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	metered, unmetered := filepath.Join(dir, "m.parquet"), filepath.Join(dir, "u.parquet")
	if err := WriteSetWith(metered, []*Graph{g}, nil, WriteOptions{Meter: &m}); err != nil {
		t.Fatal(err)
	}
	if err := WriteSet(unmetered, []*Graph{plain}, nil); err != nil {
		t.Fatal(err)
	}
	if _, _, err := ReadSetMeter(metered, &m); err != nil {
		t.Fatal(err)
	}
	want := []string{"draws", "csr", "validate", "orient", "triangles", "encode", "read", "validate"}
	if len(m.stages) != len(want) {
		t.Fatalf("stages %+v, want %v", m.stages, want)
	}
	for i, s := range m.stages {
		if s.name != want[i] {
			t.Errorf("stage %d is %q, want %q", i, s.name, want[i])
		}
		if s.total > 0 && s.done != s.total {
			t.Errorf("stage %s ended at %d of %d", s.name, s.done, s.total)
		}
	}
	assertSameFile(t, metered, unmetered)
}

// assertSameFile fails unless files a and b hold the same bytes.
func assertSameFile(t *testing.T, a, b string) {
	t.Helper()
	ba, err := os.ReadFile(a)
	if err != nil {
		t.Fatal(err)
	}
	bb, err := os.ReadFile(b)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(ba, bb) {
		t.Errorf("%s and %s differ (%d and %d bytes)", a, b, len(ba), len(bb))
	}
}

// TestPeakModels checks the memory models against the peaks measured
// (docs/scale.md): they must not underestimate them, nor overestimate by
// more than a third, and must grow with the graph.
func TestPeakModels(t *testing.T) {
	for _, tc := range []struct {
		nodes, draws int
		mode         FeatureMode
		measured     int64
	}{
		{1 << 20, 10_000_000, FeaturesAuto, 551_052 << 10},
		{1 << 23, 100_000_000, FeaturesExact, 2_041_612 << 10}, // streamed writer
		{1 << 23, 100_000_000, FeaturesAuto, 1_689_448 << 10},  // features estimated
	} {
		spec := GenSpec{Generator: "rmat", MinNodes: tc.nodes, MaxNodes: tc.nodes, MinEdges: tc.draws, MaxEdges: tc.draws}
		got, n, m := GenPeakBytes(spec, tc.mode)
		if n != tc.nodes || m != tc.draws || got < tc.measured || got > tc.measured*4/3 {
			t.Errorf("GenPeakBytes(%d draws on %d nodes) = %d for %d, %d; measured %d", tc.draws, tc.nodes, got, m, n, tc.measured)
		}
	}
	for _, tc := range []struct {
		nnz, nodes, measured int64
	}{
		{19_074_450, 1 << 20, 325_656 << 10},
		{194_017_040, 1 << 23, 849_044 << 10},     // streamed set
		{1_980_740_230, 1 << 27, 8_336_376 << 10}, // simulate of the 10^9 R-MAT set
	} {
		if got := ReadPeakBytes(tc.nnz, tc.nodes); got < tc.measured || got > tc.measured*4/3 {
			t.Errorf("ReadPeakBytes(%d, %d) = %d, measured %d", tc.nnz, tc.nodes, got, tc.measured)
		}
	}
	if b, _, _ := GenPeakBytes(GenSpec{Generator: "er"}, FeaturesAuto); b != 0 {
		t.Errorf("a model for er: %d", b)
	}
}
