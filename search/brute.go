package search

import (
	"context"
	"fmt"
	"slices"
)

// BruteForce evaluates every genome of a small space, such as the DVFS
// settings of MaGNAS's innermost level (seed 000, section 4.3.5).
type BruteForce struct {
	Space    *Space
	Evaluate EvalFunc[[]int]
	// MaxEvaluations refuses spaces with more genomes; it is required so
	// that a mistaken space never starts an endless enumeration.
	MaxEvaluations int
	// BatchSize genomes are evaluated together (in parallel with
	// Workers); 0 means 100.
	BatchSize int
	Workers   int
}

// Run evaluates the whole space in lexicographic order of the genes.
func (c *BruteForce) Run(ctx context.Context) (*Result[[]int], error) {
	switch {
	case c.Space == nil:
		return nil, fmt.Errorf("brute force: no space")
	case c.Evaluate == nil:
		return nil, fmt.Errorf("brute force: no evaluation function")
	case c.MaxEvaluations < 1:
		return nil, fmt.Errorf("brute force: budget of %d evaluations", c.MaxEvaluations)
	case c.BatchSize < 0:
		return nil, fmt.Errorf("brute force: negative batch size %d", c.BatchSize)
	}
	if n, ok := c.Space.Count(c.MaxEvaluations); !ok {
		return nil, fmt.Errorf("brute force: space has more than %d genomes (budget %d)", n-1, c.MaxEvaluations)
	}
	batch := c.BatchSize
	if batch == 0 {
		batch = 100
	}
	ev := evaluator[[]int]{eval: c.Evaluate, workers: c.Workers, ctx: ctx}
	res := &Result[[]int]{}
	var gs [][]int
	var err error
	flush := func() {
		if err != nil || len(gs) == 0 {
			return
		}
		if err = ctx.Err(); err != nil {
			return
		}
		gen := len(res.Evaluated) / batch
		if res.Evaluated, err = ev.appendTo(res.Evaluated, gs, gen); err != nil {
			err = fmt.Errorf("brute force: batch %d: %w", gen, err)
			return
		}
		gs = gs[:0]
	}
	for g := range c.Space.All() {
		gs = append(gs, slices.Clone(g))
		if len(gs) == batch {
			flush()
			if err != nil {
				break
			}
		}
	}
	flush()
	var rk ranker
	res.Front = rankArchive(&rk, res.Evaluated)
	return res, err
}
