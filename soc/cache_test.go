package soc

import (
	"testing"

	"gnnsim/workload"
)

// TestL2ReuseBeyondPrevious: an output read two kernels later is a hit
// when it and what was touched since fit the GPU's L2, and a miss in a
// smaller L2; the output just written hits as before.
func TestL2ReuseBeyondPrevious(t *testing.T) {
	gemm := func(in, k, w, out int64) workload.Kernel {
		return workload.Kernel{Name: "fc", Class: workload.GEMM, MACs: in * 8, M: in / k, K: k, N: 8, InElems: in, WeightElems: w, OutElems: out}
	}
	// k0 writes A; k1 reads A, writes B; k2 reads A again (a different
	// product, so the two do not run as one).
	ks := []workload.Kernel{gemm(1024, 8, 64, 20000), gemm(20000, 8, 64, 1000), gemm(20000, 16, 64, 1000)}
	prod := [][]int{nil, {0}, {0}}
	for _, tc := range []struct {
		cache   int64
		wantHit bool
	}{{1 << 19, true}, {41000, false}} {
		spec := DefaultSpec()
		spec.Units[0].CacheBytes = tc.cache
		s, err := New(spec)
		if err != nil {
			t.Fatal(err)
		}
		units, _, err := s.Bind(s.top())
		if err != nil {
			t.Fatal(err)
		}
		r := units[0].(*Roofline)
		plan, err := r.PlanDAG(ks, prod, nil)
		if err != nil {
			t.Fatal(err)
		}
		// k1 always hits (A was just written and fits both caches).
		if got, want := plan[1].Cost.DRAMBytes, (64+1000)*r.elem; got != want {
			t.Errorf("cache %d: k1 moves %d bytes, want %d (A from the L2)", tc.cache, got, want)
		}
		miss := (20000 + 64 + 1000) * r.elem
		if got := plan[2].Cost.DRAMBytes; (got < miss) != tc.wantHit {
			t.Errorf("cache %d: k2 moves %d bytes (all from memory: %d), want hit %v", tc.cache, got, miss, tc.wantHit)
		}
	}
}

// TestBiggerCacheNeverSlower: on zoo networks a bigger GPU L2 never moves
// more DRAM bytes nor takes longer.
func TestBiggerCacheNeverSlower(t *testing.T) {
	for _, name := range []string{"googlenet", "resnet50", "vig-s"} {
		var prevB, prevT int64 = -1, -1
		for _, c := range []int64{0, 1 << 18, 1 << 19, 1 << 21, 1 << 23} {
			spec := DefaultSpec()
			spec.Units[0].CacheBytes = c
			if c == 0 {
				spec.Units[0].CacheBytesPerCycle = 0
			}
			s, err := New(spec)
			if err != nil {
				t.Fatal(err)
			}
			e, err := NewEvaluator(s, zooModel(t, name), Blocks)
			if err != nil {
				t.Fatal(err)
			}
			mp, err := s.ParseMapping("gpu", Blocks, len(e.Segments()))
			if err != nil {
				t.Fatal(err)
			}
			var r Result
			if err := e.EvaluateAt(&r, mp, s.top()); err != nil {
				t.Fatal(err)
			}
			if prevB >= 0 && (r.DRAMBytes > prevB || r.LatencyPS > prevT) {
				t.Errorf("%s: L2 %d B: %d bytes, %d ps; smaller L2 %d bytes, %d ps", name, c, r.DRAMBytes, r.LatencyPS, prevB, prevT)
			}
			prevB, prevT = r.DRAMBytes, r.LatencyPS
		}
	}
}
