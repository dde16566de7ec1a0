package graphs

// Peak memory of the two large-graph paths, as linear models of the graph's
// size fitted from above to whole-process peak RSS measured on R-MAT graphs
// (docs/scale.md): 'graphs gen' peaked at 551 MB for 10^7 draws on 2^20
// nodes (55 bytes a draw) and 6.14 GB for 10^8 draws on 2^23 nodes (61
// bytes a draw): the draws (8 bytes each), the CSR built beside them (8
// bytes a draw), the triangle counter's orientation, and parquet-go's
// buffers while it encodes the one row (about four times the CSR) are the
// terms. Reading a set for 'simulate' peaked at 325 MB for 1.9e7 stored
// entries and 2.7 GB for 1.94e8: the CSR plus one decoded and one
// compressed page. The models only decide whether to start; they err high.

// A set of more than streamAbove list values is streamed (the writer holds
// a few pages), and rmat collects the draws once the CSR is built, so the
// peak is the larger of the CSR build (the draws, 8 bytes each, beside
// 2 entries of 4 bytes a draw, and per node the row starts and rowPtr)
// and, when the triangles are counted, the CSR beside the degree-ordered
// orientation (4 bytes a draw, and a bit matrix of at most as many bytes)
// and the counter's per-node arrays: 17 bytes a draw and 48 a node,
// fitted from above to the 10^8 peak measured (docs/scale.md). Above
// rmatStreamDraws the draws are not kept (per node: up to
// rmatStreamWorkers count arrays), and estimated features need the CSR and
// one int64 a node: 9 bytes a draw and 32 a node.

// Coefficients of the models, bytes.
const (
	genBytesPerDraw  = 56
	genBytesPerNode  = 96
	readBytesPerNNZ  = 13
	readBytesPerNode = 40
	readBytesBase    = 64 << 20

	streamGenBytesPerDraw = 17
	streamGenBytesPerNode = 48
	streamEstBytesPerDraw = 9
	streamEstBytesPerNode = 32
	streamGenBytesBase    = 64 << 20

	streamReadBytesPerNNZ  = 4
	streamReadBytesPerNode = 16
)

// GenPeakBytes estimates the peak memory of generating and writing the
// largest graph spec can draw with features computed as mode says, or 0
// when it has no model for the generator (all but rmat, whose graphs stay
// within seconds and a few GB at the command's limits) or spec is invalid
// (Generate reports why). nodes and draws are the size the estimate is
// for.
func GenPeakBytes(spec GenSpec, mode FeatureMode) (bytes int64, nodes, draws int) {
	spec.Count = 1
	s, err := spec.resolve()
	if err != nil || s.Generator != "rmat" {
		return 0, 0, 0
	}
	n := s.MaxNodes
	m := s.MaxEdges
	if m == 0 {
		m = int(s.Params["edge_factor"] * float64(n))
	}
	n64, m64 := int64(n), int64(m)
	if 2*m64 <= int64(streamAbove) { // parquet-go writes the set
		return genBytesPerDraw*m64 + genBytesPerNode*n64, n, m
	}
	perDraw, perNode := int64(streamGenBytesPerDraw), int64(streamGenBytesPerNode)
	// Estimated for sure when at least half the draws are distinct edges
	// (R-MAT at 10^9 draws on 2^27 nodes keeps 97 %): no orientation, and
	// above rmatStreamDraws no draws beside the CSR either.
	if mode == FeaturesAuto && m64 > int64(estimateAbove) {
		perNode = streamEstBytesPerNode
		if m >= rmatStreamDraws {
			perDraw = streamEstBytesPerDraw
		}
	}
	return perDraw*m64 + perNode*n64 + streamGenBytesBase, n, m
}

// ReadPeakBytes estimates the peak memory of reading a graph set whose
// graphs hold nnz stored entries and nodes nodes in all, and simulating
// them. Up to streamAbove entries a graph's list is one page (parquet-go's
// writer), decoded beside the CSR: 13 bytes an entry. Above, the set was
// streamed (small pages, each row's slices allocated once) and the peak is
// validation's: the CSR (4 bytes an entry, 4 a node) and, when the graph
// is not symmetric, the merge's cursor pairs (8 a node; a symmetric graph
// passes on its hash sums without them, so the model errs high there);
// simulate then drops the column ids
// (Graph.ReleaseCols), and the simulator's per-core scratch fits in their
// place. 4 bytes an entry and 16 a node, fitted from above to 10^8 and
// 10^9 (a set that large written before the streamed writer existed is
// one page, and needs about the first model's figure).
func ReadPeakBytes(nnz, nodes int64) int64 {
	if nnz <= int64(streamAbove) {
		return readBytesPerNNZ*nnz + readBytesPerNode*nodes + readBytesBase
	}
	return streamReadBytesPerNNZ*nnz + streamReadBytesPerNode*nodes + readBytesBase
}
