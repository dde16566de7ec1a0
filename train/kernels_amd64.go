//go:build amd64 && !purego

package train

import "golang.org/x/sys/cpu"

// haveAVX2 says whether the CPU and OS run the AVX2 kernels of
// kernels_amd64.s.
var haveAVX2 = cpu.X86.HasAVX2

//go:noescape
func adamAVX2(p, g, m1, m2 []float64, k *[8]float64)

//go:noescape
func mulRowAVX2(z, x, w []float64, m int, mask *[16]int64)

//go:noescape
func mulRow2AVX2(z0, z1, x0, x1, w []float64, m, fast int, mask *[16]int64)

//go:noescape
func maxRowAVX2(m []float64, arg []int32, z []float64, c float64, e int32)

//go:noescape
func dotsSeqAVX2(dx, mask, dz, wT []float64, k int)

//go:noescape
func dotsGonumAVX2(dx, mask, dz, wT []float64, k int)
