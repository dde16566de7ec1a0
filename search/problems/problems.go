// Package problems holds standard multi-objective test problems (ZDT1,
// ZDT2, DTLZ2, BNH, SRN) as used by pymoo, with their true Pareto fronts
// where they are known in closed form. They exist to test and demonstrate
// package search; they model no hardware.
package problems

import (
	"fmt"
	"math"

	"gnnsim/search"
)

// Problem is a continuous, box-bounded test problem.
type Problem struct {
	Name          string
	Lower, Upper  []float64
	NumObjectives int
	// Evaluate computes the objectives (and constraints, g <= 0 feasible).
	Evaluate func(x []float64) search.Evaluation
	// hv is the hypervolume of the true front for a reference point that
	// is no better than the front's nadir, when known in closed form.
	hv func(ref []float64) float64
	// nadir is the true front's nadir point.
	nadir []float64
}

// Func adapts Evaluate to search.EvalFunc.
func (p *Problem) Func() search.EvalFunc[[]float64] {
	return func(x []float64) (search.Evaluation, error) { return p.Evaluate(x), nil }
}

// Encoding returns the real encoding of the problem's box with pymoo's
// NSGA-II operator defaults.
func (p *Problem) Encoding() *search.Real {
	e, err := search.NewReal(p.Lower, p.Upper)
	if err != nil {
		panic(err) // the bounds are constants of this package
	}
	return e
}

// TrueHypervolume returns the hypervolume of the problem's true Pareto
// front for ref, which must be no better than the front's nadir point in
// any objective. ok is false when the problem has no closed form.
func (p *Problem) TrueHypervolume(ref []float64) (hv float64, ok bool, err error) {
	if p.hv == nil {
		return 0, false, nil
	}
	if len(ref) != p.NumObjectives {
		return 0, false, fmt.Errorf("problems: %s: reference has %d objectives, want %d", p.Name, len(ref), p.NumObjectives)
	}
	for j, r := range ref {
		if r < p.nadir[j] {
			return 0, false, fmt.Errorf("problems: %s: reference %v is better than the nadir %v", p.Name, ref, p.nadir)
		}
	}
	return p.hv(ref), true, nil
}

func box(n int, lo, hi float64) ([]float64, []float64) {
	l, u := make([]float64, n), make([]float64, n)
	for i := range l {
		l[i], u[i] = lo, hi
	}
	return l, u
}

func zdtG(x []float64) float64 {
	s := 0.0
	for _, v := range x[1:] {
		s += v
	}
	return 1 + 9*s/float64(len(x)-1)
}

// ZDT1 has n variables in [0, 1] and the convex front f2 = 1 - sqrt(f1).
func ZDT1(n int) *Problem {
	lo, hi := box(n, 0, 1)
	return &Problem{
		Name: "zdt1", Lower: lo, Upper: hi, NumObjectives: 2,
		Evaluate: func(x []float64) search.Evaluation {
			f1 := x[0]
			g := zdtG(x)
			return search.Evaluation{Objectives: []float64{f1, g * (1 - math.Sqrt(f1/g))}}
		},
		// Area under ref[1] minus the area under the front over [0, 1],
		// plus the strip beyond f1 = 1.
		hv:    func(r []float64) float64 { return (r[1] - 1) + 2.0/3 + (r[0]-1)*r[1] },
		nadir: []float64{1, 1},
	}
}

// ZDT2 has n variables in [0, 1] and the concave front f2 = 1 - f1^2.
func ZDT2(n int) *Problem {
	lo, hi := box(n, 0, 1)
	return &Problem{
		Name: "zdt2", Lower: lo, Upper: hi, NumObjectives: 2,
		Evaluate: func(x []float64) search.Evaluation {
			f1 := x[0]
			g := zdtG(x)
			return search.Evaluation{Objectives: []float64{f1, g * (1 - (f1/g)*(f1/g))}}
		},
		hv:    func(r []float64) float64 { return (r[1] - 1) + 1.0/3 + (r[0]-1)*r[1] },
		nadir: []float64{1, 1},
	}
}

// DTLZ2 has nVar variables in [0, 1] and m objectives; its front is the
// positive part of the unit sphere.
func DTLZ2(nVar, m int) *Problem {
	lo, hi := box(nVar, 0, 1)
	nadir := make([]float64, m)
	for j := range nadir {
		nadir[j] = 1
	}
	p := &Problem{
		Name: "dtlz2", Lower: lo, Upper: hi, NumObjectives: m, nadir: nadir,
		Evaluate: func(x []float64) search.Evaluation {
			g := 0.0
			for _, v := range x[m-1:] {
				g += (v - 0.5) * (v - 0.5)
			}
			f := make([]float64, m)
			for i := range m {
				v := 1 + g
				for _, xj := range x[:m-1-i] {
					v *= math.Cos(xj * math.Pi / 2)
				}
				if i > 0 {
					v *= math.Sin(x[m-1-i] * math.Pi / 2)
				}
				f[i] = v
			}
			return search.Evaluation{Objectives: f}
		},
	}
	if m == 2 || m == 3 {
		// A point is dominated by the front exactly when its norm is at
		// least 1, so the volume is the box minus the unit ball's orthant.
		p.hv = func(r []float64) float64 {
			box := 1.0
			for _, v := range r {
				box *= v
			}
			if m == 2 {
				return box - math.Pi/4
			}
			return box - math.Pi/6
		}
	}
	return p
}

// BNH (Binh and Korn) has two variables, two objectives and two
// constraints, normalised as in pymoo.
func BNH() *Problem {
	return &Problem{
		Name: "bnh", Lower: []float64{0, 0}, Upper: []float64{5, 3}, NumObjectives: 2,
		Evaluate: func(x []float64) search.Evaluation {
			f1 := 4*x[0]*x[0] + 4*x[1]*x[1]
			f2 := (x[0]-5)*(x[0]-5) + (x[1]-5)*(x[1]-5)
			g1 := ((x[0]-5)*(x[0]-5) + x[1]*x[1] - 25) / 25
			g2 := -((x[0]-8)*(x[0]-8) + (x[1]+3)*(x[1]+3) - 7.7) / 7.7
			return search.Evaluation{Objectives: []float64{f1, f2}, Constraints: []float64{g1, g2}}
		},
	}
}

// SRN (Srinivas and Deb) has two variables in [-20, 20], two objectives and
// two constraints; the second cuts away most of the box.
func SRN() *Problem {
	return &Problem{
		Name: "srn", Lower: []float64{-20, -20}, Upper: []float64{20, 20}, NumObjectives: 2,
		Evaluate: func(x []float64) search.Evaluation {
			f1 := 2 + (x[0]-2)*(x[0]-2) + (x[1]-1)*(x[1]-1)
			f2 := 9*x[0] - (x[1]-1)*(x[1]-1)
			g1 := (x[0]*x[0] + x[1]*x[1] - 225) / 225
			g2 := (x[0] - 3*x[1] + 10) / 10
			return search.Evaluation{Objectives: []float64{f1, f2}, Constraints: []float64{g1, g2}}
		},
	}
}

// ByName returns a problem by its name: zdt1, zdt2 (30 variables), dtlz2
// (12 variables, 3 objectives), bnh, srn.
func ByName(name string) (*Problem, error) {
	switch name {
	case "zdt1":
		return ZDT1(30), nil
	case "zdt2":
		return ZDT2(30), nil
	case "dtlz2":
		return DTLZ2(12, 3), nil
	case "bnh":
		return BNH(), nil
	case "srn":
		return SRN(), nil
	}
	return nil, fmt.Errorf("problems: unknown problem %q (want zdt1, zdt2, dtlz2, bnh or srn)", name)
}
