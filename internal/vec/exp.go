package vec

import "math"

// ExpKind is a function built on math.Exp that ExpMapAVX2 computes four
// lanes at a time.
type ExpKind int

const (
	ExpMath    ExpKind = iota // math.Exp(x)
	ExpSigmoid                // Sigmoid(x)
	ExpELU                    // ELU(x)
)

// Of returns k's function of x computed by the Go code: the bits that
// ExpMapAVX2 gives.
func (k ExpKind) Of(x float64) float64 {
	switch k {
	case ExpSigmoid:
		return Sigmoid(x)
	case ExpELU:
		return ELU(x)
	}
	return math.Exp(x)
}

// Sigmoid is 1/(1+e^-x) in the form that never overflows: e^x/(1+e^x)
// below 0, with one math.Exp of -|x| either way. (The search's LSTM
// controller keeps its own 1/(1+math.Exp(-x)), whose bits differ.)
func Sigmoid(x float64) float64 {
	if x >= 0 {
		return 1 / (1 + math.Exp(-x))
	}
	e := math.Exp(x)
	return e / (1 + e)
}

// ELU is the exponential linear unit with alpha 1: x above 0, else
// math.Exp(x)-1 rather than math.Expm1(x), twice as fast, and its absolute
// error (1e-16) is what matters to a network.
func ELU(x float64) float64 {
	if x > 0 {
		return x
	}
	return math.Exp(x) - 1
}

// ExpMapAVX2 sets dst[i] = k.Of(src[i]) for i < len(src) (dst may be src),
// the same bits: four elements at a time in the kernel of exp_amd64.s,
// which is math.Exp's own FMA method on four lanes; a block of four with
// an input outside the kernel's range ([-708, 709], where math.Exp takes
// neither its overflow nor its denormal branch; NaN) and the last one to
// three elements go through k.Of. It needs HasExpAVX2.
func ExpMapAVX2(k ExpKind, dst, src []float64) {
	dst = dst[:len(src)]
	i := 0
	for len(src)-i >= 4 {
		i += expMapAVX2(dst[i:], src[i:], k)
		if len(src)-i < 4 {
			break
		}
		for j := i; j < i+4; j++ {
			dst[j] = k.Of(src[j])
		}
		i += 4
	}
	for ; i < len(src); i++ {
		dst[i] = k.Of(src[i])
	}
}

// ExpAVX2 sets dst[i] = math.Exp(src[i]) for i < len(src) (dst may be
// src), the same bits, four at a time: ExpMapAVX2 of ExpMath. It needs
// HasExpAVX2.
func ExpAVX2(dst, src []float64) { ExpMapAVX2(ExpMath, dst, src) }

// tanhBlock is how many elements TanhAVX2 takes at a time, through a
// buffer on the stack.
const tanhBlock = 64

// TanhAVX2 sets dst[i] = math.Tanh(src[i]) for i < len(src) (dst may be
// src), the same bits, with the exponentials four at a time. math.Tanh
// is Go code on amd64 (math/tanh.go, after Cephes): ±1 above half of
// MAXLOG = log(2**127), a rational function below 0.625, and in between
// 1 - 2/(math.Exp(2|x|)+1) with x's sign. TanhAVX2 takes math.Exp of 2|x|
// in the kernel for the middle range (of 0 elsewhere, so that no block
// leaves the kernel's range) and finishes each element as math.Tanh
// does, calling it for the rational branch (and NaN). It needs
// HasExpAVX2.
func TanhAVX2(dst, src []float64) {
	const maxlog = 8.8029691931113054295988e+01 // math/tanh.go's MAXLOG
	var buf [tanhBlock]float64
	dst = dst[:len(src)]
	for len(src) > 0 {
		n := min(len(src), tanhBlock)
		x, y := src[:n], dst[:n]
		// Whole blocks of four: the lanes past n are 0.
		s := buf[:(n+3)&^3]
		for i, v := range x {
			z := math.Abs(v)
			t := 0.0
			if z >= 0.625 && z <= 0.5*maxlog {
				t = 2 * z
			}
			s[i] = t
		}
		clear(s[n:])
		expMapAVX2(s, s, ExpMath) // every lane in range: does them all
		for i, v := range x {
			switch z := math.Abs(v); {
			case z > 0.5*maxlog:
				y[i] = 1
				if v < 0 {
					y[i] = -1
				}
			case z >= 0.625:
				t := 1 - 2/(s[i]+1)
				if v < 0 {
					t = -t
				}
				y[i] = t
			default:
				y[i] = math.Tanh(v)
			}
		}
		src, dst = src[n:], dst[n:]
	}
}
