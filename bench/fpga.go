package bench

import (
	"fmt"
	"strings"

	"gnnsim/accel/fpga"
	"gnnsim/hw"
	"gnnsim/nas/fgnas"
	"gnnsim/workload"
)

// This file is the fpga unit kind: FGNAS's FPGA pipeline (package
// accel/fpga) swept over a grid of designs, architectures x group sizes x
// bit widths, on one Planetoid data set. A design is a point, not a graph:
// the runner chunks, shards and resumes the points.

const fpgaUnit = "fpga"

// FPGASpec is the fpga: block of a spec: the design grid and how it is
// priced. Point p of the sweep is archs[a] x tiles[t] x bits[b] with
// p = (a*len(tiles) + t)*len(bits) + b: architectures vary slowest.
type FPGASpec struct {
	// Data is the graph the designs run: cora (default), citeseer or
	// pubmed, by their Planetoid statistics (fgnas.DatasetByName).
	Data string `yaml:"data"`
	// Model is the cost model: gnnsim (default) or fgnas-code.
	Model string `yaml:"model"`
	// Archs are architectures as fpga eval's --arch:
	// "attn/aggr/act/EMBEDxHEADS" per layer, layers separated by ';'.
	Archs []string `yaml:"archs"`
	// Models are GNN stacks to build as designs beside archs: model files
	// (workload.ResolveModelSpec; the zoo's ViG and CNN models are not GNN
	// stacks and are refused), read when the sweep is planned, not when it
	// is merged. Only what the pipeline builds exactly is accepted: gcn
	// and gat layers, each with an activation of relu, tanh, sigmoid or
	// elu (every FGNAS layer has its activation stage).
	Models []string `yaml:"models,omitempty"`
	// Tiles are group-size settings as --tiles ("t_in,t_out,t_attn,
	// t_aggr,t_act", one for every layer or one per layer separated by
	// ';'); default ["8,8,8,8,8"].
	Tiles []string `yaml:"tiles"`
	// Bits are number formats as --bits ("WI.WF,AI.AF", per layer or for
	// all); default ["2.5,2.5"].
	Bits []string `yaml:"bits"`
	// Pipelined judges latency on the event-driven pipelined time (the
	// cycles column is then that time) and fills pipelined_cycles;
	// default the summed stages (FGNAS's model), pipelined_cycles 0.
	Pipelined bool `yaml:"pipelined,omitempty"`
	// Published, Dense, AnyResource and Block are fpga eval's
	// --published, --dense, --any-resource and --block (default 64).
	Published   bool `yaml:"published,omitempty"`
	Dense       bool `yaml:"dense,omitempty"`
	AnyResource bool `yaml:"any_resource,omitempty"`
	Block       int  `yaml:"block,omitempty"`
	// Limits are FGNAS Table 2's constraints; 0 is no limit.
	LatencyMS float64 `yaml:"latency_ms,omitempty"`
	LUT       int64   `yaml:"lut,omitempty"` // LUTs and FFs alike
	DSP       int64   `yaml:"dsp,omitempty"`
}

func fpgaKind() UnitKind {
	return UnitKind{
		Name:      fpgaUnit,
		Points:    fpgaPoints,
		Table:     func(*Spec) Table { return &RowTable[FPGARow]{} },
		Evaluator: newFPGA,
		Command:   fpgaCommand,
		Validate:  fgnasValidate,
		Short:     fpgaShort, Long: fpgaLong,
	}
}

// fpgaPoints fills the block's defaults, checks its keys (not the
// designs: newFPGA does) and counts the design points.
func fpgaPoints(s *Spec) (int, error) {
	f := s.FPGA
	if f == nil {
		return 0, specErr("fpga", "unit fpga needs an fpga: block with archs: (see bench/testdata/fpga.yaml)")
	}
	if f.Data == "" {
		f.Data = "cora"
	}
	ds, err := fgnas.DatasetByName(f.Data)
	if err != nil {
		return 0, specErr("fpga.data", "%v", err)
	}
	f.Data = ds.Name
	if f.Model == "" {
		f.Model = fpga.Gnnsim.String()
	}
	if _, err := fpga.ParseModel(f.Model); err != nil {
		return 0, specErr("fpga.model", "%v", err)
	}
	if err := checkLists(map[string][]string{"fpga.archs": f.Archs, "fpga.models": f.Models, "fpga.tiles": f.Tiles, "fpga.bits": f.Bits}); err != nil {
		return 0, err
	}
	if len(f.Tiles) == 0 {
		f.Tiles = []string{"8,8,8,8,8"}
	}
	if len(f.Bits) == 0 {
		f.Bits = []string{"2.5,2.5"}
	}
	switch {
	case len(f.Archs)+len(f.Models) == 0:
		return 0, specErr("fpga.archs", "empty list: name at least one architecture (\"gcn/add/relu/8;gcn/add/relu/7\") or give models:")
	case f.Block < 0:
		return 0, specErr("fpga.block", "%d nodes, want >= 1 (leave it out for 64)", f.Block)
	case f.LatencyMS < 0 || f.LUT < 0 || f.DSP < 0:
		return 0, specErr("fpga", "negative limit (latency_ms %g, lut %d, dsp %d); 0 is no limit", f.LatencyMS, f.LUT, f.DSP)
	}
	n := len(f.Archs) + len(f.Models)
	for _, m := range []int{len(f.Tiles), len(f.Bits)} {
		if n > MaxPoints/m {
			return 0, specErr("fpga", "archs x tiles x bits is above %d design points", MaxPoints)
		}
		n *= m
	}
	return n, nil
}

// fpgaSweep prices the design points of an fpga spec.
type fpgaSweep struct {
	spec  *FPGASpec
	arch  []string // archs, then the models' architectures
	opt   fpga.Options
	nnz   int64
	archs []fpgaArch
	nt    int
	nb    int
}

// fpgaArch is one architecture of the grid with what every design of it
// shares: its layers' operators, the group sizes and formats of each
// tiles and bits entry, and the work it runs.
type fpgaArch struct {
	layers []fpga.LayerDesign
	tiles  [][]fpga.Groups
	bits   [][]fpga.Precision
	work   hw.Work
}

// newFPGA parses every architecture with every tiles and every bits entry
// (a tiles or bits entry that does not fit an architecture fails here,
// naming both) and builds each with the cost model, so that no design of
// the grid can fail mid-sweep.
func newFPGA(s *Spec) (Evaluator, error) {
	f := s.FPGA
	ds, _ := fgnas.DatasetByName(f.Data) // checked by fpgaPoints
	m, _ := fpga.ParseModel(f.Model)
	lim := fgnas.Limits{LatencyMS: f.LatencyMS, LUT: f.LUT, DSP: f.DSP}
	e := &fpgaSweep{spec: f, nt: len(f.Tiles), nb: len(f.Bits),
		opt: fpga.Options{Model: m, AnyResource: f.AnyResource, Published: f.Published, Pipelined: f.Pipelined, BlockNodes: f.Block, Budget: lim.Budget()}}
	if !f.Dense {
		e.nnz = ds.FeatureNNZ
	}
	e.arch = append([]string(nil), f.Archs...)
	for i, ref := range f.Models {
		a, err := fpgaArchOf(s.Path(ref), ds.Features)
		if err != nil {
			return nil, specErr(fmt.Sprintf("fpga.models[%d]", i), "%v", err)
		}
		e.arch = append(e.arch, a)
	}
	for i, arch := range e.arch {
		key := fmt.Sprintf("fpga.archs[%d]", i)
		if i >= len(f.Archs) {
			key = fmt.Sprintf("fpga.models[%d]", i-len(f.Archs))
		}
		var a fpgaArch
		// The architecture alone, then each tiles and bits entry with
		// neutral others, so an error names the entry at fault.
		if _, err := fpga.ParseLayers(arch, "1,1,1,1,1", "1.1,1.1"); err != nil {
			return nil, specErr(key, "%q: %v", arch, err)
		}
		for j, t := range f.Tiles {
			ls, err := fpga.ParseLayers(arch, t, "1.1,1.1")
			if err != nil {
				return nil, specErr(key, "%q with tiles[%d] %q: %v", arch, j, t, err)
			}
			if len(ls) > fpgaMaxLayers {
				return nil, specErr(key, "%q has %d layers; an fpga sweep's rows hold at most %d", arch, len(ls), fpgaMaxLayers)
			}
			if j == 0 {
				a.layers = ls // the operators; T and Bits are set per point
			}
			g := make([]fpga.Groups, len(ls))
			for l := range ls {
				g[l] = ls[l].T
			}
			a.tiles = append(a.tiles, g)
		}
		for j, b := range f.Bits {
			ls, err := fpga.ParseLayers(arch, "1,1,1,1,1", b)
			if err != nil {
				return nil, specErr(key, "%q with bits[%d] %q: %v", arch, j, b, err)
			}
			d := fpga.Design{Layers: ls, InputNNZ: e.nnz}
			if _, err := fpga.New(d, e.opt); err != nil {
				return nil, specErr(key, "%q with bits[%d] %q: %v", arch, j, b, err)
			}
			p := make([]fpga.Precision, len(ls))
			for l := range ls {
				p[l] = ls[l].Bits
			}
			a.bits = append(a.bits, p)
		}
		d := fpga.Design{Layers: a.layers, InputNNZ: e.nnz}
		a.work = hw.BlockWork(d.Block(ds.Size, ds.Features))
		e.archs = append(e.archs, a)
	}
	return e, nil
}

// design returns design point p of the grid and its indices.
func (e *fpgaSweep) design(p int) (d fpga.Design, a, t, b int) {
	b = p % e.nb
	t = p / e.nb % e.nt
	a = p / (e.nb * e.nt)
	ar := &e.archs[a]
	d = fpga.Design{Layers: append([]fpga.LayerDesign(nil), ar.layers...), InputNNZ: e.nnz}
	for l := range d.Layers {
		d.Layers[l].T = ar.tiles[t][l]
		d.Layers[l].Bits = ar.bits[b][l]
	}
	return d, a, t, b
}

// Evaluate appends the row of design point c.ID.
func (e *fpgaSweep) Evaluate(t Table, c Case) error {
	return appendRows(t, func(rows []FPGARow) ([]FPGARow, error) {
		d, ai, ti, bi := e.design(c.ID)
		u, err := fpga.New(d, e.opt)
		if err != nil {
			return rows, fmt.Errorf("bench: fpga point %d: %w", c.ID, err)
		}
		// The event-driven pipelined time costs more than the rest of the
		// design's pricing together: it is computed when the spec judges
		// on it (pipelined: true), else pipelined_cycles is 0.
		eval := u.Assess
		if e.opt.Pipelined {
			eval = u.Evaluate
		}
		rep, err := eval(e.archs[ai].work)
		if err != nil {
			return rows, fmt.Errorf("bench: fpga point %d: %w", c.ID, err)
		}
		r := FPGARow{PointID: int64(c.ID), Data: e.spec.Data, CostModel: e.spec.Model,
			Arch: strings.TrimSpace(e.arch[ai]), Tiles: strings.TrimSpace(e.spec.Tiles[ti]), Bits: strings.TrimSpace(e.spec.Bits[bi]),
			Layers: int64(len(d.Layers)), Cycles: rep.Cost.Cycles, SummedCycles: rep.SummedCycles, PipelinedCycles: rep.PipelinedCycles,
			LatencyPS: rep.Cost.TimePS, MACs: rep.Cost.MACs, DRAMBytes: rep.Cost.DRAMBytes,
			LUT: rep.Resources.LUT, FF: rep.Resources.FF, DSP: rep.Resources.DSP, BRAM18: rep.Resources.BRAM,
			Feasible: rep.Feasible, Over: rep.Over}
		if ai >= len(e.spec.Archs) {
			r.Model = e.spec.Models[ai-len(e.spec.Archs)]
		}
		r.setGenes(&d)
		return append(rows, r), nil
	})
}

// fpgaArchOf returns the architecture (fpga eval's --arch form) of the GNN
// stack ref names, on inputs of features features. A layer the pipeline
// cannot build exactly is an error naming it: SAGE's root weight, GIN's
// MLP, EdgeConv's and MRConv's edge functions and a layer without an
// activation have no FGNAS stage.
func fpgaArchOf(ref string, features int) (string, error) {
	m, err := workload.ResolveModelSpec(ref)
	if err != nil {
		return "", err
	}
	if m.Zoo != "" {
		return "", fmt.Errorf("model %s is the zoo's %s, not a GNN stack: FGNAS's pipeline builds gcn and gat layers", ref, m.Zoo)
	}
	if m.Features > 0 && m.Features != features {
		return "", fmt.Errorf("model %s takes %d input features, the data set has %d", ref, m.Features, features)
	}
	var parts []string
	for i, l := range m.Layers {
		act := strings.ToLower(l.Activation)
		if _, err := workload.ParseIn(workload.ParseActivation, act, fpga.Activations); err != nil {
			return "", fmt.Errorf("model %s layer %d: activation %q: the pipeline has an activation stage on every layer: give relu, tanh, sigmoid or elu", ref, i, l.Activation)
		}
		switch strings.ToLower(l.Kind) {
		case "gcn":
			parts = append(parts, fmt.Sprintf("gcn/add/%s/%d", act, l.Width))
		case "gat":
			parts = append(parts, fmt.Sprintf("gat/add/%s/%dx%d", act, l.Width, l.HeadCount()))
		default:
			return "", fmt.Errorf("model %s layer %d: kind %s has no FGNAS pipeline form (one linear transform, attention and aggregation per layer: gcn and gat)", ref, i, l.Kind)
		}
	}
	return strings.Join(parts, ";"), nil
}
