package search

import (
	"math"
	"slices"
	"testing"
)

func testState(cands []Individual[int]) *nsga2State[int] {
	s := &nsga2State[int]{c: &NSGA2[int]{}, r: newRand(1)}
	for i := range cands {
		cands[i].ID = i
		if cands[i].Violation == 0 {
			cands[i].Violation = Evaluation{Constraints: cands[i].Constraints}.Violation()
		}
	}
	s.archive = cands
	return s
}

func feasible(f ...float64) Individual[int] { return Individual[int]{Objectives: f} }
func infeasible(v float64, f ...float64) Individual[int] {
	return Individual[int]{Objectives: f, Constraints: []float64{v}}
}

func TestSurvivalFillsByFrontsThenViolation(t *testing.T) {
	cands := []Individual[int]{
		feasible(0, 3), feasible(1, 1), feasible(3, 0), // front 0: ids 0-2
		feasible(2, 5), feasible(3, 3.9), feasible(3.1, 3.8), feasible(5, 2), // front 1: ids 3-6
		infeasible(2, 0, 0), infeasible(1, 0, 0), infeasible(1, 9, 9), // ids 7-9
		feasible(9, 9), // front 2: id 10
	}
	tests := []struct {
		n        int
		want     []int32 // survivors in order
		wantRank []int32
	}{
		// Front 0 fits; front 1 is cut to its two extremes (infinite
		// crowding) rather than the crowded middle pair.
		{5, []int32{0, 1, 2, 3, 6}, []int32{0, 0, 0, 1, 1}},
		// All feasible, then the infeasible by violation (ties by order);
		// they rank after the three feasible fronts, equal violations
		// sharing a rank.
		{10, []int32{0, 1, 2, 3, 4, 5, 6, 10, 8, 9}, []int32{0, 0, 0, 1, 1, 1, 1, 2, 3, 3}},
		{11, []int32{0, 1, 2, 3, 4, 5, 6, 10, 8, 9, 7}, []int32{0, 0, 0, 1, 1, 1, 1, 2, 3, 3, 4}},
	}
	for _, tc := range tests {
		s := testState(slices.Clone(cands))
		all := []int32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
		s.survive(all, tc.n)
		got := slices.Clone(s.pop)
		if tc.n == 5 {
			slices.Sort(got[3:]) // the cut front's survivors come in crowding order
		}
		if !slices.Equal(got, tc.want) || !slices.Equal(s.popRank, tc.wantRank) {
			t.Errorf("n=%d: survivors %v ranks %v, want %v %v", tc.n, s.pop, s.popRank, tc.want, tc.wantRank)
		}
		for k, i := range s.pop {
			if !s.archive[i].Feasible() && s.popCrowd[k] != 0 {
				t.Errorf("infeasible survivor %d has crowding %v", i, s.popCrowd[k])
			}
		}
	}
	// Crowding of front 0 as pymoo: extremes infinite, middle
	// ((3-0)/3 + (3-0)/3)/2 = 1.
	s := testState(slices.Clone(cands))
	s.survive([]int32{0, 1, 2}, 3)
	if !math.IsInf(s.popCrowd[0], 1) || s.popCrowd[1] != 1 || !math.IsInf(s.popCrowd[2], 1) {
		t.Fatalf("crowding %v", s.popCrowd)
	}
}

func TestBinaryTournament(t *testing.T) {
	s := testState([]Individual[int]{
		feasible(5, 5),        // 0
		infeasible(0.5, 0, 0), // 1
		infeasible(0.2, 9, 9), // 2
		feasible(1, 1),        // 3: dominates 0
		feasible(0, 9),        // 4: non-dominated with 3
		feasible(0, 9),        // 5: same objectives as 4
	})
	s.pop = []int32{0, 1, 2, 3, 4, 5}
	s.popCrowd = []float64{0, 0, 0, 1, math.Inf(1), math.Inf(1)}
	tests := []struct {
		a, b int32
		want int32 // -1: either, at random
	}{
		{0, 1, 0},  // feasible beats infeasible, whatever the objectives
		{1, 2, 2},  // lower violation
		{0, 3, 3},  // dominance
		{3, 4, 4},  // non-dominated: larger crowding
		{4, 5, -1}, // tie: random
	}
	for _, tc := range tests {
		wins := map[int32]int{}
		for range 200 {
			wins[s.better(tc.a, tc.b)]++
			wins[s.better(tc.b, tc.a)]++
		}
		if tc.want >= 0 {
			if wins[tc.want] != 400 {
				t.Errorf("%d vs %d: wins %v, want always %d", tc.a, tc.b, wins, tc.want)
			}
		} else if wins[tc.a] < 150 || wins[tc.b] < 150 {
			t.Errorf("%d vs %d: wins %v, want a fair coin", tc.a, tc.b, wins)
		}
	}
}

// BenchmarkNSGA2Bookkeeping measures one generation's sorting, crowding
// and selection for a population of 200 with 2 objectives: survival of 400
// candidates down to 200, then 100 matings' tournaments.
func BenchmarkNSGA2Bookkeeping(b *testing.B) {
	for _, m := range []int{2, 3} {
		b.Run(map[int]string{2: "pop200-2obj", 3: "pop200-3obj"}[m], func(b *testing.B) {
			r := newRand(9)
			cands := make([]Individual[int], 400)
			idx := make([]int32, 400)
			for i := range cands {
				f := make([]float64, m)
				for j := range f {
					f[j] = r.Float64()
				}
				cands[i] = feasible(f...)
				idx[i] = int32(i)
			}
			s := testState(cands)
			work := make([]int32, 400)
			b.ReportAllocs()
			for b.Loop() {
				copy(work, idx)
				s.survive(work, 200)
				s.selectParents(100)
			}
		})
	}
}

func TestNSGA2InitialGenomes(t *testing.T) {
	sp, _ := NewSpace(Variable{Name: "a", Choices: 4}, Variable{Name: "b", Choices: 4})
	eval := func(g []int) (Evaluation, error) {
		return Evaluation{Objectives: []float64{float64(g[0]), float64(g[1])}}, nil
	}
	alg := NSGA2[[]int]{Encoding: NewDiscrete(sp), Evaluate: eval, PopSize: 4, Generations: 1,
		Initial: [][]int{{0, 0}, {0, 0}, {3, 3}}}
	res, err := alg.Run(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	// The given genomes come first, duplicates dropped, then samples.
	if len(res.Evaluated) != 4 || !slices.Equal(res.Evaluated[0].Genome, []int{0, 0}) || !slices.Equal(res.Evaluated[1].Genome, []int{3, 3}) {
		t.Fatalf("initial population %v", res.Evaluated)
	}
	if len(res.Front) != 1 || res.Front[0].ID != 0 {
		t.Fatalf("front %v", res.Front)
	}
	alg.Initial = [][]int{{0, 9}}
	if _, err := alg.Run(t.Context()); err == nil {
		t.Fatal("want an error for an invalid initial genome")
	}
	// A space smaller than the population: the run uses what exists and
	// stops when mating finds nothing new.
	alg.Initial, alg.PopSize, alg.Generations = nil, 40, 10
	res, err = alg.Run(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Evaluated) != 16 || len(res.Population) != 16 {
		t.Fatalf("%d evaluated, population %d, want all 16 genomes", len(res.Evaluated), len(res.Population))
	}
}
