package magnas

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"

	"gnnsim/internal/splitmix"
	"gnnsim/search"
	"gnnsim/workload"
)

// Config configures the two-tier search. DefaultConfig holds the paper's
// settings (Section 4.2.2 and 5.1.3).
type Config struct {
	// PopSize architectures are evaluated per generation, for Generations
	// generations; the top MateFraction of them (by NSGA-II rank and
	// crowding) survive and mate. search.NSGA2 runs with a population of
	// round(MateFraction x PopSize) and PopSize minus that offspring per
	// generation, which is that scheme exactly after the first generation
	// (the first samples only the survivors' number).
	PopSize, Generations int
	MateFraction         float64
	// MutationProb resamples each superblock (all its genes uniformly)
	// with this probability; SwapProb exchanges each superblock between
	// two mating parents.
	MutationProb, SwapProb float64

	Inner       InnerConfig
	Granularity Granularity
	Accuracy    Accuracy
	// Weights are the exponents of Eq. 12's weighted product F = Acc^w0 x
	// T^-w1 x E^-w2 (T in ms, E in mJ), reported per candidate.
	Weights [3]float64
	// Standalone >= 0 runs the outer search alone with every candidate
	// mapped wholly onto that unit (the OOE_GPU / OOE_DLA baselines of
	// Figure 5); -1 runs the nested search.
	Standalone int
	Seed       uint64
	// Workers runs outer candidates (each with its inner search) in
	// parallel; results do not depend on it.
	Workers int
}

// DefaultConfig returns the paper's search settings.
func DefaultConfig(acc Accuracy) Config {
	return Config{PopSize: 100, Generations: 50, MateFraction: 0.3, MutationProb: 0.4, SwapProb: 0.5,
		Inner: DefaultInner(), Accuracy: acc, Weights: [3]float64{1, 1, 1}, Standalone: -1}
}

// Candidate is one outer candidate: an architecture, its accuracy and the
// cost of its chosen mapping.
type Candidate struct {
	ID, Generation int
	Arch           Arch
	Top1           float64
	Best           Point // m* (or the standalone mapping)
	Fallback       bool
	F              float64 // Eq. 12
	Front          bool    // on the outer Pareto front (accuracy, latency, energy)
	// Inner is the inner search that scored the candidate; nil for
	// outer-only searches and for repeated architectures.
	Inner *InnerResult
}

// Result is the outcome of a two-tier search.
type Result struct {
	Candidates       []Candidate
	AccuracySource   string
	InnerEvaluations int
	Outer            *search.Result[[]int]
}

// Searcher runs MaGNAS searches on one platform with a shared cost cache.
type Searcher struct {
	Costs *Costs
	Net   workload.SupernetSpace
	Space *ArchSpace
}

// NewSearcher returns a searcher over net on the platform of costs.
func NewSearcher(costs *Costs, net workload.SupernetSpace) (*Searcher, error) {
	as, err := NewArchSpace(net)
	if err != nil {
		return nil, err
	}
	return &Searcher{Costs: costs, Net: net, Space: as}, nil
}

// Engine returns the inner engine of arch at granularity g.
func (s *Searcher) Engine(arch Arch, g Granularity, cfg InnerConfig) (*Engine, error) {
	m, err := s.Net.Model(arch)
	if err != nil {
		return nil, fmt.Errorf("magnas: %w", err)
	}
	return s.ModelEngine(m, g, cfg)
}

// ModelEngine returns the inner engine of any model (a zoo model, say).
func (s *Searcher) ModelEngine(m workload.Model, g Granularity, cfg InnerConfig) (*Engine, error) {
	t, err := s.Costs.Table(m, g)
	if err != nil {
		return nil, err
	}
	return NewEngine(s.Costs.P, t, cfg)
}

// archEncoding is the outer genome's encoding: MaGNAS's superblock-level
// uniform mutation over search.Discrete's block crossover.
type archEncoding struct {
	*search.Discrete
	prob float64
	net  int
}

// Mutate resamples every gene of each superblock with probability prob.
func (e archEncoding) Mutate(r *rand.Rand, g []int) []int {
	var out []int
	for i := range e.net {
		if r.Float64() >= e.prob {
			continue
		}
		if out == nil {
			out = slices.Clone(g)
		}
		for j := 5 * i; j < 5*i+5; j++ {
			out[j] = r.IntN(e.Space.Var(j).Choices)
		}
	}
	if out == nil {
		return g
	}
	return out
}

type outerInfo struct {
	arch     Arch
	top1     float64
	best     Point
	fallback bool
	inner    *InnerResult
}

// Search runs the two-tier search (or the outer search alone, with
// cfg.Standalone >= 0).
func (s *Searcher) Search(ctx context.Context, cfg Config) (*Result, error) {
	if cfg.Accuracy == nil {
		return nil, fmt.Errorf("magnas: search without an accuracy source")
	}
	if cfg.PopSize < 2 || cfg.Generations < 1 || !(cfg.MateFraction > 0 && cfg.MateFraction < 1) {
		return nil, fmt.Errorf("magnas: outer search: population %d, %d generations, mating fraction %v", cfg.PopSize, cfg.Generations, cfg.MateFraction)
	}
	if cfg.Standalone >= len(s.Costs.P.Units) {
		return nil, fmt.Errorf("magnas: standalone unit %d of %d", cfg.Standalone, len(s.Costs.P.Units))
	}
	mu := max(1, int(math.Round(cfg.MateFraction*float64(cfg.PopSize))))
	enc := archEncoding{Discrete: &search.Discrete{Space: s.Space.Space, MutationProb: cfg.MutationProb, CrossoverProb: 1,
		Kind: search.BlockCrossover, SwapProb: cfg.SwapProb}, prob: cfg.MutationProb, net: len(s.Net.K)}
	outer := search.NSGA2[[]int]{Encoding: enc, PopSize: mu, Offspring: max(cfg.PopSize-mu, 1),
		Generations: cfg.Generations, Seed: cfg.Seed, Workers: cfg.Workers}

	// Inner searches are cached by architecture: genomes that differ only
	// in the width of a skipped FFN are one network. The inner seed
	// depends on the architecture alone, so the cache changes nothing but
	// the work done.
	var mu2 sync.Mutex
	cache := map[string]*outerInfo{}
	score := func(g []int) (*outerInfo, error) {
		arch, err := s.Space.Decode(g)
		if err != nil {
			return nil, err
		}
		key := arch.String()
		mu2.Lock()
		info, hit := cache[key]
		mu2.Unlock()
		if hit {
			return info, nil
		}
		info, err = s.scoreArch(ctx, cfg, arch, key)
		if err != nil {
			return nil, fmt.Errorf("magnas: %s: %w", key, err)
		}
		mu2.Lock()
		if prev, ok := cache[key]; ok {
			info = prev
		} else {
			cache[key] = info
		}
		mu2.Unlock()
		return info, nil
	}
	evaluate := func(g []int) (search.Evaluation, error) {
		info, err := score(g)
		if err != nil {
			return search.Evaluation{}, err
		}
		ev := search.Evaluation{Objectives: []float64{-info.top1, info.best.TimePS * 1e-9, info.best.EnergyPJ * 1e-9}, Info: info}
		if cfg.Inner.Limits.any() {
			// MaGNAS may apply the targets in the outer selection too
			// (Section 4.3.3): a fallback that misses them is infeasible.
			ev.Constraints = []float64{boolViolation(info.best.Feasible)}
		}
		return ev, nil
	}
	var res *search.Result[[]int]
	var err error
	if cfg.Standalone >= 0 {
		outer.Evaluate = evaluate
		res, err = outer.Run(ctx)
	} else {
		// The nested search: Inner runs the IOE (cached per architecture),
		// Combine turns its compliant front into m* (with the DVFS level),
		// Standalone is the fallback when nothing complied (scoreArch has
		// chosen the standalone mapping then).
		n := search.Nested[[]int, []int]{
			Outer: outer,
			Inner: func(ctx context.Context, g []int, _ uint64) (*search.Result[[]int], error) {
				info, err := score(g)
				if err != nil {
					return nil, err
				}
				return info.inner.Search, nil
			},
			Combine:    func(g []int, _ []search.Individual[[]int]) (search.Evaluation, error) { return evaluate(g) },
			Standalone: evaluate,
		}
		res, err = n.Run(ctx)
	}
	if err != nil {
		return nil, fmt.Errorf("magnas: outer search: %w", err)
	}
	out := &Result{Outer: res, AccuracySource: cfg.Accuracy.Source()}
	// The first candidate (by ID) of each architecture owns its inner
	// search: the attribution does not depend on which goroutine ran it.
	owned := map[*outerInfo]bool{}
	for _, ind := range res.Evaluated {
		info, ok := ind.Info.(*outerInfo)
		if !ok {
			info = search.InnerOf[[]int, []int](ind).Info.(*outerInfo)
		}
		c := Candidate{ID: ind.ID, Generation: ind.Generation, Arch: info.arch, Top1: info.top1, Best: info.best,
			Fallback: info.fallback, Front: ind.Rank == 0 && ind.Feasible()}
		if !owned[info] {
			owned[info] = true
			c.Inner = info.inner
		}
		c.F = fitness(cfg.Weights, c.Top1, c.Best)
		if c.Inner != nil {
			out.InnerEvaluations += len(c.Inner.Search.Evaluated)
		}
		out.Candidates = append(out.Candidates, c)
	}
	return out, nil
}

func boolViolation(feasible bool) float64 {
	if feasible {
		return 0
	}
	return 1
}

// fitness is Eq. 12: the weighted product Acc^w0 T^-w1 E^-w2 (T in ms, E
// in mJ).
func fitness(w [3]float64, top1 float64, p Point) float64 {
	return math.Pow(top1, w[0]) * math.Pow(p.TimePS*1e-9, -w[1]) * math.Pow(p.EnergyPJ*1e-9, -w[2])
}

// scoreArch runs the inner search of one architecture (or its standalone
// mapping) and its accuracy.
func (s *Searcher) scoreArch(ctx context.Context, cfg Config, arch Arch, key string) (*outerInfo, error) {
	top1, err := cfg.Accuracy.Top1(arch)
	if err != nil {
		return nil, err
	}
	e, err := s.Engine(arch, cfg.Granularity, cfg.Inner)
	if err != nil {
		return nil, err
	}
	info := &outerInfo{arch: arch, top1: top1}
	if cfg.Standalone >= 0 {
		p := e.Standalone[cfg.Standalone]
		if p.Mapping == nil {
			return nil, fmt.Errorf("unit %s cannot run the whole model", s.Costs.P.Units[cfg.Standalone])
		}
		info.best = p
		return info, nil
	}
	seed := splitmix.Mix64(cfg.Seed ^ hashString(key))
	in, err := e.Run(ctx, seed)
	if err != nil {
		return nil, err
	}
	info.best, info.fallback, info.inner = in.Best, in.Fallback, in
	return info, nil
}

// hashString is FNV-1a: a stable hash of a cache key for seeding.
func hashString(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}
