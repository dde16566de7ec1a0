package search

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// knapsack is a constrained synthetic design problem: 16 decisions of 8
// options each; option c of decision i buys "accuracy" a[i][c] at "cost"
// k[i][c], both growing with c with noise. The score to maximise is the
// mean accuracy (in [0, 1]) and the cost must stay within half of the
// maximum, as a resource budget would: about 13 % of random designs are
// feasible and the best ones lie on the constraint.
type knapsack struct {
	sp     *Space
	a, k   [][]float64
	budget float64
}

func newKnapsack(t testing.TB, seed uint64) *knapsack {
	const n, c = 16, 8
	r := rand.New(rand.NewPCG(seed, 99))
	vars := make([]Variable, n)
	p := &knapsack{a: make([][]float64, n), k: make([][]float64, n)}
	maxCost := 0.0
	for i := range vars {
		vars[i] = Variable{Name: fmt.Sprintf("d%d", i), Choices: c}
		p.a[i] = make([]float64, c)
		p.k[i] = make([]float64, c)
		for j := range c {
			p.a[i][j] = (float64(j) + r.Float64()*3) / (c + 2)
			p.k[i][j] = float64(j) + r.Float64()*3
		}
		hi := 0.0
		for _, v := range p.k[i] {
			hi = max(hi, v)
		}
		maxCost += hi
	}
	p.budget = 0.5 * maxCost
	var err error
	if p.sp, err = NewSpace(vars...); err != nil {
		t.Fatal(err)
	}
	return p
}

func (p *knapsack) eval(g []int) (Evaluation, error) {
	acc, cost := 0.0, 0.0
	for i, x := range g {
		acc += p.a[i][x]
		cost += p.k[i][x]
	}
	acc /= float64(len(g))
	return Evaluation{Objectives: []float64{-acc}, Constraints: []float64{cost/p.budget - 1}}, nil
}

// bestScore is the best feasible score (accuracy) found, 0 if none.
func bestScore(res *Result[[]int]) float64 {
	best := 0.0
	for _, ind := range res.Evaluated {
		if ind.Feasible() {
			best = max(best, -ind.Objectives[0])
		}
	}
	return best
}

// TestPoolAndReinforceBeatRandom is the acceptance test: at an equal budget
// of 1000 evaluations, the mean best feasible score over 10 seeds (each with
// its own problem instance) of pool evolution and of REINFORCE exceeds
// random search's.
func TestPoolAndReinforceBeatRandom(t *testing.T) {
	const budget, seeds = 1000, 10
	var sumRandom, sumPool, sumRL float64
	for seed := uint64(1); seed <= seeds; seed++ {
		p := newKnapsack(t, seed)
		ctx := context.Background()
		rs := RandomSearch[[]int]{Sampler: p.sp, Evaluate: p.eval, Evaluations: budget, Seed: seed}
		rres, err := rs.Run(ctx)
		if err != nil {
			t.Fatal(err)
		}
		enc := NewDiscrete(p.sp)
		enc.MutationProb = 0.5 // G-CoS's mutation chance
		pool := Pool[[]int]{Encoding: enc, Evaluate: p.eval, PoolSize: 50, Rate: 0.2, MaxEvaluations: budget, Seed: seed}
		pres, err := pool.Run(ctx)
		if err != nil {
			t.Fatal(err)
		}
		rl := Reinforce{Space: p.sp, Evaluate: p.eval, BatchSize: 5, BaselineDecay: 0.9, MaxEvaluations: budget, Seed: seed} // FGNAS's m and decay
		lres, err := rl.Run(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for name, res := range map[string]*Result[[]int]{"random": rres, "pool": pres, "reinforce": lres} {
			if len(res.Evaluated) != budget {
				t.Fatalf("seed %d: %s used %d evaluations, want %d", seed, name, len(res.Evaluated), budget)
			}
		}
		b0, b1, b2 := bestScore(rres), bestScore(pres), bestScore(lres)
		t.Logf("seed %2d: random %.4f  pool %.4f  reinforce %.4f", seed, b0, b1, b2)
		sumRandom += b0
		sumPool += b1
		sumRL += b2
	}
	mr, mp, ml := sumRandom/seeds, sumPool/seeds, sumRL/seeds
	t.Logf("mean best feasible score: random %.4f, pool %.4f, reinforce %.4f", mr, mp, ml)
	if !(mp > mr) {
		t.Errorf("pool evolution (%.4f) does not beat random search (%.4f)", mp, mr)
	}
	if !(ml > mr) {
		t.Errorf("REINFORCE (%.4f) does not beat random search (%.4f)", ml, mr)
	}
}

func TestPoolAlgorithm(t *testing.T) {
	p := newKnapsack(t, 3)
	enc := NewDiscrete(p.sp)
	enc.MutationProb = 0.5
	pool := Pool[[]int]{Encoding: enc, Evaluate: p.eval, PoolSize: 20, Rate: 0.2, Outputs: 3, MaxEvaluations: 300, Seed: 1}
	res, err := pool.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	// Births of 4 until the pool exceeds 20, then alternating deaths and
	// births: the pool ends with 20 or 24 designs, best first.
	if n := len(res.Population); n != 20 && n != 24 {
		t.Fatalf("final pool of %d", n)
	}
	for i := 1; i < len(res.Population); i++ {
		if compareSingle(&res.Population[i-1], &res.Population[i]) > 0 {
			t.Fatal("pool not sorted best first")
		}
	}
	// The pool keeps the best designs ever found: no discarded design
	// beats the pool's worst... unless it died when the pool was smaller;
	// at least the best ever is in the pool.
	best := res.Evaluated[0]
	for _, ind := range res.Evaluated {
		if compareSingle(&ind, &best) < 0 {
			best = ind
		}
	}
	if res.Population[0].ID != best.ID {
		t.Fatalf("pool's best %d, archive's best %d", res.Population[0].ID, best.ID)
	}
	// Generation 0 is the random seed batch, later ones mutants.
	if res.Evaluated[3].Generation != 0 || res.Evaluated[4].Generation != 1 {
		t.Fatalf("generations %d %d", res.Evaluated[3].Generation, res.Evaluated[4].Generation)
	}

	// With a target the search stops as soon as the top 3 reach it.
	target := -(bestScore(res) - 0.02)
	pool.UseTarget, pool.Target, pool.MaxEvaluations = true, target, 5000
	res2, err := pool.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	top := res2.Population[:3]
	mean := (top[0].Objectives[0] + top[1].Objectives[0] + top[2].Objectives[0]) / 3
	if len(res2.Evaluated) >= 5000 || mean > target {
		t.Fatalf("target %.4f: stopped after %d evaluations with top-3 mean %.4f", target, len(res2.Evaluated), mean)
	}

	for _, bad := range []Pool[[]int]{
		{Encoding: enc, Evaluate: p.eval, PoolSize: 0, Rate: 0.2, MaxEvaluations: 10},
		{Encoding: enc, Evaluate: p.eval, PoolSize: 10, Rate: 1.5, MaxEvaluations: 10},
		{Encoding: enc, Evaluate: p.eval, PoolSize: 10, Rate: 0.2},
	} {
		if _, err := bad.Run(context.Background()); err == nil {
			t.Errorf("want a configuration error for %+v", bad)
		}
	}
	two := func(g []int) (Evaluation, error) { return Evaluation{Objectives: []float64{1, 2}}, nil }
	if _, err := (&Pool[[]int]{Encoding: enc, Evaluate: two, PoolSize: 10, Rate: 0.2, MaxEvaluations: 10}).Run(context.Background()); err == nil {
		t.Error("want an error for two objectives")
	}
}

func TestReinforceLearnsAndCaches(t *testing.T) {
	// Five binary decisions; the reward counts ones, so the policy should
	// learn to draw all ones. The space has 32 designs, so the episode cap
	// (not the budget) ends the run and repeated designs reuse their
	// evaluation.
	vars := make([]Variable, 5)
	for i := range vars {
		vars[i] = Variable{Name: fmt.Sprint(i), Choices: 2}
	}
	sp, _ := NewSpace(vars...)
	calls := 0
	eval := func(g []int) (Evaluation, error) {
		calls++
		s := 0.0
		for _, x := range g {
			s += float64(x)
		}
		return Evaluation{Objectives: []float64{-s / 5}}, nil
	}
	rl := Reinforce{Space: sp, Evaluate: eval, BatchSize: 5, BaselineDecay: 0.9, MaxEvaluations: 1000, MaxEpisodes: 1500, Seed: 4}
	res, err := rl.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if calls != len(res.Evaluated) || calls > 32 {
		t.Fatalf("%d calls for %d designs of 32", calls, len(res.Evaluated))
	}
	// Uniform draws would meet all 32 designs in 1500 episodes; a policy
	// that learned leaves the poor ones unvisited.
	t.Logf("%d of 32 designs visited in 1500 episodes", calls)
	if calls >= 32 {
		t.Fatal("the policy did not concentrate")
	}
	if len(res.Front) != 1 || !slices.Equal(res.Front[0].Genome, []int{1, 1, 1, 1, 1}) {
		t.Fatalf("front %v", res.Front)
	}

	for _, bad := range []Reinforce{
		{Space: sp, Evaluate: eval, BatchSize: -1, MaxEvaluations: 10},
		{Space: sp, Evaluate: eval, BatchSize: 5, BaselineDecay: 1, MaxEvaluations: 10},
		{Space: sp, Evaluate: eval, BatchSize: 5},
	} {
		if _, err := bad.Run(context.Background()); err == nil {
			t.Errorf("want a configuration error for %+v", bad)
		}
	}
}

func TestRandomAndBruteForce(t *testing.T) {
	sp, _ := NewSpace(Variable{Name: "a", Choices: 3}, Variable{Name: "b", Choices: 2, When: []Condition{{Var: "a", In: []int{1, 2}}}})
	// Genomes: (0,-), (1,0), (1,1), (2,0), (2,1).
	eval := func(g []int) (Evaluation, error) {
		b := 0.0
		if g[1] != Inactive {
			b = float64(g[1])
		}
		return Evaluation{Objectives: []float64{float64(g[0]), -b}, Constraints: []float64{float64(g[0]) - 1.5}}, nil
	}
	rs := RandomSearch[[]int]{Sampler: sp, Evaluate: eval, Evaluations: 100, BatchSize: 2, Seed: 1}
	res, err := rs.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Evaluated) != 5 {
		t.Fatalf("random search evaluated %d distinct genomes of 5", len(res.Evaluated))
	}
	bf := BruteForce{Space: sp, Evaluate: eval, MaxEvaluations: 5, BatchSize: 2, Workers: 3}
	all, err := bf.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var got [][]int
	for _, ind := range all.Evaluated {
		got = append(got, ind.Genome)
	}
	want := [][]int{{0, -1}, {1, 0}, {1, 1}, {2, 0}, {2, 1}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("brute force order %v", got)
	}
	// Feasible: a <= 1. Front: (0,-) with objectives (0, 0) and (1,1) with
	// (1, -1); (1,0) is dominated by (0,-); a = 2 violates.
	if len(all.Front) != 2 || all.Front[0].ID != 0 || all.Front[1].ID != 2 {
		t.Fatalf("front %+v", all.Front)
	}
	if r := all.Evaluated[3]; r.Feasible() || r.Rank != 2 || all.Evaluated[1].Rank != 1 {
		t.Fatalf("ranks %d %d", r.Rank, all.Evaluated[1].Rank)
	}
	bf.MaxEvaluations = 4
	if _, err := bf.Run(context.Background()); err == nil {
		t.Fatal("want an error for a space larger than the budget")
	}
}

func TestSingleObjectiveSearchesDeterministic(t *testing.T) {
	p := newKnapsack(t, 5)
	enc := NewDiscrete(p.sp)
	run := func(workers int) [][]float64 {
		var out [][]float64
		pool := Pool[[]int]{Encoding: enc, Evaluate: p.eval, PoolSize: 20, Rate: 0.2, MaxEvaluations: 200, Seed: 2, Workers: workers}
		rl := Reinforce{Space: p.sp, Evaluate: p.eval, BatchSize: 5, BaselineDecay: 0.9, MaxEvaluations: 200, Seed: 2, Workers: workers}
		rs := RandomSearch[[]int]{Sampler: p.sp, Evaluate: p.eval, Evaluations: 200, Seed: 2, Workers: workers}
		for _, run := range []func(context.Context) (*Result[[]int], error){pool.Run, rl.Run, rs.Run} {
			res, err := run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			for _, ind := range res.Evaluated {
				out = append(out, append(slices.Clone(ind.Objectives), float64(len(ind.Genome))))
			}
		}
		return out
	}
	if a, b := run(1), run(2); !reflect.DeepEqual(a, b) {
		t.Fatal("serial and parallel runs differ")
	}
}
