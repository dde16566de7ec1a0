package hadas

import (
	"math"
	"testing"
)

// TestCurveRho checks the overlap derived from an exit curve: a flat curve
// is nested (rho 1), a steeper curve overlaps less, rho stays in [0, 1],
// and bad input is an error.
func TestCurveRho(t *testing.T) {
	flat, err := CurveRho([]float64{0.8, 0.8, 0.8}, 100)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(flat-1) > 1e-12 {
		t.Errorf("flat curve: rho %v, want 1", flat)
	}
	gentle, err := CurveRho([]float64{0.6, 0.7, 0.8}, 100)
	if err != nil {
		t.Fatal(err)
	}
	steep, err := CurveRho([]float64{0.2, 0.5, 0.8}, 100)
	if err != nil {
		t.Fatal(err)
	}
	if !(steep < gentle && gentle < 1 && steep > 0) {
		t.Errorf("rho: steep %v, gentle %v; want 0 < steep < gentle < 1", steep, gentle)
	}
	// Two exits: the ratio of their probit accuracies above chance.
	two, _ := CurveRho([]float64{0.5, 0.9}, 100)
	z := func(p float64) float64 { return normQuantile(p) - normQuantile(0.01) }
	if want := z(0.5) / z(0.9); math.Abs(two-want) > 1e-12 {
		t.Errorf("two exits: rho %v, want %v", two, want)
	}
	for _, c := range []struct {
		acc     []float64
		classes int
	}{
		{[]float64{0.5}, 100},
		{[]float64{0.5, 0.6}, 1},
		{[]float64{0.5, math.NaN()}, 100},
		{[]float64{0.5, 1.2}, 100},
	} {
		if r, err := CurveRho(c.acc, c.classes); err == nil {
			t.Errorf("CurveRho(%v, %d) = %v, want an error", c.acc, c.classes, r)
		}
	}
	// Each measured curve gives its own rho in (0, 1).
	for _, acc := range [][]float64{{0.01, 0.02, 1}, {0, 0.5, 1}} {
		r, err := CurveRho(acc, 100)
		if err != nil || !(r >= 0 && r <= 1) {
			t.Errorf("CurveRho(%v) = %v, %v: want a value in [0, 1]", acc, r, err)
		}
	}
}

// TestPerBackboneOverlap: with PerBackbone each backbone's engine models
// its exits at the overlap of its own measured curve, and two backbones
// with different curves get different overlaps.
func TestPerBackboneOverlap(t *testing.T) {
	curves, _ := curvesFor(t, "cifar-100")
	acc := &Measured{Name: "cifar-100", Curves: curves}
	co := CurveOverlap{Scale: 0.3}
	cfg := InnerConfig{PopSize: 4, Generations: 1, Gamma: 1, PerBackbone: &co}
	var rhos []float64
	for _, a := range []Arch{Baselines()[0], Baselines()[3]} {
		e := engineFor(t, a, acc, cfg)
		want, err := co.Rho(e.Curve.Top1, e.B.Classes)
		if err != nil {
			t.Fatal(err)
		}
		if e.Cfg.Overlap == nil || e.Cfg.Overlap.Rho != want {
			t.Fatalf("%s: engine overlap %+v, want rho %v from its curve", e.B.Arch, e.Cfg.Overlap, want)
		}
		rhos = append(rhos, want)
	}
	if rhos[0] == rhos[1] {
		t.Errorf("a0 and a3 share rho %v: their curves differ", rhos[0])
	}
}

// TestCalibrateCurveOverlap: the calibrated scale gives the reference
// curve the target rho exactly, keeps the mechanism's order between
// curves, scale 1 is CurveRho, scale 0 nested; bad input is an error.
func TestCalibrateCurveOverlap(t *testing.T) {
	ref := []float64{0.4, 0.6, 0.8}
	steep := []float64{0.1, 0.4, 0.8}
	for _, target := range []float64{0.5, 0.9, 0.93, 1} {
		c, err := CalibrateCurveOverlap(ref, 100, target)
		if err != nil {
			t.Fatal(err)
		}
		got, err := c.Rho(ref, 100)
		if err != nil || math.Abs(got-target) > 1e-12 {
			t.Errorf("target %v: reference rho %v, %v", target, got, err)
		}
		if s, _ := c.Rho(steep, 100); target < 1 && !(s < got) {
			t.Errorf("target %v: steeper curve rho %v, want below the reference's %v", target, s, got)
		}
	}
	raw, _ := CurveRho(steep, 100)
	if got, _ := (CurveOverlap{Scale: 1}).Rho(steep, 100); math.Abs(got-raw) > 1e-12 {
		t.Errorf("scale 1: rho %v, want CurveRho's %v", got, raw)
	}
	if got, _ := (CurveOverlap{}).Rho(steep, 100); got != 1 {
		t.Errorf("scale 0: rho %v, want 1 (nested)", got)
	}
	for _, c := range []CurveOverlap{{Scale: -1}, {Scale: math.NaN()}, {Scale: math.Inf(1)}} {
		if _, err := c.Rho(ref, 100); err == nil {
			t.Errorf("scale %v: want an error", c.Scale)
		}
	}
	if _, err := CalibrateCurveOverlap([]float64{0.8, 0.8}, 100, 0.9); err == nil {
		t.Error("flat reference curve, rho 0.9: want an error")
	}
	if _, err := CalibrateCurveOverlap(ref, 100, 1.5); err == nil {
		t.Error("rho 1.5: want an error")
	}
}
