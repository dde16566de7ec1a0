//go:build !amd64 || purego

package vec

// HasAVX2 is false off amd64 (or with the purego tag): callers run their
// other path and never call the kernels below.
const HasAVX2 = false

// HasExpAVX2 is false as HasAVX2: callers run math.Exp and the Go
// functions, and never call ExpMapAVX2, ExpAVX2 or TanhAVX2.
const HasExpAVX2 = false

const noAVX2 = "vec: no AVX2 kernels in this build"

// AxpyAVX2 panics: see HasAVX2.
func AxpyAVX2(dst []float64, a float64, x []float64) { panic(noAVX2) }

// AxpyZeroAVX2 panics: see HasAVX2.
func AxpyZeroAVX2(dst []float64, a float64, x []float64) { panic(noAVX2) }

// DotsKeptAVX2 panics: see HasAVX2.
func DotsKeptAVX2(dx, mask, dz, w []float64, idx []int32, m int) { panic(noAVX2) }

// GatherAxpyAVX2 panics: see HasAVX2.
func GatherAxpyAVX2(dst, c []float64, cs int, idx []int32, x []float64, stride int) {
	panic(noAVX2)
}

func expMapAVX2(dst, src []float64, f ExpKind) int { panic(noAVX2) }
