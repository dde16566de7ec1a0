package train

import (
	"math"

	"gonum.org/v1/gonum/floats"

	"gnnsim/internal/vec"
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
// kernels_amd64.s (axpy and the kept columns' dots in package
// internal/vec's, shared with the search's LSTM controller): axpy from 4
// elements, the Adam step, matMul's rows
// with 16 columns of a result in registers across the terms of a row
// (two rows at a time, sharing the loads of w, where w is finite),
// matMulNT's dots (narrow: from transposed weights, four to sixteen
// columns at a time; from 16 wide: the kept columns only, four at a time
// from w's rows), axpy on a cleared row (axpySet, the first term of a
// sum, so that no pass clears the row first), and one edge of Max
// aggregation. Package vec also holds a four-lane math.Exp, with the
// sigmoid and ELU built on it and a tanh (exp_amd64.s). They are ours
// because no reachable library has them: gonum's assembly is SSE2 (two
// float64 per instruction) and Go emits no vector instructions. Each
// multiplies and adds separately (the exp fuses exactly where math.Exp
// does), every element summed in the order of the Go loop it replaces
// (dots in the order of gonum's DotUnitary where the Go code calls it),
// and a skipped zero term is added as ±0, which leaves a sum begun at +0
// unchanged: the same bits with or without AVX2 (TestKernelsSameBits,
// TestActivateSameBits, TestTrainSameBitsWithoutAVX2). Without AVX2, or
// with the purego build tag, vectors from 16 elements go to gonum's SSE2
// kernels.
//
// Unpredictable branches cost as much as the arithmetic here: dropout and
// ReLU zero entries at random, so a branch on a zero, or on a sign,
// mispredicts about half the time. The first layer lists each row's
// non-zero inputs without a branch before summing them, matMulTN sums
// narrow gradients transposed with every term added, and the choices on
// signs and maxima (ReLU, ELU and LeakyReLU gradients, GAT's LeakyReLU,
// Max aggregation) are conditional moves or blends.
//
// Measured on 40 networks drawn at random from the 1,000 of FGNAS's
// Table 3 architecture phases (20 epochs each, the least of two
// interleaved runs per network, one at a time): 13.34 CPU-seconds with
// the kernels of the version before (axpy, Adam, one row of matMul, dots
// four columns at a time), 9.28 with these (-30 %). Micro-benchmarks on
// 1,024 rows of 256 inputs, half zero: matMul two rows at a time 4.4x
// faster for 7 columns, 1.35x for 112; matMulTN transposed 9.7x for 7
// columns, 2x for 28 (BenchmarkMatMulTN); matMulNT's dots eight columns
// at a time 2.5x for 112; sigmoid of 256 values 4.7x (BenchmarkSigmoid).

// useAVX2 routes the kernels to their AVX2 forms (tests switch it off to
// compare). axpy alone is 1.6 to 1.7 times faster than gonum's from 16
// to 1,024 elements (BenchmarkAxpy).
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
		vec.AxpyAVX2(dst, a, x)
	case len(dst) >= asmMin:
		floats.AddScaled(dst, a, x)
	default:
		axpyGo(dst, a, x)
	}
}

// gatherAxpy sets dst to the sum over e < len(idx) of c[e*cs] times row
// idx[e] of x (rows stride apart), in the order of e: the bits of
// axpySet on the first term and axpy on each later one, which it is
// without AVX2. With AVX2 the sum stays in registers across the terms, a
// quarter of the time of the axpys (vec.BenchmarkGather). len(idx) >= 1.
func gatherAxpy(dst, c []float64, cs int, idx []int32, x []float64, stride int) {
	n := len(dst)
	if useAVX2 && n >= 4 {
		// The kernel does not check bounds: do it here, once per row.
		_ = c[(len(idx)-1)*cs]
		for _, j := range idx {
			_ = x[int(j)*stride+n-1]
		}
		vec.GatherAxpyAVX2(dst, c, cs, idx, x, stride)
		return
	}
	for e, j := range idx {
		row := x[int(j)*stride:][:n]
		if e == 0 {
			axpySet(dst, c[0], row)
		} else {
			axpy(dst, c[e*cs], row)
		}
	}
}

// one is the coefficient of an unweighted sum (gatherAxpy with cs 0).
var one = [1]float64{1}

// axpySet sets dst = 0 + a*x, the bits of clear(dst) then axpy(dst, a,
// x) (a product of -0 becomes +0), without the pass that clears dst:
// the first term of a sum.
func axpySet(dst []float64, a float64, x []float64) {
	x = x[:len(dst)]
	if useAVX2 && len(dst) >= 4 {
		vec.AxpyZeroAVX2(dst, a, x)
		return
	}
	for i, v := range x {
		dst[i] = 0 + a*v
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

// maxRow sets m[t] = max(m[t], c*z[t]) element-wise and, where c*z[t]
// is strictly larger, arg[t] = e (the first maximum wins ties).
func maxRow(m []float64, arg []int32, z []float64, c float64, e int32) {
	if useAVX2 {
		maxRowAVX2(m, arg, z, c, e)
		return
	}
	maxRowGo(m, arg, z, c, e)
}

// maxRowGo is maxRow's Go loop, without a branch on the comparison.
func maxRowGo(m []float64, arg []int32, z []float64, c float64, e int32) {
	for t := range m {
		v := c * z[t]
		gt := v > m[t]
		m[t] = sel(gt, v, m[t])
		if gt {
			arg[t] = e // a conditional move
		}
	}
}

// sel returns a where c holds, else b, without a branch: the hot loops
// choose on signs of activations or dropout draws, where a branch
// mispredicts about half the time.
func sel(c bool, a, b float64) float64 {
	var m uint64
	if c {
		m = ^uint64(0) // a conditional move, not a branch
	}
	ab, bb := math.Float64bits(a), math.Float64bits(b)
	return math.Float64frombits(bb ^ (ab^bb)&m)
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
		// Sixteen columns at a time, summed in registers, two rows at a
		// time where the weights are finite; the slicing bounds every
		// read and write of the kernels.
		w = w[:k*m]
		r := 0
		if finite(w) {
			for ; r+2 <= len(rows); r += 2 {
				i0, i1 := int(rows[r]), int(rows[r+1])
				z0, z1 := z[i0*m:(i0+1)*m], z[i1*m:(i1+1)*m]
				x0, x1 := x[i0*k:(i0+1)*k], x[i1*k:(i1+1)*k]
				for j := 0; j < m; j += 16 {
					// Term c loads w[j+c*m:][:16] whole while that
					// lies inside w.
					wj, fast := w[j:], 0
					if len(wj) >= 16 {
						fast = min(k, (len(wj)-16)/m+1)
					}
					mulRow2AVX2(z0[j:], z1[j:], x0, x1, wj, m, fast, &laneMasks[min(16, m-j)])
				}
			}
		}
		for _, i := range rows[r:] {
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

// A sparse matrix's rows for sparseMul and scatterMul: row i's non-zero
// entries are v[e] in column c[e] for e in [ptr[i], ptr[i]+n[i]).
type sparseRows struct {
	ptr, n []int32
	v      []float64
	c      []int32
}

func (s sparseRows) row(i int32) ([]float64, []int32) {
	a := s.ptr[i]
	b := a + s.n[i]
	return s.v[a:b], s.c[a:b]
}

// sparseMul sets z = x w on the rows of rows: x is sparse (n x k), w is
// k x m, z is n x m; each row summed in the order of its entries, with
// the row's sum held in registers (gatherAxpy). On Cora, one pass over
// every row takes 0.17 ms at m = 16, 2.4 ms at 256 and 8.8 ms at 1,024,
// against 0.50, 3.3 and 13.5 ms as a sequence of axpys, each loading and
// storing the row (BenchmarkGatherRows, one core, second of two runs).
// An earlier trial of such a kernel, timed on whole trainings, had found
// it 2 % faster overall and slower at 256 columns.
func sparseMul(z []float64, x sparseRows, rows []int32, w []float64, m int) {
	for _, i := range rows {
		zr := z[int(i)*m : int(i+1)*m]
		v, c := x.row(i)
		if len(c) == 0 {
			clear(zr)
			continue
		}
		gatherAxpy(zr, v, 1, c, w, m)
	}
}

// scatterMul adds x^T dz to g over the rows of rows: x is sparse (n x k),
// dz is n x m, g is k x m; each element summed in the order of rows.
// Transposing x's entries (a counting sort) to form each row of g as one
// gatherAxpy was tried and dropped: on Cora it took 0.40 ms against 0.47
// at m = 16, but 3.7 against 3.0 at 256 and 39 against 13 at 1,024, where
// the rows of dz a feature picks are spread over 22 MB.
func scatterMul(g []float64, x sparseRows, rows []int32, dz []float64, m int) {
	for _, i := range rows {
		v, c := x.row(i)
		dzr := dz[int(i)*m : int(i+1)*m]
		for e, ci := range c {
			col := int(ci)
			axpy(g[col*m:(col+1)*m], v[e], dzr)
		}
	}
}

// finite says whether no element of x is infinite or NaN.
func finite(x []float64) bool {
	for _, v := range x {
		if v-v != 0 {
			return false
		}
	}
	return true
}

// matMulTN sets g = x^T dz over the rows of rows (dz is zero on the
// others): x is n x k, dz is n x m, g is k x m. With AVX2, narrow dz
// (m < tnMax) and finite dz rows, it sums g's transpose in gT (m x k,
// scratch) with one axpy of k per row and column of dz, every term
// added: a zero x[i][c] adds dz*0 = ±0, which leaves a sum begun at +0
// unchanged (such a sum is never -0), the same bits as the loop that
// skips it. The loop instead makes an axpy of m per non-zero x, too short
// to pay for the call and the unpredictable branch on a dropout mask.
func matMulTN(g, x, dz []float64, rows []int32, k, m int, gT []float64) {
	g = g[:k*m]
	if useAVX2 && m < tnMax && finiteRows(dz, rows, m) {
		gT = gT[:m*k]
		clear(gT)
		for _, i := range rows {
			i := int(i)
			xr := x[i*k : (i+1)*k]
			for t, a := range dz[i*m : (i+1)*m] {
				axpy(gT[t*k:(t+1)*k], a, xr)
			}
		}
		transpose(g, gT, m, k)
		return
	}
	clear(g)
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

// transpose sets dst (c x r) to the transpose of src (r x c).
func transpose(dst, src []float64, r, c int) {
	dst = dst[:r*c]
	for i := range r {
		for j, v := range src[i*c : (i+1)*c] {
			dst[j*r+i] = v
		}
	}
}

// tnMax is the width of dz from which matMulTN's loop over non-zero x
// beats its transposed sums (BenchmarkMatMulTN).
const tnMax = 32

// finiteRows says whether the rows of rows of x (n x m) are finite.
func finiteRows(x []float64, rows []int32, m int) bool {
	for _, i := range rows {
		if !finite(x[int(i)*m : int(i+1)*m]) {
			return false
		}
	}
	return true
}

// matMulNT sets dx = (dz w^T) * mask element-wise on the rows of rows: dz
// is n x m, w is k x m, dx and mask are n x k. Entries with a zero mask
// (dropped inputs) are not computed. With AVX2, narrow dz (m < asmMin)
// computes a row four or sixteen columns at a time from the transposed
// weights in wT (m x k, scratch), each dot in dot's order; wider dz
// lists the kept columns of a row in idx (k, scratch) and computes only
// those, four at a time from the rows of w, each dot in floats.Dot's
// order. Dropout keeps about half the columns, and w's rows are read
// whole: half the work and the traffic of summing every column from the
// transposed weights (dotsGonumAVX2, which the tests keep as a
// reference).
func matMulNT(dx, dz, w, mask []float64, rows []int32, m, k int, wT []float64, idx []int32) {
	k4 := 0
	kept := useAVX2 && m >= asmMin
	if useAVX2 && m > 0 && !kept {
		k4 = k &^ 3
		transpose(wT, w, k, m)
	}
	w = w[:k*m]
	idx = idx[:k]
	for _, i := range rows {
		i := int(i)
		dzr := dz[i*m : (i+1)*m]
		dxr, mr := dx[i*k:(i+1)*k], mask[i*k:(i+1)*k]
		if kept {
			// The kept columns, listed without a branch (a dropout
			// mask is zero at random); the others get their mask, 0.
			n := 0
			for c, s := range mr {
				idx[n] = int32(c)
				if s != 0 {
					n++
				}
			}
			copy(dxr, mr)
			n4 := n &^ 3
			vec.DotsKeptAVX2(dxr, mr, dzr, w, idx[:n4], m)
			for _, c := range idx[n4:n] {
				dxr[c] = mr[c] * dot(dzr, w[int(c)*m:(int(c)+1)*m])
			}
			continue
		}
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
