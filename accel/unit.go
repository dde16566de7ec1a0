package accel

import (
	"errors"
	"fmt"

	"gnnsim/dataflow"
	"gnnsim/hw"
)

// Unit is the accelerator behind the hw contract: an hw.Unit, an
// hw.Mapper over dataflow configurations and an hw.Clocked unit at
// HW.ClockHz. It holds no state between runs, so one Unit may serve many
// goroutines.
//
// The Omega model times each row by its length, so a Unit runs only works
// that carry their graph (hw.LayerWork, hw.GraphWork); a work given by its
// size alone is an error. The layers of a work run one after the other on
// the graph, and their costs add.
//
// Run uses the default mapping: for each layer, the fastest of the 24
// configurations of seed 002 (fewest cycles; ties go to the first in
// dataflow.All's order, seq-a..seq-h, sp-a..sp-h, pp-a..pp-h). RunMapping
// runs one configuration: exactly what Prepared.Run gives for it.
type Unit struct {
	hw   HW
	opts Options
	name string
}

var (
	_ hw.Mapper[dataflow.Config] = Unit{}
	_ hw.Clocked                 = Unit{}
)

// NewUnit returns the accelerator h run with opts, named
// "accel-<mode>-<PEs>" ("accel-extended-512").
func NewUnit(h HW, opts Options) (Unit, error) {
	if err := h.Validate(); err != nil {
		return Unit{}, err
	}
	switch {
	case opts.Mode != Extended && opts.Mode != Omega:
		return Unit{}, fmt.Errorf("accel: unknown mode %d", opts.Mode)
	case opts.Engine != Events && opts.Engine != Fast:
		return Unit{}, fmt.Errorf("accel: unknown engine %d", opts.Engine)
	case opts.Disable&^AllEffects != 0:
		return Unit{}, fmt.Errorf("accel: unknown effects %#x", uint32(opts.Disable&^AllEffects))
	}
	return Unit{hw: h, opts: opts, name: fmt.Sprintf("accel-%s-%d", opts.Mode, h.PEs)}, nil
}

// Named returns u under another name.
func (u Unit) Named(name string) Unit { u.name = name; return u }

// Name returns the unit's name.
func (u Unit) Name() string { return u.name }

// HW returns the unit's hardware.
func (u Unit) HW() HW { return u.hw }

// Options returns the options the unit runs with.
func (u Unit) Options() Options { return u.opts }

// ClockHz returns the unit's clock: Cost.TimePS = hw.PS(Cost.Cycles, ClockHz).
func (u Unit) ClockHz() float64 { return u.hw.ClockHz }

// Cost returns the hw.Cost of a result at a clock of clockHz: its cycles
// and their time, total energy, DRAM bytes and MACs.
func (r Result) Cost(clockHz float64) hw.Cost {
	return hw.Cost{
		TimePS:    hw.PS(r.Cycles, clockHz),
		Cycles:    r.Cycles,
		EnergyPJ:  r.Energy.Total(),
		DRAMBytes: r.DRAM.Bytes,
		MACs:      r.MACs,
	}
}

// prepare readies every layer of w on its graph; nil for empty work.
func (u Unit) prepare(w hw.Work) ([]*Prepared, error) {
	if u.name == "" {
		return nil, errors.New("accel: Unit not made by NewUnit")
	}
	if w.Empty() {
		return nil, nil
	}
	if w.Graph == nil {
		return nil, fmt.Errorf("accel: %s: work %q has no graph: the Omega model times every row by its length, so it needs the graph itself, not only its size (use hw.GraphWork)", u.name, w.Block.Name)
	}
	if s := hw.SizeOf(w.Graph); s != w.Block.In {
		return nil, fmt.Errorf("accel: %s: work %q says it runs on %d nodes and %d entries, its graph has %d and %d", u.name, w.Block.Name, w.Block.In.Nodes, w.Block.In.NNZ, s.Nodes, s.NNZ)
	}
	ps := make([]*Prepared, len(w.Block.Layers))
	for i, l := range w.Block.Layers {
		p, err := Prepare(w.Graph, l)
		if err != nil {
			return nil, fmt.Errorf("accel: %s: work %q, layer %d: %w", u.name, w.Block.Name, i, err)
		}
		ps[i] = p
	}
	return ps, nil
}

// Mappings returns the 24 configurations of seed 002 for w's first layer,
// in dataflow.All's order; none for empty work. (RunMapping resolves a
// configuration's tiling afresh for later layers of other widths.)
func (u Unit) Mappings(w hw.Work) ([]dataflow.Config, error) {
	ps, err := u.prepare(w)
	if err != nil || len(ps) == 0 {
		return nil, err
	}
	cs, err := ps[0].Configs(u.hw)
	if err != nil {
		return nil, fmt.Errorf("accel: %s: %w", u.name, err)
	}
	return cs[:], nil
}

// RunMapping runs w under configuration cfg. The first layer runs cfg
// itself; a later layer of other dimensions runs cfg's inter-phase
// dataflow and tiling recipe resolved for its own dimensions (and cfg's
// pp split).
func (u Unit) RunMapping(w hw.Work, cfg dataflow.Config) (hw.Cost, error) {
	ps, err := u.prepare(w)
	if err != nil || len(ps) == 0 {
		return hw.Cost{}, err
	}
	var total hw.Cost
	for i, p := range ps {
		c := cfg
		if d := p.Dims(); d != ps[0].Dims() {
			if c, err = resolveFor(cfg, d); err != nil {
				return hw.Cost{}, fmt.Errorf("accel: %s: work %q, layer %d: %w", u.name, w.Block.Name, i, err)
			}
		}
		r, err := p.Run(c, u.hw, u.opts)
		if err != nil {
			return hw.Cost{}, fmt.Errorf("accel: %s: work %q, layer %d: %w", u.name, w.Block.Name, i, err)
		}
		total = total.Add(r.Cost(u.hw.ClockHz))
	}
	return total, u.checkRange(total, w)
}

// checkRange refuses a total whose sums saturated (hw.CheckCount). The
// names are formatted only on error: this runs on every evaluation.
func (u Unit) checkRange(c hw.Cost, w hw.Work) error {
	if err := c.CheckRange("total", "fewer or narrower layers, or a smaller graph"); err != nil {
		return fmt.Errorf("accel: %s: work %q: %w", u.name, w.Block.Name, err)
	}
	return nil
}

// resolveFor resolves cfg's recipe for a layer of dimensions d.
func resolveFor(cfg dataflow.Config, d dataflow.Dims) (dataflow.Config, error) {
	tl, err := dataflow.ParseTiling(cfg.Tiling)
	if err != nil {
		return dataflow.Config{}, err
	}
	split := 0
	if cfg.Inter == dataflow.PP {
		split = cfg.AggPEs
	}
	return tl.Config(cfg.Inter, d, cfg.PEs, split)
}

// Run runs w under the default mapping: each layer under the fastest of
// its 24 configurations (ties to the first in dataflow.All's order).
func (u Unit) Run(w hw.Work) (hw.Cost, error) {
	ps, err := u.prepare(w)
	if err != nil || len(ps) == 0 {
		return hw.Cost{}, err
	}
	var total hw.Cost
	var rs []Result
	for i, p := range ps {
		if rs, err = p.RunAll(u.hw, u.opts, rs[:0]); err != nil {
			return hw.Cost{}, fmt.Errorf("accel: %s: work %q, layer %d: %w", u.name, w.Block.Name, i, err)
		}
		best := 0
		for j := range rs {
			if rs[j].Cycles < rs[best].Cycles {
				best = j
			}
		}
		total = total.Add(rs[best].Cost(u.hw.ClockHz))
	}
	return total, u.checkRange(total, w)
}
