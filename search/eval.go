package search

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"gnnsim/internal/par"
)

// Evaluation is what a caller's evaluation function returns for one
// candidate. The search keeps the slices; the caller must not modify them
// afterwards.
type Evaluation struct {
	// Objectives are minimised. Every evaluation of a run must return the
	// same number of finite objectives.
	Objectives []float64
	// Constraints are satisfied when <= 0 (for a latency target L,
	// g = latency - L, or latency/L - 1 to make violations comparable).
	Constraints []float64
	// Info is an arbitrary payload kept with the candidate (e.g. the
	// mapping a model chose, or a nested search's inner result).
	Info any
}

// Violation is the total constraint violation: the sum of max(0, g).
func (e Evaluation) Violation() float64 {
	v := 0.0
	for _, g := range e.Constraints {
		if g > 0 {
			v += g
		}
	}
	return v
}

// EvalFunc evaluates one genome. When a search runs with Workers > 1 it is
// called concurrently and must be safe for that; for results identical to a
// serial run it must depend only on the genome.
type EvalFunc[G any] func(g G) (Evaluation, error)

// Individual is one evaluated candidate.
type Individual[G any] struct {
	// ID numbers candidates in evaluation order within a run, from 0; it
	// indexes Result.Evaluated.
	ID int
	// Generation is the generation (or batch, or iteration) that created
	// the candidate; the initial population is generation 0.
	Generation int
	Genome     G
	// Objectives, Constraints and Info are the evaluation's.
	Objectives  []float64
	Constraints []float64
	Info        any
	// Violation is the total constraint violation (0 when feasible).
	Violation float64
	// Rank and Crowding are the front index (0 = non-dominated) and the
	// crowding distance within the set the candidate was ranked in: the
	// whole archive for Result.Evaluated, the population for
	// Result.Population and generation snapshots. Infeasible candidates rank
	// after all feasible fronts in order of violation (equal violations
	// share a rank), with crowding 0. -1 means never ranked.
	Rank     int
	Crowding float64
}

func newIndividual[G any](id, gen int, g G, ev Evaluation) Individual[G] {
	return Individual[G]{
		ID: id, Generation: gen, Genome: g,
		Objectives: ev.Objectives, Constraints: ev.Constraints, Info: ev.Info,
		Violation: ev.Violation(), Rank: -1,
	}
}

// Feasible reports whether the candidate satisfies all its constraints.
func (ind *Individual[G]) Feasible() bool { return ind.Violation <= 0 }

// pcgStream is the second PCG word for every generator of this package, so
// that a seed alone fixes a run.
const pcgStream = 0x676e6e73696d5f73 // "gnnsim_s"

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, pcgStream)) }

// evaluator checks evaluations and fills Individuals, possibly on several
// goroutines.
type evaluator[G any] struct {
	eval    EvalFunc[G]
	workers int
	ctx     context.Context // stops a batch early; nil: never
	nObj    int             // fixed by the first evaluation; 0 until then
	errs    []error
	evals   []Evaluation // appendTo's scratch
}

// appendTo evaluates gs and appends them to archive as candidates of
// generation gen, their IDs continuing from len(archive).
func (e *evaluator[G]) appendTo(archive []Individual[G], gs []G, gen int) ([]Individual[G], error) {
	e.evals = grow(e.evals, len(gs))
	if err := e.run(gs, e.evals); err != nil {
		return archive, err
	}
	for i, g := range gs {
		archive = append(archive, newIndividual(len(archive), gen, g, e.evals[i]))
	}
	clear(e.evals) // the archive holds the results now
	return archive, nil
}

// run evaluates gs into out[i] (which must have len(gs)) with par.For, and
// then checks the evaluations in index order. The first failure in index
// order is reported, an evaluation error or a bad evaluation alike: par.For
// runs every index below the lowest failing evaluation, so the outcome does
// not depend on the worker count or on goroutine timing.
func (e *evaluator[G]) run(gs []G, out []Evaluation) error {
	n := len(gs)
	if cap(e.errs) < n {
		e.errs = make([]error, n)
	}
	errs := e.errs[:n]
	clear(errs)
	// Workers <= 1 means serial here, not par's "all CPUs": EvalFunc need
	// not be safe for concurrent use unless Workers > 1. For's error is the
	// first non-nil errs entry, which the loop below reports in turn.
	par.For(n, max(e.workers, 1), func(i int) error {
		// A cancelled run skips the rest of the batch: one evaluation can
		// take seconds (a training, a large graph's latency).
		if e.ctx != nil && e.ctx.Err() != nil {
			errs[i] = e.ctx.Err()
			return errs[i]
		}
		out[i], errs[i] = e.eval(gs[i])
		return errs[i]
	})
	for i := range errs {
		if errs[i] != nil {
			return fmt.Errorf("evaluating candidate %d of batch: %w", i, errs[i])
		}
		if err := e.check(&out[i]); err != nil {
			return fmt.Errorf("evaluating candidate %d of batch: %w", i, err)
		}
	}
	return nil
}

func (e *evaluator[G]) check(ev *Evaluation) error {
	if len(ev.Objectives) == 0 {
		return fmt.Errorf("no objectives returned")
	}
	if e.nObj == 0 {
		e.nObj = len(ev.Objectives)
	} else if len(ev.Objectives) != e.nObj {
		return fmt.Errorf("%d objectives returned, earlier evaluations returned %d", len(ev.Objectives), e.nObj)
	}
	for j, f := range ev.Objectives {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return fmt.Errorf("objective %d is %v; express failures as constraint violations", j, f)
		}
	}
	for j, g := range ev.Constraints {
		if math.IsNaN(g) {
			return fmt.Errorf("constraint %d is NaN", j)
		}
	}
	return nil
}
