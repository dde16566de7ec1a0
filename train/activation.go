package train

import (
	"math"

	"gnnsim/internal/vec"
	"gnnsim/workload"
)

// leakySlope is LeakyReLU's negative slope (PyTorch's default); GAT's
// attention scores use gatSlope instead.
const (
	leakySlope = 0.01
	gatSlope   = 0.2 // Velickovic et al., Section 2.1
)

// activate sets y = f(o) element-wise.
func activate(f workload.Activation, o, y []float64) {
	y = y[:len(o)]
	switch f {
	case workload.ActLinear, workload.ActSkip:
		copy(y, o)
	case workload.ActReLU:
		for i, x := range o {
			y[i] = max(x, 0)
		}
	case workload.ActTanh:
		if useExp {
			vec.TanhAVX2(y, o)
			break
		}
		for i, x := range o {
			y[i] = math.Tanh(x)
		}
	case workload.ActSigmoid:
		mapVec(vec.ExpSigmoid, y, o)
	case workload.ActELU:
		mapVec(vec.ExpELU, y, o)
	case workload.ActLeakyReLU:
		for i, x := range o {
			y[i] = sel(x > 0, x, leakySlope*x)
		}
	case workload.ActReLU6:
		for i, x := range o {
			y[i] = min(max(x, 0), 6)
		}
	case workload.ActSoftplus:
		for i, x := range o {
			y[i] = softplus(x)
		}
	}
}

// activateGrad multiplies dy element-wise by f'(o), where y = f(o).
func activateGrad(f workload.Activation, o, y, dy []float64) {
	o, y = o[:len(dy)], y[:len(dy)]
	switch f {
	case workload.ActLinear, workload.ActSkip:
	case workload.ActReLU:
		for i, x := range o {
			dy[i] = sel(x <= 0, 0, dy[i])
		}
	case workload.ActTanh:
		for i, t := range y {
			dy[i] *= 1 - t*t
		}
	case workload.ActSigmoid:
		for i, s := range y {
			dy[i] *= s * (1 - s)
		}
	case workload.ActELU:
		for i, x := range o {
			dy[i] = sel(x <= 0, dy[i]*(y[i]+1), dy[i]) // d/dx (e^x - 1) = e^x
		}
	case workload.ActLeakyReLU:
		for i, x := range o {
			dy[i] = sel(x <= 0, dy[i]*leakySlope, dy[i])
		}
	case workload.ActReLU6:
		for i, x := range o {
			if x <= 0 || x >= 6 {
				dy[i] = 0
			}
		}
	case workload.ActSoftplus:
		for i, x := range o {
			dy[i] *= vec.Sigmoid(x)
		}
	}
}

// useExp routes exp, sigmoid, ELU and tanh over vectors to package
// vec's four-lane exp, which gives math.Exp's bits (tests switch it off
// to compare).
var useExp = vec.HasExpAVX2

// mapVec sets dst[i] = k.Of(src[i]) (dst may be src), four elements at a
// time where useExp allows: the same bits either way.
func mapVec(k vec.ExpKind, dst, src []float64) {
	if useExp {
		vec.ExpMapAVX2(k, dst, src)
		return
	}
	dst = dst[:len(src)]
	for i, x := range src {
		dst[i] = k.Of(x)
	}
}

// expVec sets dst[i] = math.Exp(src[i]); dst may be src.
func expVec(dst, src []float64) { mapVec(vec.ExpMath, dst, src) }

// softplus is log(1+e^x) without overflow for large x.
func softplus(x float64) float64 {
	if x > 30 {
		return x + math.Log1p(math.Exp(-x))
	}
	return math.Log1p(math.Exp(x))
}
