package main

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"gnnsim/bench"
	"gnnsim/graphs"
	"gnnsim/internal/par"
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
			if err := checkOutFile("out", out); err != nil {
				return err
			}
			if _, err := featureMode(cmd); err != nil {
				return err
			}
			var err error
			if spec.MinNodes, spec.MaxNodes, err = parseRange(nodes); err != nil {
				return fmt.Errorf("--nodes: %w", err)
			}
			if spec.MinEdges, spec.MaxEdges, err = parseRange(edges); err != nil {
				return fmt.Errorf("--edges: %w", err)
			}
			if spec.Params, err = parseParams(params); err != nil {
				return fmt.Errorf("--param: %w", err)
			}
			if err := checkRange("count", spec.Count, 1, maxGenCount); err != nil {
				return err
			}
			maxN, maxE := maxGenNodes, maxGenEdges
			switch spec.Generator {
			case "knn":
				maxN = maxKNNNodes
			case "rmat":
				maxN, maxE = maxRMATNodes, maxRMATEdges
			}
			if max(spec.MinNodes, spec.MaxNodes) > maxN {
				return fmt.Errorf("--nodes %s: at most %d nodes for %s", nodes, maxN, spec.Generator)
			}
			if max(spec.MinEdges, spec.MaxEdges) > maxE {
				return fmt.Errorf("--edges %s: at most %d edges for %s", edges, maxE, spec.Generator)
			}
			mode, err := featureMode(cmd)
			if err != nil {
				return err
			}
			if err := checkGenMemory(spec, mode); err != nil {
				return err
			}
			gs, err := generateSet(cmd, spec)
			if err != nil {
				return err
			}
			meta := map[string]string{
				"command":   "graphs gen",
				"generator": spec.Generator,
				"count":     strconv.Itoa(spec.Count),
				"seed":      strconv.FormatUint(spec.Seed, 10),
				"nodes":     nodes,
				"edges":     edges,
				"params":    strings.Join(params, ","),
			}
			return writeSet(cmd, out, gs, meta, true)
		},
	}
	f := cmd.Flags()
	quietFlag(cmd)
	featuresFlag(cmd)
	f.StringVar(&spec.Generator, "generator", "", "generator name: "+generatorHelp+" (required)")
	intFlag(f, &spec.Count, "count", 100, 1, maxGenCount, "number of graphs to generate")
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
			if err := checkOutFile("out", out); err != nil {
				return err
			}
			if _, err := featureMode(cmd); err != nil {
				return err
			}
			switch graphs.Format(format) {
			case graphs.Format(""), "tu", "mtx", "edgelist", "cites", "planetoid", "npz", "ogb", "binedges":
			default:
				return fmt.Errorf("--format %q: want tu, mtx, edgelist, cites, planetoid, npz, ogb or binedges (or empty to detect)", format)
			}
			gs, err := graphs.Load(args[0], graphs.Format(format))
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
				printPlanetoidInfo(cmd.OutOrStdout(), p)
				return nil
			}
			es, meta, err := graphs.ReadSetFeatures(args[0])
			if err != nil {
				return err
			}
			info := newSetInfo(args[0], es, meta)
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), info)
			}
			printSetInfo(cmd.OutOrStdout(), info)
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the summary of a graph-set file as one JSON object (file, graphs, meta, features with min/mean/max, occupancy); not for Planetoid data sets")
	return c
}

// Limits of 'graphs gen', in its help.
const (
	maxGenCount = 1_000_000
	maxGenNodes = 10_000_000
	maxKNNNodes = 20_000 // k-NN construction is quadratic in the nodes
	maxGenEdges = 100_000_000
	// R-MAT, the generator of the scale runs (docs/scale.md), goes to the
	// int32 CSR limit; memory is checked before it starts.
	maxRMATNodes = 1 << 30
	maxRMATEdges = graphs.MaxEntries / 2
)

// generateSet makes the graphs of spec in parallel (graph i depends only on
// spec and i, as graphs.GenerateSet), showing progress and stopping between
// graphs on Ctrl-C or SIGTERM.
func generateSet(cmd *cobra.Command, spec graphs.GenSpec) ([]*graphs.Graph, error) {
	ctx, stop := signalContext()
	defer stop()
	// One large graph shows its stages (draws, CSR) instead of 0/1 graphs.
	var st *bench.Stages
	var prog *bench.Progress
	if spec.Count == 1 {
		st = graphStages(cmd, "graphs gen", 2*int64(max(spec.MinEdges, spec.MaxEdges)))
	}
	if st == nil {
		prog = bench.NewProgress(progressOut(cmd), "graphs gen", "graphs", spec.Count)
	}
	gs := make([]*graphs.Graph, spec.Count)
	// Graph 0 first, alone: it checks the generator and parameters once
	// (a bad spec fails with one error) and is kept, so no graph is made
	// twice (a 10^8-draw R-MAT graph was: 37-46 s under load).
	g0, err := graphs.GenerateMeter(spec, 0, meterOf(st))
	if err != nil {
		st.Done()
		prog.Done()
		return nil, err
	}
	gs[0] = g0
	prog.Add(1)
	err = par.For(spec.Count-1, 0, func(j int) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		i := j + 1
		g, err := graphs.GenerateMeter(spec, i, meterOf(st))
		if err != nil {
			return err
		}
		gs[i] = g
		prog.Add(1)
		return nil
	})
	st.Done()
	prog.Done()
	if ctx.Err() != nil {
		return nil, fmt.Errorf("interrupted: nothing written (the file is written only when complete); rerun the command to start again")
	}
	return gs, err
}

// parseRange parses a count range: "" (both defaults), "N", "A:B", "A:" or
// ":B". Zero in the result means "generator default".
func parseRange(s string) (lo, hi int, err error) {
	if s == "" {
		return 0, 0, nil
	}
	num := func(part string) (int, error) {
		if part == "" {
			return 0, nil
		}
		v, err := strconv.Atoi(part)
		if err != nil || v < 1 {
			return 0, fmt.Errorf("%q is not a positive integer (want A:B, A:, :B or N)", part)
		}
		return v, nil
	}
	a, b, ok := strings.Cut(strings.TrimSpace(s), ":")
	if !ok {
		if a == "" {
			return 0, 0, errors.New("empty range")
		}
		v, err := num(a)
		return v, v, err
	}
	if a == "" && b == "" {
		return 0, 0, errors.New(`":" names no bound (want A:B, A:, :B or N)`)
	}
	if lo, err = num(strings.TrimSpace(a)); err != nil {
		return 0, 0, err
	}
	if hi, err = num(strings.TrimSpace(b)); err != nil {
		return 0, 0, err
	}
	if lo != 0 && hi != 0 && lo > hi {
		return 0, 0, fmt.Errorf("range %s is empty: %d > %d", s, lo, hi)
	}
	return lo, hi, nil
}

// parseParams turns KEY=VALUE strings into a map; a key given twice is an
// error rather than a silent override.
func parseParams(kvs []string) (map[string]float64, error) {
	if len(kvs) == 0 {
		return nil, nil
	}
	m := make(map[string]float64, len(kvs))
	for _, kv := range kvs {
		k, v, ok := strings.Cut(kv, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			return nil, fmt.Errorf("%q: want KEY=VALUE", kv)
		}
		x, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("%q: value is not a finite number", kv)
		}
		if _, dup := m[k]; dup {
			return nil, fmt.Errorf("parameter %s given twice", k)
		}
		m[k] = x
	}
	return m, nil
}

// writeSet writes gs to out and prints the one-line summary. generated
// says gs come straight from graphs.Generate (not validated again).
func writeSet(cmd *cobra.Command, out string, gs []*graphs.Graph, meta map[string]string, generated bool) error {
	w := cmd.OutOrStdout()
	mode, err := featureMode(cmd)
	if err != nil {
		return err
	}
	// Each graph's features (clustering, degrees, ...) are computed as it
	// is written: seconds for thousands of graphs, so shown as progress.
	// One large graph shows its stages (validate, triangles, encode)
	// instead of a count of graphs that reaches 1/1 before the encoding.
	var st *bench.Stages
	var prog *bench.Progress
	if len(gs) == 1 && gs[0] != nil {
		st = graphStages(cmd, "graphs write", int64(gs[0].NNZ()))
	}
	if st == nil {
		prog = bench.NewProgress(progressOut(cmd), "graphs features", "graphs", len(gs))
	}
	err = graphs.WriteSetWith(out, gs, meta, graphs.WriteOptions{Done: func() { prog.Add(1) }, Meter: meterOf(st), Features: mode,
		Generated: generated})
	st.Done()
	prog.Done()
	if err != nil {
		return err
	}
	if len(gs) == 0 {
		fmt.Fprintf(w, "wrote 0 graphs to %s\n", out)
		return nil
	}
	noun := "graphs"
	if len(gs) == 1 {
		noun = "graph"
	}
	minV, maxV, minE, maxE := math.MaxInt, 0, math.MaxInt, 0
	for _, g := range gs {
		v, e := g.NumNodes(), g.NumEdges()
		minV, maxV, minE, maxE = min(minV, v), max(maxV, v), min(minE, e), max(maxE, e)
	}
	fmt.Fprintf(w, "wrote %d %s (V %d..%d, E %d..%d) to %s\n", len(gs), noun, minV, maxV, minE, maxE, out)
	return nil
}

// setInfo is the summary of 'graphs info' on a graph-set file; --json
// prints it as is.
type setInfo struct {
	File      string            `json:"file"`
	Graphs    int               `json:"graphs"`
	Meta      map[string]string `json:"meta"`
	Features  []featureRange    `json:"features"`
	Occupancy *occupancyJSON    `json:"occupancy"`
}

type featureRange struct {
	Name string  `json:"name"`
	Min  float64 `json:"min"`
	Mean float64 `json:"mean"`
	Max  float64 `json:"max"`
}

// occupancyJSON counts graphs over Graphlaxy's plane: Counts[i][j] is row i of
// clustering (bin i of [0, 1]) and column j of log10 density.
type occupancyJSON struct {
	ClusteringBins int     `json:"clustering_bins"`
	LogDensityMin  float64 `json:"log_density_min"`
	LogDensityMax  float64 `json:"log_density_max"`
	LogDensityBins int     `json:"log_density_bins"`
	Counts         [][]int `json:"counts"`
	Outside        int     `json:"outside"`
}

func newSetInfo(path string, es []graphs.SetEntry, meta map[string]string) *setInfo {
	info := &setInfo{File: path, Graphs: len(es), Meta: meta, Features: []featureRange{}}
	if info.Meta == nil {
		info.Meta = map[string]string{}
	}
	if len(es) == 0 {
		return info
	}
	names := graphs.FeatureNames()
	lo := make([]float64, len(names))
	hi := make([]float64, len(names))
	sum := make([]float64, len(names))
	for i := range names {
		lo[i], hi[i] = math.Inf(1), math.Inf(-1)
	}
	vec := make([]float64, 0, len(names))
	spread := graphs.NewSpread(10, -5, 0, 10)
	for i := range es {
		vec = es[i].AppendVector(vec[:0])
		for j, x := range vec {
			lo[j], hi[j] = min(lo[j], x), max(hi[j], x)
			sum[j] += x
		}
		spread.Add(&es[i].Features)
	}
	for j, n := range names {
		info.Features = append(info.Features, featureRange{n, lo[j], sum[j] / float64(len(es)), hi[j]})
	}
	oc := &occupancyJSON{ClusteringBins: spread.ClusteringBins, LogDensityMin: spread.LogDensityMin,
		LogDensityMax: spread.LogDensityMax, LogDensityBins: spread.LogDensityBins, Outside: spread.Outside}
	for i := range spread.ClusteringBins {
		oc.Counts = append(oc.Counts, slices.Clone(spread.Counts[i][:]))
	}
	info.Occupancy = oc
	return info
}

// printSetInfo prints the summary of 'graphs info'.
func printSetInfo(w io.Writer, info *setInfo) {
	fmt.Fprintf(w, "%s: %d graphs\n", info.File, info.Graphs)
	for _, k := range slices.Sorted(maps.Keys(info.Meta)) {
		fmt.Fprintf(w, "  %s = %s\n", k, info.Meta[k])
	}
	if info.Occupancy == nil {
		return
	}
	fmt.Fprintf(w, "\n%-12s %14s %14s %14s\n", "feature", "min", "mean", "max")
	for _, f := range info.Features {
		fmt.Fprintf(w, "%-12s %14.6g %14.6g %14.6g\n", f.Name, f.Min, f.Mean, f.Max)
	}
	oc := info.Occupancy
	fmt.Fprintf(w, "\noccupancy: clustering (rows) x log10 nx_density (columns, left bin edges)\n")
	fmt.Fprintf(w, "%-9s", "")
	step := (oc.LogDensityMax - oc.LogDensityMin) / float64(oc.LogDensityBins)
	for j := range oc.LogDensityBins {
		fmt.Fprintf(w, " %5.1f", oc.LogDensityMin+float64(j)*step)
	}
	fmt.Fprintln(w)
	for i := oc.ClusteringBins - 1; i >= 0; i-- {
		c0 := float64(i) / float64(oc.ClusteringBins)
		fmt.Fprintf(w, "%.1f-%.1f  ", c0, c0+1/float64(oc.ClusteringBins))
		for _, c := range oc.Counts[i] {
			if c == 0 {
				fmt.Fprintf(w, " %5s", ".")
			} else {
				fmt.Fprintf(w, " %5d", c)
			}
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "off the density axis (density 0 or below 1e-5): %d\n", oc.Outside)
}

// printPlanetoidInfo prints the summary of 'graphs info' for a
// node-classification data set.
func printPlanetoidInfo(w io.Writer, p *graphs.Planetoid) {
	n, f := p.NumNodes(), p.NumFeatures()
	fmt.Fprintf(w, "%s (%s)\n", p.Name, p.Source)
	fmt.Fprintf(w, "  nodes     %d\n  edges     %d (undirected, no self-loops)\n", n, p.Graph.NumEdges())
	zeros := 100.0
	if n > 0 && f > 0 {
		zeros = 100 * (1 - float64(p.Features.NNZ())/(float64(n)*float64(f)))
	}
	fmt.Fprintf(w, "  features  %d (%d non-zeros, %.2f %% zeros)\n", f, p.Features.NNZ(), zeros)
	sizes := make([]int, p.NumClasses)
	unlabelled := 0
	for _, l := range p.Labels {
		if l < 0 {
			unlabelled++
		} else {
			sizes[l]++
		}
	}
	fmt.Fprintf(w, "  classes   %d, sizes %v, unlabelled %d\n", p.NumClasses, sizes, unlabelled)
	if p.Train == nil {
		fmt.Fprintf(w, "  split     none in the file (gnn-benchmark: draw one per class)\n")
	} else {
		fmt.Fprintf(w, "  split     train %d, validation %d, test %d\n", len(p.Train), len(p.Val), len(p.Test))
	}
	for _, m := range p.Missing {
		fmt.Fprintf(w, "  missing   %s\n", m)
	}
}
