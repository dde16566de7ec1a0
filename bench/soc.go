package bench

import (
	"fmt"
	"hash/fnv"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"gnnsim/soc"
	"gnnsim/workload"
)

// This file is the soc unit kind: zoo models mapped onto the units of a
// heterogeneous SoC (package soc, MaGNAS Eq. 6-7) over a grid of mappings
// and DVFS settings or power modes. Like fpga, it sweeps design points,
// not graphs: the runner chunks, shards and resumes the points.

const socUnit = "soc"

// maxSocRandom bounds the mappings one random: entry draws.
const maxSocRandom = 1_000_000

// SocSpec is the soc: block of a spec. Point p of the sweep is
// models[m] x graph_ops[o] x settings[s] x mappings[k] with
// p = ((m*len(graph_ops) + o)*settings + s)*mappings + k: mappings vary
// fastest, so the points of one setting are consecutive and its costs are
// tabulated once. The settings are power_modes (or none) x the dvfs grid,
// the grid's domains in name order, the last varying fastest.
type SocSpec struct {
	// Spec is a SoC spec file as soc eval --spec (default: the built-in
	// Jetson AGX Xavier); relative to the working directory.
	Spec string `yaml:"spec,omitempty"`
	// Precision is soc eval's --precision: fp16 (the spec's own, default)
	// or fp32.
	Precision string `yaml:"precision,omitempty"`
	// Granularity is what a mapping assigns: block (default), layer or
	// kernel.
	Granularity string `yaml:"granularity,omitempty"`
	// Models are zoo model names (gnnsim models).
	Models []string `yaml:"models"`
	// GraphOps are the graph ops of the ViGs' Graphers (mr, edge, gin,
	// sage); default [mr]. The CNNs take only mr.
	GraphOps []string `yaml:"graph_ops,omitempty"`
	// Mappings are presets (all-UNIT, graphers-on-UNIT), random draws
	// ({random: {count, seed}}) and explicit mappings as soc eval
	// --mapping takes them.
	Mappings []SocMapping `yaml:"mappings"`
	// DVFS gives, per clock domain (a unit, emc, cpu), the operating
	// points in MHz to sweep, or "all" for the domain's whole table
	// (written out as the list when the spec is normalised). A domain
	// left out runs at its highest point (the power mode's highest under
	// a mode).
	DVFS map[string]SocClocks `yaml:"dvfs,omitempty"`
	// PowerModes are power modes of the SoC (soc units; MAXN, 10W, an
	// ID): each is crossed with the dvfs grid, whose clocks must then be
	// within every mode's caps.
	PowerModes []string `yaml:"power_modes,omitempty"`
}

// SocMapping is one entry of mappings: a preset or explicit mapping text,
// or a random draw.
type SocMapping struct {
	Text   string     `yaml:"-"`
	Random *SocRandom `yaml:"random"`
}

// SocRandom draws Count mappings, each segment on a unit drawn uniformly
// among those that can run it, from a PCG seeded with Seed (and the
// model's name, so adding a model changes no other model's draws).
type SocRandom struct {
	Count int    `yaml:"count"`
	Seed  uint64 `yaml:"seed"`
}

// UnmarshalYAML reads a string or {random: {count: N, seed: S}}.
func (m *SocMapping) UnmarshalYAML(n *yaml.Node) error {
	switch n.Kind {
	case yaml.ScalarNode:
		*m = SocMapping{Text: n.Value}
		return nil
	case yaml.MappingNode:
		if len(n.Content) != 2 || n.Content[0].Value != "random" {
			return fmt.Errorf("line %d: a mapping is a preset or mapping text, or {random: {count: N, seed: S}}", n.Line)
		}
		v := n.Content[1]
		if v.Kind != yaml.MappingNode {
			return fmt.Errorf("line %d: random: want {count: N, seed: S}", v.Line)
		}
		r := &SocRandom{}
		for i := 0; i+1 < len(v.Content); i += 2 {
			var dst any
			switch v.Content[i].Value {
			case "count":
				dst = &r.Count
			case "seed":
				dst = &r.Seed
			default:
				return fmt.Errorf("line %d: random: unknown key %q (want count, seed)", v.Content[i].Line, v.Content[i].Value)
			}
			if err := v.Content[i+1].Decode(dst); err != nil {
				return fmt.Errorf("line %d: random.%s: %w", v.Content[i].Line, v.Content[i].Value, err)
			}
		}
		*m = SocMapping{Random: r}
		return nil
	}
	return fmt.Errorf("line %d: a mapping is a preset or mapping text, or {random: {count: N, seed: S}}", n.Line)
}

// MarshalYAML writes what UnmarshalYAML reads.
func (m SocMapping) MarshalYAML() (any, error) {
	if m.Random != nil {
		return map[string]*SocRandom{"random": m.Random}, nil
	}
	return m.Text, nil
}

// SocClocks are one domain's clocks of the dvfs grid: MHz, or All (the
// whole table, replaced by its list when the spec is normalised).
type SocClocks struct {
	All bool
	MHz []float64
}

// UnmarshalYAML reads "all", a clock or a list of clocks.
func (c *SocClocks) UnmarshalYAML(n *yaml.Node) error {
	switch {
	case n.Kind == yaml.ScalarNode && strings.EqualFold(n.Value, "all"):
		*c = SocClocks{All: true}
		return nil
	case n.Kind == yaml.ScalarNode:
		var f float64
		if err := n.Decode(&f); err != nil {
			return fmt.Errorf("line %d: %q is neither a clock in MHz nor all", n.Line, n.Value)
		}
		*c = SocClocks{MHz: []float64{f}}
		return nil
	case n.Kind == yaml.SequenceNode:
		var fs []float64
		if err := n.Decode(&fs); err != nil {
			return fmt.Errorf("line %d: want a list of clocks in MHz: %w", n.Line, err)
		}
		*c = SocClocks{MHz: fs}
		return nil
	}
	return fmt.Errorf("line %d: want all or a list of clocks in MHz", n.Line)
}

// MarshalYAML writes what UnmarshalYAML reads.
func (c SocClocks) MarshalYAML() (any, error) {
	if c.All {
		return "all", nil
	}
	return c.MHz, nil
}

func socKind() UnitKind {
	return UnitKind{
		Name:      socUnit,
		Points:    socPoints,
		Table:     func(*Spec) Table { return &socTable{setIdx: -1} },
		Evaluator: newSocSweep,
		Command:   socCommand,
		Spec:      socSpecs,
		Extras:    []*Command{socUnits},
		Short:     socShort, Long: socLong,
	}
}

// socPoints fills the block's defaults, checks its keys (the SoC's tables
// only to expand dvfs "all": newSocSweep resolves the rest) and counts the
// points.
func socPoints(s *Spec) (int, error) {
	c := s.Soc
	if c == nil {
		return 0, specErr("soc", "unit soc needs a soc: block with models: and mappings: (see bench/testdata/soc.yaml)")
	}
	if len(c.Models) == 0 {
		return 0, specErr("soc.models", "empty list: name at least one zoo model (%s)", strings.Join(workload.ModelNames(), ", "))
	}
	for i, name := range c.Models {
		key := fmt.Sprintf("soc.models[%d]", i)
		low := strings.ToLower(strings.TrimSpace(name))
		if !slices.Contains(workload.ModelNames(), low) {
			return 0, specErr(key, "unknown model %q: unit soc takes zoo models (%s); model files are not taken on the soc path yet", name, strings.Join(workload.ModelNames(), ", "))
		}
		if slices.Contains(c.Models[:i], low) {
			return 0, specErr(key, "model %s listed twice", low)
		}
		c.Models[i] = low
	}
	for i, name := range c.GraphOps {
		key := fmt.Sprintf("soc.graph_ops[%d]", i)
		op, err := workload.ParseViGOp(strings.TrimSpace(name))
		if err != nil {
			return 0, specErr(key, "%v", err)
		}
		if slices.Contains(c.GraphOps[:i], op.String()) {
			return 0, specErr(key, "graph op %s listed twice", op)
		}
		c.GraphOps[i] = op.String()
	}
	if len(c.GraphOps) == 1 && c.GraphOps[0] == workload.MRConv.String() {
		c.GraphOps = nil // the default: the same hash as a spec without the key
	}
	if c.Granularity == "" {
		c.Granularity = soc.Blocks.String()
	}
	g, err := soc.ParseGranularity(c.Granularity)
	if err != nil {
		return 0, specErr("soc.granularity", "%v", err)
	}
	c.Granularity = g.String()
	switch p := strings.ToLower(strings.TrimSpace(c.Precision)); p {
	case "", "fp16":
		c.Precision = "" // the spec's own, as soc eval --precision fp16
	default:
		c.Precision = p // checked against the SoC's units by newSocSweep
	}
	if len(c.Mappings) == 0 {
		return 0, specErr("soc.mappings", "empty list: give presets (all-gpu, all-dla, graphers-on-dla), {random: {count: N, seed: S}} or mappings as soc eval --mapping")
	}
	nMap := 0
	for i, m := range c.Mappings {
		key := fmt.Sprintf("soc.mappings[%d]", i)
		switch {
		case m.Random != nil:
			if m.Random.Count < 1 || m.Random.Count > maxSocRandom {
				return 0, specErr(key+".random.count", "%d mappings, want 1..%d", m.Random.Count, maxSocRandom)
			}
			nMap += m.Random.Count
		case strings.TrimSpace(m.Text) == "":
			return 0, specErr(key, "empty mapping")
		default:
			nMap++
		}
	}
	for i, name := range c.PowerModes {
		if strings.TrimSpace(name) == "" {
			return 0, specErr(fmt.Sprintf("soc.power_modes[%d]", i), "empty power mode name")
		}
	}
	var chip *soc.SoC // loaded when a domain asks for all its points
	nSet := max(1, len(c.PowerModes))
	for _, dom := range slices.Sorted(maps.Keys(c.DVFS)) {
		key := "soc.dvfs." + dom
		cl := c.DVFS[dom]
		if cl.All {
			if chip == nil {
				if chip, err = loadSocOf(s); err != nil {
					return 0, err
				}
			}
			// The points a mode without caps allows: the whole table.
			pts, err := chip.ModePoints(soc.PowerMode{}, dom)
			if err != nil {
				return 0, specErr(key, "%v", err)
			}
			cl = SocClocks{MHz: pts}
			c.DVFS[dom] = cl
		}
		if len(cl.MHz) == 0 {
			return 0, specErr(key, "empty list: give clocks in MHz or all")
		}
		for _, f := range cl.MHz {
			if !(f > 0) || math.IsInf(f, 0) {
				return 0, specErr(key, "clock %v MHz, want a positive operating point", f)
			}
		}
		if nSet > MaxPoints/len(cl.MHz) {
			return 0, specErr("soc.dvfs", "the grid has more than %d settings", MaxPoints)
		}
		nSet *= len(cl.MHz)
	}
	n := len(c.Models) * max(1, len(c.GraphOps))
	for _, m := range []int{nSet, nMap} {
		if n > MaxPoints/m {
			return 0, specErr("soc", "models x graph_ops x settings x mappings is above %d points", MaxPoints)
		}
		n *= m
	}
	return n, nil
}

// loadSocOf returns the SoC of the block, as soc eval --spec and
// --precision build it.
func loadSocOf(s *Spec) (*soc.SoC, error) {
	c := s.Soc
	sp := soc.DefaultSpec()
	if c.Spec != "" {
		var err error
		if sp, err = soc.LoadSpec(s.Path(c.Spec)); err != nil {
			return nil, specErr("soc.spec", "%v", err)
		}
	}
	if c.Precision != "" {
		var err error
		if sp, err = sp.WithPrecision(c.Precision); err != nil {
			return nil, specErr("soc.precision", "%v", err)
		}
	}
	chip, err := soc.New(sp)
	if err != nil {
		return nil, specErr("soc.spec", "%v", err)
	}
	return chip, nil
}

// socSweep evaluates the points of a soc spec.
type socSweep struct {
	soc    *soc.SoC
	gran   soc.Granularity
	units  []string
	models []socModel // models x graph ops, model-major
	doms   []string   // grid domains, in name order
	grid   [][]float64
	modes  []soc.PowerMode
	nGrid  int
	nSet   int
	nMap   int
	// Indices into units of the gpu and dla columns (-1: no such unit).
	gpu, dla int
}

// socModel is one (model, graph op) of the sweep with its mappings. They
// are kept compact, a byte per segment and a label, and their text and
// counts are made per row: a sweep of 10^6 random mappings holds about
// 60 MB of them, not the 1.2 GB whole soc.Mappings and texts took.
type socModel struct {
	name, op string
	segs     []soc.Segment
	units    []uint8  // mapping k's unit per segment at [k*n, (k+1)*n)
	labels   []string // mapping k's row label
}

// numMaps returns the number of mappings of md.
func (md *socModel) numMaps() int { return len(md.labels) }

// mapping returns mapping k of md, its units in buf (len(md.segs) long).
func (md *socModel) mapping(k int, g soc.Granularity, buf []int) soc.Mapping {
	n := len(md.segs)
	for s, u := range md.units[k*n : (k+1)*n] {
		buf[s] = int(u)
	}
	return soc.Mapping{Granularity: g, Units: buf[:n:n]}
}

// newSocSweep loads the SoC, builds every model and mapping and checks
// every clock and power mode, so that no point of the grid can fail
// mid-sweep on bad input.
func newSocSweep(s *Spec) (Evaluator, error) {
	c := s.Soc
	chip, err := loadSocOf(s)
	if err != nil {
		return nil, err
	}
	g, _ := soc.ParseGranularity(c.Granularity) // checked by socPoints
	e := &socSweep{soc: chip, gran: g, units: chip.Units(), nGrid: 1}
	e.gpu, e.dla = unitCol(e.units, "gpu"), unitCol(e.units, "dla")
	if len(e.units) > 256 {
		return nil, specErr("soc", "%s has %d units; a soc sweep takes up to 256", chip.Name(), len(e.units))
	}
	for i, name := range c.PowerModes {
		m, err := chip.PowerMode(strings.TrimSpace(name))
		if err != nil {
			return nil, specErr(fmt.Sprintf("soc.power_modes[%d]", i), "%v", err)
		}
		if slices.ContainsFunc(e.modes, func(o soc.PowerMode) bool { return o.Name == m.Name }) {
			return nil, specErr(fmt.Sprintf("soc.power_modes[%d]", i), "power mode %s listed twice", m.Name)
		}
		e.modes = append(e.modes, m)
	}
	top := chip.DVFS(mustSetting(chip.Setting(nil)))
	for _, dom := range slices.Sorted(maps.Keys(c.DVFS)) {
		key := "soc.dvfs." + dom
		name := ""
		for d := range top {
			if strings.EqualFold(d, dom) {
				name = d
			}
		}
		if name == "" {
			return nil, specErr(key, "unknown clock domain %q (have %s)", dom, strings.Join(chip.Domains(), ", "))
		}
		if slices.Contains(e.doms, name) {
			return nil, specErr(key, "clock domain %s given twice", name)
		}
		var seen []float64
		for _, f := range c.DVFS[dom].MHz {
			set, err := chip.Setting(soc.DVFS{name: f})
			if err != nil {
				return nil, specErr(key, "%v", err)
			}
			for _, m := range e.modes {
				if _, err := chip.ModeSetting(m, soc.DVFS{name: f}); err != nil {
					return nil, specErr(key, "%v; with power_modes give clocks within every mode's caps, or leave the domain out (it runs at each mode's highest point)", err)
				}
			}
			pt := chip.DVFS(set)[name]
			if slices.Contains(seen, pt) {
				return nil, specErr(key, "%v MHz names the %v MHz point, listed before", f, pt)
			}
			seen = append(seen, pt)
		}
		e.doms = append(e.doms, name)
		e.grid = append(e.grid, c.DVFS[dom].MHz)
		e.nGrid *= len(c.DVFS[dom].MHz)
	}
	e.nSet = e.nGrid * max(1, len(e.modes))
	ops := c.GraphOps
	if len(ops) == 0 {
		ops = []string{workload.MRConv.String()}
	}
	for i, name := range c.Models {
		key := fmt.Sprintf("soc.models[%d]", i)
		for j, o := range ops {
			op, _ := workload.ParseViGOp(o) // checked by socPoints
			model, err := workload.LookupModel(name, op)
			if err != nil {
				k := key
				if len(c.GraphOps) > 0 {
					k = fmt.Sprintf("soc.graph_ops[%d]", j)
				}
				return nil, specErr(k, "%v", err)
			}
			segs, err := soc.Segments(model, g)
			if err != nil {
				return nil, specErr(key, "%v", err)
			}
			md := socModel{name: model.Name, op: op.String(), segs: segs}
			if !slices.ContainsFunc(segs, func(sg soc.Segment) bool { return sg.Kind == workload.Grapher }) {
				md.op = "none" // a CNN: no graph layer the op could be
			}
			if err := e.mappings(c, &md); err != nil {
				return nil, err
			}
			e.models = append(e.models, md)
		}
	}
	e.nMap = e.models[0].numMaps()
	return e, nil
}

// mustSetting returns set; the SoC's own highest points always resolve.
func mustSetting(set soc.Setting, err error) soc.Setting {
	if err != nil {
		panic("bench: the SoC's highest points: " + err.Error())
	}
	return set
}

// unitCol returns the index of the unit called name, or -1.
func unitCol(units []string, name string) int {
	return slices.IndexFunc(units, func(u string) bool { return strings.EqualFold(u, name) })
}

// mappings resolves the spec's mappings for model md and checks each at
// the SoC's highest points.
func (e *socSweep) mappings(c *SocSpec, md *socModel) error {
	n := len(md.segs)
	ev, err := soc.NewSegmentEvaluator(e.soc, md.segs, e.gran)
	if err != nil {
		return specErr("soc.models", "%s: %v", md.name, err)
	}
	top := mustSetting(e.soc.Setting(nil))
	var res soc.Result
	var runs [][]int // per segment, the units that run it (for random draws)
	for i, entry := range c.Mappings {
		key := fmt.Sprintf("soc.mappings[%d]", i)
		add := func(name string, m soc.Mapping) error {
			if err := ev.EvaluateAt(&res, m, top); err != nil {
				return specErr(key, "model %s: %v", md.name, err)
			}
			for _, u := range m.Units {
				md.units = append(md.units, uint8(u)) // newSocSweep: < 256 units
			}
			md.labels = append(md.labels, name)
			return nil
		}
		if r := entry.Random; r != nil {
			if runs == nil {
				if runs, err = e.runners(md); err != nil {
					return specErr(key, "%v", err)
				}
			}
			h := fnv.New64a()
			h.Write([]byte(md.name))
			rng := rand.New(rand.NewPCG(r.Seed, h.Sum64()))
			for j := range r.Count {
				m := soc.Mapping{Granularity: e.gran, Units: make([]int, n)}
				for s := range m.Units {
					m.Units[s] = runs[s][rng.IntN(len(runs[s]))]
				}
				if err := add(fmt.Sprintf("random/%d/%d", r.Seed, j), m); err != nil {
					return err
				}
			}
			continue
		}
		text := strings.TrimSpace(entry.Text)
		low := strings.ToLower(text)
		switch {
		case strings.HasPrefix(low, "all-"):
			u, err := e.soc.UnitIndex(text[len("all-"):])
			if err != nil {
				return specErr(key, "preset %q: %v", text, err)
			}
			err = add("all-"+e.units[u], soc.MapAll(e.gran, u, n))
			if err != nil {
				return err
			}
		case strings.HasPrefix(low, "graphers-on-"):
			u, err := e.soc.UnitIndex(text[len("graphers-on-"):])
			if err != nil {
				return specErr(key, "preset %q: %v", text, err)
			}
			m := soc.MapAll(e.gran, 0, n) // the rest on the first unit
			for s, sg := range md.segs {
				if sg.Kind == workload.Grapher {
					m.Units[s] = u
				}
			}
			if err := add("graphers-on-"+e.units[u], m); err != nil {
				return err
			}
		default:
			m, err := e.soc.ParseMapping(text, e.gran, n)
			if err != nil {
				return specErr(key, "model %s: %v (presets: all-UNIT, graphers-on-UNIT, {random: {count, seed}}; units %s; 'gnnsim models show %s' lists the segments)",
					md.name, err, strings.Join(e.units, ", "), md.name)
			}
			if err := add(strings.Join(strings.Fields(text), " "), m); err != nil {
				return err
			}
		}
	}
	return nil
}

// runners returns, per segment of md, the units that can run it alone at
// the SoC's highest points: random draws pick among them, so that every
// drawn mapping is valid.
func (e *socSweep) runners(md *socModel) ([][]int, error) {
	top := mustSetting(e.soc.Setting(nil))
	out := make([][]int, len(md.segs))
	var res soc.Result
	for s := range md.segs {
		ev, err := soc.NewSegmentEvaluator(e.soc, md.segs[s:s+1], e.gran)
		if err != nil {
			return nil, err
		}
		for u := range e.units {
			if ev.EvaluateAt(&res, soc.MapAll(e.gran, u, 1), top) == nil {
				out[s] = append(out[s], u)
			}
		}
		if len(out[s]) == 0 {
			return nil, fmt.Errorf("model %s: no unit runs segment %d (%s)", md.name, s, md.segs[s].Name)
		}
	}
	return out, nil
}

// setting resolves setting index si: its power mode (or none) and grid
// clocks.
func (e *socSweep) setting(si int) (soc.Setting, string, error) {
	d := soc.DVFS{}
	g := si % e.nGrid
	for k := len(e.doms) - 1; k >= 0; k-- {
		d[e.doms[k]] = e.grid[k][g%len(e.grid[k])]
		g /= len(e.grid[k])
	}
	if len(e.modes) == 0 {
		set, err := e.soc.Setting(d)
		return set, "", err
	}
	m := e.modes[si/e.nGrid]
	set, err := e.soc.ModeSetting(m, d)
	return set, m.Name, err
}

// socTable is the runs table of a soc sweep. A chunk's table also keeps
// what consecutive points share: the setting, and the evaluator holding
// the costs tabulated at it (one setting at a time, so a chunk's memory
// does not grow with the grid).
type socTable struct {
	RowTable[SocRow]

	setIdx int // setting index of set, -1 for none
	set    soc.Setting
	mode   string
	dvfs   string
	hz     [4]float64 // gpu, dla, emc, cpu
	unitHz []float64
	ev     *soc.Evaluator
	evKey  [2]int // (model, setting) of ev
	res    soc.Result
	slab   []float64 // backs the rows' busy_ms lists
	counts []int64   // backs the rows' unit_segments lists
	units  []int     // the mapping being evaluated
}

// Evaluate appends the row of point c.ID.
func (e *socSweep) Evaluate(t Table, c Case) error {
	st, ok := t.(*socTable)
	if !ok {
		return fmt.Errorf("bench: table %T is not a soc sweep's", t)
	}
	p := c.ID
	ki := p % e.nMap
	p /= e.nMap
	si, mi := p%e.nSet, p/e.nSet
	md := &e.models[mi]
	if st.setIdx != si {
		set, mode, err := e.setting(si)
		if err != nil {
			return fmt.Errorf("bench: soc point %d: %w", c.ID, err)
		}
		d := e.soc.DVFS(set)
		st.setIdx, st.set, st.mode, st.dvfs = si, set, mode, d.String()
		for i, name := range [4]string{"gpu", "dla", e.soc.Memory().Name, "cpu"} {
			st.hz[i] = 0
			for k, mhz := range d {
				if strings.EqualFold(k, name) {
					st.hz[i] = mhz * 1e6
				}
			}
		}
		st.unitHz = make([]float64, len(e.units)) // shared by the setting's rows
		for i, u := range e.units {
			st.unitHz[i] = d[u] * 1e6
		}
		st.ev = nil
	}
	if st.ev == nil || st.evKey != [2]int{mi, si} {
		ev, err := soc.NewSegmentEvaluator(e.soc, md.segs, e.gran)
		if err != nil {
			return fmt.Errorf("bench: soc point %d: %w", c.ID, err)
		}
		st.ev, st.evKey = ev, [2]int{mi, si}
	}
	if len(st.units) < len(md.segs) {
		st.units = make([]int, len(md.segs))
	}
	m := md.mapping(ki, e.gran, st.units)
	label := md.labels[ki]
	r := &st.res
	if err := st.ev.EvaluateAt(r, m, st.set); err != nil {
		return fmt.Errorf("bench: soc point %d (%s, %s, %s): %w", c.ID, md.name, label, st.dvfs, err)
	}
	nu := len(e.units)
	if len(st.slab) < nu {
		st.slab = make([]float64, max(4096, nu))
	}
	busy := st.slab[:nu:nu]
	st.slab = st.slab[nu:]
	for i, b := range r.BusyPS {
		busy[i] = float64(b) * 1e-9
	}
	if len(st.counts) < nu {
		st.counts = make([]int64, max(4096, nu))
	}
	counts := st.counts[:nu:nu]
	st.counts = st.counts[nu:]
	for _, u := range m.Units {
		counts[u]++
	}
	row := SocRow{PointID: int64(c.ID), Model: md.name, GraphOp: md.op, SoC: e.soc.Name(), Granularity: e.gran.String(),
		Segments: int64(len(md.segs)), MappingName: label, Mapping: e.soc.FormatMapping(m), Transitions: int64(r.Transitions),
		PowerMode: st.mode, DVFS: st.dvfs, GPUHz: st.hz[0], DLAHz: st.hz[1], EMCHz: st.hz[2], CPUHz: st.hz[3],
		LatencyMS: r.LatencyMS(), EnergyMJ: r.EnergyMJ(), PowerW: r.PowerW(), TransferMS: float64(r.TransferPS) * 1e-9,
		DRAMBytes: r.DRAMBytes, PlatformMJ: r.PlatformPJ * 1e-9,
		Units: e.units, UnitSegments: counts, UnitHz: st.unitHz, BusyMS: busy}
	if e.gpu >= 0 {
		row.GPUSegments, row.GPUBusyMS = counts[e.gpu], busy[e.gpu]
	}
	if e.dla >= 0 {
		row.DLASegments, row.DLABusyMS = counts[e.dla], busy[e.dla]
	}
	st.Rows = append(st.Rows, row)
	return nil
}
