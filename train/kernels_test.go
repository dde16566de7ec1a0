package train

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/floats"

	"gnnsim/internal/vec"
	"gnnsim/workload"
)

// withAVX2 runs f with the AVX2 kernels (and the vector exp, where the
// CPU has it) switched on or off.
func withAVX2(on bool, f func()) {
	old, oldExp := useAVX2, useExp
	useAVX2, useExp = on, on && vec.HasExpAVX2
	defer func() { useAVX2, useExp = old, oldExp }()
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
		vec.AxpyAVX2(got, a, x)
		if i := sameBits(want, got); i >= 0 {
			t.Fatalf("axpy n=%d: element %d is %v, want %v", n, i, got[i], want[i])
		}
		// axpySet, both forms, against axpy on a cleared vector (x has
		// zeros of both signs, so some products are -0). a of both signs.
		for _, a := range []float64{a, -a} {
			want := make([]float64, n)
			axpyGo(want, a, x)
			for _, on := range []bool{false, true} {
				got := kernelValues(r, n)
				withAVX2(on, func() { axpySet(got, a, x) })
				if i := sameBits(want, got); i >= 0 {
					t.Fatalf("axpySet avx2=%v n=%d: element %d is %v, want %v", on, n, i, got[i], want[i])
				}
			}
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
	// matMul at widths around 4 and 16, on rows with many zero factors:
	// with infinite weights behind some of them (skipped terms stay out;
	// one row at a time), and with finite weights, some so small that
	// their products round to ±0 (two rows at a time, every term added),
	// on even and odd numbers of rows.
	for _, inf := range []bool{true, false} {
		for _, m := range []int{1, 3, 4, 7, 13, 16, 17, 28, 33, 56, 112} {
			for _, k := range []int{0, 1, 2, 5, 40} {
				const n = 6
				x, w := kernelValues(r, n*k), kernelValues(r, k*m)
				for c := range k {
					switch {
					case inf && x[c] == 0 && m > 0:
						w[c*m] = math.Inf(1)
					case !inf && r.IntN(4) == 0:
						x[c] = math.Copysign(1e-170, x[c])
						w[c*m] = math.Copysign(1e-170, r.NormFloat64())
					}
				}
				for _, rows := range [][]int32{{0, 2, 3, 5}, {4, 0, 2, 3, 5}} {
					want, got := kernelValues(r, n*m+16), make([]float64, n*m+16)
					copy(got, want)
					withAVX2(false, func() { matMul(want[:n*m], x, w, rows, k, m) })
					withAVX2(true, func() { matMul(got[:n*m], x, w, rows, k, m) })
					if i := sameBits(want, got); i >= 0 {
						t.Fatalf("matMul inf=%v k=%d m=%d rows %v: element %d is %v, want %v", inf, k, m, rows, i, got[i], want[i])
					}
				}
			}
		}
	}
	// matMulTN on both sides of tnMax, with finite dz (summed transposed,
	// every term added; some products round to ±0) and with an infinite
	// dz (the loop over non-zero x), x with zeros and an infinity.
	for _, inf := range []bool{false, true} {
		for _, m := range []int{1, 3, 4, 7, 14, 28, 31, 32, 56} {
			for _, k := range []int{1, 3, 5, 17, 40} {
				const n = 6
				x, dz := kernelValues(r, n*k), kernelValues(r, n*m)
				for i := range x {
					if r.IntN(5) == 0 {
						x[i] = math.Copysign(1e-170, x[i])
					}
				}
				for i := range dz {
					if r.IntN(5) == 0 {
						dz[i] = math.Copysign(1e-170, dz[i])
					}
				}
				x[k-1] = math.Inf(-1)
				if inf {
					dz[2*m] = math.Inf(1)
				}
				rows := []int32{0, 2, 3, 5}
				gT := make([]float64, k*m)
				want, got := kernelValues(r, k*m), kernelValues(r, k*m)
				withAVX2(false, func() { matMulTN(want, x, dz, rows, k, m, gT) })
				withAVX2(true, func() { matMulTN(got, x, dz, rows, k, m, gT) })
				if i := sameBits(want, got); i >= 0 {
					t.Fatalf("matMulTN inf=%v m=%d k=%d: element %d is %v, want %v", inf, m, k, i, got[i], want[i])
				}
			}
		}
	}
	// maxRowAVX2 against the Go loop of Max aggregation: ties keep the
	// first edge, NaN never wins, ±0 compare equal.
	for n := range 14 {
		for _, c := range []float64{1, 0.5, -2, 0} {
			m, z := kernelValues(r, n), kernelValues(r, n)
			for i := range m {
				switch r.IntN(5) {
				case 0:
					m[i] = math.Inf(-1)
				case 1:
					z[i] = math.NaN()
				case 2:
					z[i] = m[i] / c // a tie, where c allows
				}
			}
			arg := make([]int32, n+1)
			wantM, wantA := append([]float64(nil), m...), append([]int32(nil), arg...)
			for t := range wantM {
				if v := c * z[t]; v > wantM[t] {
					wantM[t], wantA[t] = v, 7
				}
			}
			maxRowAVX2(m, arg[:n], z, c, 7)
			if i := sameBits(wantM, m); i >= 0 {
				t.Fatalf("maxRow n=%d c=%v: element %d is %v, want %v", n, c, i, m[i], wantM[i])
			}
			for i := range arg {
				if arg[i] != wantA[i] {
					t.Fatalf("maxRow n=%d c=%v: arg %d is %d, want %d", n, c, i, arg[i], wantA[i])
				}
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
			wT, idx := make([]float64, k*m), make([]int32, k)
			want, got := make([]float64, n*k), make([]float64, n*k)
			withAVX2(false, func() { matMulNT(want, dz, w, mask, rows, m, k, wT, idx) })
			withAVX2(true, func() { matMulNT(got, dz, w, mask, rows, m, k, wT, idx) })
			if i := sameBits(want, got); i >= 0 {
				t.Fatalf("matMulNT m=%d k=%d: element %d is %v, want %v", m, k, i, got[i], want[i])
			}
		}
	}
}

// TestDotsKeptSameBits: matMulNT's kept-column kernel gives the bits of
// the kernel it replaced (every column summed from the transposed
// weights, dotsGonumAVX2) on the kept columns and the mask elsewhere,
// for widths around its vector width and column counts around its four
// columns, with FGNAS's widest layer (1,024 inputs, 16 heads x 7).
func TestDotsKeptSameBits(t *testing.T) {
	if !haveAVX2 {
		t.Skip("no AVX2 on this CPU")
	}
	r := rand.New(rand.NewPCG(3, 4))
	for _, m := range []int{16, 17, 18, 19, 20, 28, 64, 112} {
		for _, k := range []int{4, 5, 8, 9, 11, 16, 40, 1024} {
			dz, w, mask := kernelValues(r, m), kernelValues(r, k*m), kernelValues(r, k)
			wT := make([]float64, k*m)
			transpose(wT, w, k, m)
			k8 := k &^ 3
			want := make([]float64, k)
			dotsGonumAVX2(want[:k8], mask[:k8], dz, wT, k)
			var idx []int32
			for c := range k8 {
				if mask[c] != 0 {
					idx = append(idx, int32(c))
				}
			}
			got := slices.Clone(mask)
			n4 := len(idx) &^ 3
			vec.DotsKeptAVX2(got, mask, dz, w, idx[:n4], m)
			for _, c := range idx[n4:] {
				got[c] = mask[c] * floats.Dot(dz, w[int(c)*m:(int(c)+1)*m])
			}
			if i := sameBits(want[:k8], got[:k8]); i >= 0 {
				t.Fatalf("dotsKept m=%d k=%d: column %d is %v, want %v", m, k, i, got[i], want[i])
			}
		}
	}
}

// TestActivateSameBits: the activations built on exp (sigmoid, ELU,
// tanh, and exp itself) give the same bits with package vec's four-lane
// exp as with the scalar Go functions, in and out of place, at every
// length around the block of four, on inputs that also leave the
// kernel's range (the kernels' own test is vec's TestExpSameBits).
func TestActivateSameBits(t *testing.T) {
	if !vec.HasExpAVX2 {
		t.Skip("no AVX2 and FMA on this CPU")
	}
	r := rand.New(rand.NewPCG(5, 6))
	special := []float64{0, math.Copysign(0, -1), 0.625, -0.625, 44.02, -44.02, -708, 709, 710, -746,
		math.Inf(1), math.Inf(-1), math.NaN(), 5e-324}
	for _, k := range []struct {
		name  string
		apply func(y, o []float64)
	}{
		{"exp", func(y, o []float64) { expVec(y, o) }},
		{"sigmoid", func(y, o []float64) { activate(workload.ActSigmoid, o, y) }},
		{"elu", func(y, o []float64) { activate(workload.ActELU, o, y) }},
		{"tanh", func(y, o []float64) { activate(workload.ActTanh, o, y) }},
	} {
		for n := range 40 {
			for rep := range 20 {
				x := kernelValues(r, n)
				for i := range x {
					switch r.IntN(4) {
					case 0:
						x[i] = special[r.IntN(len(special))]
					case 1:
						x[i] = r.Float64()*1417 - 708
					}
				}
				want := append(make([]float64, n), -1) // a sentinel past the end
				got := append(make([]float64, n), -1)
				inPlace := slices.Clone(x)
				withAVX2(false, func() { k.apply(want[:n], x) })
				withAVX2(true, func() {
					k.apply(got[:n], x)
					k.apply(inPlace, inPlace)
				})
				if i := sameBits(want[:n], got[:n]); i >= 0 {
					t.Fatalf("%s n=%d rep %d: f(%v) is %v, want %v", k.name, n, rep, x[i], got[i], want[i])
				}
				if i := sameBits(want[:n], inPlace); i >= 0 {
					t.Fatalf("%s n=%d rep %d in place: f(%v) is %v, want %v", k.name, n, rep, x[i], inPlace[i], want[i])
				}
				if got[n] != -1 {
					t.Fatalf("%s n=%d: wrote past the end", k.name, n)
				}
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
		"sage:16x1:max:relu/sage:0x1:mean:linear",
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
					vec.AxpyAVX2(d, 1e-9, x)
				}
			})
		}
	}
}

// BenchmarkSigmoid: sigmoid over a row of 256, the scalar loop against
// the four-lane kernel.
func BenchmarkSigmoid(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	x, y := make([]float64, 256), make([]float64, 256)
	for i := range x {
		x[i] = r.NormFloat64() * 3
	}
	for _, on := range []bool{false, true} {
		b.Run(fmt.Sprintf("vector=%v", on), func(b *testing.B) {
			withAVX2(on, func() {
				for b.Loop() {
					activate(workload.ActSigmoid, x, y)
				}
			})
		})
	}
}

// BenchmarkMatMulTN: the gradient of a second layer's weights (1,024 rows,
// 256 inputs half zero), the loop over non-zero inputs (forced by an
// infinite dz row) against the transposed sums, by width of dz.
func BenchmarkMatMulTN(b *testing.B) {
	if !haveAVX2 {
		b.Skip("no AVX2 on this CPU")
	}
	r := rand.New(rand.NewPCG(7, 8))
	const n, k = 1024, 256
	rows := make([]int32, n)
	for i := range rows {
		rows[i] = int32(i)
	}
	x := kernelValues(r, n*k)
	for i := range x {
		if r.IntN(2) == 0 {
			x[i] = 0
		}
	}
	for _, m := range []int{7, 14, 28, 56} {
		g, gT := make([]float64, k*m), make([]float64, k*m)
		for _, loop := range []bool{true, false} {
			dz := kernelValues(r, n*m)
			if loop {
				dz[0] = math.Inf(1)
			}
			b.Run(fmt.Sprintf("m=%d/loop=%v", m, loop), func(b *testing.B) {
				for b.Loop() {
					matMulTN(g, x, dz, rows, k, m, gT)
				}
			})
		}
	}
}
