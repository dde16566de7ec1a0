package train

import "math"

// leakySlope is LeakyReLU's negative slope (PyTorch's default); GAT's
// attention scores use gatSlope instead.
const (
	leakySlope = 0.01
	gatSlope   = 0.2 // Velickovic et al., Section 2.1
)

// activate sets y = f(o) element-wise.
func activate(f Activation, o, y []float64) {
	y = y[:len(o)]
	switch f {
	case Identity:
		copy(y, o)
	case ReLU:
		for i, x := range o {
			y[i] = max(x, 0)
		}
	case Tanh:
		for i, x := range o {
			y[i] = math.Tanh(x)
		}
	case Sigmoid:
		mapVec(expSigmoid, y, o)
	case ELU:
		mapVec(expELU, y, o)
	case LeakyReLU:
		for i, x := range o {
			y[i] = sel(x > 0, x, leakySlope*x)
		}
	case ReLU6:
		for i, x := range o {
			y[i] = min(max(x, 0), 6)
		}
	case Softplus:
		for i, x := range o {
			y[i] = softplus(x)
		}
	}
}

// activateGrad multiplies dy element-wise by f'(o), where y = f(o).
func activateGrad(f Activation, o, y, dy []float64) {
	o, y = o[:len(dy)], y[:len(dy)]
	switch f {
	case Identity:
	case ReLU:
		for i, x := range o {
			dy[i] = sel(x <= 0, 0, dy[i])
		}
	case Tanh:
		for i, t := range y {
			dy[i] *= 1 - t*t
		}
	case Sigmoid:
		for i, s := range y {
			dy[i] *= s * (1 - s)
		}
	case ELU:
		for i, x := range o {
			dy[i] = sel(x <= 0, dy[i]*(y[i]+1), dy[i]) // d/dx (e^x - 1) = e^x
		}
	case LeakyReLU:
		for i, x := range o {
			dy[i] = sel(x <= 0, dy[i]*leakySlope, dy[i])
		}
	case ReLU6:
		for i, x := range o {
			if x <= 0 || x >= 6 {
				dy[i] = 0
			}
		}
	case Softplus:
		for i, x := range o {
			dy[i] *= sigmoid(x)
		}
	}
}

// useExp routes exp, sigmoid and ELU over vectors to the four-lane
// kernel of activate_amd64.s, which gives math.Exp's bits (tests switch
// it off to compare).
var useExp = haveExpAVX2

// The functions of expMapAVX2, and the scalar forms they match.
const (
	expMath = iota
	expSigmoid
	expELU
)

var expScalar = [...]func(float64) float64{expMath: math.Exp, expSigmoid: sigmoid, expELU: elu}

// mapVec sets dst[i] = f(src[i]) for f one of expMath, expSigmoid, expELU
// (dst may be src), four elements at a time where useExp allows. The
// kernel does blocks of four from the start and returns how many elements
// it did; it stops at a block with an input outside its range, which the
// scalar function does.
func mapVec(f int, dst, src []float64) {
	dst = dst[:len(src)]
	g := expScalar[f]
	i := 0
	for useExp && len(src)-i >= 4 {
		i += expMapAVX2(dst[i:], src[i:], f)
		if len(src)-i < 4 {
			break
		}
		for j := i; j < i+4; j++ {
			dst[j] = g(src[j])
		}
		i += 4
	}
	for ; i < len(src); i++ {
		dst[i] = g(src[i])
	}
}

// expVec sets dst[i] = math.Exp(src[i]); dst may be src.
func expVec(dst, src []float64) { mapVec(expMath, dst, src) }

// elu is ELU with alpha 1: exp(x)-1 rather than Expm1 below 0, twice as
// fast, and its absolute error (1e-16) is what matters to the network.
func elu(x float64) float64 {
	if x > 0 {
		return x
	}
	return math.Exp(x) - 1
}

func sigmoid(x float64) float64 {
	if x >= 0 {
		return 1 / (1 + math.Exp(-x))
	}
	e := math.Exp(x)
	return e / (1 + e)
}

// softplus is log(1+e^x) without overflow for large x.
func softplus(x float64) float64 {
	if x > 30 {
		return x + math.Log1p(math.Exp(-x))
	}
	return math.Log1p(math.Exp(x))
}
