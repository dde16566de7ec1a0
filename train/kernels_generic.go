//go:build !amd64 || purego

package train

// haveAVX2 is false off amd64 (or with the purego tag): the kernels of
// kernels.go run their Go loops and never call the functions below.
const haveAVX2 = false

const noAVX2 = "train: no AVX2 kernels in this build"

func adamAVX2(p, g, m1, m2 []float64, k *[8]float64)       { panic(noAVX2) }
func mulRowAVX2(z, x, w []float64, m int, mask *[16]int64) { panic(noAVX2) }
func mulRow2AVX2(z0, z1, x0, x1, w []float64, m, fast int, mask *[16]int64) {
	panic(noAVX2)
}
func maxRowAVX2(m []float64, arg []int32, z []float64, c float64, e int32) {
	panic(noAVX2)
}
func dotsSeqAVX2(dx, mask, dz, wT []float64, k int)   { panic(noAVX2) }
func dotsGonumAVX2(dx, mask, dz, wT []float64, k int) { panic(noAVX2) }
