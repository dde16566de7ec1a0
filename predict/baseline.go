package predict

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mat"

	"gnnsim/predict/gbdt"
)

// Baseline is the starting point the trees of a model are boosted from.
type Baseline uint8

const (
	// NoBaseline starts from the mean target (LightGBM's
	// boost_from_average): seed 002's method, the model file is the whole
	// model.
	NoBaseline Baseline = iota
	// LogLinear starts a log-latency model from a per-configuration linear
	// regression of log(latency) on the logs of the size-like features
	// (V, E, F, G and, in the Full set, S1..S6; see LinearBaseline.Inputs),
	// fitted by ridge least squares on the training split. The trees, in
	// the model file, learn the residual; the baseline's coefficients are
	// in the manifest and the predictor adds them back, as LightGBM's
	// init_score is added back by its user. Trees approximate the power
	// laws latency follows by steps, so they need many rounds to get them
	// to 1 %; from the baseline they only correct it, which gives the same
	// accuracy with far fewer trees (see the package documentation for the
	// figures).
	LogLinear
)

var baselineNames = [...]string{NoBaseline: "none", LogLinear: "loglinear"}

// String returns "none" or "loglinear".
func (b Baseline) String() string {
	if int(b) < len(baselineNames) {
		return baselineNames[b]
	}
	return fmt.Sprintf("Baseline(%d)", uint8(b))
}

// ParseBaseline parses "none" or "loglinear".
func ParseBaseline(s string) (Baseline, error) {
	for i, n := range baselineNames {
		if strings.EqualFold(strings.TrimSpace(s), n) {
			return Baseline(i), nil
		}
	}
	return 0, fmt.Errorf("predict: unknown baseline %q (want none or loglinear)", s)
}

// LinearBaseline is the log-linear baseline of a model directory.
type LinearBaseline struct {
	// Inputs names the inputs: the logs of the size-like feature columns,
	// "log(V)", "log(E)", "log(F)", "log(G)" and, for the full set,
	// "log(S1)".."log(S6)" (values are floored at 1e-12 before the log).
	Inputs []string `json:"inputs"`
	// Ridge is the L2 penalty per training row on the standardised inputs.
	Ridge float64 `json:"ridge"`
	// Terms are the coefficients per configuration, in model order.
	Terms []LinearTerms `json:"terms"`
}

// LinearTerms are one configuration's baseline: Intercept + sum_k
// Coef[k] * input_k.
type LinearTerms struct {
	Intercept float64   `json:"intercept"`
	Coef      []float64 `json:"coef"`
}

// eval returns the baseline of a feature row whose baseline inputs are
// the columns cols.
func (t *LinearTerms) eval(row []float64, cols []int) float64 {
	s := t.Intercept
	for k, j := range cols {
		s += t.Coef[k] * logInput(row[j])
	}
	return s
}

// dot returns the baseline of the inputs z (logs already taken), in the
// same order of operations as eval, so both give the same bits.
func (t *LinearTerms) dot(z []float64) float64 {
	s := t.Intercept
	for k, w := range t.Coef {
		s += w * z[k]
	}
	return s
}

// linearRidge is the ridge penalty per row on standardised inputs: enough
// to keep the nearly collinear S1..S6 from taking large opposite
// coefficients, far too small to bias the fit.
const linearRidge = 1e-3

// fitLinear fits the log-linear baseline on columns cols of d by ridge
// least squares on standardised inputs; inputs that are constant over d
// get coefficient 0.
func fitLinear(d *gbdt.Dataset, cols []int) (LinearTerms, error) {
	n, k := len(d.X), len(cols)
	z := make([]float64, n*k)
	for i, x := range d.X {
		for q, j := range cols {
			z[i*k+q] = logInput(x[j])
		}
	}
	ymean := 0.0
	for _, y := range d.Y {
		ymean += y
	}
	ymean /= float64(n)
	mean := make([]float64, k)
	sd := make([]float64, k)
	for q := range k {
		for i := range n {
			mean[q] += z[i*k+q]
		}
		mean[q] /= float64(n)
		for i := range n {
			dv := z[i*k+q] - mean[q]
			sd[q] += dv * dv
		}
		sd[q] = math.Sqrt(sd[q] / float64(n))
	}
	t := LinearTerms{Intercept: ymean, Coef: make([]float64, k)}
	// Inputs that do not vary (up to rounding) cannot be fitted.
	var use []int
	for q := range k {
		if sd[q] > 1e-9*max(1, math.Abs(mean[q])) {
			use = append(use, q)
		}
	}
	if len(use) == 0 {
		return t, nil
	}
	m := len(use)
	a := mat.NewSymDense(m, nil)
	b := mat.NewVecDense(m, nil)
	row := make([]float64, m)
	for i := range n {
		for u, q := range use {
			row[u] = (z[i*k+q] - mean[q]) / sd[q]
		}
		r := d.Y[i] - ymean
		for u := range m {
			b.SetVec(u, b.AtVec(u)+row[u]*r)
			for v := u; v < m; v++ {
				a.SetSym(u, v, a.At(u, v)+row[u]*row[v])
			}
		}
	}
	for u := range m {
		a.SetSym(u, u, a.At(u, u)+linearRidge*float64(n))
	}
	var ch mat.Cholesky
	if !ch.Factorize(a) {
		return t, errors.New("predict: the log-linear baseline's normal equations are not positive definite")
	}
	var w mat.VecDense
	if err := ch.SolveVecTo(&w, b); err != nil {
		return t, fmt.Errorf("predict: log-linear baseline: %w", err)
	}
	for u, q := range use {
		t.Coef[q] = w.AtVec(u) / sd[q]
		t.Intercept -= t.Coef[q] * mean[q]
	}
	return t, nil
}

func checkLinear(m *Manifest, fs FeatureSet) error {
	l := m.Linear
	switch {
	case !m.Log:
		return errors.New("the log-linear baseline needs log: true")
	case l == nil:
		return errors.New("baseline loglinear without linear terms")
	case !slices.Equal(l.Inputs, fs.linearInputNames()):
		return fmt.Errorf("linear inputs %v, want %v", l.Inputs, fs.linearInputNames())
	case len(l.Terms) != NumConfigs:
		return fmt.Errorf("%d sets of linear terms, want %d", len(l.Terms), NumConfigs)
	}
	for c, t := range l.Terms {
		if len(t.Coef) != len(l.Inputs) {
			return fmt.Errorf("linear terms of %s: %d coefficients for %d inputs", m.Models[c].Config, len(t.Coef), len(l.Inputs))
		}
		if !finite(t.Intercept) || slices.ContainsFunc(t.Coef, func(x float64) bool { return !finite(x) }) {
			return fmt.Errorf("linear terms of %s: a coefficient is not finite", m.Models[c].Config)
		}
	}
	return nil
}
