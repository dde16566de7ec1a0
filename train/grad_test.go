package train

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gnnsim/graphs"
	"gnnsim/workload"
)

// toyPlanetoid is a small random node-classification set: a ring with
// chords (degrees vary, so GCN and mean weights differ per edge), sparse
// positive features with some empty rows, labels in [0, classes).
func toyPlanetoid(tb testing.TB, n, f, classes int, seed uint64) *graphs.Planetoid {
	tb.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	var u, v []int32
	for i := range n {
		u, v = append(u, int32(i)), append(v, int32((i+1)%n))
		if rng.IntN(2) == 0 {
			u, v = append(u, int32(i)), append(v, int32(rng.IntN(n)))
		}
	}
	g, err := graphs.FromEdges(n, u, v)
	if err != nil {
		tb.Fatal(err)
	}
	x := &graphs.SparseMatrix{Rows: n, Cols: f, RowPtr: make([]int32, n+1)}
	for r := range n {
		if r%5 != 4 { // every fifth row empty
			for c := range f {
				if rng.IntN(3) > 0 {
					x.Col = append(x.Col, int32(c))
					x.Val = append(x.Val, float32(0.25+rng.Float64()))
				}
			}
		}
		x.RowPtr[r+1] = int32(len(x.Col))
	}
	p := &graphs.Planetoid{Name: "toy", Graph: g, Features: x, NumClasses: classes, Labels: make([]int32, n)}
	for i := range n {
		p.Labels[i] = int32(rng.IntN(classes))
		switch i % 3 {
		case 0:
			p.Train = append(p.Train, int32(i))
		case 1:
			p.Val = append(p.Val, int32(i))
		default:
			p.Test = append(p.Test, int32(i))
		}
	}
	return p
}

func toyData(tb testing.TB, n, f, classes int, seed uint64) *Data {
	tb.Helper()
	d, err := NewData(toyPlanetoid(tb, n, f, classes, seed))
	if err != nil {
		tb.Fatal(err)
	}
	return d
}

// checkGradient compares the analytic gradient of the training loss
// (dropout masks drawn once and frozen) with central differences, in
// float64, for every parameter.
func checkGradient(t *testing.T, d *Data, a Arch, c Config) {
	t.Helper()
	m, err := newModel(d, a, c)
	if err != nil {
		t.Fatal(err)
	}
	// Move the parameters off their initial values (biases start at 0).
	rng := rand.New(rand.NewPCG(9, 9))
	for k := range m.p {
		m.p[k] += 0.3 * (rng.Float64() - 0.5)
	}
	m.drawMasks()
	m.lossAndGrad()
	grad := append([]float64(nil), m.g...)
	const h = 1e-6
	worst := 0.0
	for k := range m.p {
		p0 := m.p[k]
		m.p[k] = p0 + h
		lp := m.lossAndGrad()
		m.p[k] = p0 - h
		lm := m.lossAndGrad()
		m.p[k] = p0
		num := (lp - lm) / (2 * h)
		err := math.Abs(num-grad[k]) / (1e-6 + math.Max(math.Abs(num), math.Abs(grad[k])))
		if math.Abs(num-grad[k]) > 1e-7 && err > 1e-5 {
			t.Errorf("%v: parameter %d of %d: analytic %.10g, numeric %.10g", a, k, len(m.p), grad[k], num)
			return
		}
		worst = max(worst, math.Abs(num-grad[k]))
	}
	if t.Failed() {
		return
	}
	t.Logf("%v: %d parameters, worst absolute difference %.2g", a, len(m.p), worst)
}

// TestGradientLayerKinds checks backprop for every attention x
// aggregation pair, with two concatenated heads in the hidden layer and
// two averaged heads in the output layer, dropout on inputs and
// coefficients, and weight decay everywhere; the activations rotate so
// that every one appears in both positions.
func TestGradientLayerKinds(t *testing.T) {
	d := toyData(t, 14, 6, 3, 1)
	c := Config{Epochs: 1, LR: 0.01, WeightDecay: 0.05, DecayAll: true, Dropout: 0.3, AttnDropout: 0.3, Seed: 3}
	acts := []workload.Activation{workload.ActLinear, workload.ActReLU, workload.ActTanh, workload.ActSigmoid, workload.ActELU, workload.ActLeakyReLU, workload.ActReLU6, workload.ActSoftplus}
	k := 0
	for _, att := range []workload.Attention{workload.AttConstant, workload.AttGCN, workload.AttGAT} {
		for _, agg := range []workload.Aggregation{workload.AggAdd, workload.AggMean, workload.AggMax} {
			a := Arch{Layers: []Layer{
				{Hidden: 3, Heads: 2, Attention: att, Aggregation: agg, Activation: acts[k%len(acts)]},
				{Heads: 2, Attention: att, Aggregation: agg, Activation: acts[(k+3)%len(acts)]},
			}}
			k++
			t.Run(fmt.Sprintf("%v_%v", att, agg), func(t *testing.T) { checkGradient(t, d, a, c) })
		}
	}
}

// TestGradientActivations checks each activation in a three-layer network
// (GCN, GAT, mean), with single-layer decay and no dropout.
func TestGradientActivations(t *testing.T) {
	d := toyData(t, 12, 5, 3, 2)
	c := Config{Epochs: 1, LR: 0.01, WeightDecay: 0.01, Seed: 4}
	for _, act := range []workload.Activation{workload.ActLinear, workload.ActReLU, workload.ActTanh, workload.ActSigmoid, workload.ActELU, workload.ActLeakyReLU, workload.ActReLU6, workload.ActSoftplus} {
		a := Arch{Layers: []Layer{
			{Hidden: 4, Heads: 1, Attention: workload.AttGCN, Aggregation: workload.AggAdd, Activation: act},
			{Hidden: 2, Heads: 3, Attention: workload.AttGAT, Aggregation: workload.AggMean, Activation: act},
			{Heads: 1, Attention: workload.AttConstant, Aggregation: workload.AggMax, Activation: act},
		}}
		t.Run(act.String(), func(t *testing.T) { checkGradient(t, d, a, c) })
	}
}

// TestActivationDerivatives checks activateGrad against central
// differences of activate away from the kinks, and the values at a few
// points against their definitions.
func TestActivationDerivatives(t *testing.T) {
	xs := []float64{-7, -2.5, -0.3, 0.2, 1.7, 5.5, 6.5, 40}
	for _, f := range []workload.Activation{workload.ActLinear, workload.ActReLU, workload.ActTanh, workload.ActSigmoid, workload.ActELU, workload.ActLeakyReLU, workload.ActReLU6, workload.ActSoftplus} {
		y := make([]float64, len(xs))
		activate(f, xs, y)
		g := make([]float64, len(xs))
		for i := range g {
			g[i] = 1
		}
		activateGrad(f, xs, y, g)
		for i, x := range xs {
			const h = 1e-6
			var yp, ym [1]float64
			activate(f, []float64{x + h}, yp[:])
			activate(f, []float64{x - h}, ym[:])
			if num := (yp[0] - ym[0]) / (2 * h); math.Abs(num-g[i]) > 1e-6 {
				t.Errorf("%v'(%v) = %v, numeric %v", f, x, g[i], num)
			}
		}
	}
	for _, c := range []struct {
		f    workload.Activation
		x, y float64
	}{
		{workload.ActReLU6, 7, 6}, {workload.ActReLU6, -1, 0}, {workload.ActLeakyReLU, -2, -0.02}, {workload.ActELU, -1, math.Exp(-1) - 1},
		{workload.ActSoftplus, 0, math.Ln2}, {workload.ActSoftplus, 800, 800}, {workload.ActSigmoid, -800, 0}, {workload.ActSigmoid, 0, 0.5},
	} {
		var y [1]float64
		activate(c.f, []float64{c.x}, y[:])
		if math.Abs(y[0]-c.y) > 1e-12 {
			t.Errorf("%v(%v) = %v, want %v", c.f, c.x, y[0], c.y)
		}
	}
}

// TestGradientSAGE checks backprop through GraphSAGE layers (self and
// neighbour weights, the self-loop left out of the aggregate) for each
// aggregation, three layers deep so that the sparse first layer, a dense
// hidden layer and the output layer are all checked, with dropout and
// weight decay; one case mixes SAGE with GCN and GAT layers.
func TestGradientSAGE(t *testing.T) {
	d := toyData(t, 14, 6, 3, 1)
	c := Config{Epochs: 1, LR: 0.01, WeightDecay: 0.05, DecayAll: true, Dropout: 0.3, AttnDropout: 0.3, Seed: 3}
	for _, tc := range []struct {
		name string
		arch Arch
	}{
		{"mean", SAGEArch(3, 4, workload.AggMean)},
		{"max", SAGEArch(3, 4, workload.AggMax)},
		{"add", SAGEArch(3, 4, workload.AggAdd)},
		{"mixed", Arch{Layers: []Layer{
			{Hidden: 3, Heads: 2, Attention: workload.AttGAT, Aggregation: workload.AggAdd, Activation: workload.ActELU},
			{Hidden: 4, Heads: 1, Attention: workload.AttSAGE, Aggregation: workload.AggMax, Activation: workload.ActTanh},
			{Heads: 1, Attention: workload.AttGCN, Aggregation: workload.AggAdd, Activation: workload.ActLinear},
		}}},
	} {
		t.Run(tc.name, func(t *testing.T) { checkGradient(t, d, tc.arch, c) })
	}
}
