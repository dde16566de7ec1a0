package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"gnnsim/accel/fpga"
	"gnnsim/bench"
	"gnnsim/graphs"
	"gnnsim/hw"
	"gnnsim/nas/fgnas"
	"gnnsim/workload"
)

func init() { register(fpgaCmd) }

// fpgaCmd is the 'fpga' group: FGNAS's FPGA pipeline model.
func fpgaCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "fpga",
		Short: "FGNAS's per-layer FPGA pipeline: cycles, resources, feasibility",
		Long: `The FPGA pipeline of seed 004 (FGNAS): every GNN layer as four registered stages
(linear, attention, aggregation, activation) at 100 MHz, priced in cycles per stage
(summed as FGNAS does, or overlapped on node blocks by the event-driven model) and in
LUT / FF / DSP / BRAM by bit width, with feasibility against resource and latency budgets.
Two cost models: gnnsim (ours, the default) and fgnas-code (the FGNAS authors' own model,
equal to their code; 'fpga validate fgnas' checks it against their outputs).
There is no 'fpga spec': a design is its eval flags (--arch or a model file,
--tiles, --bits), not a spec file.`,
	}
	cmd.AddCommand(fpgaEvalCmd(), fpgaValidateCmd())
	return cmd
}

// fpgaEvalFlags are the options of fpga eval and 'eval --unit fpga'.
type fpgaEvalFlags struct {
	data, dataDir, arch  string
	tiles, bits          string
	model                string // the cost model
	published, pipelined bool
	anyResource          bool
	dense, asJSON        bool
	out                  string // --out: a one-row Parquet file
	block                int
	lim                  fgnas.Limits
	// spec, when set, is the design's GNN stack instead of arch.
	spec *workload.ModelSpec
}

func fpgaEvalCmd() *cobra.Command {
	var f fpgaEvalFlags
	var modelArg string
	c := &cobra.Command{
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
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := fpgaModelFlag(cmd, &f, modelArg); err != nil {
				return err
			}
			return runFPGAEval(cmd, &f)
		},
	}
	namedDataFlags(c.Flags(), &f.data, &f.dataDir, "cora", "node-classification set: cora, citeseer or pubmed (their published statistics), or a Planetoid prefix or .npz path (measured from its files)")
	c.Flags().StringVar(&f.arch, "arch", "gcn/add/relu/8;gcn/add/relu/7", "architecture per layer")
	c.Flags().StringVar(&modelArg, "model", "", "the GNN stack as a model file (FILE.yaml), as every command's --model; --arch gives it inline (gnnsim or fgnas-code here: the old spelling of --cost-model)")
	addFPGAFlags(c.Flags(), &f, "cost-model")
	c.Flags().BoolVar(&f.asJSON, "json", false, "print one JSON object")
	outFileFlag(c.Flags(), &f.out, "out", "", "also write the result as a one-row Parquet file (columns as in --json)")
	return c
}

// fpgaModelFlag reads fpga eval's --model: the workload (a GNN stack
// model file), as --model is in every command. Its values gnnsim and
// fgnas-code, which named the cost model before --cost-model, still do so
// for one release, with a note on stderr.
func fpgaModelFlag(cmd *cobra.Command, f *fpgaEvalFlags, model string) error {
	if model == "" {
		return nil
	}
	if _, err := fpga.ParseModel(model); err == nil {
		if cmd.Flags().Changed("cost-model") {
			return fmt.Errorf("--model %s and --cost-model %s: --model %s is the old spelling of --cost-model; give --cost-model alone", model, f.model, model)
		}
		fmt.Fprintf(cmd.ErrOrStderr(), "gnnsim: fpga eval --model %s is deprecated and goes in the next release: use --cost-model %s (--model names the GNN model file)\n", model, model)
		f.model = model
		return nil
	}
	if cmd.Flags().Changed("arch") {
		return fmt.Errorf("--model %s and --arch: give the GNN one way", model)
	}
	f.arch = model
	return nil
}

// addFPGAFlags registers the FPGA design's options but the data and the
// architecture, shared by fpga eval and 'eval --unit fpga'; the cost model
// is the flag costFlag.
func addFPGAFlags(fl *pflag.FlagSet, f *fpgaEvalFlags, costFlag string) {
	fl.StringVar(&f.tiles, "tiles", "8,8,8,8,8", "group sizes per layer")
	fl.StringVar(&f.bits, "bits", "2.5,2.5", "weight and activation formats per layer")
	fl.StringVar(&f.model, costFlag, "gnnsim", "cost model: gnnsim (ours) or fgnas-code (the FGNAS authors' model: summed stages, their operator table; --bits are fixed-point formats in both)")
	fl.BoolVar(&f.anyResource, "any-resource", false, "fgnas-code: judge resources as the authors' code does (any of LUT/FF/DSP under its limit passes; default: every limit)")
	fl.BoolVar(&f.published, "published", false, "FGNAS's published linear-stage timing (no node count, dense input)")
	fl.BoolVar(&f.pipelined, "pipelined", false, "judge the latency limit on the pipelined time (default: the summed stages)")
	fl.BoolVar(&f.dense, "dense", false, "read the first layer's input dense instead of streaming its non-zeros")
	intFlag(fl, &f.block, "block", 64, 1, maxBlock, "node block of the pipelined timing and the ping-pong buffers")
	floatFlag(fl, &f.lim.LatencyMS, "latency-ms", 0, 0, maxLatencyMS, false, "latency limit in ms (0: none)")
	intFlag(fl, &f.lim.LUT, "lut", 0, 0, maxFPGAResource, "LUT and FF limit (0: none)")
	intFlag(fl, &f.lim.DSP, "dsp", 0, 0, maxFPGAResource, "DSP limit (0: none)")
}

// runFPGAEval prices the design of f: the one code path of fpga eval and
// 'eval --unit fpga'.
func runFPGAEval(cmd *cobra.Command, f *fpgaEvalFlags) error {
	ds, err := fpgaDataset(f.data, f.dataDir)
	if err != nil {
		return err
	}
	var layers []fpga.LayerDesign
	if f.spec != nil {
		layers, err = fpgaSpecLayers(f.spec, f.spec.Name, f.tiles, f.bits, ds.Features)
	} else {
		layers, err = fpgaLayers(f.arch, f.tiles, f.bits, ds.Features)
	}
	if err != nil {
		return err
	}
	d := fpga.Design{Layers: layers, InputNNZ: ds.FeatureNNZ}
	if f.dense {
		d.InputNNZ = 0
	}
	m, err := fpga.ParseModel(f.model)
	if err != nil {
		return fmt.Errorf("--model: %w", err)
	}
	u, err := fpga.New(d, fpga.Options{Model: m, AnyResource: f.anyResource, Published: f.published, Pipelined: f.pipelined, BlockNodes: f.block, Budget: f.lim.Budget()})
	if err != nil {
		return err
	}
	rep, err := u.Evaluate(hw.BlockWork(d.Block(ds.Size, ds.Features)))
	if err != nil {
		return err
	}
	rec := fgnas.NewEvalRecord(ds, rep)
	if err := writeOut(cmd, f.out, []fpgaEvalRecord{fpgaEvalRecord(rec)}, nil); err != nil {
		return err
	}
	if f.asJSON {
		return writeJSON(cmd.OutOrStdout(), rec)
	}
	return fgnas.WriteEval(cmd.OutOrStdout(), ds, rep)
}

// fpgaDataset resolves --data for the FPGA model: cora, citeseer and
// pubmed by name are their published statistics (fgnas.Cora, ...), so
// results do not depend on the files being present; a path is measured
// from its files (fgnas.DatasetOf).
func fpgaDataset(arg, dir string) (fgnas.Dataset, error) {
	ref, err := resolveData(arg, dir, bench.NeedStats)
	if err != nil {
		return fgnas.Dataset{}, err
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

// fpgaEvalRecord is fpga eval's Parquet row: its name is the schema's root
// name in the files --out wrote before the record moved to package fgnas.
type fpgaEvalRecord fgnas.EvalRecord

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
