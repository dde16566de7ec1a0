package magnas

import (
	"context"
	"fmt"
	"math"
	"slices"

	"gnnsim/search"
)

// Limits are the inner search's constraints (Eq. 8 and Section 5.5); a
// zero field is no constraint.
type Limits struct {
	LatencyPS float64 // T_TRG
	// LatencyIncrease bounds the latency relative to the fastest
	// standalone mapping (Section 5.5: "max allowable increase ratio from
	// the fastest CU"); 0.2 allows 20 % more.
	LatencyIncrease float64
	EnergyPJ        float64 // E_TRG
	PowerW          float64 // average power E/T
	// MaxTransitions bounds the unit changes along the model (the
	// constrained-transition baselines of Table 3, after [10]); 0 means
	// no bound, use NoTransitions for standalone-only. The engine then
	// searches only mappings within the bound: all of them when they fit
	// the evaluation budget, else NSGA-II with repaired children (see
	// transit.go).
	MaxTransitions int
}

// NoTransitions as Limits.MaxTransitions allows no transition at all.
const NoTransitions = -1

func (l Limits) any() bool {
	return l.LatencyPS > 0 || l.LatencyIncrease > 0 || l.EnergyPJ > 0 || l.PowerW > 0 || l.MaxTransitions != 0
}

// DVFSMode is how the inner engine treats DVFS (Section 4.3.5).
type DVFSMode int

const (
	// FixedDVFS searches mappings at InnerConfig.Setting only.
	FixedDVFS DVFSMode = iota
	// BruteForceDVFS searches mappings at InnerConfig.Setting, then every
	// setting for the best mapping (Eq. 14), as MaGNAS does.
	BruteForceDVFS
	// JointDVFS adds a gene per DVFS domain to the mapping genome.
	JointDVFS
)

// InnerConfig configures the inner optimisation engine (IOE). Defaults
// (DefaultInner) are the paper's: population 200, 10 generations, flip
// mutation 0.4 per gene, crossover 0.8, gamma1 = gamma2 = 1.
type InnerConfig struct {
	PopSize, Generations int
	MutationProb         float64
	CrossoverProb        float64
	// Gamma1 and Gamma2 weigh energy and latency in Eq. 13.
	Gamma1, Gamma2 float64
	Limits         Limits
	DVFS           DVFSMode
	// Setting is the DVFS setting mappings are searched (and Eq. 13
	// normalised) at; -1 means MaxN.
	Setting int
	// Random replaces NSGA-II by random search at the same budget
	// (Section 5.7.3).
	Random bool
	// NoSeed leaves the standalone mappings out of NSGA-II's first
	// population (for comparisons with random search at equal footing);
	// m* is then no longer guaranteed to beat them.
	NoSeed bool
	// MaxEvaluations caps the evaluations (0: PopSize x Generations).
	MaxEvaluations int
	Workers        int
	// Seeds are mappings (a unit index per segment) planted in NSGA-II's
	// first population after the standalone ones, as many as it holds;
	// every compliant seed also joins the returned front (InnerResult.
	// Front, m*), so the result is never worse than a seed. Table 3
	// plants the constrained-transition fronts in the unconstrained
	// search, whose front then cannot be worse than theirs.
	Seeds [][]int
}

// DefaultInner returns the paper's inner settings.
func DefaultInner() InnerConfig {
	return InnerConfig{PopSize: 200, Generations: 10, MutationProb: 0.4, CrossoverProb: 0.8, Gamma1: 1, Gamma2: 1, Setting: -1}
}

// Point is one evaluated mapping.
type Point struct {
	Mapping     []int // unit index per mapping unit (block or layer)
	Setting     int
	TimePS      float64
	EnergyPJ    float64
	Transitions int
	Score       float64 // Eq. 13 (lower is better)
	Feasible    bool
}

// PowerW is the average power E/T (pJ per ps is W).
func (p Point) PowerW() float64 {
	if p.TimePS <= 0 {
		return 0
	}
	return p.EnergyPJ / p.TimePS
}

// Engine is the inner optimisation engine for one model on one platform.
type Engine struct {
	P     *Platform
	T     *Table
	MS    *MappingSpace
	Cfg   InnerConfig
	Ref   int     // the reference setting
	NormT float64 // best standalone latency at Ref (ps)
	NormE float64 // best standalone energy at Ref (pJ)
	// Standalone holds each unit's standalone point at Ref (Mapping nil
	// when the unit cannot run every block).
	Standalone []Point
	limT       float64
}

// NewEngine prepares the inner search of t's model.
func NewEngine(p *Platform, t *Table, cfg InnerConfig) (*Engine, error) {
	if cfg.PopSize < 1 || cfg.Generations < 1 {
		return nil, fmt.Errorf("magnas: inner search: population %d x %d generations", cfg.PopSize, cfg.Generations)
	}
	if !(cfg.Gamma1 >= 0) || !(cfg.Gamma2 >= 0) {
		return nil, fmt.Errorf("magnas: inner search: gammas %v, %v must be >= 0", cfg.Gamma1, cfg.Gamma2)
	}
	ref := cfg.Setting
	if ref < 0 {
		ref = p.MaxN()
	}
	if ref >= p.NumSettings() {
		return nil, fmt.Errorf("magnas: inner search: setting %d of %d", ref, p.NumSettings())
	}
	ms, err := NewMappingSpace(t, p, cfg.DVFS == JointDVFS && len(p.Domains) > 0)
	if err != nil {
		return nil, err
	}
	e := &Engine{P: p, T: t, MS: ms, Cfg: cfg, Ref: ref, NormT: math.Inf(1), NormE: math.Inf(1)}
	for u := range p.Units {
		m := t.Standalone(u)
		if m == nil {
			e.Standalone = append(e.Standalone, Point{Setting: ref})
			continue
		}
		tp, ep, _ := t.Eval(m, ref)
		e.Standalone = append(e.Standalone, Point{Mapping: m, Setting: ref, TimePS: tp, EnergyPJ: ep})
		e.NormT = min(e.NormT, tp)
		e.NormE = min(e.NormE, ep)
	}
	if math.IsInf(e.NormT, 1) {
		return nil, fmt.Errorf("magnas: no unit of %s runs all of %s: no standalone mapping to normalise Eq. 13", p.Name, t.Model.Name)
	}
	if !(e.NormT > 0) || !(e.NormE > 0) {
		return nil, fmt.Errorf("magnas: %s: standalone latency %v ps, energy %v pJ: Eq. 13 needs positive costs", t.Model.Name, e.NormT, e.NormE)
	}
	e.limT = cfg.Limits.LatencyPS
	if r := cfg.Limits.LatencyIncrease; r > 0 {
		lim := (1 + r) * e.NormT
		if e.limT == 0 || lim < e.limT {
			e.limT = lim
		}
	}
	for u := range e.Standalone {
		if e.Standalone[u].Mapping != nil {
			e.Standalone[u] = e.point(e.Standalone[u].Mapping, ref)
		}
	}
	return e, nil
}

// LatencyLimitPS is the latency bound in force (0: none).
func (e *Engine) LatencyLimitPS() float64 { return e.limT }

// point evaluates mapping at setting s.
func (e *Engine) point(mapping []int, s int) Point {
	t, en, tr := e.T.Eval(mapping, s)
	p := Point{Mapping: mapping, Setting: s, TimePS: t, EnergyPJ: en, Transitions: tr}
	p.Score = math.Pow(en/e.NormE, e.Cfg.Gamma1) * math.Pow(t/e.NormT, e.Cfg.Gamma2)
	p.Feasible = e.violation(p) <= 0
	return p
}

// constraints returns the g <= 0 constraint values of p.
func (e *Engine) constraints(p Point, out []float64) []float64 {
	l := e.Cfg.Limits
	if e.limT > 0 {
		out = append(out, p.TimePS/e.limT-1)
	}
	if l.EnergyPJ > 0 {
		out = append(out, p.EnergyPJ/l.EnergyPJ-1)
	}
	if l.PowerW > 0 {
		out = append(out, p.PowerW()/l.PowerW-1)
	}
	switch {
	case l.MaxTransitions > 0:
		out = append(out, float64(p.Transitions-l.MaxTransitions))
	case l.MaxTransitions == NoTransitions:
		out = append(out, float64(p.Transitions))
	}
	return out
}

func (e *Engine) violation(p Point) float64 {
	var buf [5]float64
	v := 0.0
	for _, g := range e.constraints(p, buf[:0]) {
		v += max(g, 0)
	}
	return v
}

// Evaluate is the search's evaluation of a mapping genome: objectives
// (T / T_best, E / E_best), both minimised, and the constraints of Limits.
func (e *Engine) Evaluate(g []int) (search.Evaluation, error) {
	mapping := make([]int, e.T.Blocks())
	s := e.MS.Decode(g, mapping, e.Ref)
	t, en, tr := e.T.Eval(mapping, s)
	ev := search.Evaluation{Objectives: []float64{t / e.NormT, en / e.NormE}}
	if e.Cfg.Limits.any() {
		ev.Constraints = e.constraints(Point{TimePS: t, EnergyPJ: en, Transitions: tr}, nil)
	}
	return ev, nil
}

// PointOf decodes and evaluates a mapping genome.
func (e *Engine) PointOf(g []int) Point {
	mapping := make([]int, e.T.Blocks())
	s := e.MS.Decode(g, mapping, e.Ref)
	return e.point(mapping, s)
}

// InnerResult is the outcome of one inner search.
type InnerResult struct {
	// Best is m*: the compliant mapping of least Eq. 13 score (at its best
	// DVFS setting with BruteForceDVFS), or the best standalone mapping
	// when no mapping complied (Fallback).
	Best     Point
	Fallback bool
	// Front is the compliant latency-energy Pareto front of the search.
	Front []Point
	// DVFS holds the best mapping at every setting (BruteForceDVFS).
	DVFS []Point
	// Search is the mapping search itself: every candidate evaluated.
	Search *search.Result[[]int]
}

// Run searches the mapping space with NSGA-II (or random search) seeded by
// seed. NSGA-II's first population holds the standalone mappings (with
// fallback for a unit that refuses some segment: Table.StandaloneFallback)
// and InnerConfig.Seeds, so m* is never worse on Eq. 13 than the best
// compliant one of them. A transition-limited space that fits the budget
// is enumerated instead (Limits.MaxTransitions).
func (e *Engine) Run(ctx context.Context, seed uint64) (*InnerResult, error) {
	res, err := e.search(ctx, seed)
	if err != nil {
		return nil, err
	}
	out := &InnerResult{Search: res}
	for _, ind := range res.Front {
		out.Front = append(out.Front, e.PointOf(ind.Genome))
	}
	if len(e.Cfg.Seeds) > 0 && !e.Cfg.NoSeed {
		out.Front = e.withSeeds(out.Front)
	}
	slices.SortStableFunc(out.Front, func(a, b Point) int {
		return cmpFloat(a.TimePS, b.TimePS)
	})
	best := -1
	for i, p := range out.Front {
		if best < 0 || p.Score < out.Front[best].Score {
			best = i
		}
	}
	if best < 0 {
		out.Fallback = true
		out.Best = e.bestStandalone()
		return out, nil
	}
	out.Best = out.Front[best]
	if e.Cfg.DVFS == BruteForceDVFS && len(e.P.Domains) > 0 {
		if err := e.bruteForceDVFS(ctx, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// bestStandalone is the fallback: the standalone mapping of least Eq. 13
// score among the compliant ones, else among all.
func (e *Engine) bestStandalone() Point {
	best := -1
	for pass := 0; pass < 2 && best < 0; pass++ {
		for u, p := range e.Standalone {
			if p.Mapping == nil || (pass == 0 && !p.Feasible) {
				continue
			}
			if best < 0 || p.Score < e.Standalone[best].Score {
				best = u
			}
		}
	}
	return e.Standalone[best]
}

// transitionLimit returns the bound on transitions of l (0 for
// NoTransitions) and whether there is one.
func transitionLimit(l Limits) (int, bool) {
	switch {
	case l.MaxTransitions > 0:
		return l.MaxTransitions, true
	case l.MaxTransitions == NoTransitions:
		return 0, true
	}
	return 0, false
}

func (e *Engine) search(ctx context.Context, seed uint64) (*search.Result[[]int], error) {
	c := e.Cfg
	budget := c.PopSize * c.Generations
	if c.MaxEvaluations > 0 {
		budget = min(budget, c.MaxEvaluations)
	}
	k, limited := transitionLimit(c.Limits)
	// A transition-limited space that fits the budget is enumerated: the
	// exact constrained front at no more evaluations than the search.
	if limited && !c.Random && !e.MS.DVFS && e.T.CountLimited(k) <= float64(budget) {
		return e.enumerate(ctx, k)
	}
	var enc search.Encoding[[]int] = &search.Discrete{Space: e.MS.Space, MutationProb: c.MutationProb, CrossoverProb: c.CrossoverProb,
		Kind: search.UniformCrossover, SwapProb: 0.5}
	if be := newBlockEncoding(e.MS, c.MutationProb, c.CrossoverProb); be != nil {
		enc = be
	}
	if limited {
		enc = &limitedEncoding{Encoding: enc, ms: e.MS, k: k}
	}
	if c.Random {
		var smp search.Sampler[[]int] = e.MS.Space
		if limited {
			smp = enc
		}
		rs := search.RandomSearch[[]int]{Sampler: smp, Evaluate: e.Evaluate, Evaluations: budget,
			BatchSize: c.PopSize, Seed: seed, Workers: c.Workers}
		return rs.Run(ctx)
	}
	var initial [][]int
	if !c.NoSeed {
		for _, p := range e.Standalone {
			if p.Mapping != nil && len(initial) < c.PopSize {
				initial = append(initial, e.MS.Encode(p.Mapping, e.Ref))
			}
		}
		// A unit that refuses some segment: its standalone with fallback.
		for u, p := range e.Standalone {
			if p.Mapping == nil && len(initial) < c.PopSize {
				initial = append(initial, e.MS.Encode(e.T.StandaloneFallback(u, e.Ref), e.Ref))
			}
		}
		for _, m := range c.Seeds {
			if len(initial) >= c.PopSize {
				break
			}
			if err := e.checkMapping(m); err != nil {
				return nil, fmt.Errorf("magnas: inner search: seed mapping: %w", err)
			}
			initial = append(initial, e.MS.Encode(m, e.Ref))
		}
	}
	ga := search.NSGA2[[]int]{Encoding: enc, Evaluate: e.Evaluate, PopSize: c.PopSize, Generations: c.Generations,
		MaxEvaluations: budget, Seed: seed, Workers: c.Workers, Initial: initial}
	return ga.Run(ctx)
}

// withSeeds returns the non-dominated points of front and of the
// compliant seed mappings: the seeds that did not fit the first
// population count as evaluated too, so the result is never worse than a
// seed.
func (e *Engine) withSeeds(front []Point) []Point {
	all := slices.Clone(front)
	for _, m := range e.Cfg.Seeds {
		p := e.point(slices.Clone(m), e.Ref)
		if p.Feasible && !slices.ContainsFunc(all, func(q Point) bool { return slices.Equal(q.Mapping, p.Mapping) && q.Setting == p.Setting }) {
			all = append(all, p)
		}
	}
	var out []Point
	for i, p := range all {
		dominated := false
		for j, q := range all {
			if j != i && q.TimePS <= p.TimePS && q.EnergyPJ <= p.EnergyPJ && (q.TimePS < p.TimePS || q.EnergyPJ < p.EnergyPJ) {
				dominated = true
				break
			}
		}
		if !dominated {
			out = append(out, p)
		}
	}
	return out
}

// checkMapping reports a mapping of the wrong length or with a unit a
// segment cannot run.
func (e *Engine) checkMapping(m []int) error {
	if len(m) != e.T.Blocks() {
		return fmt.Errorf("%d units for %d segments", len(m), e.T.Blocks())
	}
	for i, u := range m {
		if !slices.Contains(e.T.Allowed[i], u) {
			return fmt.Errorf("segment %s cannot run on unit %d", e.T.Segments[i].Name, u)
		}
	}
	return nil
}

// enumerate evaluates every mapping with at most k transitions (at the
// reference setting) as one generation, ranked as NSGA-II ranks its
// archive: feasible fronts first, then the infeasible by violation.
func (e *Engine) enumerate(ctx context.Context, k int) (*search.Result[[]int], error) {
	res := &search.Result[[]int]{}
	for m := range e.T.Limited(k) {
		if len(res.Evaluated)%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		g := e.MS.Encode(m, e.Ref)
		ev, err := e.Evaluate(g)
		if err != nil {
			return nil, err
		}
		res.Evaluated = append(res.Evaluated, search.Individual[[]int]{ID: len(res.Evaluated), Genome: g,
			Objectives: ev.Objectives, Constraints: ev.Constraints, Violation: ev.Violation(), Rank: -1})
	}
	var feas []int
	var pts [][]float64
	for i := range res.Evaluated {
		if ind := &res.Evaluated[i]; ind.Feasible() {
			feas, pts = append(feas, i), append(pts, ind.Objectives)
		}
	}
	fronts := 0
	if len(pts) > 0 {
		fs, err := search.NonDominatedSort(pts)
		if err != nil {
			return nil, fmt.Errorf("magnas: ranking the transition-limited mappings: %w", err)
		}
		for r, f := range fs {
			for _, j := range f {
				res.Evaluated[feas[j]].Rank = r
			}
		}
		fronts = len(fs)
	}
	var viol []float64
	for i := range res.Evaluated {
		if !res.Evaluated[i].Feasible() {
			viol = append(viol, res.Evaluated[i].Violation)
		}
	}
	slices.Sort(viol)
	viol = slices.Compact(viol)
	for i := range res.Evaluated {
		if ind := &res.Evaluated[i]; !ind.Feasible() {
			ind.Rank = fronts + slices.Index(viol, ind.Violation)
		}
	}
	res.Front = search.ParetoFront(res.Evaluated)
	res.Population = res.Evaluated
	return res, nil
}

// bruteForceDVFS evaluates the best mapping at every setting (Eq. 14) and
// keeps the compliant one of least score.
func (e *Engine) bruteForceDVFS(ctx context.Context, out *InnerResult) error {
	var vars []search.Variable
	for _, d := range e.P.Domains {
		vars = append(vars, search.Variable{Name: d.Name, Choices: len(d.ClocksHz)})
	}
	sp, err := search.NewSpace(vars...)
	if err != nil {
		return fmt.Errorf("magnas: DVFS space: %w", err)
	}
	m := out.Best.Mapping
	bf := search.BruteForce{Space: sp, MaxEvaluations: e.P.NumSettings(), Evaluate: func(g []int) (search.Evaluation, error) {
		p := e.point(m, e.P.SettingIndex(g))
		return search.Evaluation{Objectives: []float64{p.Score}, Constraints: e.constraints(p, nil)}, nil
	}}
	res, err := bf.Run(ctx)
	if err != nil {
		return fmt.Errorf("magnas: DVFS search: %w", err)
	}
	for _, ind := range res.Evaluated {
		p := e.point(m, e.P.SettingIndex(ind.Genome))
		out.DVFS = append(out.DVFS, p)
		if p.Feasible && p.Score < out.Best.Score {
			out.Best = p
		}
	}
	return nil
}
