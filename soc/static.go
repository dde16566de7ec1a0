package soc

import (
	"fmt"
	"math"

	"gnnsim/workload"
)

// Split is a static mapping of one network for concurrent runs: its
// first K layers (layer order) on unit First, the rest on unit Second
// (a transition point, as HaX-CoNN maps a network onto a GPU and a DLA).
// K = 0 puts it all on Second, K = the layer count all on First.
type Split struct {
	First, Second, K int
}

// StaticPlan is a static concurrent schedule: a Split per network and what
// the co-run of all of them measured.
type StaticPlan struct {
	Name   string
	Splits []Split
	// AlonePS and LatencyPS are, per network, its latency alone under its
	// split and its steady mean while all run (CoRun); WorstPS the largest
	// LatencyPS, the objective.
	AlonePS   []int64
	LatencyPS []float64
	WorstPS   float64
	// Evaluated counts the co-runs the plan's search ran.
	Evaluated int
}

// StaticScheduler chooses static concurrent schedules of several networks
// on a SoC: a transition point per network, so that the slowest network's
// latency while all loop at once is least. The networks' layer-granularity
// evaluators are built once and shared by every candidate.
type StaticScheduler struct {
	s      *SoC
	set    Setting
	evals  []*Evaluator
	cands  [][]Split // per network: its candidate splits, all on one unit first
	units  [2]int    // the two units splits move between
	names  []string
	search CoRunOptions
	final  CoRunOptions
}

// NewStaticScheduler prepares static schedules of models on s at set,
// splitting each between units a and b at its block boundaries.
func NewStaticScheduler(s *SoC, set Setting, models []workload.Model, a, b string) (*StaticScheduler, error) {
	if len(models) < 2 {
		return nil, fmt.Errorf("soc: static schedule: %d networks, want two or more", len(models))
	}
	ua, err := s.UnitIndex(a)
	if err != nil {
		return nil, fmt.Errorf("soc: static schedule: %w", err)
	}
	ub, err := s.UnitIndex(b)
	if err != nil {
		return nil, fmt.Errorf("soc: static schedule: %w", err)
	}
	if ua == ub {
		return nil, fmt.Errorf("soc: static schedule: units %s and %s are one unit", a, b)
	}
	ss := &StaticScheduler{s: s, set: set, units: [2]int{ua, ub},
		search: CoRunOptions{MinFrames: 8, Tolerance: 0.01}, final: CoRunOptions{}}
	for _, m := range models {
		e, err := NewEvaluator(s, m, Layers)
		if err != nil {
			return nil, err
		}
		segs := e.Segments()
		n := len(segs)
		// Transition points at block boundaries (a block's layers stay on
		// one unit, as the zoo's blocks are TensorRT's fusion scopes).
		cs := []Split{{ua, ub, n}, {ub, ua, n}}
		for k := 1; k < n; k++ {
			if segs[k].Block != segs[k-1].Block {
				cs = append(cs, Split{ua, ub, k}, Split{ub, ua, k})
			}
		}
		ss.evals = append(ss.evals, e)
		ss.cands = append(ss.cands, cs)
		ss.names = append(ss.names, m.Name)
	}
	return ss, nil
}

// mapping returns network i's mapping under sp.
func (ss *StaticScheduler) mapping(i int, sp Split) Mapping {
	n := len(ss.evals[i].segs)
	m := Mapping{Granularity: Layers, Units: make([]int, n)}
	for j := range m.Units {
		m.Units[j] = sp.Second
		if j < sp.K {
			m.Units[j] = sp.First
		}
	}
	return m
}

// alone returns network i's latency alone under sp, and the unit busy
// times of one frame.
func (ss *StaticScheduler) alone(i int, sp Split) (Result, error) {
	var r Result
	err := ss.evals[i].EvaluateAt(&r, ss.mapping(i, sp), ss.set)
	return r, err
}

// evaluate co-runs splits, filling the plan's latencies.
func (ss *StaticScheduler) evaluate(p *StaticPlan, opt CoRunOptions) error {
	runs := make([]CoRunner, len(p.Splits))
	for i, sp := range p.Splits {
		runs[i] = CoRunner{Eval: ss.evals[i], Mapping: ss.mapping(i, sp)}
	}
	res, err := ss.s.CoRun(runs, ss.set, opt)
	if err != nil {
		return err
	}
	p.AlonePS, p.LatencyPS, p.WorstPS = make([]int64, len(runs)), make([]float64, len(runs)), 0
	for i, x := range res.Runs {
		p.AlonePS[i], p.LatencyPS[i] = x.AlonePS, x.MeanPS
		p.WorstPS = max(p.WorstPS, x.MeanPS)
	}
	p.Evaluated++
	return nil
}

// Plans returns the baselines and the contention-aware search, each
// co-run to the steady state:
//
//   - "GPU only": every network on the first unit;
//   - "GPU&DLA": one network per unit, alternating (for two networks the
//     better of the two assignments, by the co-run);
//   - "H2H-like": H2H's computation- and communication-aware greedy
//     mapping (Zhang et al., DAC 2022), contention-unaware: networks in
//     order of decreasing alone time each take the split that finishes
//     them first given the unit time the networks placed before them hold
//     (alone busy times, transfers included);
//   - "Herald-like": Herald's load balancing across sub-accelerators
//     (Kwon et al., HPCA 2021), contention-unaware: splits chosen network
//     by network (same order) to minimise the busiest unit's summed alone
//     busy time, ties to the shorter alone latency;
//   - "contention-aware": a heuristic, not exact: coordinate descent from
//     the best baseline, each network in turn trying every split of its
//     own against the others' fixed (a candidate whose alone latency is
//     not below the best worst co-run latency is skipped: co-running is
//     never faster), until a pass improves nothing (at most four passes),
//     co-runs short (8 measured frames, 1 % steady) during the search.
func (ss *StaticScheduler) Plans() ([]StaticPlan, error) {
	nn := len(ss.evals)
	g, d := ss.units[0], ss.units[1]
	all := func(u int) []Split {
		sp := make([]Split, nn)
		for i := range sp {
			sp[i] = Split{u, u, len(ss.evals[i].segs)}
		}
		return sp
	}
	var plans []StaticPlan
	add := func(name string, sp []Split) error {
		p := StaticPlan{Name: name, Splits: sp}
		if err := ss.evaluate(&p, ss.final); err != nil {
			return fmt.Errorf("soc: static schedule %s: %w", name, err)
		}
		plans = append(plans, p)
		return nil
	}
	if err := add("GPU only", all(g)); err != nil {
		return nil, err
	}
	// GPU&DLA: alternate units; for two networks also the swap.
	best := StaticPlan{WorstPS: math.Inf(1)}
	for swap := range min(2, nn) {
		sp := make([]Split, nn)
		for i := range sp {
			u := g
			if (i+swap)%2 == 1 {
				u = d
			}
			sp[i] = Split{u, u, len(ss.evals[i].segs)}
		}
		p := StaticPlan{Name: "GPU&DLA", Splits: sp}
		if err := ss.evaluate(&p, ss.final); err != nil {
			return nil, fmt.Errorf("soc: static schedule GPU&DLA: %w", err)
		}
		if p.WorstPS < best.WorstPS {
			p.Evaluated += best.Evaluated
			best = p
		} else {
			best.Evaluated += p.Evaluated
		}
	}
	plans = append(plans, best)
	h2h, err := ss.greedy(false)
	if err != nil {
		return nil, err
	}
	if err := add("H2H-like", h2h); err != nil {
		return nil, err
	}
	herald, err := ss.greedy(true)
	if err != nil {
		return nil, err
	}
	if err := add("Herald-like", herald); err != nil {
		return nil, err
	}
	start := plans[0]
	for _, p := range plans[1:] {
		if p.WorstPS < start.WorstPS {
			start = p
		}
	}
	ca, err := ss.descend(start.Splits)
	if err != nil {
		return nil, err
	}
	plans = append(plans, ca)
	return plans, nil
}

// order returns the networks by decreasing latency alone on the first
// unit.
func (ss *StaticScheduler) order() ([]int, error) {
	t := make([]int64, len(ss.evals))
	idx := make([]int, len(ss.evals))
	for i := range ss.evals {
		r, err := ss.alone(i, Split{ss.units[0], ss.units[0], len(ss.evals[i].segs)})
		if err != nil {
			return nil, err
		}
		t[i], idx[i] = r.LatencyPS, i
	}
	// insertion sort: a handful of networks; ties keep input order
	for i := 1; i < len(idx); i++ {
		for j := i; j > 0 && t[idx[j]] > t[idx[j-1]]; j-- {
			idx[j], idx[j-1] = idx[j-1], idx[j]
		}
	}
	return idx, nil
}

// greedy places the networks one by one (decreasing alone time) on the
// units' alone busy times: H2H-like (balance false) takes the split that
// finishes the network first after the load placed before it; Herald-like
// (balance true) the split that keeps the busiest unit's load least.
func (ss *StaticScheduler) greedy(balance bool) ([]Split, error) {
	load := make([]int64, ss.s.nu())
	out := make([]Split, len(ss.evals))
	ord, err := ss.order()
	if err != nil {
		return nil, err
	}
	for _, i := range ord {
		bestKey, bestTie := math.Inf(1), math.Inf(1)
		var bestBusy []int64
		for _, sp := range ss.cands[i] {
			r, err := ss.alone(i, sp)
			if err != nil {
				continue // a split a unit cannot run is no candidate
			}
			var key float64
			if balance {
				for u, b := range r.BusyPS {
					key = max(key, float64(load[u]+b))
				}
			} else {
				// The network starts on each unit once the load placed
				// before it there is done.
				var wait int64
				for u, b := range r.BusyPS {
					if b > 0 {
						wait = max(wait, load[u])
					}
				}
				key = float64(wait + r.LatencyPS)
			}
			if tie := float64(r.LatencyPS); key < bestKey || (key == bestKey && tie < bestTie) {
				bestKey, bestTie, out[i], bestBusy = key, tie, sp, r.BusyPS
			}
		}
		if bestBusy == nil {
			return nil, fmt.Errorf("soc: static schedule: %s runs under no split", ss.names[i])
		}
		for u, b := range bestBusy {
			load[u] += b
		}
	}
	return out, nil
}

// descend is the contention-aware coordinate descent from start.
func (ss *StaticScheduler) descend(start []Split) (StaticPlan, error) {
	cur := StaticPlan{Name: "contention-aware", Splits: append([]Split(nil), start...)}
	if err := ss.evaluate(&cur, ss.search); err != nil {
		return StaticPlan{}, err
	}
	evals := cur.Evaluated
	for pass := 0; pass < 4; pass++ {
		improved := false
		for i := range ss.evals {
			for _, sp := range ss.cands[i] {
				if sp == cur.Splits[i] {
					continue
				}
				r, err := ss.alone(i, sp)
				if err != nil || float64(r.LatencyPS) >= cur.WorstPS {
					continue
				}
				try := StaticPlan{Name: cur.Name, Splits: append([]Split(nil), cur.Splits...)}
				try.Splits[i] = sp
				if err := ss.evaluate(&try, ss.search); err != nil {
					return StaticPlan{}, err
				}
				evals++
				if try.WorstPS < cur.WorstPS {
					cur, improved = try, true
				}
			}
		}
		if !improved {
			break
		}
	}
	if err := ss.evaluate(&cur, ss.final); err != nil {
		return StaticPlan{}, err
	}
	cur.Evaluated = evals + 1
	return cur, nil
}

// nu returns the number of units.
func (s *SoC) nu() int { return len(s.names) }

// FormatSplit names a split as NewCoRunner reads it.
func (ss *StaticScheduler) FormatSplit(i int, sp Split) string {
	n := len(ss.evals[i].segs)
	switch {
	case sp.K >= n:
		return ss.s.names[sp.First]
	case sp.K <= 0:
		return ss.s.names[sp.Second]
	}
	return fmt.Sprintf("%s>%s@%d", ss.s.names[sp.First], ss.s.names[sp.Second], sp.K)
}

// Names returns the networks' names.
func (ss *StaticScheduler) Names() []string { return append([]string(nil), ss.names...) }
