package graphs

import (
	"fmt"
	"io"
	"math"
)

// ReadEdgeList reads an undirected graph from a plain edge list: one edge
// per line, two node ids and an optional numeric weight, separated by white
// space (spaces, tabs) or commas. Lines starting with '#' or '%' are
// comments; blank lines are skipped. The weight is ignored but must be a
// finite number.
//
// Node ids are opaque tokens ("7", "paper_12"; "7" and "07" are different
// nodes) remapped densely to 0, 1, ... in order of first appearance, the
// first id of a line before the second. Edges are symmetrized, duplicates
// merged and self-loops dropped; a node whose only edge is a self-loop stays
// as an isolated node. The original ids are not kept. A file without edges
// is an error. name labels errors and the graph as in ReadMatrixMarket
// (Source "edgelist:<base name>").
func ReadEdgeList(r io.Reader, name string) (*Graph, error) {
	return readIDPairs(r, name, FormatEdgeList)
}

// readIDPairs reads the two edge list dialects, FormatEdgeList and
// FormatCites, which differ only in what a line may hold.
func readIDPairs(r io.Reader, name string, format Format) (*Graph, error) {
	s := newLineScanner(r, name)
	ids := make(map[string]int32)
	id := func(tok []byte) (int32, error) {
		if x, ok := ids[string(tok)]; ok { // no allocation for the lookup
			return x, nil
		}
		if len(ids) == math.MaxInt32 {
			return 0, s.errorf("more than %d distinct node ids", math.MaxInt32)
		}
		x := int32(len(ids))
		ids[string(tok)] = x
		return x, nil
	}
	cites := format == FormatCites
	var u, v []int32
	var fs [][]byte
	for s.scan() {
		t := s.text()
		if len(t) == 0 || !cites && (t[0] == '#' || t[0] == '%') {
			continue
		}
		fs = splitSpace(fs[:0], t, !cites)
		switch {
		case cites && len(fs) != 2:
			return nil, s.errorf("want \"cited citing\", got %d fields", len(fs))
		case len(fs) == 3:
			if _, err := parseFiniteFloat(fs[2]); err != nil {
				return nil, s.errorf("weight: %v", err)
			}
		case len(fs) != 2:
			return nil, s.errorf("want two node ids and an optional weight, got %d fields", len(fs))
		}
		a, err := id(fs[0])
		if err != nil {
			return nil, err
		}
		b, err := id(fs[1])
		if err != nil {
			return nil, err
		}
		if 2*int64(len(u)) >= MaxEntries {
			return nil, s.errorf("more than %d edges exceed the CSR limit", MaxEntries/2)
		}
		u = append(u, a)
		v = append(v, b)
	}
	if err := s.err(); err != nil {
		return nil, err
	}
	if len(u) == 0 {
		return nil, s.fileErrorf("no edges")
	}
	g, err := FromEdges(len(ids), u, v)
	if err != nil {
		return nil, fmt.Errorf("graphs: %s: %w", name, err)
	}
	setFileIdentity(g, format, name)
	return g, nil
}
