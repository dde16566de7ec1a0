package train

import "gonum.org/v1/gonum/floats"

// The dense kernels of the trainer. The matrices here are skinny (2,708
// rows of 7 to 64 columns for Cora) and their inputs mostly zero (ReLU
// and dropout zero about three quarters of a hidden layer's input), so
// row loops that skip zero factors beat a general GEMM: gonum's Dgemm
// (tried first) splits such a product into 64-row blocks on goroutines,
// allocating on every call, and spends its time in vector calls of 7 to 16
// elements. Long vectors still go to gonum's assembly kernels. The kernels
// are serial and run in a fixed order, so results are bit-for-bit
// reproducible.

// asmMin is the vector length from which gonum's assembly kernels
// (floats.AddScaled, floats.Dot) beat a Go loop: below it the call
// overhead dominates (7 elements: 8 ns in Go, 12 ns in assembly; 64: 60
// and 36 ns, measured on the shared 2-core EPYC).
const asmMin = 16

// axpy sets dst += a*x; x must be at least as long as dst.
func axpy(dst []float64, a float64, x []float64) {
	x = x[:len(dst)]
	if len(dst) >= asmMin {
		floats.AddScaled(dst, a, x)
		return
	}
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
// (dropped inputs) are not computed.
func matMulNT(dx, dz, w, mask []float64, rows []int32, m, k int) {
	for _, i := range rows {
		i := int(i)
		dzr := dz[i*m : (i+1)*m]
		for c := range k {
			s := mask[i*k+c]
			if s != 0 {
				s *= dot(dzr, w[c*m:(c+1)*m])
			}
			dx[i*k+c] = s
		}
	}
}
