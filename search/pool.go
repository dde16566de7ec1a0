package search

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// Pool is G-CoS's pool-based evolutionary search (seed 001, Algorithm 1)
// for one objective under constraints. While the pool holds at most
// PoolSize designs, Rate*PoolSize new ones are added: random designs at
// first, afterwards one mutant of each of the Rate*PoolSize best; once the
// pool is larger, the Rate*PoolSize worst are removed. It stops when the
// mean objective of the best Outputs designs reaches Target (if
// UseTarget), or when the budget is spent.
//
// Designs are ordered by Deb's rules: feasible before infeasible, feasible
// ones by objective, infeasible ones by violation, ties by age. The
// mutation chance is the encoding's (G-CoS uses 0.5: Discrete.MutationProb).
type Pool[G any] struct {
	Encoding Encoding[G]
	// Evaluate must return exactly one objective (minimised; negate a
	// fitness to maximise).
	Evaluate EvalFunc[G]
	// PoolSize is p_max.
	PoolSize int
	// Rate is the birth/dying rate s in (0, 1]; 0 means G-CoS's 0.2. At
	// least one design is born or dies per step.
	Rate float64
	// Outputs is N2, the number of best designs averaged for the target
	// test; 0 means 1.
	Outputs int
	// Target stops the search once the best Outputs designs are feasible
	// and their mean objective is <= Target; it is used only if UseTarget.
	Target    float64
	UseTarget bool
	// MaxEvaluations is the budget (required).
	MaxEvaluations int
	Seed           uint64
	Workers        int
}

// Run executes the search. Result.Population is the final pool, best
// first and ranked within itself (equal objectives share a rank); its
// first Outputs designs are Algorithm 1's output.
func (c *Pool[G]) Run(ctx context.Context) (*Result[G], error) {
	switch {
	case c.Encoding == nil:
		return nil, fmt.Errorf("pool: no encoding")
	case c.Evaluate == nil:
		return nil, fmt.Errorf("pool: no evaluation function")
	case c.PoolSize < 1:
		return nil, fmt.Errorf("pool: pool size %d", c.PoolSize)
	case !(c.Rate >= 0 && c.Rate <= 1):
		return nil, fmt.Errorf("pool: birth/dying rate %v outside (0, 1]", c.Rate)
	case c.Outputs < 0:
		return nil, fmt.Errorf("pool: negative output count %d", c.Outputs)
	case c.MaxEvaluations < 1:
		return nil, fmt.Errorf("pool: budget of %d evaluations", c.MaxEvaluations)
	case c.UseTarget && math.IsNaN(c.Target):
		return nil, fmt.Errorf("pool: target is NaN")
	}
	if err := validateEncoding(c.Encoding); err != nil {
		return nil, fmt.Errorf("pool: %w", err)
	}
	outputs := max(c.Outputs, 1)
	rate := c.Rate
	if rate == 0 {
		rate = 0.2
	}
	step := max(1, int(math.Round(rate*float64(c.PoolSize))))
	r := newRand(c.Seed)
	ev := evaluator[G]{eval: c.Evaluate, workers: c.Workers, ctx: ctx}
	seen := newGenomeSet(c.Encoding)
	res := &Result[G]{}
	var pool []int // archive IDs
	var gs []G
	var evals []Evaluation
	byQuality := func(a, b int) int { return compareSingle(&res.Evaluated[a], &res.Evaluated[b]) }
	var err error
	for gen := 0; len(res.Evaluated) < c.MaxEvaluations; {
		if err = ctx.Err(); err != nil {
			break
		}
		slices.SortFunc(pool, byQuality)
		if len(pool) > c.PoolSize {
			pool = pool[:len(pool)-step]
		} else {
			want := min(step, c.MaxEvaluations-len(res.Evaluated))
			gs = gs[:0]
			if len(pool) == 0 {
				for tries := 0; len(gs) < want && tries < maxInfillRounds*want; tries++ {
					if g := c.Encoding.Sample(r); seen.add(g) {
						gs = append(gs, g)
					}
				}
			} else {
				for _, id := range pool[:min(want, len(pool))] {
					if g, ok := c.offspring(r, seen, res.Evaluated[id].Genome); ok {
						gs = append(gs, g)
					}
				}
			}
			if len(gs) == 0 {
				break // neither mutation nor sampling finds new designs
			}
			evals = grow(evals, len(gs))
			if err = ev.run(gs, evals); err != nil {
				err = fmt.Errorf("pool: step %d: %w", gen, err)
				break
			}
			for i, g := range gs {
				if len(evals[i].Objectives) != 1 {
					err = fmt.Errorf("pool: %d objectives returned, want 1", len(evals[i].Objectives))
					break
				}
				pool = append(pool, len(res.Evaluated))
				res.Evaluated = append(res.Evaluated, newIndividual(len(res.Evaluated), gen, g, evals[i]))
			}
			if err != nil {
				break
			}
			gen++
			slices.SortFunc(pool, byQuality)
		}
		if c.UseTarget && c.reached(res.Evaluated, pool, outputs) {
			break
		}
	}
	slices.SortFunc(pool, byQuality)
	for _, id := range pool {
		res.Population = append(res.Population, res.Evaluated[id])
	}
	var rk ranker
	rankArchive(&rk, res.Population)
	res.Front = rankArchive(&rk, res.Evaluated)
	return res, err
}

// offspring mutates parent until it finds a genome not evaluated before;
// if mutation keeps repeating itself it falls back to sampling.
func (c *Pool[G]) offspring(r *rand.Rand, seen *genomeSet[G], parent G) (G, bool) {
	for range maxInfillRounds {
		if g := c.Encoding.Mutate(r, parent); seen.add(g) {
			return g, true
		}
	}
	for range maxInfillRounds {
		if g := c.Encoding.Sample(r); seen.add(g) {
			return g, true
		}
	}
	var zero G
	return zero, false
}

func (c *Pool[G]) reached(inds []Individual[G], pool []int, outputs int) bool {
	if len(pool) < outputs {
		return false
	}
	sum := 0.0
	for _, id := range pool[:outputs] {
		if !inds[id].Feasible() {
			return false
		}
		sum += inds[id].Objectives[0]
	}
	return sum/float64(outputs) <= c.Target
}

// compareSingle orders single-objective candidates by Deb's rules:
// feasible first, by objective; infeasible by violation; then by ID.
func compareSingle[G any](a, b *Individual[G]) int {
	fa, fb := a.Feasible(), b.Feasible()
	switch {
	case fa && !fb:
		return -1
	case fb && !fa:
		return 1
	case fa:
		if c := cmp.Compare(a.Objectives[0], b.Objectives[0]); c != 0 {
			return c
		}
	default:
		if c := cmp.Compare(a.Violation, b.Violation); c != 0 {
			return c
		}
	}
	return cmp.Compare(a.ID, b.ID)
}
