package main

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"gnnsim/graphs"
	"gnnsim/workload"
)

func init() { register(newEvalCmd) }

// evalUnits are the unit kinds 'gnnsim eval' takes, in the order --help
// lists them.
var evalUnits = []string{"omega", "soc", "fpga", "gcos"}

type evalFlags struct {
	unit, model, graph, data string
	features                 int
	jsonOut                  bool
	omega                    simulateFlags
	soc                      socEvalFlags
	fpga                     fpgaEvalFlags
	gcos                     gcosEvalFlags
}

func newEvalCmd() *cobra.Command {
	var f evalFlags
	unitFlags := map[string]*pflag.FlagSet{}
	cmd := &cobra.Command{
		Use:   "eval --unit omega|soc|fpga|gcos --model NAME|FILE [--graph G | --data NAME|PATH] [unit options] [--json]",
		Short: "Evaluate a model on one unit kind: the same code paths as simulate, soc eval and fpga eval",
		Long: `Evaluate one model on one unit kind. Each unit runs the code path of its own
command and prints that command's output (text, or with --json the same JSON):

  --unit omega   'gnnsim simulate': the Omega-style spatial accelerator runs
                 every layer of a GNN stack on the graph of --graph (or
                 --data: a path), one row per (graph, layer, dataflow,
                 tiling). Only gcn, gin, sage (mean) and single-head gat
                 layers are modelled: any other layer, an activation
                 included, is refused with its name.
  --unit soc     'gnnsim soc eval': a zoo model (ViG, Pyramid ViG, CNNs)
                 mapped onto the SoC's units; model files are not taken on
                 this path yet, nor --graph / --data (a zoo model brings its
                 own input).
  --unit fpga    'gnnsim fpga eval': the GNN stack of a model file as an FGNAS
                 FPGA design (gcn, gat and sage layers; activations relu,
                 tanh, sigmoid, elu or none) on the Planetoid statistics of
                 --data (cora, citeseer or pubmed).
  --unit gcos    'gnnsim gcos eval': a fixed design of the G-CoS template
                 (--config FILE, default the built-in one) running the GNN
                 stack of a model file (gcn, gin, sage, gat layers, any
                 depth) on --data (cora, citeseer, pubmed, reddit by name,
                 or a graph path; default cora).

--model is a zoo model name ('gnnsim models') or a model file (YAML, the
format in 'gnnsim models show --help'). A GNN stack's input width is its
file's features:, else the data set's (fpga), else --features (omega).

Output fields: omega prints simulate's columns (graph, nodes, nnz, layer, F,
G, dataflow, tiling, tiles, pes, agg_pes, comb_pes, mode, effects, cycles,
seconds, per-phase cycles, stalls, macs, utilization, buffer / DRAM / NoC
traffic, energy in pJ, events; see 'gnnsim simulate --help'); soc prints
soc eval's (model, graph_op, soc, granularity, segments, mapping, dvfs,
latency_ms, energy_mj, power_w, transitions, transfer_ms, dram_bytes, units,
busy_ms, the pipelined run's frames, in_flight, throughput_fps,
latency_p50_ms, latency_p99_ms, memory_stall_ms, utilization, power_mode,
platform_mj, and layers with --layers; see 'gnnsim soc eval --help'); fpga
prints fpga eval's (data, stages: layer, stage, work, latency, cycles, lut,
ff, dsp; summed_cycles, pipelined_cycles, latency_ms, lut, ff, dsp, bram18,
feasible, over; see 'gnnsim fpga eval --help'); gcos prints gcos eval's
(model, data set, design, latency_us, cycles, MB off chip, MACs, per-block
latency, DSPs and on-chip bytes against the budget, feasibility; accuracy
not measured; with --json the gcos sweep row: see 'gnnsim gcos eval
--help').

A unit's options are refused with another --unit.`,
		Example: `  gnnsim eval --unit soc --model vig-s --mapping gpu --json
  gnnsim eval --unit fpga --model sage3.yaml --data cora
  gnnsim eval --unit omega --model gcn1.yaml --graph ../shared/data/matrix-market/karate.mtx --features 64`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !slices.Contains(evalUnits, f.unit) {
				return fmt.Errorf("--unit %q: unknown unit kind (want one of %s)", cut(f.unit), strings.Join(evalUnits, ", "))
			}
			var wrong string
			cmd.Flags().Visit(func(fl *pflag.Flag) {
				for u, fs := range unitFlags {
					if u != f.unit && fs.Lookup(fl.Name) != nil && unitFlags[f.unit].Lookup(fl.Name) == nil && wrong == "" {
						wrong = fmt.Sprintf("--%s is an option of --unit %s, not %s", fl.Name, u, f.unit)
					}
				}
			})
			if wrong != "" {
				return fmt.Errorf("%s", wrong)
			}
			return runEval(cmd, &f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.unit, "unit", "", "unit kind: "+strings.Join(evalUnits, ", ")+" (required)")
	fl.StringVar(&f.model, "model", "", "zoo model ("+strings.Join(workload.ModelNames(), ", ")+") or model file (required)")
	fl.StringVar(&f.graph, "graph", "", "omega: graph file or directory (as simulate --graphs)")
	fl.StringVar(&f.data, "data", "", "fpga: data set name (cora, citeseer or pubmed; default cora); gcos: a name (cora, citeseer, pubmed, reddit; default cora) or a graph path; omega: a graph path, as --graph")
	intFlag(fl, &f.features, "features", 64, 1, workload.MaxFeatures, "omega: input width of a GNN stack whose file gives none")
	fl.BoolVar(&f.jsonOut, "json", false, "print the unit command's JSON instead of text")

	om := pflag.NewFlagSet("omega", pflag.ContinueOnError)
	om.StringVar(&f.omega.format, "format", "", "omega: raw graph format: tu, mtx, edgelist or cites (default: detect from the path)")
	addOmegaFlags(om, &f.omega)
	so := pflag.NewFlagSet("soc", pflag.ContinueOnError)
	addSocFlags(so, &f.soc)
	outFileFlag(so, &f.soc.out, "out", "", "soc, gcos: also write the result as a one-row Parquet file")
	fp := pflag.NewFlagSet("fpga", pflag.ContinueOnError)
	addFPGAFlags(fp, &f.fpga, "cost-model")
	gc := pflag.NewFlagSet("gcos", pflag.ContinueOnError)
	addGcosFlags(gc, &f.gcos)
	outFileFlag(gc, &f.gcos.out, "out", "", "gcos: also write the row to a Parquet file (gcos eval's columns)")
	unitFlags["omega"], unitFlags["soc"], unitFlags["fpga"], unitFlags["gcos"] = om, so, fp, gc
	for _, u := range evalUnits {
		unitFlags[u].VisitAll(func(x *pflag.Flag) {
			if fl.Lookup(x.Name) == nil {
				if !strings.HasPrefix(x.Usage, u+": ") && !strings.HasPrefix(x.Usage, u+", ") {
					x.Usage = u + ": " + x.Usage
				}
				fl.AddFlag(x)
			}
		})
	}
	_ = cmd.MarkFlagRequired("unit")
	_ = cmd.MarkFlagRequired("model")
	return cmd
}

// runEval resolves the model and hands it to the unit's own code path.
func runEval(cmd *cobra.Command, f *evalFlags) error {
	spec, err := workload.ResolveModelSpec(f.model)
	if err != nil {
		return fmt.Errorf("--model: %w", err)
	}
	if f.graph != "" && f.data != "" {
		return fmt.Errorf("--graph and --data exclude each other")
	}
	switch f.unit {
	case "omega":
		if err := checkOmegaFlags(cmd, &f.omega); err != nil {
			return err
		}
		o := f.omega
		o.graphsPath, o.jsonOut = f.graph, f.jsonOut
		if o.graphsPath == "" {
			o.graphsPath = f.data
		}
		if o.graphsPath == "" {
			return fmt.Errorf("--unit omega needs a graph: --graph PATH or --data PATH")
		}
		return runOmega(cmd, &o, func(g *graphs.Graph) ([]workload.Layer, error) {
			m, err := spec.Build(workload.Size{Nodes: int64(g.NumNodes()), NNZ: int64(g.NumEdges())}, f.features)
			if err != nil {
				return nil, fmt.Errorf("--model %s: %w", f.model, err)
			}
			nodes, err := m.Graph()
			if err != nil {
				return nil, fmt.Errorf("--model %s: %w", f.model, err)
			}
			ls := make([]workload.Layer, len(nodes))
			for i, n := range nodes {
				ls[i] = n.Layer
				ls[i].Name = n.Name // the name models show prints
			}
			return ls, nil
		})
	case "soc":
		if err := checkSocFlags(cmd, &f.soc); err != nil {
			return err
		}
		if spec.Zoo == "" || spec.Name != spec.Zoo || spec.GraphOp != "" {
			return fmt.Errorf("--model %s: --unit soc takes a zoo model name (%s); model files are not taken on the soc path yet",
				f.model, strings.Join(workload.ModelNames(), ", "))
		}
		if f.graph != "" || f.data != "" {
			return fmt.Errorf("--unit soc: a zoo model brings its own input; --graph and --data are not taken")
		}
		s := f.soc
		s.model, s.jsonOut = spec.Zoo, f.jsonOut
		return runSocEval(cmd, &s)
	case "gcos":
		if f.graph != "" {
			return fmt.Errorf("--unit gcos: give the graph as --data (a name or a path), not --graph")
		}
		g := f.gcos
		g.model, g.data, g.jsonOut = f.model, f.data, f.jsonOut
		// eval has one --out: the flag registered first (soc's) holds it.
		g.out = f.soc.out
		if g.data == "" {
			g.data = "cora"
		}
		return runGcosEval(cmd, &g)
	default: // fpga
		if f.graph != "" {
			return fmt.Errorf("--unit fpga prices a design on a data set's statistics: give --data cora, citeseer or pubmed, not --graph")
		}
		p := f.fpga
		p.data, p.spec, p.asJSON = f.data, spec, f.jsonOut
		if p.data == "" {
			p.data = "cora"
		} else if _, err := os.Stat(p.data); err == nil {
			return fmt.Errorf("--data %s: --unit fpga takes a data set name (cora, citeseer or pubmed), not a path", p.data)
		}
		if spec.Zoo != "" {
			// Name the layer the FPGA pipeline cannot take: the zoo's
			// first layer is never a GNN stack's (a conv or a patch stem).
			m, err := spec.Build(workload.Size{}, 0)
			if err != nil {
				return fmt.Errorf("--model %s: %w", f.model, err)
			}
			nodes, err := m.Graph()
			if err != nil {
				return fmt.Errorf("--model %s: %w", f.model, err)
			}
			if len(nodes) > 0 {
				return fmt.Errorf("--unit fpga: model %s: layer %s (%s) has no FPGA pipeline: the FPGA takes a model file's GNN stack of gcn, gat and sage layers",
					m.Name, nodes[0].Name, nodes[0].Layer.Kind)
			}
		}
		if spec.Name == "" {
			spec.Name = f.model
		}
		return runFPGAEval(cmd, &p)
	}
}
