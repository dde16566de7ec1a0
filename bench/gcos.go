package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	accel "gnnsim/accel/gcos"
	"gnnsim/graphs"
	"gnnsim/hw"
	nas "gnnsim/nas/gcos"
	"gnnsim/workload"
)

// This file is the gcos unit kind: fixed designs of the G-CoS template
// (package accel/gcos) running GNN stacks of any depth (model files) on
// data sets. Point p of the sweep is designs[c] x models[m] x data[d] with
// p = (c*len(models) + m)*len(data) + d; the designs are the configs:
// entries expanded in order, each entry's grid with its last parameter
// varying fastest. Like fpga, it sweeps points, not graphs.

const gcosUnit = "gcos"

// gcosKind is unit: gcos, G-CoS designs x model files x data sets.
func gcosKind() UnitKind {
	return UnitKind{Name: gcosUnit, Points: gcosPoints,
		Table: func(*Spec) Table { return &RowTable[GCoSRow]{} }, Evaluator: newGCoS, Command: gcosCommand, Spec: gcosSpecs,
		Short: gcosShort, Long: gcosLong}
}

// GCoSSpec is the gcos: block of a spec.
type GCoSSpec struct {
	// Configs are the designs: each entry a design file (file:, as
	// 'gnnsim gcos eval --config' reads; absent: the built-in default,
	// 'gnnsim gcos config default') and optionally a grid over its
	// parameters, each list overriding every sub-accelerator's value.
	Configs []GCoSConfigs `yaml:"configs"`
	// Models are GNN stacks: model files (workload.ResolveModelSpec) of
	// gcn, gin, sage and gat layers, with activations; read when the sweep
	// is planned, not when it is merged.
	Models []string `yaml:"models"`
	// Data are the data sets: cora, citeseer, pubmed, reddit by name (as
	// G-CoS prices them: nas/gcos.Datasets) or a graph path (a Planetoid
	// file set, or any graph file; a model on a bare graph needs
	// features: in its file).
	Data []string `yaml:"data"`
	// DataDir is where named data sets' files are looked up (the shared
	// data folder); empty: their published sizes and densities only,
	// whatever is on disk, so that the rows never depend on the machine.
	DataDir string `yaml:"data_dir,omitempty"`
}

// GCoSConfigs is one configs: entry: a base design and a grid over it.
// An empty list keeps the base's value; the grid is the cross product of
// the lists in the order of the fields, the last varying fastest.
type GCoSConfigs struct {
	File       string    `yaml:"file,omitempty"`
	Subs       []int     `yaml:"subs,omitempty"` // sub-accelerators: the base's first n, the last repeated
	PEs        []int     `yaml:"pes,omitempty"`  // PEs of every sub-accelerator
	Tiling     []string  `yaml:"tiling,omitempty"`
	Kernel     []string  `yaml:"kernel,omitempty"`
	TileM      []int     `yaml:"tile_m,omitempty"`
	TileK      []int     `yaml:"tile_k,omitempty"`
	TileN      []int     `yaml:"tile_n,omitempty"`
	Allocation []string  `yaml:"allocation,omitempty"`
	HBMGBps    []float64 `yaml:"hbm_gb_per_s,omitempty"`
	ClockMHz   []float64 `yaml:"clock_mhz,omitempty"`
}

// gcosAxis is one grid parameter of a configs: entry, named as its YAML
// key: the length of its list and how value v of it changes a design.
type gcosAxis struct {
	name string
	len  func(g *GCoSConfigs) int
	// set applies value v of the list to c; sub is set on axes that
	// change every sub-accelerator (then called once per sub).
	set func(g *GCoSConfigs, c *accel.Config, sub *accel.Sub, v int) error
	// keep copies the axis' list of g into o, as value v alone.
	keep func(g, o *GCoSConfigs, v int)
	sub  bool
}

// gridAxis builds the axis of the list field returns, applied with put
// (to the design, or to each sub-accelerator when sub is set).
func gridAxis[T any](name string, sub bool, field func(*GCoSConfigs) *[]T, put func(c *accel.Config, s *accel.Sub, v T) error) gcosAxis {
	return gcosAxis{name: name, sub: sub,
		len:  func(g *GCoSConfigs) int { return len(*field(g)) },
		set:  func(g *GCoSConfigs, c *accel.Config, s *accel.Sub, v int) error { return put(c, s, (*field(g))[v]) },
		keep: func(g, o *GCoSConfigs, v int) { *field(o) = pickOne(*field(g), v) },
	}
}

// gcosAxes is the number of grid parameters of a configs: entry.
const gcosAxes = 10

// gcosGrid is the grid of a configs: entry, in the order of the cross
// product (the last varying fastest) and of application: subs first, as it
// sets how many sub-accelerators the others change.
var gcosGrid = [gcosAxes]gcosAxis{
	gridAxis("subs", false, func(g *GCoSConfigs) *[]int { return &g.Subs }, func(c *accel.Config, _ *accel.Sub, n int) error {
		if n < 1 || n > accel.MaxSubs {
			return fmt.Errorf("subs %d, want 1..%d", n, accel.MaxSubs)
		}
		for len(c.Subs) < n {
			c.Subs = append(c.Subs, c.Subs[len(c.Subs)-1])
		}
		c.Subs = c.Subs[:n]
		return nil
	}),
	gridAxis("pes", true, func(g *GCoSConfigs) *[]int { return &g.PEs }, func(_ *accel.Config, s *accel.Sub, v int) error {
		s.PEs = v
		return nil
	}),
	gridAxis("tiling", true, func(g *GCoSConfigs) *[]string { return &g.Tiling }, func(_ *accel.Config, s *accel.Sub, v string) (err error) {
		s.Tiling, err = accel.ParseTiling(v)
		return err
	}),
	gridAxis("kernel", true, func(g *GCoSConfigs) *[]string { return &g.Kernel }, func(_ *accel.Config, s *accel.Sub, v string) (err error) {
		s.Kernel, err = accel.ParseKernel(v)
		return err
	}),
	gridAxis("tile_m", true, func(g *GCoSConfigs) *[]int { return &g.TileM }, func(_ *accel.Config, s *accel.Sub, v int) error {
		s.TileM = v
		return nil
	}),
	gridAxis("tile_k", true, func(g *GCoSConfigs) *[]int { return &g.TileK }, func(_ *accel.Config, s *accel.Sub, v int) error {
		s.TileK = v
		return nil
	}),
	gridAxis("tile_n", true, func(g *GCoSConfigs) *[]int { return &g.TileN }, func(_ *accel.Config, s *accel.Sub, v int) error {
		s.TileN = v
		return nil
	}),
	gridAxis("allocation", false, func(g *GCoSConfigs) *[]string { return &g.Allocation }, func(c *accel.Config, _ *accel.Sub, v string) (err error) {
		c.Alloc, err = accel.ParseAllocation(v)
		return err
	}),
	gridAxis("hbm_gb_per_s", false, func(g *GCoSConfigs) *[]float64 { return &g.HBMGBps }, func(c *accel.Config, _ *accel.Sub, v float64) error {
		if !(v >= accel.MinHBMGBps && v <= accel.MaxHBMGBps) {
			return fmt.Errorf("hbm_gb_per_s %v, want %g..%g", v, accel.MinHBMGBps, accel.MaxHBMGBps)
		}
		c.HBMBytesPerSec = v * 1e9
		return nil
	}),
	gridAxis("clock_mhz", false, func(g *GCoSConfigs) *[]float64 { return &g.ClockMHz }, func(c *accel.Config, _ *accel.Sub, v float64) error {
		if !(v >= accel.MinClockMHz && v <= accel.MaxClockMHz) {
			return fmt.Errorf("clock_mhz %v, want %g..%g", v, accel.MinClockMHz, accel.MaxClockMHz)
		}
		c.ClockHz = v * 1e6
		return nil
	}),
}

// lens returns the length of each axis (1 for an empty list).
func (g *GCoSConfigs) lens() [gcosAxes]int {
	var n [gcosAxes]int
	for a, ax := range gcosGrid {
		n[a] = max(ax.len(g), 1)
	}
	return n
}

// apply returns base with the grid values of index idx (per axis; an
// axis without values keeps the base's).
func (g *GCoSConfigs) apply(base accel.Config, idx [gcosAxes]int) (accel.Config, error) {
	c := base
	c.Subs = slices.Clone(base.Subs)
	for a, ax := range gcosGrid {
		if ax.len(g) == 0 {
			continue
		}
		if !ax.sub {
			if err := ax.set(g, &c, nil, idx[a]); err != nil {
				return c, err
			}
			continue
		}
		for i := range c.Subs {
			if err := ax.set(g, &c, &c.Subs[i], idx[a]); err != nil {
				return c, err
			}
		}
	}
	_, err := accel.New(c)
	return c, err
}

// only returns the grid of value v of axis a alone (no grid when the
// axis has no list).
func (g *GCoSConfigs) only(a, v int) GCoSConfigs {
	var o GCoSConfigs
	gcosGrid[a].keep(g, &o, v)
	return o
}

// pickOne returns l[v] as a list, or nil for an empty l.
func pickOne[T any](l []T, v int) []T {
	if len(l) == 0 {
		return nil
	}
	return l[v : v+1]
}

// gcosPoints checks the block's keys (not the files: newGCoS reads them)
// and counts the design points.
func gcosPoints(s *Spec) (int, error) {
	g := s.GCoS
	if g == nil {
		return 0, specErr("gcos", "unit gcos needs a gcos: block with configs:, models: and data: (see bench/testdata/gcos.yaml)")
	}
	switch {
	case len(g.Configs) == 0:
		return 0, specErr("gcos.configs", "empty list: give at least one design ({} for the default)")
	case len(g.Models) == 0:
		return 0, specErr("gcos.models", "empty list: name at least one model file")
	case len(g.Data) == 0:
		return 0, specErr("gcos.data", "empty list: name at least one data set (%s) or graph path", strings.Join(nas.DatasetNames(), ", "))
	}
	if err := checkLists(map[string][]string{"gcos.models": g.Models, "gcos.data": g.Data}); err != nil {
		return 0, err
	}
	for i := range g.Configs {
		c := &g.Configs[i]
		k := fmt.Sprintf("gcos.configs[%d].", i)
		if err := checkLists(map[string][]string{k + "subs": strs(c.Subs), k + "pes": strs(c.PEs), k + "tiling": c.Tiling, k + "kernel": c.Kernel,
			k + "tile_m": strs(c.TileM), k + "tile_k": strs(c.TileK), k + "tile_n": strs(c.TileN), k + "allocation": c.Allocation,
			k + "hbm_gb_per_s": strs(c.HBMGBps), k + "clock_mhz": strs(c.ClockMHz)}); err != nil {
			return 0, err
		}
	}
	designs := 0
	for i := range g.Configs {
		n := 1
		for _, l := range g.Configs[i].lens() {
			if n > MaxPoints/l {
				return 0, specErr(fmt.Sprintf("gcos.configs[%d]", i), "a grid of more than %d designs", MaxPoints)
			}
			n *= l
		}
		if designs += n; designs > MaxPoints {
			return 0, specErr("gcos.configs", "more than %d designs", MaxPoints)
		}
	}
	n := designs
	for _, m := range []int{len(g.Models), len(g.Data)} {
		if n > MaxPoints/m {
			return 0, specErr("gcos", "configs x models x data is above %d design points", MaxPoints)
		}
		n *= m
	}
	return n, nil
}

// gcosEntry is one configs: entry resolved: its base design, label and
// grid.
type gcosEntry struct {
	grid  *GCoSConfigs
	base  accel.Config
	label string
	lens  [gcosAxes]int
	n     int // designs
}

// gcosSweep prices the design points of a gcos spec.
type gcosSweep struct {
	spec    *GCoSSpec
	entries []gcosEntry
	models  [][]workload.Model // [model][data]
	names   []string           // model names
	data    []nas.Dataset
}

// newGCoS reads the design files, checks every grid value on its own (a
// value valid alone is valid in any combination: the grids override every
// sub-accelerator alike), reads the models and data sets and builds every
// model on every data set, so that no point can fail mid-sweep on its
// inputs.
func newGCoS(s *Spec) (Evaluator, error) {
	g := s.GCoS
	e := &gcosSweep{spec: g}
	for i := range g.Configs {
		key := fmt.Sprintf("gcos.configs[%d]", i)
		c := &g.Configs[i]
		en := gcosEntry{grid: c, base: accel.Default(), label: "default", lens: c.lens(), n: 1}
		if c.File != "" {
			cfg, err := accel.ReadConfig(s.Path(c.File))
			if err != nil {
				return nil, specErr(key+".file", "%v", err)
			}
			en.base, en.label = cfg, c.File
		}
		if _, err := (&GCoSConfigs{}).apply(en.base, [gcosAxes]int{}); err != nil {
			return nil, specErr(key, "%v", err)
		}
		for a, l := range en.lens {
			en.n *= l
			for v := range l {
				one := c.only(a, v)
				if _, err := one.apply(en.base, [gcosAxes]int{}); err != nil {
					return nil, specErr(fmt.Sprintf("%s.%s[%d]", key, gcosGrid[a].name, v), "%v", err)
				}
			}
		}
		e.entries = append(e.entries, en)
	}
	if g.DataDir != "" {
		if st, err := os.Stat(g.DataDir); err != nil || !st.IsDir() {
			return nil, specErr("gcos.data_dir", "%q is not a directory: the named data sets' files are looked up there (leave the key out for their published sizes)", g.DataDir)
		}
	}
	for i, ref := range g.Data {
		d, err := GCoSData(s.Path(ref), s.Path(g.DataDir))
		if err != nil {
			return nil, specErr(fmt.Sprintf("gcos.data[%d]", i), "%v", err)
		}
		e.data = append(e.data, d)
	}
	for i, ref := range g.Models {
		spec, err := workload.ResolveModelSpec(s.Path(ref))
		if err != nil {
			return nil, specErr(fmt.Sprintf("gcos.models[%d]", i), "%v", err)
		}
		ms := make([]workload.Model, len(e.data))
		for j, d := range e.data {
			if ms[j], err = GCoSModel(spec, &d); err != nil {
				return nil, specErr(fmt.Sprintf("gcos.models[%d]", i), "%s on %s: %v", ref, g.Data[j], err)
			}
		}
		e.models = append(e.models, ms)
		e.names = append(e.names, ms[0].Name)
	}
	return e, nil
}

// design returns design c of the sweep and its label.
func (e *gcosSweep) design(c int) (accel.Config, string, error) {
	for i := range e.entries {
		en := &e.entries[i]
		if c >= en.n {
			c -= en.n
			continue
		}
		var idx [gcosAxes]int
		for a := gcosAxes - 1; a >= 0; a-- {
			idx[a] = c % en.lens[a]
			c /= en.lens[a]
		}
		cfg, err := en.grid.apply(en.base, idx)
		return cfg, en.label, err
	}
	return accel.Config{}, "", fmt.Errorf("design %d out of range", c)
}

// Evaluate appends the row of design point c.ID.
func (e *gcosSweep) Evaluate(t Table, c Case) error {
	return appendRows(t, func(rows []GCoSRow) ([]GCoSRow, error) {
		nd, nm := len(e.data), len(e.models)
		d := c.ID % nd
		m := c.ID / nd % nm
		ci := c.ID / (nd * nm)
		cfg, label, err := e.design(ci)
		if err != nil {
			return rows, fmt.Errorf("bench: gcos point %d: %w", c.ID, err)
		}
		r, err := EvalGCoS(cfg, e.models[m][d], &e.data[d])
		if err != nil {
			return rows, fmt.Errorf("bench: gcos point %d: %w", c.ID, err)
		}
		r.PointID, r.Config, r.Model, r.Data = int64(c.ID), label, e.spec.Models[m], e.spec.Data[d]
		return append(rows, r), nil
	})
}

// GCoSData resolves a data set as the gcos kind and 'gnnsim gcos eval'
// take it: cora, citeseer, pubmed or reddit by name (nas/gcos.DatasetByName,
// their files under dataDir when there, else their published sizes; dataDir
// "" for published sizes only), else a path: a Planetoid file set (its
// graph, feature width and measured density) or one graph file (its graph
// alone: the model gives the features).
func GCoSData(ref, dataDir string) (nas.Dataset, error) {
	if slices.Contains(nas.DatasetNames(), strings.ToLower(ref)) {
		return nas.DatasetByName(ref, dataDir)
	}
	if graphs.IsPlanetoid(ref) {
		p, err := graphs.LoadPlanetoid(ref)
		if err != nil {
			return nas.Dataset{}, err
		}
		d := nas.Dataset{Name: p.Name, Graph: p.Graph, Features: p.Features.Cols, Classes: max(p.NumClasses, 1)}
		if dens, rows := p.FeatureDensity(); rows > 0 && dens > 0 && dens < 1 {
			d.FeatureDensity = dens
		}
		return d, nil
	}
	gs, err := graphs.Load(ref, graphs.FormatAuto)
	if err != nil {
		return nas.Dataset{}, fmt.Errorf("%q is neither a data set name (%s) nor a readable graph: %w", ref, strings.Join(nas.DatasetNames(), ", "), err)
	}
	if len(gs) != 1 {
		return nas.Dataset{}, fmt.Errorf("%s holds %d graphs; a G-CoS data set is one graph", ref, len(gs))
	}
	name := gs[0].Name
	if name == "" {
		name = filepath.Base(ref)
	}
	return nas.Dataset{Name: name, Graph: gs[0], Classes: 1}, nil
}

// GCoSModel builds the GNN stack spec on d; a bare graph (no features of
// its own) takes the file's features:, which d then records.
func GCoSModel(spec *workload.ModelSpec, d *nas.Dataset) (workload.Model, error) {
	if d.Features == 0 {
		if spec.Features == 0 && spec.Zoo == "" {
			return workload.Model{}, fmt.Errorf("data set %s has no features of its own: give features: in model %s", d.Name, spec.Name)
		}
		d.Features = spec.Features
	}
	m, err := d.BuildModel(spec)
	if err != nil {
		return workload.Model{}, err
	}
	if spec.Name == "" {
		m.Name = fmt.Sprintf("gnn-%d", len(spec.Layers))
	}
	return m, nil
}

// EvalGCoS prices model m (built on d: GCoSModel) on design cfg: the row
// of a gcos sweep without its point, config label, model and data refs.
func EvalGCoS(cfg accel.Config, m workload.Model, d *nas.Dataset) (GCoSRow, error) {
	u, err := accel.New(cfg)
	if err != nil {
		return GCoSRow{}, err
	}
	mc, err := d.RunModel(m, u)
	if err != nil {
		return GCoSRow{}, err
	}
	ok, over := hw.Feasible(u)
	nodes := d.Size.Nodes
	if d.Graph != nil {
		nodes = int64(d.Graph.NumNodes())
	}
	use := u.Usage()
	c := u.Config()
	r := GCoSRow{ModelName: m.Name, DataName: d.Name, Nodes: nodes, Features: int64(d.Features), FeatureDensity: d.FeatureDensity,
		Layers: int64(len(m.Blocks)), Alloc: c.Alloc.String(), Repurpose: c.Repurpose, ShareWeights: c.ShareWeights,
		ClockMHz: c.ClockHz / 1e6, HBMGBps: c.HBMBytesPerSec / 1e9, Subs: int64(len(c.Subs)), PEs: use.DSP,
		Cycles: mc.Total.Cycles, LatencyPS: mc.Total.TimePS, LatencyUS: float64(mc.Total.TimePS) / 1e6, DRAMBytes: mc.Total.DRAMBytes, MACs: mc.Total.MACs,
		DSP: use.DSP, OnChipBytes: use.OnChipBytes, Feasible: ok, Over: over}
	r.Scheme = "parallel"
	if c.Scheme == accel.Hybrid {
		r.Scheme = "hybrid"
	}
	for _, b := range mc.Blocks {
		r.BlockLatencyPS = append(r.BlockLatencyPS, b.TimePS)
	}
	r.setSubs(c.Subs)
	return r, nil
}
