package sched

import (
	"context"
	"fmt"

	"gnnsim/sim"
)

// SharedSeeds is a schedule of jobs on one SoC's units over several seeds
// and policies (the SoC path of gnnsim schedule): each seed draws its own
// trace (or every seed replays Replay) and every policy runs on it.
type SharedSeeds struct {
	Classes  []JobClass
	Machines []string    // the units that take jobs
	Units    int         // the SoC's units (those that take no jobs included)
	Channel  sim.Channel // the shared memory
	Mixed    float64     // the SoC's mixed-traffic efficiency (SetMixedEfficiency)
	// Arrivals generate each seed's trace, unless Replay is given.
	Arrivals SharedArrivals
	Replay   []SharedJob
	Seeds    []uint64
	Policies []string // names for ByName
	// Done, when not nil, is called after each run; an error it returns
	// stops the schedule (a budget found too long, say).
	Done func() error
	// Context, when not nil, stops the schedule with its error once it is
	// done (a SIGTERM), within a run.
	Context context.Context

	// Runs are the runs' metrics, seed-major then in Policies' order;
	// Slowdown each policy's runs' mean execution / contention-free
	// latency; Problem the last seed's problem. Set by Run.
	Runs     []Metrics
	Slowdown map[string][]float64
	Problem  *SharedProblem
}

// Run runs every policy on every seed's trace, handing each run to add as
// it ends (its records are not kept: the caller streams them).
func (s *SharedSeeds) Run(add func(*SharedProblem, *Result) error) error {
	s.Slowdown = map[string][]float64{}
	for _, seed := range s.Seeds {
		jobs := s.Replay
		if jobs == nil {
			var err error
			if jobs, err = GenerateShared(s.Classes, s.Arrivals, seed); err != nil {
				return err
			}
		}
		if s.Problem == nil || s.Replay == nil {
			var err error
			if s.Problem, err = NewSharedProblem(s.Classes, jobs, s.Machines, s.Units, s.Channel); err != nil {
				return err
			}
			if err := s.Problem.SetMixedEfficiency(s.Mixed); err != nil {
				return err
			}
		}
		for _, name := range s.Policies {
			if err := s.runOne(seed, name, add); err != nil {
				return err
			}
			if s.Done != nil {
				if err := s.Done(); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// runOne runs policy name on the current seed's problem.
func (s *SharedSeeds) runOne(seed uint64, name string, add func(*SharedProblem, *Result) error) error {
	pol, err := ByName(name)
	if err != nil {
		return fmt.Errorf("--policies: %w", err)
	}
	res, err := RunShared(s.Problem, pol, Options{Seed: seed, Context: s.Context})
	if err != nil {
		if s.Context != nil && s.Context.Err() != nil {
			return s.Context.Err()
		}
		return fmt.Errorf("--policies %s: %w", name, err)
	}
	s.Runs = append(s.Runs, res.Metrics())
	var sd float64
	for _, rec := range res.Records {
		sd += float64(rec.Finish-rec.Start) / float64(rec.TrueCycles)
	}
	s.Slowdown[res.Policy.Name] = append(s.Slowdown[res.Policy.Name], sd/float64(len(res.Records)))
	return add(s.Problem, res)
}
