package train

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkGatherRows compares, on Cora, the two ways of forming every
// row's sum of picked rows: the first layer's X W (sparse X, 1,433 x m
// weights) and the neighbour sum of A+I over n x m transforms, each as
// gatherAxpy does it (the sum in registers) and as a sequence of axpys.
// Run with -count 2 or more: the first run at each width also pays the
// page faults of its new buffers.
func BenchmarkGatherRows(b *testing.B) {
	if !useAVX2 {
		b.Skip("no AVX2")
	}
	d := loadData(b, "cora")
	r := rand.New(rand.NewPCG(1, 2))
	n := d.NumNodes
	one := []float64{1}
	for _, m := range []int{16, 64, 256, 1024} {
		w := make([]float64, d.NumFeatures*m)
		z := make([]float64, n*m)
		for i := range w {
			w[i] = r.NormFloat64()
		}
		for i := range z {
			z[i] = r.NormFloat64()
		}
		out := make([]float64, n*m)
		type pick struct {
			name     string
			ptr, col []int32
			val      []float64
			cs       int
			src      []float64
		}
		for _, p := range []pick{
			{"xw", d.xPtr, d.xCol, d.xVal, 1, w},
			{"agg", d.aPtr, d.aCol, one, 0, z},
		} {
			b.Run(fmt.Sprintf("%s/m=%d/gather", p.name, m), func(b *testing.B) {
				for b.Loop() {
					for i := range n {
						a, e := p.ptr[i], p.ptr[i+1]
						if a == e {
							continue
						}
						c := p.val
						if p.cs != 0 {
							c = p.val[a:e]
						}
						gatherAxpy(out[i*m:(i+1)*m], c, p.cs, p.col[a:e], p.src, m)
					}
				}
			})
			b.Run(fmt.Sprintf("%s/m=%d/axpys", p.name, m), func(b *testing.B) {
				for b.Loop() {
					for i := range n {
						a, e := p.ptr[i], p.ptr[i+1]
						o := out[i*m : (i+1)*m]
						for t := a; t < e; t++ {
							c := p.val[0]
							if p.cs != 0 {
								c = p.val[t]
							}
							row := p.src[int(p.col[t])*m:][:m]
							if t == a {
								axpySet(o, c, row)
							} else {
								axpy(o, c, row)
							}
						}
					}
				}
			})
		}
	}
}
