package vec

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats"
)

// kernelInputs draws n values for the bit-identity tests: a sixth +0, a
// sixth -0, the rest normal numbers scaled by 2^k, |k| < spread/2, so
// that the order of rounding shows.
func kernelInputs(r *rand.Rand, n, spread int) []float64 {
	s := make([]float64, n)
	for i := range s {
		switch r.IntN(6) {
		case 0:
			s[i] = math.Copysign(0, -1)
		case 1:
			s[i] = 0
		default:
			s[i] = r.NormFloat64() * math.Exp2(float64(r.IntN(spread)-spread/2))
		}
	}
	return s
}

// TestSameBitsAsGonum: the kernels give gonum's bits (floats.AddScaled,
// floats.Dot) for every length around their vector widths, signed zeros
// included.
func TestSameBitsAsGonum(t *testing.T) {
	if !HasAVX2 {
		t.Skip("no AVX2 on this CPU")
	}
	r := rand.New(rand.NewPCG(1, 2))
	draw := func(n int) []float64 { return kernelInputs(r, n, 40) }
	for n := range 41 {
		x, y := draw(n), draw(n)
		a := r.NormFloat64()
		want := append([]float64(nil), y...)
		floats.AddScaled(want, a, x)
		AxpyAVX2(y, a, x)
		for i := range want {
			if math.Float64bits(y[i]) != math.Float64bits(want[i]) {
				t.Fatalf("AxpyAVX2 n=%d, element %d: %v, gonum %v", n, i, y[i], want[i])
			}
		}
		// On a cleared row: as AddScaled on zeros (+0 + a*x).
		zero, set := make([]float64, n), draw(n)
		floats.AddScaled(zero, a, x)
		AxpyZeroAVX2(set, a, x)
		for i := range zero {
			if math.Float64bits(set[i]) != math.Float64bits(zero[i]) {
				t.Fatalf("AxpyZeroAVX2 n=%d, element %d: %v, gonum on zeros %v", n, i, set[i], zero[i])
			}
		}
	}
	for m := 1; m <= 40; m++ {
		const cols = 11
		w, dz, mask := draw(cols*m), draw(m), draw(cols)
		idx := []int32{3, 0, 7, 10, 1, 9, 4, 2, 8}
		dx := make([]float64, cols)
		DotsKeptAVX2(dx, mask, dz, w, idx, m)
		for _, c := range idx[:len(idx)&^3] {
			want := mask[c] * floats.Dot(dz, w[int(c)*m:(int(c)+1)*m])
			if math.Float64bits(dx[c]) != math.Float64bits(want) {
				t.Fatalf("DotsKeptAVX2 m=%d, column %d: %v, gonum %v", m, c, dx[c], want)
			}
		}
		for _, c := range idx[len(idx)&^3:] {
			if dx[c] != 0 {
				t.Fatalf("DotsKeptAVX2 m=%d wrote column %d past len(idx) &^ 3", m, c)
			}
		}
	}
}
