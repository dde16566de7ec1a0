package bench

import (
	"context"
	"fmt"
	"io"

	accel "gnnsim/accel/gcos"
	"gnnsim/workload"
)

// gcosCommand is 'gnnsim gcos eval' and 'eval --unit gcos': one fixed
// G-CoS design running a model file's GNN stack, one row of a gcos sweep
// (EvalGCoS), so that both agree by construction.
var gcosCommand = &Command{
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

Prints the model and data set, the design (sub-accelerators, PEs), the
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
macs, dsp, on_chip_bytes, feasible, over (the resource over budget).`,
	Example: `  gnnsim gcos config default > design.yaml
  gnnsim gcos eval --model sage3.yaml --data cora --config design.yaml
  gnnsim gcos eval --model sage3.yaml --data pubmed --json`,
	JSONUsage: "print the row as JSON instead of text",
	OutUsage:  "also write the row to a Parquet file (columns in --help)",
	Unit: `'gnnsim gcos eval': a fixed design of the G-CoS template
(--config FILE, default the built-in one) running the GNN
stack of a model file (gcn, gin, sage, gat layers, any
depth) on --data (cora, citeseer, pubmed, reddit by name,
or a graph path; default cora).`,
	Row: GCoSRow{},
	New: func() Evaluation { return &gcosEval{} },
}

// gcosSpecs are the design files gcos eval --config reads.
var gcosSpecs = &SpecFiles{
	Short: "Describe G-CoS design spec files (the YAML gcos eval --config reads)",
	Long:  "Describe the G-CoS design spec files (the YAML gcos eval --config reads): 'spec default' prints the built-in one, every key commented.",
	Files: []BuiltinSpec{{
		Use:   "default",
		Short: "Print the built-in design as a commented design file (gcos eval --config reads it)",
		Long: `Print the built-in G-CoS design (five sub-accelerators of 816 PEs, output
reuse, row-wise kernels, tiles 64 x 256 x 64) as a commented design file:
edit it and give it to 'gnnsim gcos eval --config' or a gcos sweep's
configs: [{file: ...}].`,
		Text: func() ([]byte, error) { return accel.FormatConfig(accel.Default()) },
	}},
}

// gcosEval holds the options of one G-CoS evaluation.
type gcosEval struct {
	model, data, dataDir, config string
}

func (g *gcosEval) OwnFlags(f Flags) {
	f.String(&g.model, "model", "", "model file of a GNN stack (required)")
	f.Data(&g.data, &g.dataDir, "cora", "data set: cora, citeseer, pubmed or reddit (their files under --data-dir when there, else their published sizes), or a path: a Planetoid prefix (dir/ind.cora) or one graph file")
	f.Required("model")
}

func (g *gcosEval) UnitFlags(f Flags) {
	f.String(&g.config, "config", "", "design file (YAML, 'gnnsim gcos config default'); default the built-in design")
}

// Eval prices the model on the design: one row of a gcos sweep.
func (g *gcosEval) Eval(_ context.Context, in *Input) (*Result, error) {
	if in.Unit {
		if in.Graph != "" {
			return nil, fmt.Errorf("--unit gcos: give the graph as --data (a name or a path), not --graph")
		}
		g.model, g.data, g.dataDir = in.Model, in.Data, in.DataDir
		if g.data == "" {
			g.data = "cora"
		}
	}
	spec, err := workload.ResolveModelSpec(g.model)
	if err != nil {
		return nil, fmt.Errorf("--model: %w", err)
	}
	cfg, label := accel.Default(), "default"
	if g.config != "" {
		if cfg, err = accel.ReadConfig(g.config); err != nil {
			return nil, fmt.Errorf("--config: %w", err)
		}
		label = g.config
	}
	d, err := GCoSData(g.data, g.dataDir)
	if err != nil {
		return nil, fmt.Errorf("--data: %w", err)
	}
	m, err := GCoSModel(spec, &d)
	if err != nil {
		return nil, fmt.Errorf("--model %s: %w", g.model, err)
	}
	r, err := EvalGCoS(cfg, m, &d)
	if err != nil {
		return nil, err
	}
	r.Config, r.Model, r.Data = label, g.model, g.data
	return RowsResult([]GCoSRow{r}, r, func(w io.Writer) error { return r.WriteText(w, cfg.Name+" ("+label+")", m) }), nil
}

// gcosShort and gcosLong are the help of the 'gnnsim gcos' command group.
const (
	gcosShort = "The G-CoS multi-sub-accelerator template (seed 001): price a fixed design"
	gcosLong  = `The G-CoS multi-sub-accelerator GNN accelerator template (seed 001, package
accel/gcos): 'gcos eval' prices one design running a model file's GNN on a
data set; 'gcos spec default' prints the built-in design as a design
file. 'gnnsim search gcos' searches designs; a sweep of unit: gcos
(bench/testdata/gcos.yaml) prices grids of them. There is no 'gcos
validate': no reference outputs of G-CoS's own model are published (its
anchors are the baselines' published Reddit figures, checked by the tests
of repro/seed001).`
)
