package graphs

import (
	"math/rand/v2"
	"runtime"
	"testing"
)

// TestRMATStreamedCSR: the CSR built without keeping the draws (two
// passes over them) is fromEdges' CSR of the kept draws exactly, and the
// PCG is left where the one-pass path leaves it, whatever the core count,
// for node counts that are and are not powers of two (the latter drop
// draws) and with self-loop draws.
func TestRMATStreamedCSR(t *testing.T) {
	old := rmatStreamDraws
	defer func() { rmatStreamDraws = old }()
	for _, tc := range []struct{ n, m int }{
		{1 << 12, rmatParallelDraws + 7},
		{3000, rmatParallelDraws + 1000},
		{1 << 6, rmatParallelDraws}, // dense: many duplicates and self-loops
	} {
		build := func(stream bool, procs int) (*Graph, uint64) {
			rmatStreamDraws = 1 << 62
			if stream {
				rmatStreamDraws = 0
			}
			prev := runtime.GOMAXPROCS(procs)
			defer runtime.GOMAXPROCS(prev)
			src := rand.NewPCG(11, uint64(tc.n))
			g, err := rmat(tc.n, tc.m, 0.57, 0.19, 0.19, rand.New(src), src, noMeter{})
			if err != nil {
				t.Fatal(err)
			}
			return g, src.Uint64()
		}
		want, wantNext := build(false, 2)
		mustValid(t, want)
		for _, procs := range []int{1, 2, 3} {
			got, next := build(true, procs)
			if !sameCSR(got, want) {
				t.Errorf("n=%d m=%d procs=%d: streamed CSR differs (%d entries, want %d)", tc.n, tc.m, procs, got.NNZ(), want.NNZ())
			}
			if next != wantNext {
				t.Errorf("n=%d m=%d procs=%d: PCG left elsewhere", tc.n, tc.m, procs)
			}
		}
	}
}

// BenchmarkScaleGenerateStreamed is BenchmarkScaleGenerate through the
// CSR built without keeping the draws (the path of 2^26 draws and more).
func BenchmarkScaleGenerateStreamed(b *testing.B) {
	old := rmatStreamDraws
	rmatStreamDraws = 0
	defer func() { rmatStreamDraws = old }()
	b.ReportAllocs()
	var g *Graph
	for b.Loop() {
		var err error
		if g, err = Generate(scaleSpec, 0); err != nil {
			b.Fatal(err)
		}
	}
	reportPerEdge(b, g)
}
