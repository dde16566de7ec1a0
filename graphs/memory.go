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

// Coefficients of the models, bytes.
const (
	genBytesPerDraw  = 56
	genBytesPerNode  = 96
	readBytesPerNNZ  = 13
	readBytesPerNode = 40
	readBytesBase    = 64 << 20
)

// GenPeakBytes estimates the peak memory of generating and writing the
// largest graph spec can draw, or 0 when it has no model for the generator
// (all but rmat, whose graphs stay within seconds and a few GB at the
// command's limits) or spec is invalid (Generate reports why). nodes and
// draws are the size the estimate is for.
func GenPeakBytes(spec GenSpec) (bytes int64, nodes, draws int) {
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
	return genBytesPerDraw*int64(m) + genBytesPerNode*int64(n), n, m
}

// ReadPeakBytes estimates the peak memory of reading a graph set whose
// graphs hold nnz stored entries and nodes nodes in all, and simulating
// them.
func ReadPeakBytes(nnz, nodes int64) int64 {
	return readBytesPerNNZ*nnz + readBytesPerNode*nodes + readBytesBase
}
