package search

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// bruteFronts peels fronts by the definition, O(n^3).
func bruteFronts(pts [][]float64) [][]int {
	left := make([]int, len(pts))
	for i := range left {
		left[i] = i
	}
	var fronts [][]int
	for len(left) > 0 {
		var f, rest []int
		for _, i := range left {
			dom := false
			for _, j := range left {
				if Dominates(pts[j], pts[i]) {
					dom = true
					break
				}
			}
			if dom {
				rest = append(rest, i)
			} else {
				f = append(f, i)
			}
		}
		fronts = append(fronts, f)
		left = rest
	}
	return fronts
}

func randomPoints(r *rand.Rand, n, m, levels int) [][]float64 {
	pts := make([][]float64, n)
	for i := range pts {
		pts[i] = make([]float64, m)
		for j := range pts[i] {
			if levels > 0 {
				pts[i][j] = float64(r.IntN(levels))
			} else {
				pts[i][j] = r.Float64()
			}
		}
	}
	return pts
}

func TestNonDominatedSortMatchesDefinition(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 600 {
		m := 1 + trial%5
		n := r.IntN(60)
		levels := []int{0, 3, 6}[trial%3] // ties and duplicates when > 0
		pts := randomPoints(r, n, m, levels)
		got, err := NonDominatedSort(pts)
		if err != nil {
			t.Fatal(err)
		}
		want := bruteFronts(pts)
		if len(got) != len(want) {
			t.Fatalf("trial %d (m=%d n=%d): %d fronts, want %d", trial, m, n, len(got), len(want))
		}
		for k := range want {
			if !slices.Equal(got[k], want[k]) {
				t.Fatalf("trial %d (m=%d n=%d) front %d: got %v want %v\npoints %v", trial, m, n, k, got[k], want[k], pts)
			}
		}
		nd, err := NonDominated(pts)
		if err != nil {
			t.Fatal(err)
		}
		if n > 0 && !slices.Equal(nd, want[0]) {
			t.Fatalf("trial %d: NonDominated %v, want %v", trial, nd, want[0])
		}
	}
}

func TestCrowdingDistance(t *testing.T) {
	tests := []struct {
		name string
		pts  [][]float64
		want []float64
	}{
		{"two points", [][]float64{{0, 1}, {1, 0}}, []float64{math.Inf(1), math.Inf(1)}},
		// Sorted by f1: 0, 1, 3, 4 (range 4); by f2 the reverse (range 4).
		// Interior: ((3-0)/4 + (3-0)/4)/2 = 0.75 and ((4-1)/4*2)/2 = 0.75.
		{"line", [][]float64{{0, 4}, {1, 3}, {3, 1}, {4, 0}}, []float64{math.Inf(1), 0.75, 0.75, math.Inf(1)}},
		// A constant objective contributes nothing, even at the ends:
		// interior ((3-0)/3 + 0)/2.
		{"constant objective", [][]float64{{0, 5}, {1, 5}, {3, 5}}, []float64{math.Inf(1), 0.5, math.Inf(1)}},
		{"all equal", [][]float64{{1, 1}, {1, 1}, {1, 1}}, []float64{0, 0, 0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := CrowdingDistance(tc.pts)
			if err != nil {
				t.Fatal(err)
			}
			for i := range got {
				if got[i] != tc.want[i] && math.Abs(got[i]-tc.want[i]) > 1e-12 {
					t.Fatalf("got %v, want %v", got, tc.want)
				}
			}
		})
	}
}

func TestRatioOfDominance(t *testing.T) {
	a := [][]float64{{1, 1}, {3, 0.5}, {5, 5}}
	b := [][]float64{{2, 2}, {4, 1}}
	got, err := RatioOfDominance(a, b)
	if err != nil {
		t.Fatal(err)
	}
	// (1,1) dominates both, (3,0.5) dominates (4,1), (5,5) dominates none.
	if got != 2.0/3 {
		t.Fatalf("RoD(a,b) = %v, want 2/3", got)
	}
	if got, _ := RatioOfDominance(b, a); got != 1 {
		t.Fatalf("RoD(b,a) = %v, want 1 (both dominate (5,5))", got)
	}
	if got, _ := RatioOfDominance(b, a[:2]); got != 0 {
		t.Fatalf("RoD = %v, want 0", got)
	}
	if _, err := RatioOfDominance(a, [][]float64{{1, 2, 3}}); err == nil {
		t.Fatal("want error on mismatched dimensions")
	}
}

func TestParetoFrontFeasibleOnly(t *testing.T) {
	inds := []Individual[int]{
		{ID: 0, Objectives: []float64{0, 0}, Violation: 1}, // best but infeasible
		{ID: 1, Objectives: []float64{1, 2}},
		{ID: 2, Objectives: []float64{2, 1}},
		{ID: 3, Objectives: []float64{2, 2}},
	}
	f := ParetoFront(inds)
	if len(f) != 2 || f[0].ID != 1 || f[1].ID != 2 {
		t.Fatalf("front %v", f)
	}
	if ParetoFront(inds[:1]) != nil {
		t.Fatal("no feasible candidate should give an empty front")
	}
}

func BenchmarkNonDominatedSort(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 3))
	for _, m := range []int{2, 3, 5} {
		pts := randomPoints(r, 400, m, 0)
		var rk ranker
		rk.load(pts)
		b.Run(string(rune('0'+m))+"obj-400", func(b *testing.B) {
			for b.Loop() {
				rk.sort()
			}
		})
	}
}
