package bench

import (
	"context"
	"fmt"
	"io"
	"strings"

	"gnnsim/accel/fpga"
	"gnnsim/graphs"
	"gnnsim/hw"
	"gnnsim/nas/fgnas"
	"gnnsim/workload"
)

// Bounds of the FPGA design's count and budget options.
const (
	MaxBlock        = 1 << 16 // --block: nodes per pipeline block (the papers use 64)
	MaxFPGAResource = 1 << 30 // --lut, --dsp: far above the largest FPGA (~9M LUTs)
	MaxLatencyMS    = 3.6e6   // --latency-ms: one hour
)

// fpgaCommand is 'gnnsim fpga eval' and 'eval --unit fpga': one FGNAS
// design priced on a data set's statistics.
var fpgaCommand = &Command{
	Use:   "eval --data cora --arch ... --tiles ... --bits ... [--json]",
	Short: "Price one FPGA design on a Planetoid graph",
	Long: `Price one FGNAS design (seed 004) at 100 MHz on the --data set: cora, citeseer
or pubmed by name (their published statistics), or a Planetoid file set or
.npz file by path (its statistics measured from the files). It prints the
cycles of every stage of every layer, the summed (FGNAS) and pipelined times,
the LUT / FF / DSP / BRAM usage and whether the design meets the limits.

  --arch   per layer attn/aggr/act/EMBEDxHEADS, layers separated by ';'
           (attn constant|gcn|gat|sage, aggr add|mean|max, act
           relu|tanh|sigmoid|elu|linear; sage: mean or max, one head; linear
           and sage are gnnsim-model only), or a GNN stack model file
           (FILE.yaml: layers of kind gcn, gat or sage; the format is
           'gnnsim models show --help')
  --tiles  per layer t_in,t_out,t_attn,t_aggr,t_act (one spec: every layer)
  --bits   per layer WI.WF,AI.AF: integer.fraction bits of weights, activations

Table columns, one row per stage of each layer and a total per layer:
layer (0-based); stage (linear, attention, aggregation, activation);
work (operations the stage performs); depth (its pipeline latency in
cycles before the first result); cycles (the stage's time at 100 MHz);
LUT, FF, DSP (resources it uses); BRAM18 (18 Kb block RAMs of the
layer). Then the summed and pipelined times, the resources, and
"feasible": whether the design meets --lut, --dsp and --latency-ms (when
not, the resource or latency over its limit).

--json and --out (a one-row Parquet file) carry: data; stages (a list of
{layer, stage, work, latency (the depth), cycles, lut, ff, dsp});
summed_cycles, pipelined_cycles (0 when not computed), latency_ms (the
latency judged), lut, ff, dsp, bram18, feasible, over (what is over its
limit, empty when feasible). The Parquet file's metadata holds
gnnsim.command, gnnsim.flags (the flags given) and gnnsim.version.

--cost-model picks the cost model (gnnsim, ours, or fgnas-code); --model
names the GNN stack as a model file, as in every command (--model gnnsim or
fgnas-code, the old spelling of --cost-model, still works for one release).

Example: gnnsim fpga eval --data cora --arch 'gcn/add/relu/8;gcn/add/relu/7' --tiles 8,8,8,8,8 --bits 2.5,2.5
         gnnsim fpga eval --data cora --arch 'sage/mean/relu/64;sage/mean/linear/7'
         gnnsim fpga eval --data cora --model examples/sage3.yaml --cost-model fgnas-code --out design.parquet`,
	JSONUsage: "print one JSON object",
	OutUsage:  "also write the result as a one-row Parquet file (columns as in --json)",
	Unit: `'gnnsim fpga eval': the GNN stack of a model file as an FGNAS
FPGA design (gcn, gat and sage layers; activations relu,
tanh, sigmoid, elu or none) on the Planetoid statistics of
--data (cora, citeseer or pubmed by name: published
statistics; or a Planetoid / .npz path: measured).`,
	Row: fgnas.EvalRecord{},
	New: func() Evaluation { return &fpgaEval{} },
}

// fpgaEval holds the options of one FPGA design's evaluation.
type fpgaEval struct {
	data, dataDir, arch  string
	tiles, bits          string
	model                string // the cost model
	modelArg             string // fpga eval's --model
	published, pipelined bool
	anyResource, dense   bool
	block                int
	lim                  fgnas.Limits
	// spec, when set, is the design's GNN stack instead of arch.
	spec *workload.ModelSpec
}

func (e *fpgaEval) OwnFlags(f Flags) {
	f.Data(&e.data, &e.dataDir, "cora", "node-classification set: cora, citeseer or pubmed (their published statistics), or a Planetoid prefix or .npz path (measured from its files)")
	f.String(&e.arch, "arch", "gcn/add/relu/8;gcn/add/relu/7", "architecture per layer")
	f.String(&e.modelArg, "model", "", "the GNN stack as a model file (FILE.yaml), as every command's --model; --arch gives it inline (gnnsim or fgnas-code here: the old spelling of --cost-model)")
}

// UnitFlags registers the FPGA design's options but the data and the
// architecture.
func (e *fpgaEval) UnitFlags(f Flags) {
	f.String(&e.tiles, "tiles", "8,8,8,8,8", "group sizes per layer")
	f.String(&e.bits, "bits", "2.5,2.5", "weight and activation formats per layer")
	f.String(&e.model, "cost-model", "gnnsim", "cost model: gnnsim (ours) or fgnas-code (the FGNAS authors' model: summed stages, their operator table; --bits are fixed-point formats in both)")
	f.Bool(&e.anyResource, "any-resource", false, "fgnas-code: judge resources as the authors' code does (any of LUT/FF/DSP under its limit passes; default: every limit)")
	f.Bool(&e.published, "published", false, "FGNAS's published linear-stage timing (no node count, dense input)")
	f.Bool(&e.pipelined, "pipelined", false, "judge the latency limit on the pipelined time (default: the summed stages)")
	f.Bool(&e.dense, "dense", false, "read the first layer's input dense instead of streaming its non-zeros")
	f.Int(&e.block, "block", 64, 1, MaxBlock, "node block of the pipelined timing and the ping-pong buffers")
	f.Float(&e.lim.LatencyMS, "latency-ms", 0, 0, MaxLatencyMS, false, "latency limit in ms (0: none)")
	f.Int64(&e.lim.LUT, "lut", 0, 0, MaxFPGAResource, "LUT and FF limit (0: none)")
	f.Int64(&e.lim.DSP, "dsp", 0, 0, MaxFPGAResource, "DSP limit (0: none)")
}

// Eval prices the design of the options.
func (e *fpgaEval) Eval(_ context.Context, in *Input) (*Result, error) {
	var err error
	if in.Unit {
		err = e.unitInput(in)
	} else {
		err = e.modelFlag(in)
	}
	if err != nil {
		return nil, err
	}
	ds, err := FPGADataset(e.data, e.dataDir)
	if err != nil {
		return nil, err
	}
	var layers []fpga.LayerDesign
	if e.spec != nil {
		layers, err = fpgaSpecLayers(e.spec, e.spec.Name, e.tiles, e.bits, ds.Features)
	} else {
		layers, err = fpgaLayers(e.arch, e.tiles, e.bits, ds.Features)
	}
	if err != nil {
		return nil, err
	}
	d := fpga.Design{Layers: layers, InputNNZ: ds.FeatureNNZ}
	if e.dense {
		d.InputNNZ = 0
	}
	m, err := fpga.ParseModel(e.model)
	if err != nil {
		return nil, fmt.Errorf("--model: %w", err)
	}
	u, err := fpga.New(d, fpga.Options{Model: m, AnyResource: e.anyResource, Published: e.published, Pipelined: e.pipelined, BlockNodes: e.block, Budget: e.lim.Budget()})
	if err != nil {
		return nil, err
	}
	rep, err := u.Evaluate(hw.BlockWork(d.Block(ds.Size, ds.Features)))
	if err != nil {
		return nil, err
	}
	rec := fgnas.NewEvalRecord(ds, rep)
	return RowsResult([]fpgaEvalRecord{fpgaEvalRecord(rec)}, rec, func(w io.Writer) error { return fgnas.WriteEval(w, ds, rep) }), nil
}

// fpgaEvalRecord is fpga eval's Parquet row: its name is the schema's root
// name in the files --out wrote before the record moved to package fgnas.
type fpgaEvalRecord fgnas.EvalRecord

// unitInput takes eval --unit's model and data set: a zoo model is
// refused naming the layer the FPGA pipeline cannot take (the zoo's first
// layer is never a GNN stack's: a conv or a patch stem).
func (e *fpgaEval) unitInput(in *Input) error {
	if in.Graph != "" {
		return fmt.Errorf("--unit fpga prices a design on a data set's statistics: give --data (cora, citeseer, pubmed, or a Planetoid / .npz path), not --graph")
	}
	spec := in.Spec
	e.data, e.dataDir, e.spec = in.Data, in.DataDir, spec
	if e.data == "" {
		e.data = "cora"
	}
	if spec.Zoo != "" {
		m, err := spec.Build(workload.Size{}, 0)
		if err != nil {
			return fmt.Errorf("--model %s: %w", in.Model, err)
		}
		nodes, err := m.Graph()
		if err != nil {
			return fmt.Errorf("--model %s: %w", in.Model, err)
		}
		if len(nodes) > 0 {
			return fmt.Errorf("--unit fpga: model %s: layer %s (%s) has no FPGA pipeline: the FPGA takes a model file's GNN stack of gcn, gat and sage layers",
				m.Name, nodes[0].Name, nodes[0].Layer.Kind)
		}
	}
	if spec.Name == "" {
		spec.Name = in.Model
	}
	return nil
}

// modelFlag reads fpga eval's --model: the workload (a GNN stack model
// file), as --model is in every command. Its values gnnsim and
// fgnas-code, which named the cost model before --cost-model, still do so
// for one release, with a note on stderr.
func (e *fpgaEval) modelFlag(in *Input) error {
	model := e.modelArg
	if model == "" {
		return nil
	}
	if _, err := fpga.ParseModel(model); err == nil {
		if in.Changed("cost-model") {
			return fmt.Errorf("--model %s and --cost-model %s: --model %s is the old spelling of --cost-model; give --cost-model alone", model, e.model, model)
		}
		fmt.Fprintf(in.Stderr, "gnnsim: fpga eval --model %s is deprecated and goes in the next release: use --cost-model %s (--model names the GNN model file)\n", model, model)
		e.model = model
		return nil
	}
	if in.Changed("arch") {
		return fmt.Errorf("--model %s and --arch: give the GNN one way", model)
	}
	e.arch = model
	return nil
}

// FPGADataset resolves --data for the FPGA model: cora, citeseer and
// pubmed by name are their published statistics (fgnas.Cora, ...), so
// results do not depend on the files being present; a path is measured
// from its files (fgnas.DatasetOf).
func FPGADataset(arg, dir string) (fgnas.Dataset, error) {
	ref, err := ResolveData(arg, dir, NeedStats)
	if err != nil {
		return fgnas.Dataset{}, fmt.Errorf("--data %w", err)
	}
	if ref.Named {
		ds, err := fgnas.DatasetByName(ref.Name)
		if err != nil {
			return fgnas.Dataset{}, fmt.Errorf("--data %s: the FPGA model knows the statistics of cora, citeseer and pubmed; for another set give the path of its files", ref.Name)
		}
		return ds, nil
	}
	p, err := graphs.LoadPlanetoid(ref.Path)
	if err != nil {
		return fgnas.Dataset{}, fmt.Errorf("--data: %w", err)
	}
	return fgnas.DatasetOf(p)
}

// fpgaLayers reads --arch: the per-layer list, or a GNN stack model file
// (.yaml or .yml) whose input width, when it gives one, must be the data
// set's.
func fpgaLayers(arch, tiles, bits string, features int) ([]fpga.LayerDesign, error) {
	if !strings.HasSuffix(arch, ".yaml") && !strings.HasSuffix(arch, ".yml") {
		return fpga.ParseLayers(arch, tiles, bits)
	}
	s, err := workload.ReadModelSpec(arch)
	if err != nil {
		return nil, fmt.Errorf("--arch: %w", err)
	}
	return fpgaSpecLayers(s, "--arch "+arch, tiles, bits, features)
}

// fpgaSpecLayers returns the FPGA layers of the GNN stack s (named by
// what in errors) on a data set of that many features.
func fpgaSpecLayers(s *workload.ModelSpec, what, tiles, bits string, features int) ([]fpga.LayerDesign, error) {
	if s.Features != 0 && s.Features != features {
		return nil, fmt.Errorf("%s: features %d, the data set has %d", what, s.Features, features)
	}
	ls, err := fpga.SpecLayers(s, tiles, bits)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return ls, nil
}

// fpgaShort and fpgaLong are the help of the 'gnnsim fpga' command group.
const (
	fpgaShort = "FGNAS's per-layer FPGA pipeline: cycles, resources, feasibility"
	fpgaLong  = `The FPGA pipeline of seed 004 (FGNAS): every GNN layer as four registered stages
(linear, attention, aggregation, activation) at 100 MHz, priced in cycles per stage
(summed as FGNAS does, or overlapped on node blocks by the event-driven model) and in
LUT / FF / DSP / BRAM by bit width, with feasibility against resource and latency budgets.
Two cost models: gnnsim (ours, the default) and fgnas-code (the FGNAS authors' own model,
equal to their code; 'fpga validate fgnas' checks it against their outputs).
There is no 'fpga spec': a design is its eval flags (--arch or a model file,
--tiles, --bits), not a spec file.`
)
