package main

import (
	"io"

	"github.com/spf13/cobra"

	"gnnsim/soc"
	"gnnsim/workload"
)

func init() { register(newModelsCmd) }

// Cora's size: the graph a GNN stack is shown on unless told otherwise.
const (
	coraNodes    = 2708
	coraNNZ      = 10556 // 5278 undirected edges, both directions
	coraFeatures = 1433
)

func newModelsCmd() *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "models [--json]",
		Short: "List the model zoo",
		Long: `List the models every command that takes --model knows: name, blocks,
layers, multiply-accumulates (GMACs) and learnt parameters in millions
(weights and biases of convolutions, FC and graph layers, BN scales and
shifts; positional embeddings are left out).
A model file (YAML, see 'gnnsim models show --help') is accepted wherever a
zoo name is.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runModelsList(cmd.OutOrStdout(), asJSON) },
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print a JSON array instead of text")
	c.AddCommand(newModelsShowCmd())
	return c
}

type modelsShowFlags struct {
	nodes, nnz int64
	features   int
	gran       string
	asJSON     bool
}

func newModelsShowCmd() *cobra.Command {
	var f modelsShowFlags
	c := &cobra.Command{
		Use:   "show NAME|FILE [--granularity block|layer|kernel] [--json]",
		Short: "Print a model's blocks, layers and segments",
		Long: `Print a zoo model or a model file: its blocks (name, kind, input size), their
layers (name, kind, input and output widths, output size) and the segment
names a mapping refers to at --granularity (soc eval --mapping gives one unit
per segment, in this order).

A model file is YAML: a GNN stack

  name: sage3
  features: 1433          # input width (optional; else --features)
  layers:
    - {kind: sage, width: 64, aggregation: mean, activation: relu}
    - {kind: sage, width: 64, aggregation: mean, activation: relu}
    - {kind: sage, width: 7}

(kind gcn, gin, sage, gat, edgeconv, mrconv or fc; width; heads for gat;
aggregation mean or max for sage; k for edgeconv and mrconv to build a k-NN
graph; activation relu, relu6, elu, gelu, leaky_relu, sigmoid, tanh or none),
or a zoo model with overrides:

  zoo: vig-s
  graph_op: gin

A GNN stack is shown on a graph of --nodes nodes and --nnz adjacency entries
(default: Cora's).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runModelsShow(cmd.OutOrStdout(), args[0], &f) },
	}
	fl := c.Flags()
	intFlag(fl, &f.nodes, "nodes", coraNodes, 1, workload.MaxNodes, "nodes of the graph a GNN stack runs on (default: Cora's)")
	intFlag(fl, &f.nnz, "nnz", coraNNZ, 0, 1<<40, "adjacency entries of that graph, both directions (default: Cora's)")
	intFlag(fl, &f.features, "features", coraFeatures, 1, workload.MaxFeatures, "input width of a GNN stack whose file gives none (default: Cora's)")
	fl.StringVar(&f.gran, "granularity", "block", "segments to list: block, layer or kernel")
	fl.BoolVar(&f.asJSON, "json", false, "print a JSON object instead of text")
	return c
}

func runModelsList(w io.Writer, asJSON bool) error {
	rows, err := workload.ZooRows()
	if err != nil {
		return err
	}
	if asJSON {
		return writeJSON(w, rows)
	}
	return workload.WriteZooTable(w, rows)
}

func runModelsShow(w io.Writer, ref string, f *modelsShowFlags) error {
	out, err := soc.DescribeRef(ref, workload.Size{Nodes: f.nodes, NNZ: f.nnz}, f.features, f.gran)
	if err != nil {
		return err
	}
	if f.asJSON {
		return writeJSON(w, out)
	}
	return out.WriteText(w)
}
