package train

import (
	"math"

	"gonum.org/v1/gonum/floats"
)

// The dense kernels of the trainer. The matrices here are skinny (2,708
// rows of 7 to 1,024 columns for Cora) and their inputs mostly zero (ReLU
// and dropout zero about three quarters of a hidden layer's input), so
// row loops that skip zero factors beat a general GEMM: gonum's Dgemm
// (tried first) splits such a product into 64-row blocks on goroutines,
// allocating on every call, and spends its time in vector calls of 7 to 16
// elements. The kernels are serial and run in a fixed order, so results
// are bit-for-bit reproducible.
//
// Where the CPU has AVX2, the loops run in the assembly of
// kernels_amd64.s: axpy from 4 elements, the Adam step, and two row
// kernels that keep 16 columns of a result in registers across the terms
// of a row (matMul's rows; matMulNT's dots, from transposed weights).
// They are ours because no reachable library has them: gonum's assembly
// is SSE2 (two float64 per instruction) and Go emits no vector
// instructions. Each multiplies and adds separately, every element summed
// in the order of the Go loop it replaces (dots in the order of gonum's
// DotUnitary where the Go code calls it), and a skipped zero term is
// added as +0, which leaves a sum unchanged: the same bits with or
// without AVX2 (TestKernelsSameBits, TestTrainSameBitsWithoutAVX2).
// Without AVX2, or with the purego build tag, vectors from 16 elements go
// to gonum's SSE2 kernels.
//
// A third row kernel, for the sparse first layer and the GCN and constant
// aggregations (16 columns of a row summed over all its non-zeros), was
// tried and dropped: with it the 25-network sample below trained in 61.0
// CPU-seconds one at a time, but the full FGNAS Table 3, two trainings at
// a time, ran slower in both runs with it (architecture phases 1,850 and
// 2,081 s against 1,626 s without; the host's speed varies too, so the
// share of the blame is not measured).

// useAVX2 routes the kernels to their AVX2 forms (tests switch it off to
// compare). axpy alone is 1.6 to 1.7 times faster than gonum's from 16
// to 1,024 elements (BenchmarkAxpy); 25 networks drawn from FGNAS's
// architecture phase train in 64.1 CPU-seconds with axpy, Adam and
// matMul's kernels against 88.0 without (1.37 times faster, one at a
// time).
var useAVX2 = haveAVX2

// laneMasks[n] selects the first n of 16 columns for the row kernels.
var laneMasks = func() (t [17][16]int64) {
	for n := range t {
		for j := range n {
			t[n][j] = -1
		}
	}
	return t
}()

// asmMin is the vector length from which gonum's assembly kernels
// (floats.AddScaled, floats.Dot) beat a Go loop: below it the call
// overhead dominates (7 elements: 8 ns in Go, 12 ns in assembly; 64: 60
// and 36 ns, measured on the shared 2-core EPYC).
const asmMin = 16

// axpy sets dst += a*x; x must be at least as long as dst.
func axpy(dst []float64, a float64, x []float64) {
	x = x[:len(dst)]
	switch {
	case useAVX2 && len(dst) >= 4:
		axpyAVX2(dst, a, x)
	case len(dst) >= asmMin:
		floats.AddScaled(dst, a, x)
	default:
		axpyGo(dst, a, x)
	}
}

// axpyGo is axpy in Go.
func axpyGo(dst []float64, a float64, x []float64) {
	x = x[:len(dst)]
	i := 0
	for ; i+4 <= len(dst); i += 4 {
		d, s := dst[i:i+4:i+4], x[i:i+4:i+4]
		d[0] += a * s[0]
		d[1] += a * s[1]
		d[2] += a * s[2]
		d[3] += a * s[3]
	}
	for ; i < len(dst); i++ {
		dst[i] += a * x[i]
	}
}

// adamStep takes one Adam step on parameters p with gradient g and
// moments m1, m2 (all as long as p); k holds beta1, 1-beta1, beta2,
// 1-beta2, the learning rate, the two bias corrections and epsilon.
func adamStep(p, g, m1, m2 []float64, k *[8]float64) {
	n := 0
	if useAVX2 {
		n = len(p) &^ 3
		adamAVX2(p[:n], g[:n], m1[:n], m2[:n], k)
	}
	adamGo(p[n:], g[n:], m1[n:], m2[n:], k)
}

// adamGo is adamStep in Go.
func adamGo(p, g, m1, m2 []float64, k *[8]float64) {
	b1, ob1, b2, ob2, lr, c1, c2, eps := k[0], k[1], k[2], k[3], k[4], k[5], k[6], k[7]
	g, m1, m2 = g[:len(p)], m1[:len(p)], m2[:len(p)]
	for i, gi := range g {
		m1[i] = b1*m1[i] + ob1*gi
		m2[i] = b2*m2[i] + ob2*gi*gi
		p[i] -= lr * (m1[i] / c1) / (math.Sqrt(m2[i]/c2) + eps)
	}
}

// dot is the inner product of a and b[:len(a)].
func dot(a, b []float64) float64 {
	b = b[:len(a)]
	if len(a) >= asmMin {
		return floats.Dot(a, b)
	}
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// scale sets x *= a.
func scale(x []float64, a float64) {
	for i := range x {
		x[i] *= a
	}
}

// mulInPlace sets x *= y element-wise.
func mulInPlace(x, y []float64) {
	y = y[:len(x)]
	for i := range x {
		x[i] *= y[i]
	}
}

// matMul sets z = x w on the rows of rows: x is n x k, w is k x m, z is
// n x m, row-major.
func matMul(z, x, w []float64, rows []int32, k, m int) {
	if useAVX2 && k > 0 {
		// Sixteen columns at a time, summed in registers; the slicing
		// bounds every read and write of the kernel.
		w = w[:k*m]
		for _, i := range rows {
			i := int(i)
			zr, xr := z[i*m:(i+1)*m], x[i*k:(i+1)*k]
			for j := 0; j < m; j += 16 {
				mulRowAVX2(zr[j:], xr, w[j:], m, &laneMasks[min(16, m-j)])
			}
		}
		return
	}
	for _, i := range rows {
		i := int(i)
		zr := z[i*m : (i+1)*m]
		clear(zr)
		for c, a := range x[i*k : (i+1)*k] {
			if a != 0 {
				axpy(zr, a, w[c*m:(c+1)*m])
			}
		}
	}
}

// matMulTN sets g += x^T dz over the rows of rows (dz is zero on the
// others): x is n x k, dz is n x m, g is k x m.
func matMulTN(g, x, dz []float64, rows []int32, k, m int) {
	for _, i := range rows {
		i := int(i)
		dzr := dz[i*m : (i+1)*m]
		for c, a := range x[i*k : (i+1)*k] {
			if a != 0 {
				axpy(g[c*m:(c+1)*m], a, dzr)
			}
		}
	}
}

// matMulNT sets dx = (dz w^T) * mask element-wise on the rows of rows: dz
// is n x m, w is k x m, dx and mask are n x k. Entries with a zero mask
// (dropped inputs) are not computed. With AVX2, wT (m x k) is scratch:
// the kernels compute a row four or sixteen columns at a time from the
// transposed weights, each dot in dot's order.
func matMulNT(dx, dz, w, mask []float64, rows []int32, m, k int, wT []float64) {
	k4 := 0
	if useAVX2 && m > 0 {
		k4 = k &^ 3
		wT = wT[:m*k]
		for c := range k {
			for t, v := range w[c*m : (c+1)*m] {
				wT[t*k+c] = v
			}
		}
	}
	for _, i := range rows {
		i := int(i)
		dzr := dz[i*m : (i+1)*m]
		dxr, mr := dx[i*k:(i+1)*k], mask[i*k:(i+1)*k]
		switch {
		case k4 == 0:
		case m >= asmMin:
			dotsGonumAVX2(dxr[:k4], mr[:k4], dzr, wT, k)
		default:
			dotsSeqAVX2(dxr[:k4], mr[:k4], dzr, wT, k)
		}
		for c := k4; c < k; c++ {
			s := mr[c]
			if s != 0 {
				s *= dot(dzr, w[c*m:(c+1)*m])
			}
			dxr[c] = s
		}
	}
}
