package vec

import "math"

// ExpKind is a function built on math.Exp that ExpMapAVX2 computes four
// lanes at a time.
type ExpKind int

const (
	ExpMath     ExpKind = iota // math.Exp(x)
	ExpSigmoid                 // Sigmoid(x)
	ExpELU                     // ELU(x)
	ExpLogistic                // Logistic(x)
	ExpTanh                    // math.Tanh(x)
)

// Of returns k's function of x computed by the Go code: the bits that
// ExpMapAVX2 gives.
func (k ExpKind) Of(x float64) float64 {
	switch k {
	case ExpSigmoid:
		return Sigmoid(x)
	case ExpELU:
		return ELU(x)
	case ExpLogistic:
		return Logistic(x)
	case ExpTanh:
		return math.Tanh(x)
	}
	return math.Exp(x)
}

// Logistic is 1/(1+math.Exp(-x)) as written: the sigmoid of the search's
// LSTM controller, whose bits differ from Sigmoid's below 0 (and which
// takes math.Exp of up to -x).
func Logistic(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

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
// which is math.Exp's own FMA method on four lanes; a block of four that
// the kernel does not take (an exponential's argument outside [-708, 709],
// where math.Exp takes neither its overflow nor its denormal branch, or a
// NaN) and the last one to three elements go through k.Of. It needs
// HasExpAVX2.
//
// The kernel's tanh computes math.Tanh's rational branch with every
// product and sum rounded, as Go compiles it up to GOAMD64=v2. From v3
// the compiler may fuse x*y + z into an FMA (the spec allows it and
// cmd/compile does where the operands are in registers; Go 1.26 leaves
// math.tanh unfused, but nothing promises that), so there ExpTanh runs
// math.Tanh element by element.
func ExpMapAVX2(k ExpKind, dst, src []float64) {
	dst = dst[:len(src)]
	if k == ExpTanh && goFusesFMA {
		for j, x := range src {
			dst[j] = math.Tanh(x)
		}
		return
	}
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

// TanhAVX2 sets dst[i] = math.Tanh(src[i]) for i < len(src) (dst may be
// src), the same bits: ExpMapAVX2 of ExpTanh. It needs HasExpAVX2.
func TanhAVX2(dst, src []float64) { ExpMapAVX2(ExpTanh, dst, src) }
