package vec

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestGatherSameBitsAsAxpys: GatherAxpyAVX2 gives the bits of
// AxpyZeroAVX2 on the first term and AxpyAVX2 on each later one, for every
// width around the kernel's chunks, coefficient strides (0: one shared
// coefficient), repeated rows and signed zeros.
func TestGatherSameBitsAsAxpys(t *testing.T) {
	if !HasAVX2 {
		t.Skip("no AVX2 on this CPU")
	}
	r := rand.New(rand.NewPCG(3, 4))
	draw := func(n int) []float64 { return kernelInputs(r, n, 60) }
	const rows = 9
	for _, cs := range []int{0, 1, 3} {
		for _, terms := range []int{1, 2, 5, 17} {
			for m := range 41 {
				stride := m + r.IntN(3)
				x := draw(rows*stride + m)
				idx := make([]int32, terms)
				for e := range idx {
					idx[e] = int32(r.IntN(rows + 1))
				}
				c := draw(max(1, (terms-1)*cs+1))
				want := draw(m)
				for e, j := range idx {
					row := x[int(j)*stride:]
					if e == 0 {
						AxpyZeroAVX2(want, c[0], row)
					} else {
						AxpyAVX2(want, c[e*cs], row)
					}
				}
				got := draw(m)
				GatherAxpyAVX2(got, c, cs, idx, x, stride)
				for i := range want {
					if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
						t.Fatalf("cs=%d terms=%d m=%d element %d: %v, axpys %v", cs, terms, m, i, got[i], want[i])
					}
				}
			}
		}
	}
}

func BenchmarkGather(b *testing.B) {
	if !HasAVX2 {
		b.Skip("no AVX2 on this CPU")
	}
	const rows, m, terms = 1433, 64, 18
	r := rand.New(rand.NewPCG(1, 1))
	x := make([]float64, rows*m)
	for i := range x {
		x[i] = r.NormFloat64()
	}
	idx := make([]int32, terms)
	c := make([]float64, terms)
	for e := range idx {
		idx[e], c[e] = int32(r.IntN(rows)), r.NormFloat64()
	}
	dst := make([]float64, m)
	b.Run("gather", func(b *testing.B) {
		for b.Loop() {
			GatherAxpyAVX2(dst, c, 1, idx, x, m)
		}
	})
	b.Run("axpys", func(b *testing.B) {
		for b.Loop() {
			AxpyZeroAVX2(dst, c[0], x[int(idx[0])*m:])
			for e := 1; e < terms; e++ {
				AxpyAVX2(dst, c[e], x[int(idx[e])*m:])
			}
		}
	})
}
