package main

import (
	"fmt"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	accel "gnnsim/accel/gcos"
	"gnnsim/bench"
	"gnnsim/workload"
)

func init() { register(newGcosCmd) }

// gcosEvalFlags are gcos eval's settings (and eval --unit gcos's).
type gcosEvalFlags struct {
	model, data, dataDir, config, out string
	jsonOut                           bool
}

func newGcosCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "gcos",
		Short: "The G-CoS multi-sub-accelerator template (seed 001): price a fixed design",
		Long: `The G-CoS multi-sub-accelerator GNN accelerator template (seed 001, package
accel/gcos): 'gcos eval' prices one design running a model file's GNN on a
data set; 'gcos spec default' prints the built-in design as a design
file. 'gnnsim search gcos' searches designs; a sweep of unit: gcos
(bench/testdata/gcos.yaml) prices grids of them. There is no 'gcos
validate': no reference outputs of G-CoS's own model are published (its
anchors are the baselines' published Reddit figures, checked by the tests
of repro/seed001).`,
		Args: cobra.NoArgs,
	}
	c.AddCommand(newGcosEvalCmd(), newGcosConfigCmd(), specGroup("G-CoS design", "the YAML gcos eval --config reads", newGcosSpecDefaultCmd()))
	return c
}

// gcosEvalHelp describes gcos eval's output; eval --unit gcos refers to it.
const gcosEvalHelp = `Prints the model and data set, the design (sub-accelerators, PEs), the
latency of one inference (us, cycles at the design's clock), the HBM
traffic (MB), the MACs (package workload's count: the first layer's input
at the data set's feature density), each block's latency (a model file's
layer with its activation), the design's DSPs and on-chip bytes against
the VCU128 budget (4,096 DSPs, 42 MB) and whether it fits. Accuracy is not
measured: nothing is trained (gnnsim train does).

--json prints the row as a JSON object and --out writes it to a Parquet
file, the columns of a gcos sweep's runs table: point_id (0), config (the
--config file, or "default"), model (--model as given), model_name, data
(--data as given), data_name, nodes, features, feature_density (0: dense),
layers, allocation, scheme, repurpose, share_weights, clock_mhz,
hbm_gb_per_s, subs, pes (all sub-accelerators), s0_pes .. s4_tile_n (each
sub-accelerator's PEs, tiling, kernel and tiles; absent ones empty and 0),
cycles, latency_ps, latency_us, block_latency_ps (a list), dram_bytes,
macs, dsp, on_chip_bytes, feasible, over (the resource over budget).`

func newGcosEvalCmd() *cobra.Command {
	var f gcosEvalFlags
	c := &cobra.Command{
		Use:   "eval --model NAME|FILE [--data NAME|PATH] [--config FILE] [--json] [--out FILE.parquet]",
		Short: "Price a fixed G-CoS design running a GNN of any depth on a data set",
		Long: `Price one design of the G-CoS template (package accel/gcos; --config, a
design file as 'gnnsim gcos config default' prints, default the built-in
design) running a GNN stack of any depth: --model is a model file ('gnnsim
models show --help': gcn, gin, sage (mean with its self term, or max) and
gat layers with their activations; edgeconv and mrconv have no engine on
the template and are refused by name). Each layer runs on the data set's
adjacency, one kernel after another (the template's doc: 'go doc
gnnsim/accel/gcos').

--data is cora, citeseer, pubmed or reddit by name, as G-CoS prices them
(their graphs and measured feature densities when their Planetoid files are
under --data-dir, else their published sizes; Reddit by a power-law degree
profile), or a path: a Planetoid file set (dir/ind.cora) or a graph file
(its graph alone: the model file must give features:).

` + gcosEvalHelp,
		Example: `  gnnsim gcos config default > design.yaml
  gnnsim gcos eval --model sage3.yaml --data cora --config design.yaml
  gnnsim gcos eval --model sage3.yaml --data pubmed --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runGcosEval(cmd, &f) },
	}
	c.Flags().StringVar(&f.model, "model", "", "model file of a GNN stack (required)")
	namedDataFlags(c.Flags(), &f.data, &f.dataDir, "cora", "data set: cora, citeseer, pubmed or reddit (their files under --data-dir when there, else their published sizes), or a path: a Planetoid prefix (dir/ind.cora) or one graph file")
	addGcosFlags(c.Flags(), &f)
	c.Flags().BoolVar(&f.jsonOut, "json", false, "print the row as JSON instead of text")
	outFileFlag(c.Flags(), &f.out, "out", "", "also write the row to a Parquet file (columns in --help)")
	_ = c.MarkFlagRequired("model")
	return c
}

// addGcosFlags registers the unit options gcos eval shares with eval
// --unit gcos.
func addGcosFlags(fs *pflag.FlagSet, f *gcosEvalFlags) {
	fs.StringVar(&f.config, "config", "", "design file (YAML, 'gnnsim gcos config default'); default the built-in design")
}

// runGcosEval prices the model on the design and prints it: one row of a
// gcos sweep (bench.EvalGCoS), so that both agree by construction.
func runGcosEval(cmd *cobra.Command, f *gcosEvalFlags) error {
	spec, err := workload.ResolveModelSpec(f.model)
	if err != nil {
		return fmt.Errorf("--model: %w", err)
	}
	cfg, label := accel.Default(), "default"
	if f.config != "" {
		if cfg, err = accel.ReadConfig(f.config); err != nil {
			return fmt.Errorf("--config: %w", err)
		}
		label = f.config
	}
	d, err := bench.GCoSData(f.data, f.dataDir)
	if err != nil {
		return fmt.Errorf("--data: %w", err)
	}
	m, err := bench.GCoSModel(spec, &d)
	if err != nil {
		return fmt.Errorf("--model %s: %w", f.model, err)
	}
	r, err := bench.EvalGCoS(cfg, m, &d)
	if err != nil {
		return err
	}
	r.Config, r.Model, r.Data = label, f.model, f.data
	if err := writeOut(cmd, f.out, []bench.GCoSRow{r}, nil); err != nil {
		return err
	}
	w := cmd.OutOrStdout()
	if f.jsonOut {
		return writeJSON(w, r)
	}
	return r.WriteText(w, cfg.Name+" ("+label+")", m)
}

func newGcosConfigCmd() *cobra.Command {
	c := &cobra.Command{
		Use:    "config",
		Hidden: true, // deprecated: gnnsim gcos spec
		Short:  "G-CoS design files (deprecated: gnnsim gcos spec)",
		Long: `Design files of the G-CoS template: YAML with name, allocation, scheme,
repurpose, share_weights, clock_mhz, hbm_gb_per_s, hbm_latency_cycles and
subs (1..5 sub-accelerators: pes, tiling, kernel, tile_m, tile_k, tile_n);
'gcos config default' prints the built-in one, every key commented.`,
		Args: cobra.NoArgs,
	}
	c.AddCommand(deprecate(newGcosSpecDefaultCmd(), "gnnsim gcos spec default"))
	return c
}

// newGcosSpecDefaultCmd is 'gnnsim gcos spec default' (and the deprecated
// 'gcos config default'): the built-in design as a design file.
func newGcosSpecDefaultCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "default",
		Short: "Print the built-in design as a commented design file (gcos eval --config reads it)",
		Long: `Print the built-in G-CoS design (five sub-accelerators of 816 PEs, output
reuse, row-wise kernels, tiles 64 x 256 x 64) as a commented design file:
edit it and give it to 'gnnsim gcos eval --config' or a gcos sweep's
configs: [{file: ...}].`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			b, err := accel.FormatConfig(accel.Default())
			if err != nil {
				return err
			}
			_, err = cmd.OutOrStdout().Write(b)
			return err
		},
	}
}
