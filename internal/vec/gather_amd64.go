//go:build amd64 && !purego

package vec

// GatherAxpyAVX2 sets dst[t] to the sum over e < len(idx) of
// c[e*cs] * x[int(idx[e])*stride+t], for t < len(dst): the bits of
// AxpyZeroAVX2(dst, c[0], row idx[0]) followed by AxpyAVX2(dst, c[e*cs],
// row idx[e]) for each later e, but with dst kept in registers across the
// terms instead of loaded and stored for each (a CSR row times a dense
// matrix, or a neighbour sum). len(idx) must be >= 1 and every row
// idx[e]*stride + len(dst) within x, and (len(idx)-1)*cs < len(c): the
// kernel does not check.
//
//go:noescape
func GatherAxpyAVX2(dst, c []float64, cs int, idx []int32, x []float64, stride int)
