package magnas

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"

	"gnnsim/soc"
	"gnnsim/workload"
)

// Costs prices segments (blocks, layers, kernel groups: see Split) on a
// platform once and keeps them: MaGNAS's lookup tables (Section 4.3.4),
// "indexed by the architectural parameters of a computing block and the CU
// to whom it is mapped", here filled by the platform's evaluator instead
// of board measurements.
//
// For every distinct segment (its kind, input size and layers, or its
// kernels and feature maps; names do not matter) it stores the cost of the
// segment alone on each unit at each setting, and for every distinct pair
// of consecutive segments the boundary term Eval([a b], [u v]) -
// Eval([a], [u]) - Eval([b], [v]). A mapping's cost is then the sum of its
// segments' and boundaries' entries, which equals the evaluator's own
// answer whenever that answer is a sum of per-segment terms and of terms
// of two consecutive segments (Eq. 6-7, with or without the model's first
// read and last write), as TestTableMatchesEvaluator checks. A Costs is
// safe for concurrent use.
type Costs struct {
	P *Platform

	mu    sync.Mutex
	block map[string][]float64 // segment key -> [s][u] (time ps, energy pJ) pairs; NaN = unsupported
	pair  map[string][]float64 // key|key -> [s][u][v] pairs
}

// NewCosts returns an empty cost cache for p.
func NewCosts(p *Platform) (*Costs, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return &Costs{P: p, block: map[string][]float64{}, pair: map[string][]float64{}}, nil
}

// segKey identifies a segment's cost: a segment of layers by its kind,
// input size and layers (its kernels and feature maps follow from them), a
// kernel group by its kernels and feature maps.
func segKey(sg soc.Segment) string {
	b := sg.Work.Block
	if len(b.Layers) > 0 {
		return fmt.Sprintf("%d|%d,%d|%v", sg.Kind, b.In.Nodes, b.In.NNZ, b.Layers)
	}
	return fmt.Sprintf("%d|k%v|%d,%d", sg.Kind, sg.Kernels, sg.InElems, sg.OutElems)
}

// segCosts returns the [s][u] (time, energy) entries of sg.
func (c *Costs) segCosts(sg soc.Segment, key string) ([]float64, error) {
	c.mu.Lock()
	v, ok := c.block[key]
	c.mu.Unlock()
	if ok {
		return v, nil
	}
	p := c.P
	S, U := p.NumSettings(), len(p.Units)
	v = make([]float64, 2*S*U)
	segs := []soc.Segment{sg}
	mapping := []int{0}
	for s := range S {
		set := p.Setting(s)
		for u := range U {
			mapping[0] = u
			o, err := p.Evaluate(segs, mapping, set)
			k := 2 * (s*U + u)
			switch {
			case errors.Is(err, ErrUnsupported):
				v[k], v[k+1] = math.NaN(), math.NaN()
			case err != nil:
				return nil, fmt.Errorf("magnas: pricing %s on %s: %w", sg.Name, p.Units[u], err)
			default:
				v[k], v[k+1] = float64(o.TimePS), o.EnergyPJ
			}
		}
	}
	c.mu.Lock()
	c.block[key] = v
	c.mu.Unlock()
	return v, nil
}

// pairCosts returns the [s][u][v] boundary entries of a followed by b.
func (c *Costs) pairCosts(a, b soc.Segment, ka, kb string, ca, cb []float64) ([]float64, error) {
	key := ka + "||" + kb
	c.mu.Lock()
	v, ok := c.pair[key]
	c.mu.Unlock()
	if ok {
		return v, nil
	}
	p := c.P
	S, U := p.NumSettings(), len(p.Units)
	v = make([]float64, 2*S*U*U)
	segs := []soc.Segment{a, b}
	mapping := []int{0, 0}
	for s := range S {
		set := p.Setting(s)
		for u := range U {
			for w := range U {
				k := 2 * ((s*U+u)*U + w)
				ia, ib := 2*(s*U+u), 2*(s*U+w)
				if math.IsNaN(ca[ia]) || math.IsNaN(cb[ib]) {
					v[k], v[k+1] = math.NaN(), math.NaN()
					continue
				}
				mapping[0], mapping[1] = u, w
				o, err := p.Evaluate(segs, mapping, set)
				if err != nil {
					return nil, fmt.Errorf("magnas: pricing %s, %s on %s, %s: %w", a.Name, b.Name, p.Units[u], p.Units[w], err)
				}
				v[k] = float64(o.TimePS) - ca[ia] - cb[ib]
				v[k+1] = o.EnergyPJ - ca[ia+1] - cb[ib+1]
			}
		}
	}
	c.mu.Lock()
	c.pair[key] = v
	c.mu.Unlock()
	return v, nil
}

// Table is the cost table of one model at one granularity: every segment
// on every unit at every setting and every boundary on every unit pair.
// Eval prices a mapping from it without calling the platform.
type Table struct {
	Model       workload.Model
	Granularity Granularity
	// Segments are the mapping units (Split(Model, Granularity)): one gene
	// each.
	Segments []soc.Segment
	Units    []string
	Settings int
	// Allowed lists, per segment, the units that can run it, ascending.
	Allowed [][]int

	u     int
	comp  []float64 // [(b*S+s)*U+u]*2 + {0: time ps, 1: energy pJ}
	bound []float64 // [((i*S+s)*U+u)*U+v]*2 + {0, 1}, boundary i between segments i and i+1
}

// Table builds the cost table of m split at granularity g (Split).
func (c *Costs) Table(m workload.Model, g Granularity) (*Table, error) {
	segs, err := Split(m, g)
	if err != nil {
		return nil, err
	}
	n := len(segs)
	p := c.P
	S, U := p.NumSettings(), len(p.Units)
	t := &Table{Model: m, Granularity: g, Segments: segs, Units: p.Units, Settings: S, u: U,
		comp: make([]float64, 2*n*S*U), bound: make([]float64, 2*max(n-1, 0)*S*U*U), Allowed: make([][]int, n)}
	keys := make([]string, n)
	costs := make([][]float64, n)
	for i, sg := range segs {
		keys[i] = segKey(sg)
		v, err := c.segCosts(sg, keys[i])
		if err != nil {
			return nil, err
		}
		costs[i] = v
		copy(t.comp[2*i*S*U:], v)
		for u := range U {
			ok := true
			for s := range S {
				if math.IsNaN(v[2*(s*U+u)]) {
					ok = false
				}
			}
			if ok {
				t.Allowed[i] = append(t.Allowed[i], u)
			}
		}
		if len(t.Allowed[i]) == 0 {
			return nil, fmt.Errorf("magnas: no unit of %s can run %s", p.Name, sg.Name)
		}
	}
	for i := 0; i+1 < n; i++ {
		v, err := c.pairCosts(segs[i], segs[i+1], keys[i], keys[i+1], costs[i], costs[i+1])
		if err != nil {
			return nil, err
		}
		copy(t.bound[2*i*S*U*U:], v)
	}
	return t, nil
}

// Blocks is the number of segments (mapping genes) of the table's model.
func (t *Table) Blocks() int { return len(t.Allowed) }

// Eval returns the latency (ps), energy (pJ) and number of unit
// transitions of mapping (a unit index per segment) at setting s. It does
// not allocate; the mapping must use allowed units only.
func (t *Table) Eval(mapping []int, s int) (timePS, energyPJ float64, transitions int) {
	S, U := t.Settings, t.u
	for i, u := range mapping {
		k := 2 * ((i*S+s)*U + u)
		timePS += t.comp[k]
		energyPJ += t.comp[k+1]
		if i > 0 {
			prev := mapping[i-1]
			k := 2 * (((i-1)*S+s)*U*U + prev*U + u)
			timePS += t.bound[k]
			energyPJ += t.bound[k+1]
			if prev != u {
				transitions++
			}
		}
	}
	return timePS, energyPJ, transitions
}

// SegmentCost returns segment i's own cost on unit u at setting s (time
// ps, energy pJ), without transfers; NaN when u cannot run it.
func (t *Table) SegmentCost(i, s, u int) (timePS, energyPJ float64) {
	k := 2 * ((i*t.Settings+s)*t.u + u)
	return t.comp[k], t.comp[k+1]
}

// Standalone returns the mapping of every segment to unit u, or nil when
// u cannot run some segment.
func (t *Table) Standalone(u int) []int {
	m := make([]int, t.Blocks())
	for i, al := range t.Allowed {
		found := false
		for _, a := range al {
			found = found || a == u
		}
		if !found {
			return nil
		}
		m[i] = u
	}
	return m
}

// StandaloneFallback returns the mapping of every segment to unit u where
// u can run it, and elsewhere to the unit that runs that segment fastest
// at setting s: a unit's standalone deployment with fallback (as the DLA
// falls back to the GPU), for a unit that refuses some segment (a DSA
// whose buffers do not hold a layer's tiles).
func (t *Table) StandaloneFallback(u, s int) []int {
	m := make([]int, t.Blocks())
	for i, al := range t.Allowed {
		if slices.Contains(al, u) {
			m[i] = u
			continue
		}
		best, bt := al[0], math.Inf(1)
		for _, v := range al {
			if tv, _ := t.SegmentCost(i, s, v); tv < bt {
				best, bt = v, tv
			}
		}
		m[i] = best
	}
	return m
}
