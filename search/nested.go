package search

import (
	"context"
	"fmt"
	"sync"

	"gnnsim/internal/splitmix"
)

// Nested is a two-tier search (MaGNAS's outer and inner optimisation
// engines, seed 000 sections 4.2-4.3; HADAS's nested search, seed 003
// section IV). An outer NSGA-II explores candidates O (e.g. GNN
// architectures); each outer candidate is scored by an inner search over
// candidates I that depend on it (e.g. its mappings onto compute units, or
// DVFS settings): NSGA-II, BruteForce or RandomSearch, with its own budget.
//
// The inner search's feasible Pareto front (the compliant solutions: inner
// constraints such as latency or energy targets filter the rest) goes to
// Combine, which returns the outer candidate's evaluation: for MaGNAS the
// latency and energy of the best mapping m* next to the accuracy. When no
// inner solution is compliant, the outer candidate gets Standalone's
// evaluation instead (section 4.3.3: "the standalone evaluations are
// returned"); without Standalone it gets Combine's evaluation of the least
// violating inner solution plus one more constraint holding that violation,
// so the outer search sees it as infeasible. Outer constraints returned by
// Combine or Standalone act in the outer NSGA-II's selection, as MaGNAS
// applies targets at the outer level.
//
// Every outer candidate is kept in Result.Evaluated with an *InnerOutcome
// in Info (see InnerOf). An outer genome evaluated again (NSGA-II removes
// duplicates only within the population, as pymoo does) reuses its first
// outcome instead of repeating the inner search: the result is the same,
// since the inner seed depends only on the genome.
type Nested[O, I any] struct {
	// Outer configures the outer NSGA-II; its Evaluate must be nil.
	// Outer.Workers runs inner searches in parallel.
	Outer NSGA2[O]
	// Inner runs the inner search for one outer candidate. seed is derived
	// from Outer.Seed and the outer genome, so the same outer genome always
	// gets the same inner search.
	Inner func(ctx context.Context, outer O, seed uint64) (*Result[I], error)
	// Combine turns the compliant inner front into the outer evaluation.
	Combine func(outer O, compliant []Individual[I]) (Evaluation, error)
	// Standalone, if set, evaluates an outer candidate on its own, for the
	// fallback.
	Standalone func(outer O) (Evaluation, error)
	// KeepInner keeps every inner candidate in InnerOutcome.All, not only
	// the compliant front.
	KeepInner bool
}

// InnerOutcome records how an outer candidate was scored.
type InnerOutcome[I any] struct {
	// Evaluations is the number of inner candidates evaluated.
	Evaluations int
	// Compliant is the inner search's feasible Pareto front, as given to
	// Combine.
	Compliant []Individual[I]
	// Fallback is set when no inner solution was compliant.
	Fallback bool
	// All holds every inner candidate when Nested.KeepInner is set.
	All []Individual[I]
	// Info is the Info of Combine's or Standalone's evaluation.
	Info any
	// Cached marks a repeated outer genome whose outcome was reused; its
	// Evaluations is 0 and All is nil, so inner candidates are counted and
	// listed once.
	Cached bool
}

// InnerOf returns the inner outcome recorded for an outer candidate of a
// nested search, or nil.
func InnerOf[O, I any](ind Individual[O]) *InnerOutcome[I] {
	out, _ := ind.Info.(*InnerOutcome[I])
	return out
}

// Run executes the nested search and returns the outer search's result.
func (c *Nested[O, I]) Run(ctx context.Context) (*Result[O], error) {
	switch {
	case c.Inner == nil:
		return nil, fmt.Errorf("nested: no inner search")
	case c.Combine == nil:
		return nil, fmt.Errorf("nested: no combine function")
	case c.Outer.Evaluate != nil:
		return nil, fmt.Errorf("nested: the outer search's evaluation is the inner search; leave Outer.Evaluate nil")
	case c.Outer.Encoding == nil:
		return nil, fmt.Errorf("nested: no outer encoding")
	}
	outer := c.Outer
	enc := outer.Encoding
	base := splitmix.Mix64(outer.Seed ^ 0x6e65737465640000) // "nested": decorrelate from the outer stream
	// A batch never holds the same genome twice, so a genome is never
	// evaluated by two goroutines at once and the cache needs only a lock.
	var mu sync.Mutex
	seen := newGenomeSet(enc)
	var done []Evaluation
	outer.Evaluate = func(o O) (Evaluation, error) {
		mu.Lock()
		i := seen.indexOf(o)
		var prev Evaluation
		if i >= 0 {
			prev = done[i]
		}
		mu.Unlock()
		if i >= 0 {
			cached := *prev.Info.(*InnerOutcome[I])
			cached.Evaluations, cached.All, cached.Cached = 0, nil, true
			prev.Info = &cached
			return prev, nil
		}
		ev, err := c.evaluate(ctx, o, splitmix.Mix64(base^enc.Hash(o)))
		if err == nil {
			mu.Lock()
			if seen.add(o) {
				done = append(done, ev)
			}
			mu.Unlock()
		}
		return ev, err
	}
	res, err := outer.Run(ctx)
	if err != nil {
		return res, fmt.Errorf("nested: %w", err)
	}
	return res, nil
}

func (c *Nested[O, I]) evaluate(ctx context.Context, o O, seed uint64) (Evaluation, error) {
	in, err := c.Inner(ctx, o, seed)
	if err != nil {
		return Evaluation{}, fmt.Errorf("inner search: %w", err)
	}
	if in == nil {
		return Evaluation{}, fmt.Errorf("inner search returned no result")
	}
	out := &InnerOutcome[I]{Evaluations: len(in.Evaluated), Compliant: in.Front}
	if c.KeepInner {
		out.All = in.Evaluated
	}
	var ev Evaluation
	switch {
	case len(in.Front) > 0:
		ev, err = c.Combine(o, in.Front)
		if err != nil {
			return Evaluation{}, fmt.Errorf("combine: %w", err)
		}
	case c.Standalone != nil:
		out.Fallback = true
		ev, err = c.Standalone(o)
		if err != nil {
			return Evaluation{}, fmt.Errorf("standalone evaluation: %w", err)
		}
	case len(in.Evaluated) > 0:
		out.Fallback = true
		least := &in.Evaluated[0]
		for i := range in.Evaluated {
			if in.Evaluated[i].Violation < least.Violation {
				least = &in.Evaluated[i]
			}
		}
		ev, err = c.Combine(o, []Individual[I]{*least})
		if err != nil {
			return Evaluation{}, fmt.Errorf("combine: %w", err)
		}
		ev.Constraints = append(append([]float64(nil), ev.Constraints...), least.Violation)
	default:
		return Evaluation{}, fmt.Errorf("inner search evaluated nothing and there is no standalone evaluation")
	}
	out.Info = ev.Info
	ev.Info = out
	return ev, nil
}
