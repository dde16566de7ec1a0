package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"gnnsim/bench"
	"gnnsim/graphs"
)

func init() { register(newGraphsCmd) }

func newGraphsCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "graphs",
		Short: "Generate, load and inspect graph-set files",
		Long: `Generate, load and inspect graph-set files.

A graph-set file is one Parquet table with a row per graph: name, source,
sizes, the graph features of seed 002 (Table 1) as columns, and the CSR
adjacency as list columns. DuckDB, pandas and polars read it directly; the
columns are documented in 'go doc gnnsim/graphs'. Its key-value metadata
records the command and parameters that made it, and the gnnsim version.`,
	}
	cmd.AddCommand(newGraphsGenCmd(), newGraphsLoadCmd(), newGraphsInfoCmd())
	return cmd
}

func newGraphsGenCmd() *cobra.Command {
	var (
		spec          graphs.GenSpec
		nodes, edges  string
		params        []string
		out           string
		generatorHelp = strings.Join(graphs.Generators(), ", ")
	)
	cmd := &cobra.Command{
		Use:   "gen --generator NAME --out FILE [flags]",
		Short: "Generate a seeded set of graphs and write it as a graph-set file",
		Long: `Generate a seeded set of graphs and write it as a graph-set file.

Graph i of a set depends only on the generator, its parameters, the ranges
and (seed, i): the same flags always give a byte-identical file, and a
larger --count extends a set without changing its first graphs.

Generators: ` + generatorHelp + `.
Their default ranges and parameters (a flag left out takes the default):

  er         nodes 64:1024, --edges optional   p, or avg_degree (8)
  ba         nodes 64:1024                     m (4) edges per new node
  ws         nodes 64:1024                     k (8, even), beta (0.1)
  sbm        nodes 64:1024                     blocks (4), p_in (0.2), p_out (0.01)
  grid       14 x 14 (ViG patches)             rows, cols (14), diagonal (0 or 1)
  knn        nodes 196 (ViG patches)           k (9), dim (2)
  rmat       nodes 64:1024, --edges optional   a (0.57), b (0.19), c (0.19), edge_factor (8)
  graphlaxy  edges 1000:20000 (nodes drawn)    alpha_a, beta_a, alpha_b, beta_b, alpha_c,
                                               beta_c, alpha_n, beta_n (shifted Betas)

Ranges are A:B (inclusive, A <= B), A: (at least A), :B (at most B) or N
(exactly N); counts are positive integers, and a side left out takes the
generator default. Node and edge counts are drawn per graph from the range.

Limits (checked before any work): --count at most 1,000,000; node counts at
most 10,000,000 (knn, whose construction is quadratic: 20,000; rmat: 2^30);
edge counts at most 100,000,000 (rmat: 1,073,741,823, the CSR limit). A
graph whose estimated peak memory exceeds the memory available (free
memory, a cgroup limit or GOMEMLIMIT) is refused before any work. Ctrl-C
or SIGTERM stops within a second and writes nothing; rerun the command to
start again.`,
		Example: `  gnnsim graphs gen --generator graphlaxy --count 1000 --seed 7 --edges 1000:5000 --out medium.parquet
  gnnsim graphs gen --generator rmat --count 50 --nodes 100:500 --param a=0.6 --param b=0.15 --out rmat.parquet`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			mode, err := featureMode(cmd)
			if err != nil {
				return err
			}
			if err := spec.SetRequest(nodes, edges, params); err != nil {
				return err
			}
			if err := graphs.CheckGenMemory(spec, mode); err != nil {
				return err
			}
			gs, err := generateSet(cmd, spec)
			if err != nil {
				return err
			}
			return writeSet(cmd, out, gs, spec.Meta(nodes, edges, params), true)
		},
	}
	f := cmd.Flags()
	quietFlag(cmd)
	featuresFlag(cmd)
	f.StringVar(&spec.Generator, "generator", "", "generator name: "+generatorHelp+" (required)")
	intFlag(f, &spec.Count, "count", 100, 1, graphs.MaxGenCount, "number of graphs to generate")
	f.Uint64Var(&spec.Seed, "seed", 1, "random seed; graph i uses the PCG stream of (seed, i)")
	f.StringVar(&nodes, "nodes", "", "node-count range A:B, A:, :B or N (default: the generator's)")
	f.StringVar(&edges, "edges", "", "edge-count range A:B, A:, :B or N, for er, rmat and graphlaxy (default: the generator's)")
	f.StringArrayVar(&params, "param", nil, "generator parameter KEY=VALUE (repeatable), e.g. --param a=0.6; see above for the keys")
	outFileFlag(f, &out, "out", "", "output graph-set Parquet file (required; its directory must exist)")
	cmd.MarkFlagRequired("generator")
	cmd.MarkFlagRequired("out")
	return cmd
}

func newGraphsLoadCmd() *cobra.Command {
	var format, out string
	cmd := &cobra.Command{
		Use:   "load PATH --out FILE [--format FORMAT]",
		Short: "Read graphs from a data file or TUDataset and write a graph-set file",
		Long: `Read graphs from a data file or TUDataset and write them as a graph-set file.

Formats (--format; empty = detect from PATH):
  tu        TUDataset raw text: PATH is the dataset directory, the DS_A.txt
            file, or the prefix DS (DS_A.txt, DS_graph_indicator.txt and the
            optional labels/attributes files); one file set holds many graphs
  mtx       Matrix Market (.mtx): coordinate or array, any field; values are
            ignored, the pattern symmetrized and the diagonal dropped
  edgelist  one edge "u v" per line, whitespace or comma separated, '#' and
            '%' comments, arbitrary node ids remapped densely
  cites     Planetoid/LINQS .cites citation list ("cited citing" per line)
  planetoid Planetoid ind.<name>.* pickles (Kipf's GCN data): PATH is the
            prefix dir/ind.<name>, dir/<name> or one of the files
  npz       gnn-benchmark .npz archive (adj_*, attr_*, labels)
  ogb       OGB node-property raw folder: raw/edge.csv.gz ("u,v" lines),
            raw/num-node-list.csv.gz, optional raw/node-feat.csv.gz (kept as
            node attributes); PATH is the data set folder or its raw folder
  binedges  binary edge list: little-endian uint32 pairs, 8 bytes an edge,
            node count = largest id + 1

Detection: a directory with raw/edge.csv.gz is ogb; .bel and .binedges
are binedges; another directory, *_A.txt or a TU prefix is tu; .mtx (or a
%%MatrixMarket banner) is mtx; .cites is cites; .txt, .edges, .edgelist,
.el, .tsv and .csv are edgelist; .npz is npz; a path naming an
ind.<name>.graph file set is planetoid. Graphs are undirected and simple
(self-loops dropped, duplicates merged); isolated nodes are kept. Of the
two node-classification formats only the graph is written; 'graphs info'
summarises their features, labels and split.`,
		Example: `  gnnsim graphs load ../shared/data/tu/ENZYMES --out enzymes.parquet
  gnnsim graphs load karate.mtx --format mtx --out karate.parquet
  gnnsim graphs load ../shared/data/planetoid/ind/cora --out cora.parquet`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if _, err := featureMode(cmd); err != nil {
				return err
			}
			f, err := graphs.ParseFormat(format)
			if err != nil {
				return err
			}
			gs, err := graphs.Load(args[0], f)
			if err != nil {
				return err
			}
			shown := format
			if shown == "" {
				shown = "auto"
			}
			meta := map[string]string{
				"command": "graphs load",
				"path":    args[0],
				"format":  shown,
			}
			return writeSet(cmd, out, gs, meta, false)
		},
	}
	f := cmd.Flags()
	quietFlag(cmd)
	featuresFlag(cmd)
	f.StringVar(&format, "format", "", "input format: tu, mtx, edgelist, cites, planetoid, npz, ogb or binedges (default: detect from PATH)")
	outFileFlag(f, &out, "out", "", "output graph-set Parquet file (required; its directory must exist)")
	cmd.MarkFlagRequired("out")
	return cmd
}

func newGraphsInfoCmd() *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "info FILE",
		Short: "Summarise a graph-set file (sizes, features, spread) or a Planetoid data set",
		Long: `Summarise a graph-set file without decoding its adjacency lists, or a
node-classification data set (a Planetoid ind.<name> prefix or a
gnn-benchmark .npz file: nodes, edges, features, classes, split, and what
the files lack).

Prints the metadata, the number of graphs, min/mean/max of every feature
column (num_nodes and num_edges first), and an occupancy table of the set
over Graphlaxy's plane: average clustering coefficient (rows, 10 bins over
[0, 1]) against log10 of the networkx density 2E/(V(V-1)) (columns, bins
of 0.5 from -5 to 0). Graphs outside the density range, including those
without edges, are counted separately.`,
		Args: cobra.ExactArgs(1),
		Example: `  gnnsim graphs info medium.parquet
  gnnsim graphs info ../shared/data/planetoid/ind/citeseer`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if graphs.IsPlanetoid(args[0]) {
				if asJSON {
					return fmt.Errorf("--json: only for graph-set files, not Planetoid data sets")
				}
				p, err := graphs.LoadPlanetoid(args[0])
				if err != nil {
					return err
				}
				graphs.WritePlanetoidInfo(cmd.OutOrStdout(), p)
				return nil
			}
			es, meta, err := graphs.ReadSetFeatures(args[0])
			if err != nil {
				return err
			}
			info := graphs.NewSetInfo(args[0], es, meta)
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), info)
			}
			graphs.WriteSetInfo(cmd.OutOrStdout(), info)
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the summary of a graph-set file as one JSON object (file, graphs, meta, features with min/mean/max, occupancy); not for Planetoid data sets")
	return c
}

// generateSet makes the graphs of spec in parallel (bench.GenerateGraphs),
// stopping between graphs on Ctrl-C or SIGTERM.
func generateSet(cmd *cobra.Command, spec graphs.GenSpec) ([]*graphs.Graph, error) {
	ctx, stop := signalContext()
	defer stop()
	gs, err := bench.GenerateGraphs(ctx, spec, progressOut(cmd))
	if ctx.Err() != nil {
		return nil, fmt.Errorf("interrupted: nothing written (the file is written only when complete); rerun the command to start again")
	}
	return gs, err
}

// writeSet writes gs to out and prints the one-line summary. generated
// says gs come straight from graphs.Generate (not validated again).
func writeSet(cmd *cobra.Command, out string, gs []*graphs.Graph, meta map[string]string, generated bool) error {
	mode, err := featureMode(cmd)
	if err != nil {
		return err
	}
	if err := bench.WriteGraphSet(out, gs, meta, mode, generated, progressOut(cmd)); err != nil {
		return err
	}
	fmt.Fprintln(cmd.OutOrStdout(), bench.GraphSetSummary(gs, out))
	return nil
}
