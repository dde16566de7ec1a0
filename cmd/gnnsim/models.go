package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

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

type modelRow struct {
	Name   string  `json:"name"`
	Blocks int     `json:"blocks"`
	Layers int     `json:"layers"`
	GMACs  float64 `json:"gmacs"`
	Params float64 `json:"params_m"`
}

func runModelsList(w io.Writer, asJSON bool) error {
	var rows []modelRow
	for _, name := range workload.ModelNames() {
		m, err := workload.LookupModel(name, 0)
		if err != nil {
			return err
		}
		macs, err := m.MACs()
		if err != nil {
			return err
		}
		r := modelRow{Name: name, Blocks: len(m.Blocks), GMACs: float64(macs) / 1e9, Params: float64(m.Params()) / 1e6}
		for _, b := range m.Blocks {
			r.Layers += len(b.Layers)
		}
		rows = append(rows, r)
	}
	if asJSON {
		return writeJSON(w, rows)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "model\tblocks\tlayers\tGMACs\tparams_M")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.3f\t%.3f\n", r.Name, r.Blocks, r.Layers, r.GMACs, r.Params)
	}
	return tw.Flush()
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

type showLayer struct {
	Name   string `json:"name"`
	Kind   string `json:"kind"`
	F      int    `json:"f"`
	G      int    `json:"g"`
	Nodes  int64  `json:"out_nodes"`
	Grid   string `json:"out_grid,omitempty"`
	Inputs string `json:"inputs,omitempty"`
}

type showBlock struct {
	Name   string      `json:"name"`
	Kind   string      `json:"kind"`
	Nodes  int64       `json:"in_nodes"`
	Layers []showLayer `json:"layers"`
}

type showModel struct {
	Name        string      `json:"name"`
	Granularity string      `json:"granularity"`
	Blocks      []showBlock `json:"blocks"`
	Segments    []string    `json:"segments"`
}

func runModelsShow(w io.Writer, ref string, f *modelsShowFlags) error {
	spec, err := workload.ResolveModelSpec(ref)
	if err != nil {
		return err
	}
	m, err := spec.Build(workload.Size{Nodes: f.nodes, NNZ: f.nnz}, f.features)
	if err != nil {
		return fmt.Errorf("%s (--nodes, --nnz, --features): %w", ref, err)
	}
	g, err := soc.ParseGranularity(f.gran)
	if err != nil {
		return fmt.Errorf("--granularity: %w", err)
	}
	nodes, err := m.Graph()
	if err != nil {
		return err
	}
	segs, err := soc.Segments(m, g)
	if err != nil {
		return err
	}
	out := showModel{Name: m.Name, Granularity: g.String()}
	for _, n := range nodes {
		if n.Index == 0 {
			b := m.Blocks[n.Block]
			out.Blocks = append(out.Blocks, showBlock{Name: b.Name, Kind: b.Kind.String(), Nodes: b.In.Nodes})
		}
		l := showLayer{Name: n.Name, Kind: n.Layer.Kind.String(), F: n.Layer.F, G: n.Layer.OutWidth(), Nodes: n.Out.Nodes}
		if n.Out.H > 0 {
			l.Grid = fmt.Sprintf("%dx%d", n.Out.H, n.Out.W)
		}
		if len(n.Layer.Inputs) > 0 {
			l.Inputs = strings.Join(n.Layer.Inputs, ",")
		}
		blk := &out.Blocks[len(out.Blocks)-1]
		blk.Layers = append(blk.Layers, l)
	}
	for _, s := range segs {
		out.Segments = append(out.Segments, s.Name)
	}
	if f.asJSON {
		return writeJSON(w, out)
	}
	fmt.Fprintf(w, "model %s: %d blocks, %d layers\n", out.Name, len(out.Blocks), len(nodes))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for i, b := range out.Blocks {
		fmt.Fprintf(tw, "block %d\t%s\t%s\tin %d nodes\t\n", i, b.Name, b.Kind, b.Nodes)
		for _, l := range b.Layers {
			size := fmt.Sprint(l.Nodes)
			if l.Grid != "" {
				size = l.Grid
			}
			fmt.Fprintf(tw, "  %s\t%s\t%d -> %d\tout %s\t%s\n", l.Name, l.Kind, l.F, l.G, size, l.Inputs)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "%d %s segments (the order of a --mapping list):\n  %s\n", len(out.Segments), out.Granularity, strings.Join(out.Segments, ","))
	return nil
}
