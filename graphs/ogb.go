package graphs

import (
	"bufio"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"

	"gnnsim/internal/boundedio"
)

// Two layouts of graphs at the sizes of the large GNN benchmarks
// (ogbn-products 6.2e7 edges, ogbn-papers100M 1.6e9): the raw folder of an
// OGB node-property data set, and a binary edge list. Both are read in one
// streaming pass (a line or 8 bytes at a time) into two int32 endpoint
// arrays, 8 bytes per edge besides the CSR that FromEdges builds: the file
// itself is never held in memory.

// largeGraphFile is the size cap of the files read here: far above
// ogbn-papers100M's edge list (about 1.6e9 lines), far below a disk.
var largeGraphFile = boundedio.Kind{Name: "large graph file", Max: 1 << 40}

// ogbFile opens dir/raw/name.csv.gz, or dir/raw/name.csv, or the same two
// in dir itself (dir may be the raw folder), decompressing a .gz file. It
// returns the path opened, or "" and a nil reader when none exists.
func ogbFile(dir, name string) (io.ReadCloser, string, error) {
	for _, d := range []string{filepath.Join(dir, "raw"), dir} {
		for _, ext := range []string{".csv.gz", ".csv"} {
			p := filepath.Join(d, name+ext)
			if _, err := os.Stat(p); err != nil {
				continue
			}
			f, err := boundedio.Open(p, largeGraphFile)
			if err != nil {
				return nil, p, fmt.Errorf("graphs: %w", err)
			}
			if ext == ".csv" {
				return f, p, nil
			}
			z, err := gzip.NewReader(bufio.NewReaderSize(f, 1<<20))
			if err != nil {
				f.Close()
				return nil, p, &ParseError{File: p, Err: fmt.Errorf("gzip: %w", err)}
			}
			return readCloser{z, f}, p, nil
		}
	}
	return nil, "", nil
}

// readCloser reads from r and closes c.
type readCloser struct {
	io.Reader
	c io.Closer
}

func (r readCloser) Close() error { return r.c.Close() }

// IsOGB reports whether dir holds an OGB raw layout: raw/edge.csv.gz (or
// .csv), or edge.csv.gz in dir itself.
func IsOGB(dir string) bool {
	for _, d := range []string{filepath.Join(dir, "raw"), dir} {
		for _, ext := range []string{".csv.gz", ".csv"} {
			if st, err := os.Stat(filepath.Join(d, "edge"+ext)); err == nil && st.Mode().IsRegular() {
				return true
			}
		}
	}
	return false
}

// LoadOGB reads the graph of an OGB node-property data set from its raw
// folder (as ogb's download unpacks it: dir/raw/edge.csv.gz with one edge
// "u,v" per line, dir/raw/num-node-list.csv.gz with the node count, and
// the optional dir/raw/node-feat.csv.gz with one row of comma-separated
// floats per node, stored as the node attributes). dir may also be the
// raw folder itself, and the files may be uncompressed (.csv). Edges are
// symmetrized, duplicates merged and self-loops dropped, as for every
// loader (ogbn-arxiv and -papers100M are directed citation graphs; GNNs
// on them, and gnnsim, use the symmetric adjacency). Labels, splits and
// edge features are not read. The graph is named after dir ("ogbn-products"
// for .../ogbn-products or .../ogbn-products/raw), Source "ogb:<name>".
func LoadOGB(dir string) (*Graph, error) {
	name := filepath.Base(filepath.Clean(dir))
	if name == "raw" {
		name = filepath.Base(filepath.Dir(filepath.Clean(dir)))
	}
	nr, np, err := ogbFile(dir, "num-node-list")
	if err != nil {
		return nil, err
	}
	if nr == nil {
		return nil, fmt.Errorf("graphs: %s: no raw/num-node-list.csv.gz (not an OGB node-property folder)", dir)
	}
	n, err := readOGBNodeCount(nr, np)
	nr.Close()
	if err != nil {
		return nil, err
	}
	er, ep, err := ogbFile(dir, "edge")
	if err != nil {
		return nil, err
	}
	if er == nil {
		return nil, fmt.Errorf("graphs: %s: no raw/edge.csv.gz", dir)
	}
	u, v, err := readOGBEdges(er, ep, n)
	er.Close()
	if err != nil {
		return nil, err
	}
	g, err := FromEdges(n, u, v)
	if err != nil {
		return nil, fmt.Errorf("graphs: %s: %w", ep, err)
	}
	u, v = nil, nil
	fr, fp, err := ogbFile(dir, "node-feat")
	if err != nil {
		return nil, err
	}
	if fr != nil {
		g.NodeAttr, g.AttrDim, err = readOGBFeatures(fr, fp, n)
		fr.Close()
		if err != nil {
			return nil, err
		}
	}
	g.Name, g.Source = name, "ogb:"+name
	return g, nil
}

// readOGBNodeCount reads num-node-list.csv: one line, the node count of
// the one graph of a node-property data set.
func readOGBNodeCount(r io.Reader, file string) (int, error) {
	s := newLineScanner(r, file)
	n, lines := int64(-1), 0
	for {
		t, ok, err := s.record()
		if err != nil {
			return 0, err
		}
		if !ok {
			break
		}
		if lines++; lines > 1 {
			return 0, s.errorf("more than one graph (a graph-property data set); only node-property data sets are read")
		}
		x, ok := parseDecInt(t)
		if !ok || x < 0 || x > math.MaxInt32 {
			return 0, s.errorf("node count %s is not an integer in [0, %d]", quoteToken(t), math.MaxInt32)
		}
		n = x
	}
	if n < 0 {
		return 0, s.fileErrorf("no node count")
	}
	return int(n), nil
}

// readOGBEdges reads edge.csv: lines "u,v" of node ids in [0, n).
func readOGBEdges(r io.Reader, file string, n int) (u, v []int32, err error) {
	s := newLineScanner(r, file)
	for s.scan() {
		t := s.text()
		if len(t) == 0 {
			continue
		}
		k := 0
		for k < len(t) && t[k] != ',' {
			k++
		}
		if k == len(t) {
			return nil, nil, s.errorf("want \"u,v\", got %s", quoteToken(t))
		}
		a, ok1 := parseDecInt(trimSpace(t[:k]))
		b, ok2 := parseDecInt(trimSpace(t[k+1:]))
		if !ok1 || !ok2 {
			return nil, nil, s.errorf("want two integer node ids \"u,v\", got %s", quoteToken(t))
		}
		if a < 0 || a >= int64(n) || b < 0 || b >= int64(n) {
			return nil, nil, s.errorf("edge (%d,%d): node id out of range [0,%d)", a, b, n)
		}
		if 2*int64(len(u)) >= MaxEntries {
			return nil, nil, s.errorf("more than %d edges exceed the CSR limit", MaxEntries/2)
		}
		u = append(u, int32(a))
		v = append(v, int32(b))
	}
	if err := s.err(); err != nil {
		return nil, nil, err
	}
	return u, v, nil
}

// trimSpace trims ASCII white space without a function call per byte.
func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t') {
		b = b[:len(b)-1]
	}
	return b
}

// readOGBFeatures reads node-feat.csv: line i holds the d features of node
// i, the same d on every line, n lines.
func readOGBFeatures(r io.Reader, file string, n int) ([]float64, int, error) {
	s := newLineScanner(r, file)
	var attr []float64
	var fs [][]byte
	d, rows := 0, 0
	for {
		t, ok, err := s.record()
		if err != nil {
			return nil, 0, err
		}
		if !ok {
			break
		}
		if rows == n {
			return nil, 0, s.errorf("more feature rows than the %d nodes", n)
		}
		fs = splitComma(fs[:0], t)
		if rows == 0 {
			d = len(fs)
			if int64(n)*int64(d) > math.MaxInt32 {
				return nil, 0, s.errorf("%d nodes x %d features exceed %d values", n, d, math.MaxInt32)
			}
			attr = make([]float64, 0, n*d)
		} else if len(fs) != d {
			return nil, 0, s.errorf("%d features, want %d as on line 1", len(fs), d)
		}
		for _, f := range fs {
			x, err := parseFiniteFloat(f)
			if err != nil {
				return nil, 0, s.errorf("%v", err)
			}
			attr = append(attr, x)
		}
		rows++
	}
	if rows != n {
		return nil, 0, s.fileErrorf("%d feature rows for %d nodes", rows, n)
	}
	if n == 0 {
		return nil, 0, nil
	}
	return attr, d, nil
}

// ReadBinaryEdges reads an undirected graph from a binary edge list: edge
// after edge, each two little-endian uint32 node ids (8 bytes), no header;
// the node count is the largest id plus one. It is the layout
// numpy's edge_index.T.astype('<u4').tofile() writes, read 1 MiB at a
// time. Edges are symmetrized, duplicates merged and self-loops dropped.
// name labels errors and the graph (Source "binedges:<base name>").
func ReadBinaryEdges(r io.Reader, name string) (*Graph, error) {
	br := bufio.NewReaderSize(r, 1<<20)
	var u, v []int32
	var buf [8]byte
	maxID := int64(-1)
	for {
		k, err := io.ReadFull(br, buf[:])
		if errors.Is(err, io.EOF) {
			break
		}
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, &ParseError{File: name, Err: fmt.Errorf("%d bytes after edge %d: the length is not a multiple of 8", k, len(u))}
		}
		if err != nil {
			return nil, &ParseError{File: name, Err: err}
		}
		a, b := binary.LittleEndian.Uint32(buf[:4]), binary.LittleEndian.Uint32(buf[4:])
		if a >= math.MaxInt32 || b >= math.MaxInt32 {
			return nil, &ParseError{File: name, Err: fmt.Errorf("edge %d (%d,%d): node id above %d", len(u), a, b, math.MaxInt32-1)}
		}
		if 2*int64(len(u)) >= MaxEntries {
			return nil, &ParseError{File: name, Err: fmt.Errorf("more than %d edges exceed the CSR limit", MaxEntries/2)}
		}
		maxID = max(maxID, int64(a), int64(b))
		u = append(u, int32(a))
		v = append(v, int32(b))
	}
	if len(u) == 0 {
		return nil, &ParseError{File: name, Err: errors.New("no edges")}
	}
	g, err := FromEdges(int(maxID+1), u, v)
	if err != nil {
		return nil, fmt.Errorf("graphs: %s: %w", name, err)
	}
	setFileIdentity(g, FormatBinEdges, name)
	return g, nil
}
