//go:build amd64 && !purego

package vec

import "golang.org/x/sys/cpu"

// HasAVX2 says whether the CPU and OS run the kernels.
var HasAVX2 = cpu.X86.HasAVX2

// HasExpAVX2 says whether the four-lane exp of exp_amd64.s runs and gives
// math.Exp's bits: it needs AVX2 and FMA, and math.Exp takes its FMA path
// on such a CPU (math/exp_amd64.go: AVX and FMA).
var HasExpAVX2 = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// AxpyAVX2 sets dst[i] += a*x[i] for i < len(dst) (the product rounded,
// then the sum, as gonum's AxpyUnitary); len(x) must be >= len(dst).
//
//go:noescape
func AxpyAVX2(dst []float64, a float64, x []float64)

// AxpyZeroAVX2 sets dst[i] = a*x[i] + 0 for i < len(dst): AxpyAVX2 on a
// cleared dst (the +0 turns a product of -0 into +0, as there), without
// clearing or reading dst: the first term of a sum.
//
//go:noescape
func AxpyZeroAVX2(dst []float64, a float64, x []float64)

// DotsKeptAVX2 sets dx[c] = mask[c] * dot(dz[:m], w[c*m:(c+1)*m]) for the
// columns c = idx[i], i < len(idx) &^ 3 (the caller does the rest), each
// dot summed in the order of gonum's DotUnitary (floats.Dot): four
// partial sums over t mod 4 for the first m &^ 3 terms, the rest added to
// the first, then (s0 + s2) + (s1 + s3). Four columns at a time.
//
//go:noescape
func DotsKeptAVX2(dx, mask, dz, w []float64, idx []int32, m int)

// expMapAVX2 sets dst[i] = f.Of(src[i]) block by block of four from the
// start, until a block with an input outside the kernel's range or fewer
// than four left, and returns the number done (exp_amd64.s).
//
//go:noescape
func expMapAVX2(dst, src []float64, f ExpKind) int
