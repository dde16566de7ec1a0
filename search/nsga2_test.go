package search_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"gnnsim/internal/pqio"
	"gnnsim/search"
	"gnnsim/search/problems"
)

func objectivesOf[G any](inds []search.Individual[G]) [][]float64 {
	pts := make([][]float64, len(inds))
	for i := range inds {
		pts[i] = inds[i].Objectives
	}
	return pts
}

// populationFront is the final population's rank-0 feasible members: what
// pymoo returns as res.F.
func populationFront[G any](res *search.Result[G]) [][]float64 {
	var pts [][]float64
	for _, ind := range res.Population {
		if ind.Rank == 0 && ind.Feasible() {
			pts = append(pts, ind.Objectives)
		}
	}
	return pts
}

func runProblem(t testing.TB, p *problems.Problem, pop, gens int, seed uint64, workers int) *search.Result[[]float64] {
	t.Helper()
	alg := search.NSGA2[[]float64]{
		Encoding: p.Encoding(), Evaluate: p.Func(),
		PopSize: pop, Generations: gens, Seed: seed, Workers: workers,
	}
	res, err := alg.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestNSGA2ReachesTrueFront is the acceptance test: 250 generations of 100
// on ZDT1 and ZDT2 (30 variables, continuous encoding) and DTLZ2 (12
// variables, 3 objectives). The reference point is 1.1 in every objective
// (1.1 x the true nadir); the true front's hypervolume is analytic.
//
// The search's front is the archive's (every non-dominated feasible
// candidate evaluated). For ZDT the final population of 100 is checked
// against 2 % too. For DTLZ2 it is not: no set of about 100 points gets
// within 5 % of the continuous sphere's hypervolume (91 ideally spread
// Das-Dennis points fall 7.7 % short), so only the archive front is held to
// the 5 %.
func TestNSGA2ReachesTrueFront(t *testing.T) {
	tests := []struct {
		p        *problems.Problem
		tol      float64
		checkPop bool
	}{
		{problems.ZDT1(30), 0.02, true},
		{problems.ZDT2(30), 0.02, true},
		{problems.DTLZ2(12, 3), 0.05, false},
	}
	for _, tc := range tests {
		t.Run(tc.p.Name, func(t *testing.T) {
			res := runProblem(t, tc.p, 100, 250, 1, 1)
			if n := len(res.Evaluated); n != 100*250 {
				t.Fatalf("%d evaluations, want 25000", n)
			}
			ref := make([]float64, tc.p.NumObjectives)
			for j := range ref {
				ref[j] = 1.1
			}
			want, _, err := tc.p.TrueHypervolume(ref)
			if err != nil {
				t.Fatal(err)
			}
			got, err := search.Hypervolume(objectivesOf(res.Front), ref)
			if err != nil {
				t.Fatal(err)
			}
			pop, _ := search.Hypervolume(populationFront(res), ref)
			t.Logf("true HV %.5f; archive front %.5f (%d points, %.2f%% short); final population %.5f (%.2f%% short)",
				want, got, len(res.Front), 100*(1-got/want), pop, 100*(1-pop/want))
			if got < (1-tc.tol)*want || got > want*(1+1e-9) {
				t.Errorf("archive front hypervolume %.5f not within %.0f%% of %.5f", got, 100*tc.tol, want)
			}
			if tc.checkPop && pop < (1-tc.tol)*want {
				t.Errorf("final population hypervolume %.5f not within %.0f%% of %.5f", pop, 100*tc.tol, want)
			}
		})
	}
}

// TestNSGA2Constrained checks that constrained problems return only
// feasible solutions, and that they lie near the known fronts.
func TestNSGA2Constrained(t *testing.T) {
	for _, p := range []*problems.Problem{problems.BNH(), problems.SRN()} {
		t.Run(p.Name, func(t *testing.T) {
			res := runProblem(t, p, 100, 100, 3, 1)
			if len(res.Front) < 50 {
				t.Fatalf("only %d front points", len(res.Front))
			}
			for _, ind := range res.Front {
				ev := p.Evaluate(ind.Genome)
				if ev.Violation() > 0 || !ind.Feasible() {
					t.Fatalf("infeasible front member %v: constraints %v", ind.Genome, ev.Constraints)
				}
			}
			for _, ind := range res.Population {
				if !ind.Feasible() {
					t.Fatalf("final population holds an infeasible member %v", ind.Genome)
				}
			}
			// Compare with the front of a dense grid over the box.
			var grid []search.Individual[[]float64]
			const k = 400
			for a := 0; a <= k; a++ {
				for b := 0; b <= k; b++ {
					x := []float64{
						p.Lower[0] + (p.Upper[0]-p.Lower[0])*float64(a)/k,
						p.Lower[1] + (p.Upper[1]-p.Lower[1])*float64(b)/k,
					}
					ev := p.Evaluate(x)
					grid = append(grid, search.Individual[[]float64]{Genome: x, Objectives: ev.Objectives, Violation: ev.Violation()})
				}
			}
			gf := objectivesOf(search.ParetoFront(grid))
			ref := []float64{math.Inf(-1), math.Inf(-1)}
			for _, f := range gf {
				ref[0], ref[1] = max(ref[0], f[0]), max(ref[1], f[1])
			}
			ref[0] += 0.1 * math.Abs(ref[0])
			ref[1] += 0.1 * math.Abs(ref[1])
			want, _ := search.Hypervolume(gf, ref)
			got, _ := search.Hypervolume(populationFront(res), ref)
			t.Logf("grid front %d points HV %.2f; final population HV %.2f (%.2f%% short)", len(gf), want, got, 100*(1-got/want))
			if got < 0.98*want {
				t.Fatalf("hypervolume %.2f below 98%% of the grid front's %.2f", got, want)
			}
		})
	}
}

func TestNSGA2DeterministicSerialAndParallel(t *testing.T) {
	p := problems.BNH()
	a := runProblem(t, p, 40, 30, 11, 1)
	b := runProblem(t, p, 40, 30, 11, 2)
	c := runProblem(t, p, 40, 30, 11, 7)
	for name, r := range map[string]*search.Result[[]float64]{"2 workers": b, "7 workers": c} {
		if !reflect.DeepEqual(objectivesOf(a.Evaluated), objectivesOf(r.Evaluated)) {
			t.Fatalf("%s: evaluations differ from serial", name)
		}
		if !reflect.DeepEqual(objectivesOf(a.Front), objectivesOf(r.Front)) {
			t.Fatalf("%s: fronts differ from serial", name)
		}
	}
	d := runProblem(t, p, 40, 30, 12, 1)
	if reflect.DeepEqual(objectivesOf(a.Front), objectivesOf(d.Front)) {
		t.Fatal("different seeds gave identical fronts")
	}
}

// When several candidates of a batch fail, some with an evaluation error
// and some with a bad evaluation, the error reported is the first in batch
// order, whatever the number of workers.
func TestNSGA2ErrorIndependentOfWorkers(t *testing.T) {
	p := problems.ZDT1(3)
	eval := func(x []float64) (search.Evaluation, error) {
		switch {
		case x[0] < 0.15:
			return search.Evaluation{Objectives: []float64{math.NaN(), 1}}, nil
		case x[0] > 0.85:
			return search.Evaluation{}, fmt.Errorf("x0 = %v too large", x[0])
		}
		return p.Evaluate(x), nil
	}
	kinds := map[bool]int{}
	for seed := range uint64(8) {
		var want string
		for _, workers := range []int{1, 2, 3, 8} {
			alg := search.NSGA2[[]float64]{Encoding: p.Encoding(), Evaluate: eval, PopSize: 40, Generations: 3, Seed: seed, Workers: workers}
			_, err := alg.Run(context.Background())
			if err == nil {
				t.Fatalf("seed %d: want an error", seed)
			}
			if workers == 1 {
				want = err.Error()
				kinds[strings.Contains(want, "too large")]++
			} else if err.Error() != want {
				t.Fatalf("seed %d, %d workers: error %q, serial %q", seed, workers, err, want)
			}
		}
	}
	if len(kinds) != 2 {
		t.Fatalf("the seeds exercise only one kind of failure first: %v", kinds)
	}
}

// A small discrete problem whose exact front brute force gives: NSGA-II
// must find most of it, and never return duplicates.
func TestNSGA2DiscreteFindsExactFront(t *testing.T) {
	vars := make([]search.Variable, 6)
	for i := range vars {
		vars[i] = search.Variable{Name: fmt.Sprintf("x%d", i), Choices: 6}
	}
	sp, err := search.NewSpace(vars...)
	if err != nil {
		t.Fatal(err)
	}
	eval := func(g []int) (search.Evaluation, error) {
		// Two conflicting objectives with a non-convex trade-off.
		a, b := 0.0, 0.0
		for i, x := range g {
			w := float64(i + 1)
			a += w * float64(x) * float64(x)
			b += w * float64(5-x)
		}
		return search.Evaluation{Objectives: []float64{a, b}}, nil
	}
	bf := search.BruteForce{Space: sp, Evaluate: eval, MaxEvaluations: 50000}
	exact, err := bf.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	alg := search.NSGA2[[]int]{Encoding: search.NewDiscrete(sp), Evaluate: eval, PopSize: 60, Generations: 60, Seed: 5}
	res, err := alg.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, ind := range res.Evaluated {
		k := fmt.Sprint(ind.Genome)
		if seen[k] {
			// pymoo eliminates duplicates against the current population
			// and offspring only; a dead genome may come back later.
			continue
		}
		seen[k] = true
	}
	for _, pop := range [][]search.Individual[[]int]{res.Population} {
		keys := map[string]bool{}
		for _, ind := range pop {
			k := fmt.Sprint(ind.Genome)
			if keys[k] {
				t.Fatalf("duplicate genome %v in the population", ind.Genome)
			}
			keys[k] = true
		}
	}
	ref := []float64{1000, 200}
	want, _ := search.Hypervolume(objectivesOf(exact.Front), ref)
	got, _ := search.Hypervolume(objectivesOf(res.Front), ref)
	t.Logf("exact front %d points HV %.2f; NSGA-II %d points HV %.2f after %d evaluations of %d genomes",
		len(exact.Front), want, len(res.Front), got, len(res.Evaluated), len(exact.Evaluated))
	if got < 0.99*want {
		t.Fatalf("NSGA-II hypervolume %.2f below 99%% of the exact %.2f", got, want)
	}
}

func TestNSGA2Budget(t *testing.T) {
	p := problems.ZDT1(5)
	alg := search.NSGA2[[]float64]{Encoding: p.Encoding(), Evaluate: p.Func(), PopSize: 20, Offspring: 7, Generations: 100, MaxEvaluations: 75, Seed: 1, KeepGenerations: true}
	res, err := alg.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Evaluated) != 75 {
		t.Fatalf("%d evaluations, want 75", len(res.Evaluated))
	}
	// 20 initial, then generations of 7: the last gets the remaining 6.
	if g := res.Evaluated[74].Generation; g != 8 {
		t.Fatalf("last candidate from generation %d, want 8", g)
	}
	if len(res.Generations) != 9 || len(res.Generations[8].Members) != 20 {
		t.Fatalf("%d generation snapshots", len(res.Generations))
	}
	for i, ind := range res.Evaluated {
		if ind.ID != i {
			t.Fatalf("candidate %d has ID %d", i, ind.ID)
		}
	}
}

func TestNSGA2Errors(t *testing.T) {
	p := problems.ZDT1(3)
	boom := errors.New("boom")
	calls := 0
	failing := func(x []float64) (search.Evaluation, error) {
		calls++
		if calls == 30 {
			return search.Evaluation{}, boom
		}
		return p.Evaluate(x), nil
	}
	alg := search.NSGA2[[]float64]{Encoding: p.Encoding(), Evaluate: failing, PopSize: 10, Generations: 10}
	res, err := alg.Run(context.Background())
	if !errors.Is(err, boom) {
		t.Fatalf("want the evaluation error, got %v", err)
	}
	if res == nil || len(res.Evaluated) != 20 {
		t.Fatalf("want the 20 evaluations done before the failing batch")
	}

	nan := func(x []float64) (search.Evaluation, error) {
		return search.Evaluation{Objectives: []float64{math.NaN(), 1}}, nil
	}
	alg = search.NSGA2[[]float64]{Encoding: p.Encoding(), Evaluate: nan, PopSize: 10, Generations: 2}
	if _, err := alg.Run(context.Background()); err == nil {
		t.Fatal("want an error for NaN objectives")
	}

	ragged := func(x []float64) (search.Evaluation, error) {
		if x[0] < 0.5 {
			return search.Evaluation{Objectives: []float64{1}}, nil
		}
		return search.Evaluation{Objectives: []float64{1, 2}}, nil
	}
	alg = search.NSGA2[[]float64]{Encoding: p.Encoding(), Evaluate: ragged, PopSize: 20, Generations: 2}
	if _, err := alg.Run(context.Background()); err == nil {
		t.Fatal("want an error for a varying number of objectives")
	}

	for _, bad := range []search.NSGA2[[]float64]{
		{Evaluate: p.Func(), PopSize: 10, Generations: 1},
		{Encoding: p.Encoding(), PopSize: 10, Generations: 1},
		{Encoding: p.Encoding(), Evaluate: p.Func(), PopSize: 0, Generations: 1},
		{Encoding: p.Encoding(), Evaluate: p.Func(), PopSize: 10, Generations: 0},
		{Encoding: &search.Real{Lower: []float64{1}, Upper: []float64{0}}, Evaluate: p.Func(), PopSize: 10, Generations: 1},
	} {
		if _, err := bad.Run(context.Background()); err == nil {
			t.Errorf("want a configuration error for %+v", bad)
		}
	}

	ctx, cancel := context.WithCancel(context.Background())
	gens := 0
	alg = search.NSGA2[[]float64]{Encoding: p.Encoding(), Evaluate: p.Func(), PopSize: 10, Generations: 50,
		OnGeneration: func(gen int, pop []search.Individual[[]float64]) {
			gens++
			if gen == 3 {
				cancel()
			}
		}}
	res, err = alg.Run(ctx)
	if !errors.Is(err, context.Canceled) || gens != 4 || len(res.Evaluated) != 40 {
		t.Fatalf("cancel: err %v after %d generations and %d evaluations", err, gens, len(res.Evaluated))
	}
}

func TestRowsRoundTrip(t *testing.T) {
	p := problems.BNH()
	alg := search.NSGA2[[]float64]{Encoding: p.Encoding(), Evaluate: p.Func(), PopSize: 12, Generations: 4, Seed: 2, KeepGenerations: true}
	res, err := alg.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	rows := search.Rows("bnh", res)
	if len(rows) != len(res.Evaluated)+4*12 {
		t.Fatalf("%d rows", len(rows))
	}
	fronts := 0
	for _, r := range rows[:len(res.Evaluated)] {
		if r.Kind != "evaluated" || len(r.X) != 2 || len(r.Genes) != 0 || len(r.Objectives) != 2 || r.Parent != -1 {
			t.Fatalf("bad evaluated row %+v", r)
		}
		if r.Front {
			fronts++
		}
	}
	if fronts != len(res.Front) {
		t.Fatalf("%d rows on the front, result front has %d", fronts, len(res.Front))
	}
	last := rows[len(rows)-12:]
	for k, r := range last {
		m := res.Generations[3].Members[k]
		if r.Kind != "population" || r.Generation != 3 || r.Candidate != int64(m.ID) || r.Rank != int64(m.Rank) {
			t.Fatalf("bad population row %+v for member %+v", r, m)
		}
	}
	path := filepath.Join(t.TempDir(), "bnh.parquet")
	if err := search.WriteRows(path, rows, map[string]string{"problem": "bnh"}); err != nil {
		t.Fatal(err)
	}
	back, meta, err := pqio.Read[search.Row](path)
	if err != nil {
		t.Fatal(err)
	}
	if len(back) != len(rows) || meta["gnnsim.problem"] != "bnh" {
		t.Fatalf("read back %d rows, meta %v", len(back), meta)
	}
	for i := range rows {
		if !reflect.DeepEqual(rows[i].X, back[i].X) || !reflect.DeepEqual(rows[i].Objectives, back[i].Objectives) ||
			rows[i].Rank != back[i].Rank || rows[i].Front != back[i].Front {
			t.Fatalf("row %d changed in the round trip", i)
		}
	}
	if err := search.WriteRows(filepath.Join(t.TempDir(), "missing", "x.parquet"), rows, nil); err == nil {
		t.Fatal("want an error for a missing directory")
	}
}

// BenchmarkNSGA2ZDT1 runs whole generations (SBX, PM, duplicate
// elimination, evaluation, survival) of 200 on ZDT1 with 30 variables.
func BenchmarkNSGA2ZDT1(b *testing.B) {
	p := problems.ZDT1(30)
	const gens = 50
	for b.Loop() {
		alg := search.NSGA2[[]float64]{Encoding: p.Encoding(), Evaluate: p.Func(), PopSize: 200, Generations: gens, Seed: 1}
		if _, err := alg.Run(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*gens), "ns/generation")
}
