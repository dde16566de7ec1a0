package bench

import (
	"fmt"
	"slices"
	"strings"

	"gnnsim/accel"
	"gnnsim/dataflow"
	"gnnsim/internal/pqio"
	"gnnsim/workload"
)

// This file is the built-in unit kind: the Omega-style accelerator of
// package accel, every graph run under every configuration of every
// hardware point, one RunRow each.

// omegaUnit is the name of the built-in kind, the default of unit:.
const omegaUnit = "omega"

func omegaKind() UnitKind {
	return UnitKind{
		Name:       omegaUnit,
		LayerKinds: []workload.LayerKind{workload.GCN, workload.GIN, workload.SAGE, workload.GAT},
		Table:      func(s *Spec) Table { return &omegaTable{layered: len(s.Layers) > 0} },
		Evaluator:  newOmega,
		Command:    omegaCommand,
		Validate:   omegaValidate,
		Short:      omegaShort, Long: omegaLong,
	}
}

// omegaTable holds the rows of an omega sweep. With the spec's default
// layer (GCN) it writes RunRow files, the runs table of sweeps before
// layers: existed, byte for byte; with a layers: list, LayerRunRow files
// (a layer column first).
type omegaTable struct {
	RowTable[LayerRunRow]
	layered bool
	counts  map[string]int // Concat's count of the best configurations
}

// Concat writes the rows of parts as one file (Table.Concat) and counts
// their best configurations (Best) part by part: a case's rows, those of
// one graph, never span two parts.
func (t *omegaTable) Concat(path string, meta map[string]string, parts []string) error {
	t.counts = map[string]int{}
	read := func(p string) ([]LayerRunRow, error) {
		rows, _, err := readRuns(p)
		if err == nil {
			addBest(rows, t.counts)
		}
		return rows, err
	}
	if t.layered {
		return concatParts(path, meta, parts, read)
	}
	var plain []RunRow
	return concatParts(path, meta, parts, func(p string) ([]RunRow, error) {
		rows, err := read(p)
		plain = plain[:0]
		for i := range rows {
			plain = append(plain, rows[i].RunRow)
		}
		return plain, err
	})
}

// WriteFile writes the rows, with the layer column only for a layers: sweep.
func (t *omegaTable) WriteFile(path string, meta map[string]string) error {
	if t.layered {
		return t.RowTable.WriteFile(path, meta)
	}
	plain := make([]RunRow, len(t.Rows))
	for i := range t.Rows {
		plain[i] = t.Rows[i].RunRow
	}
	if err := pqio.Write(path, plain, meta); err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	return nil
}

// ReadFile appends the rows of a file WriteFile wrote, with or without the
// layer column.
func (t *omegaTable) ReadFile(path string) error {
	rows, _, err := readRuns(path)
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	t.Rows = append(t.Rows, rows...)
	return nil
}

// Best counts the optimal configurations of the table's cases.
func (t *omegaTable) Best() []Count {
	if t.counts != nil {
		return sortCounts(t.counts)
	}
	return bestCounts(t.Rows)
}

// omega evaluates graphs on the accelerator model: the hardware points,
// configurations, layer kinds and mode of a spec.
type omega struct {
	hws     []hwPoint
	configs []configSpec
	layers  []workload.LayerKind
	opts    accel.Options
}

type hwPoint struct {
	name string
	hw   accel.HW
}

type configSpec struct {
	inter  dataflow.Inter
	tiling dataflow.Tiling
}

// newOmega resolves the hardware points, configurations and mode of s.
// Everything a sweep can get wrong is found here, before any simulation.
func newOmega(s *Spec) (Evaluator, error) {
	o := &omega{layers: s.LayerKinds()}
	if len(s.HW) == 0 {
		o.hws = []hwPoint{{"default", accel.DefaultHW()}}
	}
	for i, h := range s.HW {
		key := fmt.Sprintf("hardware[%d]", i)
		hw := accel.DefaultHW()
		if h.File != "" {
			var err error
			if hw, err = accel.LoadHW(s.Path(h.File)); err != nil {
				return nil, &SpecError{Key: key + ".file", Reason: err.Error()}
			}
		}
		if h.PEs != nil {
			hw.PEs = *h.PEs
			hw.DistributionBW, hw.ReductionBW = hw.PEs, hw.PEs
		}
		if h.DRAMBytesPerCycle != nil {
			hw.DRAMBytesPerCycle = *h.DRAMBytesPerCycle
		}
		if err := hw.Validate(); err != nil {
			return nil, &SpecError{Key: key, Reason: err.Error()}
		}
		name := h.Name
		if name == "" {
			name = fmt.Sprintf("hw%d", i)
		}
		for _, p := range o.hws {
			if p.name == name {
				return nil, specErr(key+".name", "duplicate hardware name %q", name)
			}
		}
		o.hws = append(o.hws, hwPoint{name, hw})
	}
	inters := s.Config.Dataflows
	if len(inters) == 0 {
		inters = []string{"seq", "sp", "pp"}
	}
	tilings := s.Config.Tilings
	if len(tilings) == 0 && len(s.Config.Custom) == 0 || slices.Contains(tilings, "all") {
		tilings = strings.Split(dataflow.TilingNames, "")
	}
	var ts []dataflow.Tiling
	for i, name := range tilings {
		t, err := dataflow.Named(name)
		if err != nil {
			return nil, &SpecError{Key: fmt.Sprintf("configurations.tilings[%d]", i), Reason: err.Error()}
		}
		ts = append(ts, t)
	}
	for i, c := range s.Config.Custom {
		t, err := dataflow.ParseTiling(c)
		if err != nil {
			return nil, &SpecError{Key: fmt.Sprintf("configurations.custom[%d]", i), Reason: err.Error()}
		}
		ts = append(ts, t)
	}
	for i, name := range inters {
		in, err := dataflow.ParseInter(name)
		if err != nil {
			return nil, &SpecError{Key: fmt.Sprintf("configurations.dataflows[%d]", i), Reason: err.Error()}
		}
		for _, t := range ts {
			o.configs = append(o.configs, configSpec{in, t})
		}
	}
	// An impossible tiling (a tile product above the PEs, a tile wider than
	// F) fails here for every hardware point and feature size, on the
	// smallest and a large graph, rather than halfway through a sweep.
	for _, hp := range o.hws {
		for _, F := range s.Sizes.F {
			for _, G := range s.Sizes.G {
				for _, v := range []int{1, 1 << 20} {
					d := dataflow.Dims{V: v, F: F, G: G}
					for _, c := range o.configs {
						if _, err := c.tiling.Config(c.inter, d, hp.hw.PEs, hp.hw.PPAggPEs); err != nil {
							return nil, specErr("configurations", "%s-%s on hardware %q with F=%d G=%d: %v",
								c.inter, c.tiling.Name(), hp.name, F, G, err)
						}
					}
				}
			}
		}
	}
	mode, err := accel.ParseMode(s.Mode)
	if err != nil {
		return nil, &SpecError{Key: "mode", Reason: err.Error()}
	}
	o.opts = accel.Options{Mode: mode, Engine: accel.Fast}
	return o, nil
}

// Evaluate appends the runs of graph c: per layer kind, sizes, hardware
// point and configuration, in that order.
func (o *omega) Evaluate(t Table, c Case) error {
	return appendRows(t, func(rows []LayerRunRow) ([]LayerRunRow, error) {
		g := c.Graph
		for _, kind := range o.layers {
			for _, fg := range c.Sizes {
				prep, err := accel.Prepare(g, workload.Layer{Kind: kind, F: fg[0], G: fg[1]})
				if err != nil {
					return rows, fmt.Errorf("bench: graph %d (%s): %w", c.ID, g.Name, err)
				}
				for _, hp := range o.hws {
					for _, cs := range o.configs {
						cfg, err := cs.tiling.Config(cs.inter, prep.Dims(), hp.hw.PEs, hp.hw.PPAggPEs)
						if err != nil {
							return rows, fmt.Errorf("bench: graph %d (%s) F=%d G=%d: %w", c.ID, g.Name, fg[0], fg[1], err)
						}
						r, err := prep.Run(cfg, hp.hw, o.opts)
						if err != nil {
							return rows, fmt.Errorf("bench: graph %d (%s) %s: %w", c.ID, g.Name, cfg.Name(), err)
						}
						row := LayerRunRow{Layer: kind.String(), RunRow: newRunRow(&r, &cfg)}
						row.GraphID, row.GraphName, row.Dataset = int64(c.ID), g.Name, c.Dataset
						row.F, row.G = int64(fg[0]), int64(fg[1])
						row.Hardware, row.PEs = hp.name, int64(hp.hw.PEs)
						rows = append(rows, row)
					}
				}
			}
		}
		return rows, nil
	})
}
