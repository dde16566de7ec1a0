package hadas

import (
	"context"
	"math"
	"testing"
)

func TestOverlapKeepsMarginalsAndOrdersUnions(t *testing.T) {
	acc := []float64{0.25, 0.41, 0.62, 0.80, 0.86}
	prevUnion := 2.0
	for _, rho := range []float64{0, 0.3, 0.6, 0.9, 0.99, 1} {
		o, err := NewOverlap(rho)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range acc {
			p := o.Conditional(a, nil)
			m := 0.0
			for _, x := range p {
				if x < 0 || x > 1 {
					t.Fatalf("rho %g: conditional %v out of [0, 1]", rho, x)
				}
				m += x
			}
			m /= float64(len(p))
			tol := 1e-9
			if o.Nested() {
				tol = 0.5 / OverlapNodes
			}
			if math.Abs(m-a) > tol {
				t.Errorf("rho %g: exit of accuracy %v averages %v", rho, a, m)
			}
			// One exit alone: N_1 is its accuracy.
			if n, c := o.FirstCorrectModel([]float64{a}); math.Abs(n[0]-a) > 1e-9 || c != n[0] {
				t.Errorf("rho %g: single exit %v gives N %v, covered %v", rho, a, n, c)
			}
		}
		n, u := o.FirstCorrectModel(acc)
		sum := 0.0
		for _, x := range n {
			if x < -1e-12 {
				t.Errorf("rho %g: negative N %v", rho, n)
			}
			sum += x
		}
		if math.Abs(sum-u) > 1e-12 || u < acc[len(acc)-1]-1e-9 || u > 1 {
			t.Errorf("rho %g: union %v, sum N %v, best exit %v", rho, u, sum, acc[len(acc)-1])
		}
		// More overlap, smaller union.
		if u > prevUnion+1e-9 {
			t.Errorf("rho %g: union %v above the smaller rho's %v", rho, u, prevUnion)
		}
		prevUnion = u
		if rho == 0 {
			// Independent errors: 1 - prod(1 - acc).
			want := 1.0
			for _, a := range acc {
				want *= 1 - a
			}
			if math.Abs(u-(1-want)) > 1e-9 {
				t.Errorf("independent union %v, want %v", u, 1-want)
			}
		}
		if rho == 1 && math.Abs(u-0.86) > 1e-12 {
			t.Errorf("nested union %v, want the best exit's 0.86", u)
		}
	}
	// Near nesting the grid agrees with the exact nested fractions.
	o, _ := NewOverlap(0.999)
	n, _ := o.FirstCorrectModel(acc)
	nn, _ := FirstCorrect(acc, nil)
	for k := range n {
		if math.Abs(n[k]-nn[k]) > 0.03 {
			t.Errorf("rho 0.999: N %v, nested %v", n, nn)
			break
		}
	}
	if _, err := NewOverlap(1.5); err == nil {
		t.Error("rho 1.5 accepted")
	}
	if _, err := NewOverlap(math.NaN()); err == nil {
		t.Error("rho NaN accepted")
	}
}

func TestFitOverlapRoundTrip(t *testing.T) {
	acc := []float64{0.3, 0.5, 0.7, 0.85}
	for _, rho := range []float64{0.2, 0.5, 0.8, 0.95} {
		o, _ := NewOverlap(rho)
		_, u := o.FirstCorrectModel(acc)
		got, err := FitOverlap(acc, u)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got-rho) > 2e-3 {
			t.Errorf("fit of the union at rho %g: %v", rho, got)
		}
	}
	if got, _ := FitOverlap(acc, 0.8); got != 1 {
		t.Errorf("target below the best exit: rho %v, want 1", got)
	}
	if got, _ := FitOverlap(acc, 0.999); got != 0 {
		t.Errorf("target above independence: rho %v, want 0", got)
	}
}

// TestEarlyExitBeatsBackboneWhenOverlapAllows: on AttentiveNAS a0's
// measured CIFAR-100 curve, no exit set is more accurate than the backbone
// under nested correctness (rho = 1), and some is once the exits' errors
// overlap less (rho = 0.7), as HADAS Table III reports (+0.8 to +5.8
// points).
func TestEarlyExitBeatsBackboneWhenOverlapAllows(t *testing.T) {
	curves, _ := curvesFor(t, "cifar-100")
	acc := &Measured{Name: "cifar-100", Curves: curves}
	a := Baselines()[0]
	for _, c := range []struct {
		rho  float64
		beat bool
	}{{1, false}, {0.7, true}} {
		o, err := NewOverlap(c.rho)
		if err != nil {
			t.Fatal(err)
		}
		e := engineFor(t, a, acc, InnerConfig{PopSize: 20, Generations: 10, Gamma: 1, Overlap: o})
		final := e.Curve.Final()
		res, err := e.Run(context.Background(), 3)
		if err != nil {
			t.Fatal(err)
		}
		best := 0.0
		for _, p := range res.Front {
			best = max(best, p.Top1)
			if math.Abs(p.Top1-(p.Covered+p.NFinal)) > 1e-12 || p.Top1 > 1 {
				t.Errorf("rho %g: top-1 %v, covered %v + final %v", c.rho, p.Top1, p.Covered, p.NFinal)
			}
		}
		// The last position's exit with every one before it.
		all := make([]int, 0, len(e.pos))
		all = append(all, e.pos...)
		g, _ := e.Genome(all, e.Ref)
		p, err := e.PointOf(g)
		if err != nil {
			t.Fatal(err)
		}
		best = max(best, p.Top1)
		t.Logf("rho %g: backbone %.4f, best front top-1 %.4f, every exit %.4f", c.rho, final, best, p.Top1)
		if got := best > final+1e-9; got != c.beat {
			t.Errorf("rho %g: an early-exit design beats the backbone (%.4f vs %.4f): %v, want %v", c.rho, best, final, got, c.beat)
		}
	}
}
