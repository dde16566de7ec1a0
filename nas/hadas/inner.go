package hadas

import (
	"context"
	"fmt"
	"math"
	"slices"

	"gnnsim/search"
)

// InnerConfig configures the inner optimisation engine (IOE): NSGA-II over
// the exits and the DVFS setting of one backbone.
type InnerConfig struct {
	// PopSize x Generations is the budget (paper: 3,500 evaluations).
	PopSize, Generations int
	// Gamma weighs the dissimilarity term of Eq. 6 (0 removes it).
	Gamma float64
	// DVFS searches the setting; without it every candidate runs at MaxN
	// (the "early exit only" rows of Table III).
	DVFS bool
	// MutationProb and CrossoverProb of the discrete encoding (0: the
	// search package's defaults).
	MutationProb, CrossoverProb float64
	// Overlap is the exit-correctness model (Overlap); nil is the nested
	// one (rho = 1), unless PerBackbone is set.
	Overlap *Overlap
	// PerBackbone, with Overlap nil, gives each backbone the overlap of
	// its own exit accuracy curve (CurveOverlap).
	PerBackbone *CurveOverlap
}

// DefaultInner is the paper's inner budget: 50 x 70 = 3,500 evaluations,
// gamma 1, DVFS searched.
func DefaultInner() InnerConfig {
	return InnerConfig{PopSize: 50, Generations: 70, Gamma: 1, DVFS: true}
}

// Point is one evaluated (exits, DVFS setting) of a backbone.
type Point struct {
	Exits   []int // chosen positions, ascending
	Setting int
	// N are the exits' first-correct fractions under the engine's overlap
	// model, Covered their sum; NFinal the fraction the backbone's own
	// classifier gets right after every chosen exit got it wrong.
	N       []float64
	Covered float64
	NFinal  float64
	// Coverage is the inner search's accuracy objective: mean N_k
	// dissim_k^gamma at the engine's gamma; Coverage0 the same at gamma 0
	// (a gamma-free yardstick for the ablation).
	Coverage, Coverage0 float64
	// EnergyRatio and LatencyRatio are the expected energy and latency per
	// sample under the ideal policy over the static backbone's at MaxN;
	// EnergyPJ and LatencyPS the absolute values.
	EnergyRatio, LatencyRatio float64
	EnergyPJ, LatencyPS       float64
	// Score is D, Eq. 5-7.
	Score float64
	// Top1 is the dynamic accuracy under the ideal policy: the fraction
	// some chosen exit or the backbone's classifier gets right, Covered +
	// NFinal (max(Covered, Acc_b) under nested correctness).
	Top1 float64
}

// MeanGap is the mean distance between consecutive chosen exits (0 for
// fewer than two).
func (p Point) MeanGap() float64 {
	if len(p.Exits) < 2 {
		return 0
	}
	return float64(p.Exits[len(p.Exits)-1]-p.Exits[0]) / float64(len(p.Exits)-1)
}

// Engine is the IOE of one backbone on one target.
type Engine struct {
	B     *Backbone
	C     *Costs
	Curve *Curve
	Cfg   InnerConfig
	Space *search.Space
	// Ref is the default setting (MaxN) of the static evaluation; Static
	// its costs.
	Ref    int
	Static *SettingCost
	pos    []int
	acc    []float64 // accuracy of an exit at each position
	// cond[i] is Overlap.Conditional of the exit at pos[i], condFinal the
	// backbone classifier's (nil under nested correctness).
	cond      [][]float64
	condFinal []float64
	// scratch of Evaluate (the inner NSGA-II runs on one goroutine)
	bufAcc, bufN, bufE, bufT, bufHE, bufHT, surv []float64
	bufCond                                      [][]float64
	nFinal, covered                              float64
}

// NewEngine prepares the IOE of b with exit accuracies curve.
func NewEngine(c *Costs, curve *Curve, cfg InnerConfig) (*Engine, error) {
	if cfg.PopSize < 1 || cfg.Generations < 1 {
		return nil, fmt.Errorf("hadas: inner search: population %d x %d generations", cfg.PopSize, cfg.Generations)
	}
	if !(cfg.Gamma >= 0) || math.IsInf(cfg.Gamma, 0) {
		return nil, fmt.Errorf("hadas: inner search: gamma %v, want >= 0", cfg.Gamma)
	}
	b := c.B
	e := &Engine{B: b, C: c, Curve: curve, Cfg: cfg, Ref: c.T.P.MaxN(), pos: b.Positions()}
	for _, p := range e.pos {
		a, err := curve.At(p)
		if err != nil {
			return nil, err
		}
		e.acc = append(e.acc, a)
	}
	if cfg.Overlap == nil && cfg.PerBackbone != nil {
		o, err := cfg.PerBackbone.Overlap(curve.Top1, b.Classes)
		if err != nil {
			return nil, fmt.Errorf("hadas: %s: %w", b.Arch, err)
		}
		e.Cfg.Overlap = o
	}
	if o := e.Cfg.Overlap; o != nil && !o.Nested() {
		for _, a := range e.acc {
			e.cond = append(e.cond, o.Conditional(a, nil))
		}
		e.condFinal = o.Conditional(curve.Final(), nil)
		e.surv = make([]float64, OverlapNodes)
	}
	var vars []search.Variable
	for _, p := range e.pos {
		vars = append(vars, search.Variable{Name: fmt.Sprintf("x%d", p), Choices: 2})
	}
	if cfg.DVFS {
		for _, d := range c.T.P.Domains {
			vars = append(vars, search.Variable{Name: d.Name, Choices: len(d.ClocksHz)})
		}
	}
	var err error
	if e.Space, err = search.NewSpace(vars...); err != nil {
		return nil, fmt.Errorf("hadas: inner space: %w", err)
	}
	if e.Static, err = c.At(e.Ref); err != nil {
		return nil, err
	}
	return e, nil
}

// Genome returns the genome of exits at positions ps and setting s.
func (e *Engine) Genome(ps []int, s int) ([]int, error) {
	g := make([]int, e.Space.Len())
	for _, p := range ps {
		i := slices.Index(e.pos, p)
		if i < 0 {
			return nil, fmt.Errorf("hadas: exit position %d not allowed (positions %v)", p, e.pos)
		}
		g[i] = 1
	}
	if e.Cfg.DVFS {
		set := e.C.T.P.Setting(s)
		for j, d := range e.C.T.P.Domains {
			g[len(e.pos)+j] = slices.Index(d.ClocksHz, set.ClocksHz[j])
		}
	} else if s != e.Ref {
		return nil, fmt.Errorf("hadas: setting %d in a search without DVFS", s)
	}
	return g, nil
}

// setting decodes the genome's DVFS genes.
func (e *Engine) setting(g []int) int {
	if !e.Cfg.DVFS {
		return e.Ref
	}
	return e.C.T.P.SettingIndex(g[len(e.pos):])
}

// measure fills the scratch buffers for genome g and returns its setting
// costs.
func (e *Engine) measure(g []int) (*SettingCost, int, error) {
	s := e.setting(g)
	sc, err := e.C.At(s)
	if err != nil {
		return nil, s, err
	}
	e.bufAcc, e.bufE, e.bufT, e.bufHE, e.bufHT, e.bufCond = e.bufAcc[:0], e.bufE[:0], e.bufT[:0], e.bufHE[:0], e.bufHT[:0], e.bufCond[:0]
	for i := range e.pos {
		if g[i] == 1 {
			e.bufAcc = append(e.bufAcc, e.acc[i])
			e.bufE = append(e.bufE, sc.ExitPJ[i])
			e.bufT = append(e.bufT, sc.ExitPS[i])
			e.bufHE = append(e.bufHE, sc.HeadPJ[i])
			e.bufHT = append(e.bufHT, sc.HeadPS[i])
			if e.cond != nil {
				e.bufCond = append(e.bufCond, e.cond[i])
			}
		}
	}
	if e.cond == nil {
		e.bufN, e.covered = FirstCorrect(e.bufAcc, e.bufN)
		e.nFinal = max(e.Curve.Final()-e.covered, 0)
		return sc, s, nil
	}
	// The backbone's classifier is the last "exit" of the integral.
	e.bufCond = append(e.bufCond, e.condFinal)
	e.bufN, _ = FirstCorrectGrid(e.bufCond, e.bufN, e.surv)
	k := len(e.bufN) - 1
	e.nFinal, e.bufN = e.bufN[k], e.bufN[:k]
	e.covered = 0
	for _, n := range e.bufN {
		e.covered += n
	}
	return sc, s, nil
}

// Evaluate is the inner search's evaluation: objectives (-Coverage,
// EnergyRatio), both minimised; one constraint, violated without exits.
func (e *Engine) Evaluate(g []int) (search.Evaluation, error) {
	sc, _, err := e.measure(g)
	if err != nil {
		return search.Evaluation{}, err
	}
	viol := 0.0
	if len(e.bufN) == 0 {
		viol = 1
	}
	en := Expected(e.bufN, e.bufE, e.bufHE, sc.FullPJ) / e.Static.FullPJ
	return search.Evaluation{Objectives: []float64{-Coverage(e.bufN, e.Cfg.Gamma), en}, Constraints: []float64{viol}}, nil
}

// PointOf decodes and evaluates genome g in full.
func (e *Engine) PointOf(g []int) (Point, error) {
	sc, s, err := e.measure(g)
	if err != nil {
		return Point{}, err
	}
	p := Point{Setting: s, N: slices.Clone(e.bufN)}
	for i, x := range e.pos {
		if g[i] == 1 {
			p.Exits = append(p.Exits, x)
		}
	}
	p.Covered, p.NFinal = e.covered, e.nFinal
	p.Coverage = Coverage(p.N, e.Cfg.Gamma)
	p.Coverage0 = Coverage(p.N, 0)
	p.EnergyPJ = Expected(p.N, e.bufE, e.bufHE, sc.FullPJ)
	p.LatencyPS = Expected(p.N, e.bufT, e.bufHT, sc.FullPS)
	p.EnergyRatio = p.EnergyPJ / e.Static.FullPJ
	p.LatencyRatio = p.LatencyPS / e.Static.FullPS
	er, lr := PathCosts(e.bufE, e.bufHE, nil), PathCosts(e.bufT, e.bufHT, nil)
	for k := range p.N {
		er[k], lr[k] = er[k]/e.Static.FullPJ, lr[k]/e.Static.FullPS
	}
	p.Score = Score(p.N, er, lr, e.Cfg.Gamma)
	p.Top1 = p.Covered + p.NFinal
	return p, nil
}

// InnerResult is the outcome of one IOE run.
type InnerResult struct {
	// Front is the (Coverage, EnergyRatio) Pareto front, by energy.
	Front []Point
	// Guarded counts front points whose searched setting was replaced by
	// MaxN because MaxN was cheaper for the same exits.
	Guarded int
	Search  *search.Result[[]int]
}

// Best returns the front point of least expected energy.
func (r *InnerResult) Best() Point {
	best := r.Front[0]
	for _, p := range r.Front[1:] {
		if p.EnergyPJ < best.EnergyPJ {
			best = p
		}
	}
	return best
}

// Run searches with NSGA-II seeded by seed. A front point never has a
// higher expected energy than the same exits at MaxN: the engine checks
// each and falls back to MaxN (counted in Guarded), so DVFS never loses to
// MaxN on the objective it optimises.
func (e *Engine) Run(ctx context.Context, seed uint64) (*InnerResult, error) {
	enc := search.NewDiscrete(e.Space)
	if e.Cfg.MutationProb > 0 {
		enc.MutationProb = e.Cfg.MutationProb
	}
	if e.Cfg.CrossoverProb > 0 {
		enc.CrossoverProb = e.Cfg.CrossoverProb
	}
	ga := search.NSGA2[[]int]{Encoding: enc, Evaluate: e.Evaluate, PopSize: e.Cfg.PopSize, Generations: e.Cfg.Generations,
		Seed: seed, Workers: 1}
	res, err := ga.Run(ctx)
	if err != nil {
		return nil, fmt.Errorf("hadas: inner search of %s: %w", e.B.Arch, err)
	}
	out := &InnerResult{Search: res}
	var pts []Point
	for _, ind := range res.Front {
		p, err := e.PointOf(ind.Genome)
		if err != nil {
			return nil, err
		}
		if e.Cfg.DVFS && p.Setting != e.Ref {
			g := slices.Clone(ind.Genome)
			for j, d := range e.C.T.P.Domains {
				g[len(e.pos)+j] = len(d.ClocksHz) - 1
			}
			q, err := e.PointOf(g)
			if err != nil {
				return nil, err
			}
			if q.EnergyPJ < p.EnergyPJ {
				p = q
				out.Guarded++
			}
		}
		pts = append(pts, p)
	}
	objs := make([][]float64, len(pts))
	for i, p := range pts {
		objs[i] = []float64{-p.Coverage, p.EnergyRatio}
	}
	nd, err := search.NonDominated(objs)
	if err != nil {
		return nil, fmt.Errorf("hadas: %w", err)
	}
	for _, i := range nd {
		out.Front = append(out.Front, pts[i])
	}
	slices.SortStableFunc(out.Front, func(a, b Point) int {
		switch {
		case a.EnergyRatio < b.EnergyRatio:
			return -1
		case a.EnergyRatio > b.EnergyRatio:
			return 1
		}
		return 0
	})
	if len(out.Front) == 0 {
		return nil, fmt.Errorf("hadas: inner search of %s found no exit set", e.B.Arch)
	}
	return out, nil
}
