package graphs

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/nlpodyssey/gopickle/pickle"
	"github.com/nlpodyssey/gopickle/types"
)

// The Planetoid ind.* files are Python 2 pickles (protocol 2) of scipy CSR
// matrices, numpy arrays and a collections.defaultdict of adjacency lists.
// gopickle runs the pickle machine; the Go types below stand in for the
// Python classes the files name, so that gopickle's class resolution
// (Unpickler.FindClass) rebuilds them:
//
//	numpy.core.multiarray._reconstruct  ndarray.__reduce__'s constructor
//	numpy.ndarray, numpy.dtype          the array and its element type
//	scipy.sparse.csr.csr_matrix         built from its __dict__
//	collections.defaultdict, list       the graph's dict of lists
//
// copy_reg._reconstructor (Python 2's default object reduction) is
// resolved by gopickle itself. Any other class is refused, so a pickle
// cannot make the reader build objects it does not understand.

// pickleClass resolves the classes the Planetoid files name.
func pickleClass(module, name string) (any, error) {
	switch module + "." + name {
	case "numpy.core.multiarray._reconstruct", "numpy._core.multiarray._reconstruct":
		return npReconstruct{}, nil
	case "numpy.ndarray":
		return npNdarrayClass{}, nil
	case "numpy.dtype":
		return npDtypeClass{}, nil
	case "scipy.sparse.csr.csr_matrix", "scipy.sparse._csr.csr_matrix":
		return spCSRClass{}, nil
	case "collections.defaultdict":
		return pyDefaultDictClass{}, nil
	case "__builtin__.list", "builtins.list":
		return pyListClass{}, nil
	}
	return nil, fmt.Errorf("unsupported Python class %s.%s", module, name)
}

type (
	npNdarrayClass     struct{}
	npReconstruct      struct{}
	npDtypeClass       struct{}
	spCSRClass         struct{}
	pyDefaultDictClass struct{}
	pyListClass        struct{}
)

// Call is numpy.core.multiarray._reconstruct(ndarray, shape, typecode):
// an empty array that BUILD then fills through PySetState.
func (npReconstruct) Call(args ...any) (any, error) {
	if len(args) < 1 {
		return nil, errors.New("_reconstruct: no class argument")
	}
	if _, ok := args[0].(npNdarrayClass); !ok {
		return nil, fmt.Errorf("_reconstruct of %T, want numpy.ndarray", args[0])
	}
	return &npArray{}, nil
}

// Call is numpy.dtype(code, align, copy); the byte order arrives later
// through PySetState.
func (npDtypeClass) Call(args ...any) (any, error) {
	if len(args) < 1 {
		return nil, errors.New("dtype: no type code")
	}
	code, ok := args[0].(string)
	if !ok || len(code) < 2 {
		return nil, fmt.Errorf("dtype: type code %v is not a string like \"f4\"", args[0])
	}
	d := &npDtype{kind: code[0], order: '|'}
	n := 0
	for _, c := range code[1:] {
		if c < '0' || c > '9' || n > 64 {
			return nil, fmt.Errorf("dtype: bad type code %q", code)
		}
		n = n*10 + int(c-'0')
	}
	d.size = n
	switch {
	case d.kind == 'f' && (n == 4 || n == 8),
		(d.kind == 'i' || d.kind == 'u') && (n == 1 || n == 2 || n == 4 || n == 8),
		d.kind == 'b' && n == 1:
	default:
		return nil, fmt.Errorf("dtype: unsupported element type %q (want float, int, uint or bool)", code)
	}
	return d, nil
}

// PyNew is csr_matrix.__new__: the matrix is filled by BUILD from its
// pickled __dict__ through PyDictSet.
func (spCSRClass) PyNew(...any) (any, error) { return &spCSR{}, nil }

// Call is defaultdict(list): the dict SETITEMS fills.
func (pyDefaultDictClass) Call(...any) (any, error) { return types.NewDict(), nil }

// npDtype is a numpy element type: kind 'f', 'i', 'u' or 'b', size in
// bytes, byte order '<', '>' or '|' (not applicable).
type npDtype struct {
	kind  byte
	size  int
	order byte
}

// PySetState takes dtype.__setstate__'s tuple (version, byte order, ...).
func (d *npDtype) PySetState(state any) error {
	t, ok := state.(*types.Tuple)
	if !ok || t.Len() < 2 {
		return fmt.Errorf("dtype state %T is not a tuple (version, byteorder, ...)", state)
	}
	o, ok := t.Get(1).(string)
	if !ok || len(o) != 1 || !strings.Contains("<>|=", o) {
		return fmt.Errorf("dtype byte order %v, want one of < > | =", t.Get(1))
	}
	d.order = o[0]
	if d.order == '=' {
		d.order = '<' // the pickles were written on little-endian machines
	}
	if d.order == '>' && d.size == 1 {
		d.order = '|'
	}
	return nil
}

func (d *npDtype) String() string { return fmt.Sprintf("%c%c%d", d.order, d.kind, d.size) }

// npArray is a numpy ndarray: shape, element type and raw row-major data.
type npArray struct {
	shape   []int
	dtype   *npDtype
	fortran bool
	data    []byte
}

// PySetState takes ndarray.__setstate__'s tuple
// (version, shape, dtype, is_fortran, raw data).
func (a *npArray) PySetState(state any) error {
	t, ok := state.(*types.Tuple)
	if !ok || t.Len() != 5 {
		return fmt.Errorf("ndarray state %T is not a 5-tuple (version, shape, dtype, fortran, data)", state)
	}
	shape, ok := t.Get(1).(*types.Tuple)
	if !ok {
		return fmt.Errorf("ndarray shape %T is not a tuple", t.Get(1))
	}
	n := 1
	for _, s := range *shape {
		k, ok := s.(int)
		if !ok || k < 0 || k > math.MaxInt32 {
			return fmt.Errorf("ndarray dimension %v is not a size", s)
		}
		if k != 0 && n > math.MaxInt64/k {
			return errors.New("ndarray shape overflows")
		}
		n *= k
		a.shape = append(a.shape, k)
	}
	if a.dtype, ok = t.Get(2).(*npDtype); !ok {
		return fmt.Errorf("ndarray dtype %T is not a numpy.dtype", t.Get(2))
	}
	if a.fortran, ok = t.Get(3).(bool); !ok {
		return fmt.Errorf("ndarray fortran flag %T is not a bool", t.Get(3))
	}
	switch raw := t.Get(4).(type) {
	case string: // Python 2 str
		a.data = []byte(raw)
	case []byte:
		a.data = raw
	default:
		return fmt.Errorf("ndarray data %T is not a byte string (object arrays are not supported)", raw)
	}
	if n > math.MaxInt64/a.dtype.size || len(a.data) != n*a.dtype.size {
		return fmt.Errorf("ndarray of shape %v and type %v holds %d bytes, want %d", a.shape, a.dtype, len(a.data), n*a.dtype.size)
	}
	return nil
}

// len is the number of elements.
func (a *npArray) len() int { return len(a.data) / a.dtype.size }

// at returns element i (in storage order) as a float64.
func (a *npArray) at(i int) float64 {
	b := a.data[i*a.dtype.size : (i+1)*a.dtype.size]
	var order binary.ByteOrder = binary.LittleEndian
	if a.dtype.order == '>' {
		order = binary.BigEndian
	}
	switch a.dtype.kind {
	case 'f':
		if a.dtype.size == 4 {
			return float64(math.Float32frombits(order.Uint32(b)))
		}
		return math.Float64frombits(order.Uint64(b))
	case 'b', 'u':
		switch a.dtype.size {
		case 1:
			return float64(b[0])
		case 2:
			return float64(order.Uint16(b))
		case 4:
			return float64(order.Uint32(b))
		}
		return float64(order.Uint64(b))
	}
	switch a.dtype.size {
	case 1:
		return float64(int8(b[0]))
	case 2:
		return float64(int16(order.Uint16(b)))
	case 4:
		return float64(int32(order.Uint32(b)))
	}
	return float64(int64(order.Uint64(b)))
}

// ints returns a 1-D integer array's elements, each in [lo, hi].
func (a *npArray) ints(what string, lo, hi int64) ([]int64, error) {
	if len(a.shape) != 1 {
		return nil, fmt.Errorf("%s has shape %v, want a vector", what, a.shape)
	}
	if a.dtype.kind != 'i' && a.dtype.kind != 'u' {
		return nil, fmt.Errorf("%s has element type %v, want integers", what, a.dtype)
	}
	out := make([]int64, a.len())
	for i := range out {
		x := a.at(i)
		if x < float64(lo) || x > float64(hi) {
			return nil, fmt.Errorf("%s[%d] = %v outside [%d, %d]", what, i, x, lo, hi)
		}
		out[i] = int64(x)
	}
	return out, nil
}

// matrix returns a 2-D array as rows x cols row-major finite float64s.
func (a *npArray) matrix(what string) (rows, cols int, vals []float64, err error) {
	if len(a.shape) != 2 {
		return 0, 0, nil, fmt.Errorf("%s has shape %v, want a matrix", what, a.shape)
	}
	rows, cols = a.shape[0], a.shape[1]
	vals = make([]float64, rows*cols)
	for i := range vals {
		x := a.at(i)
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return 0, 0, nil, fmt.Errorf("%s holds a non-finite value", what)
		}
		if a.fortran {
			r, c := i%rows, i/rows
			vals[r*cols+c] = x
		} else {
			vals[i] = x
		}
	}
	return rows, cols, vals, nil
}

// spCSR is a scipy.sparse.csr_matrix as its pickled __dict__ holds it.
type spCSR struct {
	shape                 *types.Tuple
	indptr, indices, data *npArray
	format                string
}

// PyDictSet receives one entry of the matrix's __dict__.
func (m *spCSR) PyDictSet(key, value any) error {
	k, _ := key.(string)
	arr, isArr := value.(*npArray)
	var ok bool
	switch k {
	case "_shape":
		m.shape, ok = value.(*types.Tuple)
	case "indptr":
		m.indptr, ok = arr, isArr
	case "indices":
		m.indices, ok = arr, isArr
	case "data":
		m.data, ok = arr, isArr
	case "format":
		m.format, ok = value.(string)
	default: // maxprint and other bookkeeping
		return nil
	}
	if !ok {
		return fmt.Errorf("csr_matrix.%s has type %T", k, value)
	}
	return nil
}

// sparse converts the matrix, checking scipy's CSR invariants (column ids
// need not be sorted within a row; they are sorted here).
func (m *spCSR) sparse() (*SparseMatrix, error) {
	if m.format != "" && m.format != "csr" {
		return nil, fmt.Errorf("sparse format %q, want csr", m.format)
	}
	if m.shape == nil || m.shape.Len() != 2 || m.indptr == nil || m.indices == nil || m.data == nil {
		return nil, errors.New("csr_matrix lacks _shape, indptr, indices or data")
	}
	rows, ok1 := m.shape.Get(0).(int)
	cols, ok2 := m.shape.Get(1).(int)
	if !ok1 || !ok2 || rows < 0 || cols < 0 || rows > math.MaxInt32 || cols > math.MaxInt32 {
		return nil, fmt.Errorf("csr_matrix shape %v is not two sizes", *m.shape)
	}
	ptr, err := m.indptr.ints("indptr", 0, math.MaxInt32)
	if err != nil {
		return nil, err
	}
	idx, err := m.indices.ints("indices", 0, int64(cols)-1)
	if err != nil {
		return nil, err
	}
	if len(m.data.shape) != 1 || m.data.len() != len(idx) {
		return nil, fmt.Errorf("csr_matrix has %d values for %d column ids", m.data.len(), len(idx))
	}
	if len(ptr) != rows+1 || ptr[0] != 0 || ptr[rows] != int64(len(idx)) {
		return nil, fmt.Errorf("csr_matrix indptr has %d entries spanning [%d, %d], want %d spanning [0, %d]",
			len(ptr), ptr[0], ptr[len(ptr)-1], rows+1, len(idx))
	}
	s := &SparseMatrix{Rows: rows, Cols: cols, RowPtr: make([]int32, rows+1),
		Col: make([]int32, len(idx)), Val: make([]float32, len(idx))}
	for i := range idx {
		x := m.data.at(i)
		if math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) > math.MaxFloat32 {
			return nil, fmt.Errorf("csr_matrix value %d (%v) is not a finite float32", i, x)
		}
		s.Col[i], s.Val[i] = int32(idx[i]), float32(x)
	}
	for r := range rows {
		if ptr[r+1] < ptr[r] {
			return nil, fmt.Errorf("csr_matrix indptr decreases at row %d", r)
		}
		s.RowPtr[r+1] = int32(ptr[r+1])
	}
	if err := s.canonicalize(); err != nil {
		return nil, fmt.Errorf("csr_matrix: %w", err)
	}
	return s, nil
}

// decodePickle runs gopickle on one file's bytes. It first walks the
// opcodes to check that every length-prefixed argument fits in the input
// (gopickle allocates the buffer a length names before reading it, so a
// corrupt length in a short file could ask for gigabytes), and converts a
// panic inside the library into an error: a damaged file must give an error
// naming it, never a crash.
func decodePickle(data []byte, file string) (v any, err error) {
	if err := checkPickleLengths(data); err != nil {
		return nil, &ParseError{File: file, Err: fmt.Errorf("not a readable pickle: %w", err)}
	}
	defer func() {
		if r := recover(); r != nil {
			v, err = nil, &ParseError{File: file, Err: fmt.Errorf("malformed pickle: %v", r)}
		}
	}()
	u := pickle.NewUnpickler(bytes.NewReader(data))
	u.FindClass = pickleClass
	v, err = u.Load()
	if err != nil {
		return nil, &ParseError{File: file, Err: fmt.Errorf("malformed pickle: %w", err)}
	}
	return v, nil
}

// checkPickleLengths walks the opcodes of a pickle (protocols 0 to 5)
// without executing them, up to STOP, and fails on an unknown opcode, a
// missing STOP, or an argument running past the end of data. It is a
// bounds check in front of gopickle, not a second unpickler.
func checkPickleLengths(data []byte) error {
	p := 0
	need := func(n uint64) error {
		if n > uint64(len(data)-p) {
			return fmt.Errorf("truncated: argument of %d bytes at offset %d, %d bytes left", n, p, len(data)-p)
		}
		p += int(n)
		return nil
	}
	line := func() error {
		k := bytes.IndexByte(data[p:], '\n')
		if k < 0 {
			return fmt.Errorf("truncated: unterminated line at offset %d", p)
		}
		p += k + 1
		return nil
	}
	for p < len(data) {
		op := data[p]
		p++
		var err error
		switch op {
		case '.': // STOP
			return nil
		case '(', '0', '1', '2', 'N', ')', ']', '}', 'a', 'e', 'l', 'd', 't', 's', 'u', 'b', 'R', 'o', 'Q',
			0x81, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8f, 0x90, 0x91, 0x92, 0x93, 0x94, 0x97, 0x98:
		case 'F', 'I', 'L', 'S', 'V', 'P', 'g', 'p':
			err = line()
		case 'c', 'i': // GLOBAL, INST: module and name lines
			if err = line(); err == nil {
				err = line()
			}
		case 'K', 'h', 'q', 0x80, 0x82:
			err = need(1)
		case 'M', 0x83:
			err = need(2)
		case 'J', 'j', 'r', 0x84:
			err = need(4)
		case 'G':
			err = need(8)
		case 0x95: // FRAME: the frame's bytes follow inline and are walked as opcodes
			if err = need(8); err == nil {
				if n := binary.LittleEndian.Uint64(data[p-8 : p]); n > uint64(len(data)-p) {
					err = fmt.Errorf("truncated: frame of %d bytes, %d left", n, len(data)-p)
				}
			}
		case 'U', 'C', 0x8c, 0x8a: // 1-byte length
			if err = need(1); err == nil {
				err = need(uint64(data[p-1]))
			}
		case 'T', 'B', 'X', 0x8b: // 4-byte length (signed for T and LONG4)
			if err = need(4); err == nil {
				n := binary.LittleEndian.Uint32(data[p-4 : p])
				if (op == 'T' || op == 0x8b) && int32(n) < 0 {
					err = fmt.Errorf("negative length at offset %d", p-4)
				} else {
					err = need(uint64(n))
				}
			}
		case 0x8d, 0x8e, 0x96: // 8-byte length
			if err = need(8); err == nil {
				err = need(binary.LittleEndian.Uint64(data[p-8 : p]))
			}
		default:
			return fmt.Errorf("unknown opcode 0x%02x at offset %d", op, p-1)
		}
		if err != nil {
			return err
		}
	}
	return errors.New("truncated: no STOP opcode")
}

// pickleSparse decodes a pickled scipy CSR matrix (ind.<name>.x, tx, allx).
func pickleSparse(data []byte, file string) (*SparseMatrix, error) {
	v, err := decodePickle(data, file)
	if err != nil {
		return nil, err
	}
	m, ok := v.(*spCSR)
	if !ok {
		return nil, &ParseError{File: file, Err: fmt.Errorf("holds %s, want a scipy.sparse.csr_matrix", pyTypeName(v))}
	}
	s, err := m.sparse()
	if err != nil {
		return nil, &ParseError{File: file, Err: err}
	}
	return s, nil
}

// pickleOneHot decodes a pickled numpy label matrix (ind.<name>.y, ty,
// ally): one row per node, one column per class. It returns the class of
// each row, -1 for an all-zero row, and the column count. A row with two
// ones is an error: these files are one-hot.
func pickleOneHot(data []byte, file string) (labels []int32, classes int, err error) {
	v, err := decodePickle(data, file)
	if err != nil {
		return nil, 0, err
	}
	a, ok := v.(*npArray)
	if !ok {
		return nil, 0, &ParseError{File: file, Err: fmt.Errorf("holds %s, want a numpy array", pyTypeName(v))}
	}
	rows, cols, vals, err := a.matrix("label matrix")
	if err == nil && cols > math.MaxInt32 {
		err = fmt.Errorf("%d classes", cols)
	}
	if err != nil {
		return nil, 0, &ParseError{File: file, Err: err}
	}
	labels = make([]int32, rows)
	for r := range rows {
		labels[r] = -1
		for c, x := range vals[r*cols : (r+1)*cols] {
			switch {
			case x == 0:
			case x == 1 && labels[r] < 0:
				labels[r] = int32(c)
			default:
				return nil, 0, &ParseError{File: file, Err: fmt.Errorf("row %d is not one-hot", r)}
			}
		}
	}
	return labels, cols, nil
}

// pickleAdjacency decodes a pickled dict of adjacency lists
// (ind.<name>.graph: node id -> list of neighbour ids) into edge endpoint
// lists and the node count (one more than the largest id).
func pickleAdjacency(data []byte, file string) (u, v []int32, n int, err error) {
	obj, err := decodePickle(data, file)
	if err != nil {
		return nil, nil, 0, err
	}
	d, ok := obj.(*types.Dict)
	if !ok {
		return nil, nil, 0, &ParseError{File: file, Err: fmt.Errorf("holds %s, want a dict of adjacency lists", pyTypeName(obj))}
	}
	id := func(x any) (int32, error) {
		k, ok := x.(int)
		if !ok || k < 0 || k >= math.MaxInt32 {
			return 0, &ParseError{File: file, Err: fmt.Errorf("node id %v is not a non-negative int32", x)}
		}
		n = max(n, k+1)
		return int32(k), nil
	}
	for _, e := range *d {
		a, err := id(e.Key)
		if err != nil {
			return nil, nil, 0, err
		}
		l, ok := e.Value.(*types.List)
		if !ok {
			return nil, nil, 0, &ParseError{File: file, Err: fmt.Errorf("neighbours of node %d are %s, want a list", a, pyTypeName(e.Value))}
		}
		for _, x := range *l {
			b, err := id(x)
			if err != nil {
				return nil, nil, 0, err
			}
			u, v = append(u, a), append(v, b)
		}
	}
	return u, v, n, nil
}

// pyTypeName names a decoded value's Python type for error messages.
func pyTypeName(v any) string {
	switch v.(type) {
	case nil:
		return "None"
	case *npArray:
		return "a numpy array"
	case *spCSR:
		return "a scipy.sparse.csr_matrix"
	case *types.Dict:
		return "a dict"
	case *types.List:
		return "a list"
	case *types.Tuple:
		return "a tuple"
	}
	return fmt.Sprintf("a %T", v)
}
