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
		for i, x := range o {
			y[i] = sigmoid(x)
		}
	case ELU:
		for i, x := range o {
			if x > 0 {
				y[i] = x
			} else {
				// exp(x)-1 rather than Expm1: twice as fast, and its
				// absolute error (1e-16) is what matters to the network.
				y[i] = math.Exp(x) - 1
			}
		}
	case LeakyReLU:
		for i, x := range o {
			if x > 0 {
				y[i] = x
			} else {
				y[i] = leakySlope * x
			}
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
			if x <= 0 {
				dy[i] = 0
			}
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
			if x <= 0 {
				dy[i] *= y[i] + 1 // d/dx (e^x - 1) = e^x
			}
		}
	case LeakyReLU:
		for i, x := range o {
			if x <= 0 {
				dy[i] *= leakySlope
			}
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
