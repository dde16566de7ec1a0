package hadas

import (
	"fmt"
	"math"
)

// CurveRho returns the overlap of a backbone's exit errors derived from its
// own exit accuracy curve (acc, the last entry the backbone's classifier)
// and its number of classes, by an evidence-accumulation mechanism: the
// features deepen along the backbone, so exit k reads the evidence of the
// earlier exits plus its own increment. Modelled as a Brownian evidence
// path, exit k's latent score has detectability
//
//	d_k = Phi^-1(acc_k) - Phi^-1(1/classes)
//
// (its probit accuracy above chance) and carries evidence tau_k ~ d_k^2,
// so two exits' latent scores correlate at sqrt(tau_i / tau_j) =
// min(d_i, d_j) / max(d_i, d_j): exits with close accuracies agree on
// nearly the same samples, an early weak exit and the final classifier
// much less. Overlap is a one-factor model (every pair at one rho), so the
// backbone's rho is the mean of these pairwise correlations over every
// pair of exits. A flat curve gives rho near 1 (nested), a steep one a
// lower rho: backbones differ by their own curves, with no constant fitted
// on any backbone's early-exit gain.
//
// It leaves out what the curve cannot tell: how training shares features
// between exits beyond the accuracy each reaches.
func CurveRho(acc []float64, classes int) (float64, error) {
	if len(acc) < 2 {
		return 0, fmt.Errorf("hadas: curve overlap: %d exits, want >= 2", len(acc))
	}
	if classes < 2 {
		return 0, fmt.Errorf("hadas: curve overlap: %d classes, want >= 2", classes)
	}
	chance := 1 / float64(classes)
	d := make([]float64, len(acc))
	for i, a := range acc {
		if !(a >= 0 && a <= 1) {
			return 0, fmt.Errorf("hadas: curve overlap: accuracy %v, want in [0, 1]", a)
		}
		// Clamp inside (chance, 1) so every exit has a finite, positive
		// detectability (an exit at or below chance carries no evidence).
		a = min(max(a, chance+1e-6), 1-1e-6)
		d[i] = normQuantile(a) - normQuantile(chance)
	}
	var s float64
	n := 0
	for i := range d {
		for j := i + 1; j < len(d); j++ {
			s += min(d[i], d[j]) / max(d[i], d[j])
			n++
		}
	}
	rho := s / float64(n)
	if math.IsNaN(rho) {
		return 0, fmt.Errorf("hadas: curve overlap: not a number")
	}
	return min(max(rho, 0), 1), nil
}

// CurveOverlap gives each backbone an overlap from its own exit curve,
//
//	rho = 1 - Scale * (1 - CurveRho(curve)),
//
// so CurveRho's evidence mechanism sets how backbones differ (a steeper
// curve overlaps less) and Scale sets the level: how far from nested
// correctness the exits of every backbone are. Scale 1 is CurveRho
// itself; CalibrateCurveOverlap sets Scale on a backbone whose early-exit
// gain is published. The zero value is nested correctness (rho 1).
type CurveOverlap struct {
	Scale float64
}

// Rho returns the overlap of the backbone whose exit accuracy curve (the
// last entry its classifier) is acc.
func (c CurveOverlap) Rho(acc []float64, classes int) (float64, error) {
	if !(c.Scale >= 0) || math.IsInf(c.Scale, 0) {
		return 0, fmt.Errorf("hadas: curve overlap: scale %v, want a finite value >= 0", c.Scale)
	}
	r, err := CurveRho(acc, classes)
	if err != nil {
		return 0, err
	}
	return min(max(1-c.Scale*(1-r), 0), 1), nil
}

// Overlap returns Rho's correlated-error model.
func (c CurveOverlap) Overlap(acc []float64, classes int) (*Overlap, error) {
	r, err := c.Rho(acc, classes)
	if err != nil {
		return nil, err
	}
	return NewOverlap(r)
}

// CalibrateCurveOverlap returns the CurveOverlap that gives the reference
// curve acc the overlap rho (FitOverlap's, from the reference backbone's
// published gain). It is an error when the reference curve is flat
// (CurveRho 1: no scale moves it) and rho is below 1.
func CalibrateCurveOverlap(acc []float64, classes int, rho float64) (CurveOverlap, error) {
	if !(rho >= 0 && rho <= 1) {
		return CurveOverlap{}, fmt.Errorf("hadas: calibrate curve overlap: rho %v, want in [0, 1]", rho)
	}
	r, err := CurveRho(acc, classes)
	if err != nil {
		return CurveOverlap{}, err
	}
	if r >= 1 {
		if rho < 1 {
			return CurveOverlap{}, fmt.Errorf("hadas: calibrate curve overlap: the reference curve is flat (nested), no scale gives rho %v", rho)
		}
		return CurveOverlap{Scale: 1}, nil
	}
	return CurveOverlap{Scale: (1 - rho) / (1 - r)}, nil
}
