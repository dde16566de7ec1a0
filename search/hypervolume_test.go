package search

import (
	"math"
	"math/rand/v2"
	"testing"
)

// hvInclusionExclusion is the oracle: the union of boxes [p, ref] by
// inclusion-exclusion over all non-empty subsets (2^n terms).
func hvInclusionExclusion(points [][]float64, ref []float64) float64 {
	n, m := len(points), len(ref)
	total := 0.0
	corner := make([]float64, m)
	for mask := 1; mask < 1<<n; mask++ {
		for j := range corner {
			corner[j] = math.Inf(-1)
		}
		bits := 0
		for i := range n {
			if mask&(1<<i) != 0 {
				bits++
				for j := range m {
					corner[j] = max(corner[j], points[i][j])
				}
			}
		}
		vol := 1.0
		for j := range m {
			vol *= max(0, ref[j]-corner[j])
		}
		if bits%2 == 1 {
			total += vol
		} else {
			total -= vol
		}
	}
	return total
}

func TestHypervolumeKnownValues(t *testing.T) {
	tests := []struct {
		name   string
		points [][]float64
		ref    []float64
		want   float64
	}{
		{"2d staircase", [][]float64{{5, 5}, {4, 6}, {2, 7}, {7, 4}}, []float64{10, 10}, 38},
		{"2d dominated and outside", [][]float64{{1, 3}, {2, 2}, {3, 1}, {2.5, 2.5}, {5, 0}}, []float64{4, 4}, 6},
		{"3d", [][]float64{{1, 2, 2}, {2, 1, 2}, {2, 2, 1}}, []float64{3, 3, 3}, 4},
		{"3d axes", [][]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, []float64{2, 2, 2}, 7},
		{"1d", [][]float64{{3}, {1}, {2}}, []float64{4}, 3},
		{"empty", nil, []float64{1, 1}, 0},
		{"on reference", [][]float64{{1, 0}}, []float64{1, 1}, 0},
		{"duplicates 3d", [][]float64{{1, 1, 1}, {1, 1, 1}}, []float64{2, 2, 2}, 1},
		{"4d single", [][]float64{{0, 0, 0, 0}}, []float64{1, 2, 3, 4}, 24},
		{"4d unit axes", [][]float64{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}}, []float64{2, 2, 2, 2}, 15},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Hypervolume(tc.points, tc.ref)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(got-tc.want) > 1e-12 {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestHypervolumeMatchesInclusionExclusion(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for trial := range 400 {
		m := 2 + trial%4
		n := 1 + r.IntN(12)
		pts := make([][]float64, n)
		for i := range pts {
			pts[i] = make([]float64, m)
			for j := range pts[i] {
				if trial%3 == 0 {
					pts[i][j] = float64(r.IntN(4)) // many ties
				} else {
					pts[i][j] = r.Float64() * 1.1 // some outside ref
				}
			}
		}
		ref := make([]float64, m)
		for j := range ref {
			ref[j] = 1 + float64(trial%3)
		}
		got, err := Hypervolume(pts, ref)
		if err != nil {
			t.Fatal(err)
		}
		want := hvInclusionExclusion(pts, ref)
		if math.Abs(got-want) > 1e-9*max(1, math.Abs(want)) {
			t.Fatalf("trial %d (%d points, %d objectives): got %v, want %v\n%v", trial, n, m, got, want, pts)
		}
		// WFG also handles 2 and 3 objectives; cross-check the sweeps.
		var v []float64
		for _, p := range pts {
			in := true
			for j := range p {
				in = in && p[j] < ref[j]
			}
			if in {
				v = append(v, p...)
			}
		}
		if len(v) > 0 {
			if w := wfg(v, ref); math.Abs(w-want) > 1e-9*max(1, math.Abs(want)) {
				t.Fatalf("trial %d: wfg %v, want %v", trial, w, want)
			}
		}
	}
}

func TestHypervolumeErrors(t *testing.T) {
	if _, err := Hypervolume([][]float64{{1, 2}}, nil); err == nil {
		t.Error("want error for empty reference")
	}
	if _, err := Hypervolume([][]float64{{1, 2, 3}}, []float64{4, 4}); err == nil {
		t.Error("want error for dimension mismatch")
	}
	if _, err := Hypervolume([][]float64{{math.NaN(), 2}}, []float64{4, 4}); err == nil {
		t.Error("want error for NaN")
	}
	if _, err := Hypervolume([][]float64{{1, 2}}, []float64{math.Inf(1), 4}); err == nil {
		t.Error("want error for infinite reference")
	}
}

func BenchmarkHypervolume(b *testing.B) {
	for _, m := range []int{2, 3, 4, 5} {
		n := 100
		if m == 5 {
			n = 40
		}
		pts := sphereFront(n, m, 1)
		ref := make([]float64, m)
		for j := range ref {
			ref[j] = 1.1
		}
		b.Run(string(rune('0'+m))+"obj", func(b *testing.B) {
			for b.Loop() {
				if _, err := Hypervolume(pts, ref); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// sphereFront draws n mutually non-dominated points on the positive unit
// sphere in m dimensions.
func sphereFront(n, m int, seed uint64) [][]float64 {
	r := rand.New(rand.NewPCG(seed, 1))
	pts := make([][]float64, n)
	for i := range pts {
		p := make([]float64, m)
		s := 0.0
		for j := range p {
			p[j] = math.Abs(r.NormFloat64())
			s += p[j] * p[j]
		}
		for j := range p {
			p[j] /= math.Sqrt(s)
		}
		pts[i] = p
	}
	return pts
}
