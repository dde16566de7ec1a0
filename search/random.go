package search

import (
	"context"
	"fmt"
)

// RandomSearch evaluates uniformly sampled, distinct genomes: the baseline
// every other search is compared with at an equal evaluation budget.
type RandomSearch[G any] struct {
	Sampler  Sampler[G]
	Evaluate EvalFunc[G]
	// Evaluations is the budget; the search stops earlier only if the
	// sampler keeps returning genomes already evaluated.
	Evaluations int
	// BatchSize genomes are drawn, then evaluated together (in parallel
	// with Workers); a batch's index is its candidates' Generation.
	// 0 means 100.
	BatchSize int
	Seed      uint64
	Workers   int
}

// Run executes the search.
func (c *RandomSearch[G]) Run(ctx context.Context) (*Result[G], error) {
	switch {
	case c.Sampler == nil:
		return nil, fmt.Errorf("random search: no sampler")
	case c.Evaluate == nil:
		return nil, fmt.Errorf("random search: no evaluation function")
	case c.Evaluations < 1:
		return nil, fmt.Errorf("random search: budget of %d evaluations", c.Evaluations)
	case c.BatchSize < 0:
		return nil, fmt.Errorf("random search: negative batch size %d", c.BatchSize)
	}
	if err := validateEncoding(c.Sampler); err != nil {
		return nil, fmt.Errorf("random search: %w", err)
	}
	batch := c.BatchSize
	if batch == 0 {
		batch = 100
	}
	r := newRand(c.Seed)
	ev := evaluator[G]{eval: c.Evaluate, workers: c.Workers, ctx: ctx}
	seen := newGenomeSet(c.Sampler)
	res := &Result[G]{}
	var gs []G
	var err error
	for gen := 0; len(res.Evaluated) < c.Evaluations; gen++ {
		if err = ctx.Err(); err != nil {
			break
		}
		gs = gs[:0]
		want := min(batch, c.Evaluations-len(res.Evaluated))
		for tries := 0; len(gs) < want && tries < maxInfillRounds*want; tries++ {
			if g := c.Sampler.Sample(r); seen.add(g) {
				gs = append(gs, g)
			}
		}
		if len(gs) == 0 {
			break // the space looks exhausted
		}
		if res.Evaluated, err = ev.appendTo(res.Evaluated, gs, gen); err != nil {
			err = fmt.Errorf("random search: batch %d: %w", gen, err)
			break
		}
	}
	var rk ranker
	res.Front = rankArchive(&rk, res.Evaluated)
	return res, err
}
