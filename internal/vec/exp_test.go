package vec

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// expEdges are inputs at the edges of math.Exp and math.Tanh: zeros of
// both signs, the smallest numbers, the ends of the kernel's range
// [-708, 709] and just beyond, math.Exp's overflow and underflow points,
// infinities, NaN, and tanh's branch points 0.625 and 0.5*MAXLOG.
var expEdges = func() []float64 {
	const halfMaxlog = 0.5 * 8.8029691931113054295988e+01
	e := []float64{
		0, math.Copysign(0, -1), 5e-324, -5e-324, 1e-300, -1e-300, 1e-17, -1e-17, 2.2250738585072014e-308,
		-708, 709, math.Nextafter(-708, -1000), math.Nextafter(709, 1000), math.Nextafter(-708, 0), math.Nextafter(709, 0),
		709.78, 709.782712893384, 710, -745, -745.1332191019412, -746, -1e10, 1e10, math.MaxFloat64, -math.MaxFloat64,
		math.Inf(1), math.Inf(-1), math.NaN(), -math.NaN(),
		0.625, -0.625, math.Nextafter(0.625, 0), math.Nextafter(-0.625, 0),
		halfMaxlog, -halfMaxlog, math.Nextafter(halfMaxlog, 100), math.Nextafter(-halfMaxlog, -100),
		354, -354, 354.5, -354.5, 1, -1, 0.5, -0.5, 22, -22,
	}
	return e
}()

// expInputs is n inputs for the vector exp and tanh: mostly values where
// the kernel works (over its whole range, near the halfway points of the
// argument reduction, around tanh's branch points), with the edges mixed
// in, where the Go code must take over.
func expInputs(r *rand.Rand, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		switch r.IntN(9) {
		case 0:
			v[i] = expEdges[r.IntN(len(expEdges))]
		case 1:
			v[i] = (float64(r.IntN(2000)-1000) + 0.5) * math.Ln2 // where the reduction rounds
		case 2:
			v[i] = r.Float64()*1417 - 708
		case 3:
			v[i] = (r.Float64() - 0.5) * 2 * 0.7 // around 0.625
		default:
			v[i] = r.NormFloat64() * 3
		}
	}
	return v
}

// TestExpSameBits: ExpMapAVX2 of every kind, ExpAVX2 and TanhAVX2 give
// the bits of the scalar functions (math.Exp, Sigmoid, ELU, math.Tanh)
// on every edge, and on random inputs in and out of place, at every
// length around the block of four (and TanhAVX2's block of 64), without
// writing past the end.
func TestExpSameBits(t *testing.T) {
	if !HasExpAVX2 {
		t.Skip("no AVX2 and FMA on this CPU")
	}
	fns := []struct {
		name   string
		vector func(dst, src []float64)
		scalar func(float64) float64
	}{
		{"exp", ExpAVX2, math.Exp},
		{"map exp", func(d, s []float64) { ExpMapAVX2(ExpMath, d, s) }, math.Exp},
		{"sigmoid", func(d, s []float64) { ExpMapAVX2(ExpSigmoid, d, s) }, Sigmoid},
		{"elu", func(d, s []float64) { ExpMapAVX2(ExpELU, d, s) }, ELU},
		{"logistic", func(d, s []float64) { ExpMapAVX2(ExpLogistic, d, s) }, Logistic},
		{"tanh", TanhAVX2, math.Tanh},
	}
	check := func(t *testing.T, name string, x, want, got []float64) {
		t.Helper()
		for i := range want {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("%s: f(%v) is %v (%#x), want %v (%#x)", name, x[i], got[i],
					math.Float64bits(got[i]), want[i], math.Float64bits(want[i]))
			}
		}
	}
	r := rand.New(rand.NewPCG(5, 6))
	for _, f := range fns {
		t.Run(f.name, func(t *testing.T) {
			// Each edge in every lane of a block of four, the other
			// lanes in range.
			for _, e := range expEdges {
				for lane := range 4 {
					x := []float64{0.3, -1.7, 2.5, 40}
					x[lane] = e
					want := make([]float64, len(x))
					for i, v := range x {
						want[i] = f.scalar(v)
					}
					got := make([]float64, len(x))
					f.vector(got, x)
					check(t, fmt.Sprintf("edge %v in lane %d", e, lane), x, want, got)
				}
			}
			for _, n := range []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 17, 31, 63, 64, 65, 67, 128, 130, 300} {
				for rep := range 30 {
					x := expInputs(r, n)
					want := make([]float64, n)
					for i, v := range x {
						want[i] = f.scalar(v)
					}
					got := append(make([]float64, n), -1) // a sentinel past the end
					f.vector(got[:n], x)
					check(t, fmt.Sprintf("n=%d rep %d", n, rep), x, want, got[:n])
					if got[n] != -1 {
						t.Fatalf("n=%d: wrote past the end", n)
					}
					in := append([]float64(nil), x...)
					f.vector(in, in)
					check(t, fmt.Sprintf("n=%d rep %d in place", n, rep), x, want, in)
				}
			}
		})
	}
	// The kernel alone, on inputs all in its range (sigmoid's and
	// logistic's are [-708, 708]: exp of -|x| and -x; tanh's every number
	// but NaN), does every block.
	x := make([]float64, 4096)
	for i := range x {
		x[i] = r.Float64()*1416 - 708
	}
	xt := append([]float64{math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 1e300, -1e300, 5e-324, -5e-324}, x...)
	for _, c := range []struct {
		k ExpKind
		x []float64
	}{{ExpMath, x}, {ExpSigmoid, x}, {ExpELU, x}, {ExpLogistic, x}, {ExpTanh, xt}} {
		if done := expMapAVX2(make([]float64, len(c.x)), c.x, c.k); done != len(c.x) {
			t.Errorf("kind %d: kernel did %d of %d in-range inputs", c.k, done, len(c.x))
		}
	}
}

// TestTanhSameBitsDense: TanhAVX2 gives math.Tanh's bits on a dense
// sweep of [-50, 50], every branch and the crossings between them.
func TestTanhSameBitsDense(t *testing.T) {
	if !HasExpAVX2 {
		t.Skip("no AVX2 and FMA on this CPU")
	}
	const n = 200_001
	x := make([]float64, n)
	for i := range x {
		x[i] = -50 + 100*float64(i)/(n-1)
	}
	got := make([]float64, n)
	TanhAVX2(got, x)
	for i, v := range x {
		if want := math.Tanh(v); math.Float64bits(got[i]) != math.Float64bits(want) {
			t.Fatalf("tanh(%v) is %v, want %v", v, got[i], want)
		}
	}
}

// BenchmarkExp: exp and tanh over 400 values (an LSTM step's gates of
// 100 units), the scalar loop against the four-lane kernel.
func BenchmarkExp(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	x, y := make([]float64, 400), make([]float64, 400)
	for i := range x {
		x[i] = r.NormFloat64() * 2
	}
	for _, f := range []struct {
		name   string
		scalar func(float64) float64
		vector func(dst, src []float64)
	}{{"exp", math.Exp, ExpAVX2}, {"tanh", math.Tanh, TanhAVX2}} {
		b.Run(f.name+"/scalar", func(b *testing.B) {
			for b.Loop() {
				for i, v := range x {
					y[i] = f.scalar(v)
				}
			}
		})
		if HasExpAVX2 {
			b.Run(f.name+"/vector", func(b *testing.B) {
				for b.Loop() {
					f.vector(y, x)
				}
			})
		}
	}
}
