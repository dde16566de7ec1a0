// Package graphs holds the graphs gnnsim feeds through its hardware models:
// a symmetric CSR adjacency (Graph), seeded generators, loaders for the
// common on-disk formats, the structural features of seed 002's Table 1,
// a Parquet graph-set file, and the Planetoid node-classification data
// sets the trainer (package train) learns on.
//
// A Graph is undirected and simple: edges are stored in both directions,
// rows are sorted and duplicate-free, and self-loops are either absent (A)
// or present on every node (A+I, see WithSelfLoops). Node ids are dense,
// 0-based int32 values; row order is meaningful to the accelerator models
// (consecutive rows form tiles), so nothing here reorders nodes unless a
// function says so.
//
// # Features
//
// ComputeFeatures returns the graph-only predictor inputs of seed 002,
// Table 1. The paper does not pin down its conventions; gnnsim's are:
//
//   - Quantities of the sparse matrix the accelerator streams are taken on
//     A+I, the matrix GCN aggregates with: NNZ = 2E+V (Table 1's E, and the E
//     of the STONNE-Omega reference tables), Density = NNZ/V^2 (Table 1's
//     E*V^-2, the fill of the V x V matrix), node degrees = A+I row lengths
//     (the N_v of Table 1's S5; every node has at least 1, so no division by
//     zero for isolated nodes), MeanDegree = NNZ/V and MaxDegree.
//   - Structural quantities are taken on the simple graph A, as networkx
//     and Graphlaxy compute them: Edges (undirected, no self-loops),
//     NXDensity = 2E/(V(V-1)) (Graphlaxy's density axis), Triangles, and
//     Clustering = networkx.average_clustering (nodes of degree < 2 count
//     as 0). Graphlaxy itself estimates clustering by sampling 1000 nodes
//     and measures only the largest connected component; gnnsim counts
//     exactly on the whole graph.
//   - The seven degree quantiles are at levels 0, 1/7, ..., 6/7 of the A+I
//     degrees (numpy's default linear interpolation), divided by MaxDegree;
//     the first is the normalised minimum. Level 1 is omitted because
//     normalised it is always 1.
//
// No feature depends on whether a Graph stores its self-loops. The
// tiling-dependent composite features S1..S6 live in package dataflow.
//
// Triangles are counted in O(E*sqrt(E)) time on a degree-ordered
// orientation, on every core, never by dense V^3 enumeration. It is the one
// superlinear step between a generator and a simulation: on skewed graphs
// of 10^8 edges it dominates writing a graph set (docs/scale.md has the
// figures). Simulation never needs it: readers take the stored features,
// and the simulate path reads none.
//
// # Graphs at benchmark scale
//
// LoadOGB reads an OGB node-property data set from its raw folder
// (edge.csv.gz, num-node-list.csv.gz, optional node-feat.csv.gz) and
// ReadBinaryEdges a binary edge list (little-endian uint32 pairs), both in
// one streaming pass into 8 bytes per edge before the CSR. A Meter
// (GenerateMeter, WriteSetWith, ReadSetMeter) hears the stages of one
// large graph for a progress display; nothing in a result depends on it.
// Above EstimateAbove stored entries WriteSetWith estimates clustering and
// triangles by wedge sampling unless told FeaturesExact, and records the
// error bounds in the set's metadata (estimate.go).
//
// # Planetoid data sets
//
// LoadPlanetoid reads Cora, CiteSeer and PubMed as a Planetoid: the graph,
// a sparse (SparseMatrix, float32) feature row per node, a class per node
// and the public split. Two on-disk forms are understood:
//
//   - the Planetoid ind.<name>.* files of Kipf and Welling's GCN code:
//     Python 2 pickles of scipy CSR matrices (x, tx, allx), numpy one-hot
//     label matrices (y, ty, ally), a defaultdict of adjacency lists
//     (graph), and a text list of test node ids (test.index). The pickles
//     are decoded with github.com/nlpodyssey/gopickle; the numpy and scipy
//     classes they name are small Go types resolved through its FindClass
//     hook, every other class is refused. Assembly follows the reference
//     load_data, CiteSeer's test-index gaps included (3,327 nodes);
//   - the gnn-benchmark .npz archives (read with github.com/sbinet/npyio),
//     which carry no split: SplitPerClass draws gnn-benchmark's per-class
//     one.
//
// Load returns the graph of either form (FormatPlanetoid, FormatNPZ). A
// damaged file gives a ParseError naming it, never a panic: the pickle
// opcodes are bounds-checked before gopickle allocates, and panics inside
// either library are turned into errors. Left out: ind.<name>.allx is
// optional because the shared data lacks PubMed's (its graph and labels are
// complete, its features cover 1,060 of 19,717 nodes, and Missing says so).
//
// # Graph-set files
//
// WriteSet stores a list of graphs as one Parquet file (zstd, written
// atomically through internal/pqio, byte-identical for equal input), one
// row per graph in list order, in row groups of at most 65,536 graphs and
// 256 MiB of CSR and attributes (so that writing and reading a set of
// large graphs holds one group at a time; ConcatSets joins set files into
// the same file WriteSet writes). All columns are plain Parquet types or lists
// of them, so DuckDB, pandas, polars and Spark read the file as is:
//
//	id           int64         row number, 0..n-1
//	name         string        Graph.Name
//	source       string        Graph.Source (file, generator and parameters)
//	num_nodes    int64         V
//	num_edges    int64         undirected edges of A, self-loops excluded
//	self_loops   bool          the stored CSR is A+I
//	label        int64         graph label (0 when has_label is false)
//	has_label    bool          label is meaningful
//	attr_dim     int64         node attribute dimension (0: no attributes)
//	nnz          int64         entries of A+I, 2*num_edges + num_nodes
//	density      double        nnz / num_nodes^2
//	nx_density   double        2*num_edges / (num_nodes*(num_nodes-1))
//	clustering   double        average local clustering of A
//	triangles    int64         triangles of A
//	deg_q1..7    double        A+I degree quantiles at 0, 1/7, ..., 6/7 / max_degree
//	mean_degree  double        nnz / num_nodes
//	max_degree   int64         largest A+I row length
//	row_ptr      list<int32>   CSR row pointers, num_nodes+1 values
//	col          list<int32>   CSR column ids (both directions; diagonal iff self_loops)
//	node_attr    list<double>  row-major num_nodes x attr_dim attributes, empty if none
//
// Features are 0 for the empty graph. The file's key-value metadata holds
// what the writer passed (the CLI records its command and parameters) plus
// gnnsim.version. ReadSet validates every graph it reads and decodes the
// list columns page by page straight into the CSR slices, so a graph of
// 10^8 edges reads in a few times the memory of its CSR;
// ReadSetFeatures reads everything but the three list columns, which
// parquet skips without decoding. A set holding more than 2^27 values in
// one list column (10^8 edges and up) is streamed instead of written by
// parquet-go: the list columns in version-1 pages of 2^20 entries that
// may begin inside a row, encoded on every core, in bounded memory; the
// same columns and content (setstream.go). In DuckDB, for example:
//
//	SELECT name, num_nodes, clustering, log10(nx_density) FROM 'set.parquet';
//
// Left out: edge weights and edge features (the accelerator models only need
// the sparsity pattern), directed graphs, and graphs above MaxEntries stored
// entries.
package graphs
