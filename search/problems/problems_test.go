package problems

import (
	"math"
	"testing"

	"gnnsim/search"
)

// TestTrueFronts checks each closed-form front against points the problem
// itself produces on its Pareto set, and the closed-form hypervolumes
// against the exact hypervolume of a dense sample of those points.
func TestTrueFronts(t *testing.T) {
	tests := []struct {
		p       *Problem
		onSet   func(u []float64) []float64 // Pareto-set point from parameters in [0,1]
		params  int
		onFront func(f []float64) float64 // 0 on the front
	}{
		{ZDT1(30), func(u []float64) []float64 { x := make([]float64, 30); x[0] = u[0]; return x }, 1,
			func(f []float64) float64 { return f[1] - (1 - math.Sqrt(f[0])) }},
		{ZDT2(30), func(u []float64) []float64 { x := make([]float64, 30); x[0] = u[0]; return x }, 1,
			func(f []float64) float64 { return f[1] - (1 - f[0]*f[0]) }},
		{DTLZ2(12, 3), func(u []float64) []float64 {
			x := []float64{u[0], u[1], 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5}
			return x
		}, 2, func(f []float64) float64 { return math.Sqrt(f[0]*f[0]+f[1]*f[1]+f[2]*f[2]) - 1 }},
	}
	for _, tc := range tests {
		t.Run(tc.p.Name, func(t *testing.T) {
			const k = 300
			var pts [][]float64
			u := make([]float64, tc.params)
			var rec func(d int)
			rec = func(d int) {
				if d == tc.params {
					f := tc.p.Evaluate(tc.onSet(u)).Objectives
					if e := tc.onFront(f); math.Abs(e) > 1e-12 {
						t.Fatalf("point %v off the front by %v", f, e)
					}
					pts = append(pts, f)
					return
				}
				for i := 0; i <= k; i++ {
					u[d] = float64(i) / k
					rec(d + 1)
				}
			}
			rec(0)
			ref := make([]float64, tc.p.NumObjectives)
			for j := range ref {
				ref[j] = 1.1
			}
			want, ok, err := tc.p.TrueHypervolume(ref)
			if err != nil || !ok {
				t.Fatal(ok, err)
			}
			got, _ := search.Hypervolume(pts, ref)
			// A dense sample approaches the continuous front from below.
			if got > want || got < want*0.99 {
				t.Fatalf("sampled front hypervolume %v, closed form %v", got, want)
			}
			if _, _, err := tc.p.TrueHypervolume(make([]float64, tc.p.NumObjectives)); err == nil {
				t.Fatal("want an error for a reference better than the nadir")
			}
		})
	}
}

func TestConstrainedProblems(t *testing.T) {
	// BNH: (0,0) is feasible; (0,3) lies outside the circle
	// (x1-5)^2 + x2^2 <= 25.
	bnh := BNH()
	if v := bnh.Evaluate([]float64{0, 0}).Violation(); v != 0 {
		t.Fatalf("BNH (0,0) violation %v", v)
	}
	if v := bnh.Evaluate([]float64{0, 3}).Violation(); v <= 0 {
		t.Fatal("BNH (0,3) should violate the first constraint")
	}
	srn := SRN()
	if v := srn.Evaluate([]float64{-2.5, 5}).Violation(); v != 0 {
		t.Fatalf("SRN Pareto point violation %v", v)
	}
	if v := srn.Evaluate([]float64{10, 0}).Violation(); v <= 0 {
		t.Fatal("SRN (10,0) violates x1 - 3 x2 + 10 <= 0")
	}
	if _, ok, _ := srn.TrueHypervolume([]float64{1, 1}); ok {
		t.Fatal("SRN has no closed-form front")
	}
	for _, name := range []string{"zdt1", "zdt2", "dtlz2", "bnh", "srn"} {
		p, err := ByName(name)
		if err != nil || p.Name != name || p.Encoding().Validate() != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	if _, err := ByName("zdt9"); err == nil {
		t.Fatal("want an error for an unknown problem")
	}
}
