package hadas

import (
	"context"
	"fmt"

	"gnnsim/search"
)

// Searcher is HADAS's nested search of AttentiveNAS backbones, their exits
// and DVFS on one target.
type Searcher struct {
	Space   AttentiveSpace
	Target  Target
	Acc     Accuracy
	Classes int // classifier width (CIFAR-100: 100)
}

// Config configures the nested search.
type Config struct {
	// OuterPop x OuterGen is the outer budget (paper: 450 evaluations).
	OuterPop, OuterGen int
	Inner              InnerConfig
	Seed               uint64
	// Workers runs outer candidates' inner searches in parallel; results
	// do not depend on it.
	Workers int
}

// DefaultConfig is the paper's budget: 30 x 15 = 450 outer evaluations,
// each with an inner search of 50 x 70 = 3,500.
func DefaultConfig() Config {
	return Config{OuterPop: 30, OuterGen: 15, Inner: DefaultInner(), Seed: 1}
}

// Candidate is one evaluated backbone: its static evaluation S(b) at MaxN
// and its inner front.
type Candidate struct {
	Arch       Arch
	Generation int
	Top1       float64 // Acc_b
	EnergyPJ   float64 // E_b at MaxN
	LatencyPS  float64 // L_b at MaxN
	Inner      *InnerResult
	// OnFront marks the outer Pareto front.
	OnFront bool
}

// Result is the nested search's outcome: every outer candidate in
// evaluation order (repeated genomes once) and the outer search itself.
type Result struct {
	Candidates []Candidate
	Outer      *search.Result[[]int]
	// InnerEvaluations counts inner evaluations over all candidates.
	InnerEvaluations int
}

// Prepare returns the inner engine of architecture a.
func (s *Searcher) Prepare(a Arch, cfg InnerConfig) (*Engine, error) {
	b, err := s.Space.Backbone(a, s.Classes)
	if err != nil {
		return nil, err
	}
	curve, err := s.Acc.Curve(b)
	if err != nil {
		return nil, err
	}
	c, err := NewCosts(s.Target, b)
	if err != nil {
		return nil, err
	}
	return NewEngine(c, curve, cfg)
}

// Evaluate runs the IOE of a fixed backbone (an optimised baseline).
func (s *Searcher) Evaluate(ctx context.Context, a Arch, cfg InnerConfig, seed uint64) (Candidate, error) {
	e, err := s.Prepare(a, cfg)
	if err != nil {
		return Candidate{}, err
	}
	in, err := e.Run(ctx, seed)
	if err != nil {
		return Candidate{}, err
	}
	return Candidate{Arch: a, Top1: e.Curve.Final(), EnergyPJ: e.Static.FullPJ, LatencyPS: e.Static.FullPS, Inner: in}, nil
}

// Search runs the nested search. The outer objectives (minimised) are the
// static top-1 error 1 - Acc_b and energy E_b at MaxN (S(b), Eq. 3) and
// the least expected energy of the inner front (the dynamic side D(x*, f*
// | b)): HADAS's psi, kept as three objectives for NSGA-II's ranking.
func (s *Searcher) Search(ctx context.Context, cfg Config) (*Result, error) {
	if s.Acc == nil || s.Classes <= 0 {
		return nil, fmt.Errorf("hadas: searcher needs an accuracy source and a class count")
	}
	sp, err := s.Space.searchSpace()
	if err != nil {
		return nil, fmt.Errorf("hadas: %w", err)
	}
	enc := search.NewDiscrete(sp)
	n := &search.Nested[[]int, []int]{
		Outer: search.NSGA2[[]int]{Encoding: enc, PopSize: cfg.OuterPop, Generations: cfg.OuterGen, Seed: cfg.Seed, Workers: cfg.Workers},
		Inner: func(ctx context.Context, g []int, seed uint64) (*search.Result[[]int], error) {
			a, err := s.Space.Decode(g)
			if err != nil {
				return nil, err
			}
			c, err := s.Evaluate(ctx, a, cfg.Inner, seed)
			if err != nil {
				return nil, err
			}
			res := c.Inner.Search
			// The front's first individual carries the candidate to Combine.
			if len(res.Front) > 0 {
				res.Front[0].Info = &c
			}
			return res, nil
		},
		Combine: func(_ []int, front []search.Individual[[]int]) (search.Evaluation, error) {
			c, ok := front[0].Info.(*Candidate)
			if !ok {
				return search.Evaluation{}, fmt.Errorf("hadas: inner front without its candidate")
			}
			best := c.Inner.Best()
			return search.Evaluation{Objectives: []float64{1 - c.Top1, c.EnergyPJ * 1e-9, best.EnergyPJ * 1e-9}, Info: c}, nil
		},
	}
	res, err := n.Run(ctx)
	if err != nil {
		return nil, fmt.Errorf("hadas: %w", err)
	}
	out := &Result{Outer: res}
	front := map[int]bool{}
	for _, ind := range res.Front {
		front[ind.ID] = true
	}
	for _, ind := range res.Evaluated {
		io := search.InnerOf[[]int, []int](ind)
		if io == nil || io.Cached {
			continue
		}
		c, ok := io.Info.(*Candidate)
		if !ok {
			continue
		}
		cc := *c
		cc.Generation = ind.Generation
		cc.OnFront = front[ind.ID]
		out.Candidates = append(out.Candidates, cc)
		out.InnerEvaluations += io.Evaluations
	}
	return out, nil
}
