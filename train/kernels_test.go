package train

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats"
)

// withAVX2 runs f with the AVX2 kernels switched on or off.
func withAVX2(on bool, f func()) {
	old := useAVX2
	useAVX2 = on
	defer func() { useAVX2 = old }()
	f()
}

// kernelValues is n values for the kernel tests: a mix of ordinary
// numbers, exact zeros of both signs and numbers far apart in magnitude,
// so that rounding differs by the order of operations.
func kernelValues(r *rand.Rand, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		switch r.IntN(6) {
		case 0:
			v[i] = 0
		case 1:
			v[i] = math.Copysign(0, -1)
		case 2:
			v[i] = r.NormFloat64() * 1e8
		default:
			v[i] = r.NormFloat64()
		}
	}
	return v
}

func sameBits(a, b []float64) int {
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return i
		}
	}
	return -1
}

// TestKernelsSameBits: the AVX2 kernels give the bits of the Go loops,
// at every length around their vector widths and tails.
func TestKernelsSameBits(t *testing.T) {
	if !haveAVX2 {
		t.Skip("no AVX2 on this CPU")
	}
	r := rand.New(rand.NewPCG(1, 2))
	for n := range 70 {
		x, d := kernelValues(r, n), kernelValues(r, n)
		a := r.NormFloat64()
		want, got := append([]float64(nil), d...), append([]float64(nil), d...)
		axpyGo(want, a, x)
		axpyAVX2(got, a, x)
		if i := sameBits(want, got); i >= 0 {
			t.Fatalf("axpy n=%d: element %d is %v, want %v", n, i, got[i], want[i])
		}

		p, g := kernelValues(r, n), kernelValues(r, n)
		m1, m2 := kernelValues(r, n), kernelValues(r, n)
		for i := range m2 {
			m2[i] = math.Abs(m2[i])
		}
		k := [8]float64{adamBeta1, 1 - adamBeta1, adamBeta2, 1 - adamBeta2, 0.01, 0.3, 0.02, adamEps}
		bufs := func() [4][]float64 {
			return [4][]float64{append([]float64(nil), p...), append([]float64(nil), m1...), append([]float64(nil), m2...)}
		}
		w, o := bufs(), bufs()
		adamGo(w[0], g, w[1], w[2], &k)
		withAVX2(true, func() { adamStep(o[0], g, o[1], o[2], &k) })
		for j := range 3 {
			if i := sameBits(w[j], o[j]); i >= 0 {
				t.Fatalf("adam n=%d: vector %d element %d is %v, want %v", n, j, i, o[j][i], w[j][i])
			}
		}
	}
	// matMul at widths around 4 and 16, on rows with many zero factors
	// and infinite weights behind some of them (skipped terms stay out).
	for _, m := range []int{1, 3, 4, 7, 13, 16, 17, 28, 33, 56, 112} {
		for _, k := range []int{0, 1, 5, 40} {
			const n = 6
			x, w := kernelValues(r, n*k), kernelValues(r, k*m)
			for c := range k {
				if x[c] == 0 && m > 0 {
					w[c*m] = math.Inf(1)
				}
			}
			rows := []int32{0, 2, 3, 5}
			want, got := kernelValues(r, n*m+16), make([]float64, n*m+16)
			copy(got, want)
			withAVX2(false, func() { matMul(want[:n*m], x, w, rows, k, m) })
			withAVX2(true, func() { matMul(got[:n*m], x, w, rows, k, m) })
			if i := sameBits(want, got); i >= 0 {
				t.Fatalf("matMul k=%d m=%d: element %d is %v, want %v", k, m, i, got[i], want[i])
			}
		}
	}
	// matMulNT on both sides of dot's switch to gonum (16 columns), with
	// column counts around 4 and 16 and dropped inputs.
	for _, m := range []int{1, 3, 4, 7, 15, 16, 17, 19, 28, 56, 112} {
		for _, k := range []int{1, 3, 4, 5, 16, 17, 40} {
			const n = 6
			dz, w, mask := kernelValues(r, n*m), kernelValues(r, k*m), kernelValues(r, n*k)
			rows := []int32{1, 2, 4, 5}
			wT := make([]float64, k*m)
			want, got := make([]float64, n*k), make([]float64, n*k)
			withAVX2(false, func() { matMulNT(want, dz, w, mask, rows, m, k, wT) })
			withAVX2(true, func() { matMulNT(got, dz, w, mask, rows, m, k, wT) })
			if i := sameBits(want, got); i >= 0 {
				t.Fatalf("matMulNT m=%d k=%d: element %d is %v, want %v", m, k, i, got[i], want[i])
			}
		}
	}
}

// TestTrainSameBitsWithoutAVX2: a training gives the same parameters,
// to the bit, with the AVX2 kernels as with the Go loops, for every
// attention and aggregation and output widths of 7 to 112 columns.
func TestTrainSameBitsWithoutAVX2(t *testing.T) {
	if !haveAVX2 {
		t.Skip("no AVX2 on this CPU")
	}
	d := loadData(t, "cora")
	cfg := GCNConfig()
	cfg.Epochs = 5
	for _, s := range []string{
		"gcn:16x1:add:relu/gcn:0x1:add:linear",
		"gat:8x3:mean:elu/gat:0x16:max:linear",
		"constant:12x2:max:tanh/constant:0x4:mean:sigmoid",
		"gat:5x1:add:sigmoid/gcn:0x2:add:relu",
		"gcn:64x4:add:elu/gat:0x3:add:linear",
	} {
		a, err := ParseArch(s)
		if err != nil {
			t.Fatal(err)
		}
		var ps [2][]float64
		for i, on := range []bool{false, true} {
			withAVX2(on, func() {
				m, err := Train(d, a, cfg)
				if err != nil {
					t.Fatal(err)
				}
				ps[i] = m.Params()
			})
		}
		if i := sameBits(ps[0], ps[1]); i >= 0 {
			t.Errorf("%s: parameter %d is %v with AVX2, %v without", s, i, ps[1][i], ps[0][i])
		}
	}
}

// BenchmarkAxpy: dst += a*x at the widths of the first layer's rows,
// the AVX2 kernel against gonum's SSE2 one.
func BenchmarkAxpy(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{7, 16, 64, 256, 1024} {
		x, d := kernelValues(r, n), kernelValues(r, n)
		b.Run(fmt.Sprintf("gonum/%d", n), func(b *testing.B) {
			for b.Loop() {
				floats.AddScaled(d, 1e-9, x)
			}
		})
		if haveAVX2 {
			b.Run(fmt.Sprintf("avx2/%d", n), func(b *testing.B) {
				for b.Loop() {
					axpyAVX2(d, 1e-9, x)
				}
			})
		}
	}
}
