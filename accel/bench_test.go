package accel

import (
	"math/rand/v2"
	"sync"
	"testing"

	"gnnsim/dataflow"
	"gnnsim/graphs"
)

// benchGraph returns an R-MAT graph with n nodes and about m draws.
func benchGraph(b *testing.B, n, m int) *graphs.Graph {
	b.Helper()
	g, err := graphs.RMAT(n, m, 0.57, 0.19, 0.19, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		b.Fatal(err)
	}
	return g
}

// BenchmarkOmegaConfig250 runs one omega-mode configuration (seq, tiling
// a) of a 250-node, 1,000-edge graph with F = 64, G = 16.
func BenchmarkOmegaConfig250(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 5))
	u, v := make([]int32, 0, 1000), make([]int32, 0, 1000)
	seen := map[[2]int32]bool{}
	for len(u) < 1000 {
		a, c := int32(rng.IntN(250)), int32(rng.IntN(250))
		if a == c || seen[[2]int32{min(a, c), max(a, c)}] {
			continue
		}
		seen[[2]int32{min(a, c), max(a, c)}] = true
		u, v = append(u, a), append(v, c)
	}
	g, err := graphs.FromEdges(250, u, v)
	if err != nil {
		b.Fatal(err)
	}
	p, err := Prepare(g, gcn(64, 16))
	if err != nil {
		b.Fatal(err)
	}
	hw := DefaultHW()
	for _, name := range []string{"seq-a", "pp-a", "sp-d"} {
		inter, _ := dataflow.ParseInter(name[:len(name)-2])
		tl, _ := dataflow.Named(name[len(name)-1:])
		c, err := tl.Config(inter, p.Dims(), hw.PEs, 0)
		if err != nil {
			b.Fatal(err)
		}
		for _, eng := range []struct {
			name string
			e    Engine
		}{{"events", Events}, {"fast", Fast}} {
			b.Run(name+"/"+eng.name, func(b *testing.B) {
				opts := Options{Mode: Omega, Engine: eng.e}
				for b.Loop() {
					if _, err := p.Run(c, hw, opts); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

var (
	bigOnce sync.Once
	bigG    *graphs.Graph
)

// BenchmarkRunAll1M runs the 24 configurations of a 1M-edge R-MAT graph
// (2^17 nodes) in each mode and engine.
func BenchmarkRunAll1M(b *testing.B) {
	bigOnce.Do(func() { bigG = benchGraph(b, 1<<17, 1_150_000) })
	b.Logf("graph: V=%d, E=%d undirected, nnz(A+I)=%d", bigG.NumNodes(), bigG.NumEdges(), bigG.NNZ()+bigG.NumNodes())
	hw := DefaultHW()
	for _, o := range []struct {
		name string
		o    Options
	}{
		{"omega/events", Options{Mode: Omega}},
		{"omega/fast", Options{Mode: Omega, Engine: Fast}},
		{"extended/events", Options{}},
	} {
		b.Run(o.name, func(b *testing.B) {
			var rs []Result
			for b.Loop() {
				p, err := Prepare(bigG, gcn(64, 16))
				if err != nil {
					b.Fatal(err)
				}
				if rs, err = p.RunAll(hw, o.o, rs[:0]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRunAllMedium runs the 24 configurations of a graph of the size
// of Graphlaxy's Medium set (about 242 nodes), the sweep's unit of work.
func BenchmarkRunAllMedium(b *testing.B) {
	g := benchGraph(b, 242, 1500)
	hw := DefaultHW()
	for _, o := range []struct {
		name string
		o    Options
	}{{"omega/fast", Options{Mode: Omega, Engine: Fast}}, {"omega/events", Options{Mode: Omega}}, {"extended/events", Options{}}} {
		for _, cold := range []bool{false, true} {
			name := o.name
			if cold {
				// Without the timings a Prepared keeps from earlier runs:
				// what the first RunAll on a graph costs.
				name += "/cold"
			}
			b.Run(name, func(b *testing.B) {
				var rs []Result
				p, err := Prepare(g, gcn(32, 16))
				if err != nil {
					b.Fatal(err)
				}
				for b.Loop() {
					if cold {
						forgetTimings(&p.scr)
					}
					if rs, err = p.RunAll(hw, o.o, rs[:0]); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// forgetTimings empties the timing caches of s, keeping their storage.
func forgetTimings(s *timingScratch) {
	for i := range s.aggs {
		s.aggs[i].valid = false
	}
	for i := range s.combs {
		s.combs[i].valid = false
	}
	s.aggOutSet = false
}
