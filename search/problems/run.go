package problems

import (
	"context"
	"fmt"
	"strconv"

	"gnnsim/internal/cliflag"
	"gnnsim/search"
)

// Limits of a run on a test problem ('gnnsim search nsga2' states them).
const (
	MaxPop         = 100_000
	MaxGenerations = 1_000_000
	MaxEvaluations = 10_000_000
)

// RunOptions are an NSGA-II run on a test problem as 'gnnsim search
// nsga2' gives them; errors name its flags.
type RunOptions struct {
	Problem                     string
	Pop, Offspring, Generations int
	Seed                        uint64
	Workers                     int
	KeepGenerations             bool
	Ref                         string // hypervolume reference point, comma-separated ("": the default)
}

// CheckSizes checks the run's sizes against the limits before any work.
func (o RunOptions) CheckSizes() error {
	pop, offspring, gens := o.Pop, o.Offspring, o.Generations
	if err := cliflag.CheckRange("pop", pop, 1, MaxPop); err != nil {
		return err
	}
	if err := cliflag.CheckRange("offspring", offspring, 0, MaxPop); err != nil {
		return err
	}
	if err := cliflag.CheckRange("generations", gens, 1, MaxGenerations); err != nil {
		return err
	}
	if err := cliflag.CheckWorkers(o.Workers); err != nil {
		return err
	}
	if evals := pop + (gens-1)*max(offspring, pop); evals > MaxEvaluations {
		return fmt.Errorf("--pop %d, --offspring %d, --generations %d: %d evaluations, above the limit of %d", pop, offspring, gens, evals, MaxEvaluations)
	}
	return nil
}

// Run checks the options, runs NSGA-II on the problem and measures the
// result. A cancelled ctx stops the run within a generation.
func Run(ctx context.Context, o RunOptions) (*Summary, *search.Result[[]float64], error) {
	if err := o.CheckSizes(); err != nil {
		return nil, nil, err
	}
	p, err := ByName(o.Problem)
	if err != nil {
		return nil, nil, err
	}
	ref, err := search.ParsePoint(o.Ref, p.NumObjectives)
	if err != nil {
		return nil, nil, fmt.Errorf("--ref: %w", err)
	}
	alg := search.NSGA2[[]float64]{
		Encoding: p.Encoding(), Evaluate: p.Func(),
		PopSize: o.Pop, Offspring: o.Offspring, Generations: o.Generations,
		Seed: o.Seed, Workers: o.Workers, KeepGenerations: o.KeepGenerations,
	}
	res, err := alg.Run(ctx)
	if ctx.Err() != nil {
		return nil, nil, fmt.Errorf("interrupted after %d evaluations: nothing written; rerun the command to start again", len(res.Evaluated))
	}
	if err != nil {
		return nil, nil, err
	}
	sum, err := NewSummary(p, res, ref)
	return sum, res, err
}

// Meta is the run's keys in a result file's metadata.
func (o RunOptions) Meta() map[string]string {
	return map[string]string{
		"command": "search nsga2", "problem": o.Problem, "seed": strconv.FormatUint(o.Seed, 10),
		"pop": strconv.Itoa(o.Pop), "generations": strconv.Itoa(o.Generations), "offspring": strconv.Itoa(o.Offspring),
	}
}
