package graphs

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/sbinet/npyio/npy"
	"github.com/sbinet/npyio/npz"

	"gnnsim/internal/boundedio"
)

// ReadPlanetoidNPZ reads a gnn-benchmark archive (Shchur et al.,
// github.com/shchur/gnn-benchmark, data/npz/*.npz): a zip of .npy arrays
// holding the adjacency as CSR (adj_data, adj_indices, adj_indptr,
// adj_shape), the node attributes as CSR (attr_data, attr_indices,
// attr_indptr, attr_shape) and one integer class per node (labels). The
// adjacency is directed (one entry per citation): it is symmetrised, its
// values ignored and self-loops dropped. Node names and class names are
// not read. The files carry no split (see SplitPerClass), and their node
// sets are not the Planetoid ones: CiteSeer has 3,312 nodes, in another
// order.
func ReadPlanetoidNPZ(path string) (*Planetoid, error) {
	b, err := boundedio.ReadFile(path, boundedio.DataSet)
	if err != nil {
		return nil, fmt.Errorf("graphs: %w", err)
	}
	p, err := decodePlanetoidNPZ(b, path)
	if err != nil {
		return nil, err
	}
	p.Name = strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	p.Source = "npz:" + filepath.Base(path)
	p.Graph.Name, p.Graph.Source = p.Name, p.Source
	return p, nil
}

// maxNPYBytes bounds one array of an archive, so that a small corrupt
// archive cannot claim gigabytes (ten times the largest gnn-benchmark
// array).
const maxNPYBytes = 1 << 30

// decodePlanetoidNPZ decodes an archive held in memory; file names it in
// errors. A panic inside npyio (it slices its header text unchecked)
// becomes an error.
func decodePlanetoidNPZ(data []byte, file string) (p *Planetoid, err error) {
	defer func() {
		if r := recover(); r != nil {
			p, err = nil, &ParseError{File: file, Err: fmt.Errorf("malformed npy array: %v", r)}
		}
	}()
	perr := func(format string, args ...any) error {
		return &ParseError{File: file, Err: fmt.Errorf(format, args...)}
	}
	z, err := npz.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, perr("%v", err)
	}
	arrays := map[string]npyArray{}
	for _, k := range z.Keys() {
		name := strings.TrimSuffix(k, ".npy")
		switch name {
		case "adj_data", "adj_indices", "adj_indptr", "adj_shape",
			"attr_data", "attr_indices", "attr_indptr", "attr_shape", "labels":
		default:
			continue // node_names, class_names, idx_to_node, ...
		}
		if _, dup := arrays[name]; dup {
			return nil, perr("two members named %s", name)
		}
		a, err := readNPY(z, k)
		if err != nil {
			return nil, perr("%s: %v", k, err)
		}
		arrays[name] = a
	}
	adj, err := npzCSR(arrays, "adj")
	if err != nil {
		return nil, perr("%v", err)
	}
	n := adj.Rows
	if adj.Cols != n {
		return nil, perr("adjacency is %dx%d, not square", adj.Rows, adj.Cols)
	}
	labels, ok := arrays["labels"]
	if !ok {
		return nil, perr("no labels array")
	}
	if len(labels.shape) != 1 || len(labels.vals) != n {
		return nil, perr("labels has shape %v, want (%d,)", labels.shape, n)
	}
	p = &Planetoid{Labels: make([]int32, n)}
	for i, x := range labels.vals {
		if x != math.Trunc(x) || x < -1 || x >= math.MaxInt32 {
			return nil, perr("label %v of node %d is not a class id", x, i)
		}
		p.Labels[i] = int32(x)
		p.NumClasses = max(p.NumClasses, int(x)+1)
	}
	if _, ok := arrays["attr_data"]; ok {
		if p.Features, err = npzCSR(arrays, "attr"); err != nil {
			return nil, perr("%v", err)
		}
		if p.Features.Rows != n {
			return nil, perr("%d attribute rows for %d nodes", p.Features.Rows, n)
		}
	} else {
		p.Features = &SparseMatrix{Rows: n, RowPtr: make([]int32, n+1)}
		p.FeatureRows = make([]bool, n)
		p.Missing = append(p.Missing, "no attr_* arrays: no node features")
	}
	u := make([]int32, 0, adj.NNZ())
	for r := range n {
		cols, _ := adj.Row(r)
		for range cols {
			u = append(u, int32(r))
		}
	}
	if p.Graph, err = FromEdges(n, u, adj.Col); err != nil {
		return nil, perr("%v", err)
	}
	return p, nil
}

// npyArray is one decoded array: shape and values widened to float64
// (every integer in these files fits a float64 exactly).
type npyArray struct {
	shape []int
	vals  []float64
	isInt bool
}

// readNPY reads one array of an archive through npyio, after checking that
// the header is well formed and the data as long as the shape says.
func readNPY(z *npz.Reader, key string) (npyArray, error) {
	rc, err := z.Open(key)
	if err != nil {
		return npyArray{}, err
	}
	defer rc.Close()
	raw, err := io.ReadAll(io.LimitReader(rc, maxNPYBytes+1))
	if err != nil {
		return npyArray{}, err
	}
	if len(raw) > maxNPYBytes {
		return npyArray{}, fmt.Errorf("larger than %d bytes", maxNPYBytes)
	}
	// npyio allocates the header length it reads; check it against the
	// bytes present first (magic, version, little-endian length).
	hl, pre := 0, 0
	switch {
	case len(raw) >= 10 && raw[6] == 1:
		hl, pre = int(binary.LittleEndian.Uint16(raw[8:10])), 10
	case len(raw) >= 12 && (raw[6] == 2 || raw[6] == 3):
		hl, pre = int(binary.LittleEndian.Uint32(raw[8:12])), 12
	default:
		return npyArray{}, errors.New("not an .npy array (bad magic or version)")
	}
	if hl > len(raw)-pre {
		return npyArray{}, fmt.Errorf("header of %d bytes, %d left", hl, len(raw)-pre)
	}
	br := bytes.NewReader(raw)
	r, err := npy.NewReader(br)
	if err != nil {
		return npyArray{}, err
	}
	h := r.Header.Descr
	rt := npy.TypeFrom(h.Type)
	if rt == nil {
		return npyArray{}, fmt.Errorf("unsupported element type %q", h.Type)
	}
	if h.Fortran && len(h.Shape) > 1 {
		return npyArray{}, errors.New("Fortran-ordered matrices are not supported")
	}
	n := 1
	for _, d := range h.Shape {
		if d < 0 || d != 0 && n > maxNPYBytes/d {
			return npyArray{}, fmt.Errorf("shape %v out of range", h.Shape)
		}
		n *= d
	}
	if want := int64(n) * int64(rt.Size()); int64(br.Len()) != want {
		return npyArray{}, fmt.Errorf("shape %v of %s needs %d data bytes, found %d", h.Shape, h.Type, want, br.Len())
	}
	a := npyArray{shape: h.Shape, vals: make([]float64, n), isInt: true}
	switch rt.Kind() {
	case reflect.Int8:
		err = readWiden[int8](r, a.vals)
	case reflect.Int16:
		err = readWiden[int16](r, a.vals)
	case reflect.Int32:
		err = readWiden[int32](r, a.vals)
	case reflect.Int64:
		err = readWiden[int64](r, a.vals)
	case reflect.Uint8:
		err = readWiden[uint8](r, a.vals)
	case reflect.Uint16:
		err = readWiden[uint16](r, a.vals)
	case reflect.Uint32:
		err = readWiden[uint32](r, a.vals)
	case reflect.Float32:
		a.isInt = false
		err = readWiden[float32](r, a.vals)
	case reflect.Float64:
		a.isInt = false
		err = readWiden[float64](r, a.vals)
	default:
		return npyArray{}, fmt.Errorf("unsupported element type %q", h.Type)
	}
	return a, err
}

// readWiden reads len(dst) elements of type T and widens them to float64.
func readWiden[T int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | float32 | float64](r *npy.Reader, dst []float64) error {
	if len(dst) == 0 {
		return nil
	}
	buf := make([]T, len(dst))
	if err := r.Read(&buf); err != nil {
		return err
	}
	for i, x := range buf {
		dst[i] = float64(x)
	}
	return nil
}

// npzCSR assembles the CSR matrix stored as <p>_data, <p>_indices,
// <p>_indptr and <p>_shape.
func npzCSR(arrays map[string]npyArray, p string) (*SparseMatrix, error) {
	get := func(s string) (npyArray, error) {
		a, ok := arrays[p+"_"+s]
		if !ok {
			return a, fmt.Errorf("no %s_%s array", p, s)
		}
		if len(a.shape) != 1 {
			return a, fmt.Errorf("%s_%s has shape %v, want a vector", p, s, a.shape)
		}
		return a, nil
	}
	data, err := get("data")
	if err != nil {
		return nil, err
	}
	idx, err := get("indices")
	if err != nil {
		return nil, err
	}
	ptr, err := get("indptr")
	if err != nil {
		return nil, err
	}
	shape, err := get("shape")
	if err != nil {
		return nil, err
	}
	if !idx.isInt || !ptr.isInt || !shape.isInt || len(shape.vals) != 2 {
		return nil, fmt.Errorf("%s_indices, %s_indptr and %s_shape must be integer vectors, the shape of length 2", p, p, p)
	}
	rows, cols := shape.vals[0], shape.vals[1]
	if rows < 0 || cols < 0 || rows > math.MaxInt32 || cols > math.MaxInt32 {
		return nil, fmt.Errorf("%s_shape %v out of range", p, shape.vals)
	}
	m := &SparseMatrix{Rows: int(rows), Cols: int(cols)}
	nnz := len(idx.vals)
	if len(data.vals) != nnz || len(ptr.vals) != m.Rows+1 || nnz > math.MaxInt32 {
		return nil, fmt.Errorf("%s: %d values, %d column ids and %d row pointers for %d rows", p, len(data.vals), nnz, len(ptr.vals), m.Rows)
	}
	m.RowPtr = make([]int32, m.Rows+1)
	m.Col = make([]int32, nnz)
	m.Val = make([]float32, nnz)
	for i, x := range ptr.vals {
		if x < 0 || x > float64(nnz) || i > 0 && int32(x) < m.RowPtr[i-1] {
			return nil, fmt.Errorf("%s_indptr[%d] = %v out of order or range", p, i, x)
		}
		m.RowPtr[i] = int32(x)
	}
	if m.RowPtr[0] != 0 || int(m.RowPtr[m.Rows]) != nnz {
		return nil, fmt.Errorf("%s_indptr spans [%d, %d], want [0, %d]", p, m.RowPtr[0], m.RowPtr[m.Rows], nnz)
	}
	for i, c := range idx.vals {
		if c < 0 || c >= cols {
			return nil, fmt.Errorf("%s_indices[%d] = %v outside [0, %v)", p, i, c, cols)
		}
		v := data.vals[i]
		if math.IsNaN(v) || math.Abs(v) > math.MaxFloat32 {
			return nil, fmt.Errorf("%s_data[%d] = %v is not a finite float32", p, i, v)
		}
		m.Col[i], m.Val[i] = int32(c), float32(v)
	}
	if err := m.canonicalize(); err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	return m, nil
}
