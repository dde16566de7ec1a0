package hadas

import (
	"fmt"
	"math"
)

// Overlap is gnnsim's correlated-error model of which samples each exit
// classifies correctly, needed because the HADAS data give only per-exit
// accuracies, not per-sample results. It is a one-factor Gaussian copula:
// a sample has a difficulty S ~ N(0, 1) shared by every exit of the
// network, and exit k classifies it correctly when
//
//	sqrt(rho) S + sqrt(1 - rho) e_k < t_k,   e_k ~ N(0, 1) independent,
//
// with t_k = Phi^-1(acc_k), so each exit keeps its measured accuracy
// whatever rho. Rho is the overlap between exits' errors:
//
//   - rho = 1: one difficulty decides every exit, correctness is nested (a
//     sample an exit gets right is right at every more accurate exit):
//     FirstCorrect's model, where no set of exits beats its best member;
//   - rho < 1: exits err on partly different samples, so under the ideal
//     policy (each input leaves at the first exit that is right) a set of
//     exits covers more than its best member, and an early-exit network
//     can be more accurate than its backbone's own classifier (HADAS
//     Table III: +0.8 to +5.8 points);
//   - rho = 0: exits err independently.
//
// Conditional on S the exits are independent, so the fractions first
// correct at each exit are one-dimensional integrals over S, computed on a
// fixed grid of Nodes equal-probability cells (S at the cells' median).
// The threshold of each exit is solved on that grid so the grid's mean
// reproduces the exit's accuracy exactly.
//
// It leaves out any structure beyond one shared factor (exits nearer each
// other along the backbone agreeing more than distant ones).
type Overlap struct {
	Rho float64
	z   []float64 // the grid's S values, ascending
}

// OverlapNodes is the size of the integration grid: with 128 cells the
// fractions are within ~1e-3 of the exact integral at rho <= 0.99.
const OverlapNodes = 128

// NewOverlap returns the model at overlap rho in [0, 1].
func NewOverlap(rho float64) (*Overlap, error) {
	if !(rho >= 0 && rho <= 1) {
		return nil, fmt.Errorf("hadas: exit overlap rho = %v, want in [0, 1]", rho)
	}
	o := &Overlap{Rho: rho, z: make([]float64, OverlapNodes)}
	for q := range o.z {
		o.z[q] = normQuantile((float64(q) + 0.5) / OverlapNodes)
	}
	return o, nil
}

// Nested reports whether the model is the nested one (rho = 1), which is
// computed exactly by FirstCorrect.
func (o *Overlap) Nested() bool { return o.Rho >= 1 }

func normCDF(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }

func normQuantile(p float64) float64 { return -math.Sqrt2 * math.Erfcinv(2*p) }

// Conditional returns, into dst (reused when large enough), the
// probability that an exit of accuracy acc is right on a sample of each
// grid difficulty. Their mean is acc. For the nested model it is the
// indicator of the easiest round(acc * Nodes) cells; use FirstCorrect
// there instead for exact fractions.
func (o *Overlap) Conditional(acc float64, dst []float64) []float64 {
	dst = dst[:0]
	acc = min(max(acc, 0), 1)
	if o.Nested() {
		k := int(math.Round(acc * OverlapNodes))
		for q := range o.z {
			dst = append(dst, b2f(q < k))
		}
		return dst
	}
	a, b := math.Sqrt(o.Rho), math.Sqrt(1-o.Rho)
	mean := func(t float64) float64 {
		s := 0.0
		for _, z := range o.z {
			s += normCDF((t - a*z) / b)
		}
		return s / OverlapNodes
	}
	// The grid mean is increasing in t: bisect for mean(t) = acc.
	lo, hi := -12.0, 12.0
	for range 60 {
		m := 0.5 * (lo + hi)
		if mean(m) < acc {
			lo = m
		} else {
			hi = m
		}
	}
	t := 0.5 * (lo + hi)
	for _, z := range o.z {
		dst = append(dst, normCDF((t-a*z)/b))
	}
	return dst
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// FirstCorrectGrid is FirstCorrect for a non-nested model: cond[k] the
// Conditional probabilities of the k-th exit in order along the backbone;
// it returns N_k, the fraction right at exit k and wrong at every earlier
// one, into n, using surv (len Nodes, overwritten) as scratch, and the
// fraction some exit gets right.
func FirstCorrectGrid(cond [][]float64, n, surv []float64) ([]float64, float64) {
	n = n[:0]
	for q := range surv {
		surv[q] = 1
	}
	covered := 0.0
	for _, p := range cond {
		s := 0.0
		for q, pq := range p {
			s += surv[q] * pq
			surv[q] *= 1 - pq
		}
		s /= float64(len(surv))
		n = append(n, s)
		covered += s
	}
	return n, covered
}

// FirstCorrectModel returns N_k and the covered fraction of exits of
// accuracies acc (in order) under model o: FirstCorrect when o is nested
// (or nil), the grid integral otherwise. It allocates; the inner search
// uses precomputed Conditional tables instead.
func (o *Overlap) FirstCorrectModel(acc []float64) ([]float64, float64) {
	if o == nil || o.Nested() {
		return FirstCorrect(acc, nil)
	}
	cond := make([][]float64, len(acc))
	for k, a := range acc {
		cond[k] = o.Conditional(a, nil)
	}
	return FirstCorrectGrid(cond, nil, make([]float64, OverlapNodes))
}

// FitOverlap returns the overlap at which the oracle over every exit of
// acc (the last one the backbone's classifier) reaches accuracy target,
// the union growing as rho falls. A target at or below the best exit's
// accuracy gives 1 (nested); one above the independent-errors union
// gives 0. It bisects to 1e-4.
func FitOverlap(acc []float64, target float64) (float64, error) {
	if len(acc) == 0 {
		return 0, fmt.Errorf("hadas: fit overlap: no exits")
	}
	union := func(rho float64) (float64, error) {
		o, err := NewOverlap(rho)
		if err != nil {
			return 0, err
		}
		_, c := o.FirstCorrectModel(acc)
		return c, nil
	}
	if hi, _ := union(1); target <= hi {
		return 1, nil
	}
	if lo, _ := union(0); target >= lo {
		return 0, nil
	}
	lo, hi := 0.0, 1.0
	for hi-lo > 1e-4 {
		m := 0.5 * (lo + hi)
		c, err := union(m)
		if err != nil {
			return 0, err
		}
		if c > target {
			lo = m
		} else {
			hi = m
		}
	}
	return 0.5 * (lo + hi), nil
}
