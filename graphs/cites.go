package graphs

import "io"

// ReadCites reads a Planetoid/LINQS citation file (cora.cites,
// citeseer.cites): one citation per line, "cited citing", two node ids
// separated by white space. Ids are arbitrary tokens (integers in Cora,
// strings such as "bradshaw97introduction" in CiteSeer) and are remapped as
// in ReadEdgeList; the direction of a citation is dropped and a
// self-citation adds no edge. Unlike an edge list a line holds exactly two
// fields and has no comment syntax, since an id may start with any
// character. The feature file (.content) is not read. name labels errors
// and the graph (Source "cites:<base name>").
func ReadCites(r io.Reader, name string) (*Graph, error) {
	return readIDPairs(r, name, FormatCites)
}
