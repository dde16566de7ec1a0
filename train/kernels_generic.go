//go:build !amd64 || purego

package train

// haveAVX2 is false off amd64 (or with the purego tag): the kernels of
// kernels.go run their Go loops.
const haveAVX2 = false

func axpyAVX2(dst []float64, a float64, x []float64) { axpyGo(dst, a, x) }

func adamAVX2(p, g, m1, m2 []float64, k *[8]float64) {
	adamGo(p[:len(p)&^3], g, m1, m2, k)
}

func mulRowAVX2(z, x, w []float64, m int, mask *[16]int64) {
	for j := range 16 {
		if mask[j] == 0 {
			continue
		}
		s := 0.0
		for c, a := range x {
			if a != 0 {
				s += a * w[c*m+j]
			}
		}
		z[j] = s
	}
}
