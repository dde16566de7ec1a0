package graphs

import (
	"fmt"
	"io"
	"math"
	"strings"
)

const mtxBanner = "%%MatrixMarket"

// Limits on what a Matrix Market header may make the reader allocate. A
// coordinate file states its size (rows) independently of its content, and
// every row becomes a node, isolated or not. Up to mtxFreeNodes rows are
// always accepted; beyond that a file must store at least one entry per
// mtxNodesPerEntry rows. Real graphs sit far inside that bound (EVA.mtx, the
// sparsest file in the test data, has 1.3 rows per entry), while a
// three-line file claiming 2^31 rows is refused instead of costing 24 GB.
const (
	mtxFreeNodes     = 1 << 20
	mtxNodesPerEntry = 64
)

// mtxReserve caps the capacity reserved from a declared entry count, so a
// header claiming 10^12 entries costs nothing until the entries arrive.
const mtxReserve = 1 << 16

type mtxField int

const (
	mtxPattern mtxField = iota
	mtxReal
	mtxInteger
	mtxComplex
)

// values is the number of numbers an entry of this field carries.
func (f mtxField) values() int { return [...]int{0, 1, 1, 2}[f] }

type mtxSymmetry int

const (
	mtxGeneral mtxSymmetry = iota
	mtxSymmetric
	mtxSkew
	mtxHermitian
)

// mtxHeader is a parsed banner and size line.
type mtxHeader struct {
	array    bool
	field    mtxField
	symmetry mtxSymmetry
	n        int64 // rows == cols
	entries  int64 // coordinate: declared entries; array: stored values
}

// ReadMatrixMarket reads a square sparse or dense matrix in the NIST Matrix
// Market exchange format as the adjacency of an undirected graph. name
// labels errors ("name:line: ...") and the graph: Name is its base name
// without extension, Source "mtx:<base name>".
//
// All banner combinations of the format are read: coordinate or array;
// pattern, real (or double), integer or complex; general, symmetric,
// skew-symmetric or hermitian, except those the format itself forbids
// (array pattern; pattern with skew-symmetric or hermitian; hermitian with
// a non-complex field), which are errors. The graph is the nonzero pattern
// made undirected: A+Aᵀ, diagonal dropped, duplicates merged, one node per
// row including isolated ones. In coordinate format every stored entry is
// an edge whatever its value (explicit zeros included, as SuiteSparse
// treats them); in array format, where every value is stored, nonzero
// values are edges. Values are otherwise ignored but still parsed: a
// malformed, NaN or infinite value is an error.
//
// Symmetry rule: a symmetric, skew-symmetric or hermitian file should store
// only its lower triangle, but real files break this (EVA.mtx stores
// entries of both triangles, USPowerGrid.mtx only the upper one). The
// reader mirrors every stored entry wherever it lies. Mirroring is
// idempotent under A+Aᵀ, so such files load as the undirected pattern of
// what they store, exactly as if they had said "general".
//
// Refused: non-square matrices ("rectangular 27x51 matrix cannot be a graph
// adjacency"), empty (0x0) or negative sizes, sizes beyond the int32 node
// range, fewer or more entries than declared, and coordinate headers whose
// row count is out of all proportion to the entries stored: beyond 2^20
// rows a file must store an entry per 64 rows, since every row becomes a
// node and costs memory whether or not the file backs it.
func ReadMatrixMarket(r io.Reader, name string) (*Graph, error) {
	return readMatrixMarket(r, name, mtxFreeNodes)
}

// readMatrixMarket is ReadMatrixMarket with the free node allowance as a
// parameter, so the fuzzer can lower it.
func readMatrixMarket(r io.Reader, name string, freeNodes int64) (*Graph, error) {
	s := newLineScanner(r, name)
	h, err := readMTXHeader(s, freeNodes)
	if err != nil {
		return nil, err
	}
	var u, v []int32
	if h.array {
		u, v, err = readMTXArray(s, h)
	} else {
		u, v, err = readMTXCoordinate(s, h)
	}
	if err != nil {
		return nil, err
	}
	// Anything but comments and blank lines after the declared data means
	// the header undercounts.
	for s.scan() {
		if t := s.text(); len(t) > 0 && t[0] != '%' {
			return nil, s.errorf("more data than the %d values the header declares", h.entries)
		}
	}
	if err := s.err(); err != nil {
		return nil, err
	}
	g, err := FromEdges(int(h.n), u, v)
	if err != nil {
		return nil, fmt.Errorf("graphs: %s: %w", name, err)
	}
	setFileIdentity(g, FormatMTX, name)
	return g, nil
}

// readMTXHeader parses the banner, skips the comment block and parses the
// size line.
func readMTXHeader(s *lineScanner, freeNodes int64) (mtxHeader, error) {
	h, err := readMTXBanner(s)
	if err != nil {
		return h, err
	}
	err = readMTXSize(s, &h, freeNodes)
	return h, err
}

// readMTXBanner parses the banner line into the header's format, field
// and symmetry, refusing words that are each valid but do not go together
// (a pattern array, a skew pattern, a real hermitian matrix). It is read
// before the size line because the banner says what that line holds (two
// numbers for an array, three for coordinates).
func readMTXBanner(s *lineScanner) (mtxHeader, error) {
	var h mtxHeader
	if !s.scan() {
		if err := s.err(); err != nil {
			return h, err
		}
		return h, s.fileErrorf("empty file: want a %s banner", mtxBanner)
	}
	ban := strings.Fields(strings.ToLower(string(s.text())))
	if len(ban) == 0 || ban[0] != strings.ToLower(mtxBanner) {
		return h, s.errorf("bad banner %s: want \"%s matrix <format> <field> <symmetry>\"",
			quoteToken(s.text()), mtxBanner)
	}
	if len(ban) != 5 {
		return h, s.errorf("bad banner: want 4 words after %s (matrix <format> <field> <symmetry>), got %d",
			mtxBanner, len(ban)-1)
	}
	if ban[1] != "matrix" {
		return h, s.errorf("bad banner: object %q is not \"matrix\"", ban[1])
	}
	switch ban[2] {
	case "coordinate":
	case "array":
		h.array = true
	default:
		return h, s.errorf("bad banner: format %q, want coordinate or array", ban[2])
	}
	switch ban[3] {
	case "pattern":
		h.field = mtxPattern
	case "real", "double":
		h.field = mtxReal
	case "integer":
		h.field = mtxInteger
	case "complex":
		h.field = mtxComplex
	default:
		return h, s.errorf("bad banner: field %q, want pattern, real, integer or complex", ban[3])
	}
	switch ban[4] {
	case "general":
		h.symmetry = mtxGeneral
	case "symmetric":
		h.symmetry = mtxSymmetric
	case "skew-symmetric":
		h.symmetry = mtxSkew
	case "hermitian":
		h.symmetry = mtxHermitian
	default:
		return h, s.errorf("bad banner: symmetry %q, want general, symmetric, skew-symmetric or hermitian", ban[4])
	}
	switch {
	case h.array && h.field == mtxPattern:
		return h, s.errorf("bad banner: the array format cannot hold a pattern matrix")
	case h.field == mtxPattern && h.symmetry != mtxGeneral && h.symmetry != mtxSymmetric:
		return h, s.errorf("bad banner: a pattern matrix cannot be %s", ban[4])
	case h.symmetry == mtxHermitian && h.field != mtxComplex:
		return h, s.errorf("bad banner: a hermitian matrix must be complex, not %s", ban[3])
	}
	return h, nil
}

// readMTXSize skips the comment lines after the banner and parses the size
// line into h.n and h.entries. It is separate from the banner because its
// checks are about the graph the matrix can be (square, in the int32 node
// range, not too sparse for its rows) rather than about the format.
func readMTXSize(s *lineScanner, h *mtxHeader, freeNodes int64) error {
	var t []byte
	for {
		if !s.scan() {
			if err := s.err(); err != nil {
				return err
			}
			return &ParseError{File: s.file, Line: s.line, Err: fmt.Errorf("unexpected end of file: no size line")}
		}
		if t = s.text(); len(t) > 0 && t[0] != '%' {
			break
		}
	}
	want, what := 3, "rows, columns and entries"
	if h.array {
		want, what = 2, "rows and columns"
	}
	fs := splitSpace(nil, t, false)
	if len(fs) != want {
		return s.errorf("size line %s: want %s", quoteToken(t), what)
	}
	var size [3]int64
	for k, f := range fs {
		x, ok := parseDecInt(f)
		if !ok {
			return s.errorf("size line: bad integer %s", quoteToken(f))
		}
		if x < 0 {
			return s.errorf("size line: negative size %d", x)
		}
		size[k] = x
	}
	rows, cols := size[0], size[1]
	if rows > math.MaxInt32 || cols > math.MaxInt32 {
		return s.errorf("%dx%d matrix exceeds the int32 node range", rows, cols)
	}
	if rows != cols {
		return s.errorf("rectangular %dx%d matrix cannot be a graph adjacency", rows, cols)
	}
	if rows == 0 {
		return s.errorf("empty 0x0 matrix")
	}
	h.n = rows
	if h.array {
		switch h.symmetry {
		case mtxGeneral:
			h.entries = rows * rows
		case mtxSymmetric, mtxHermitian:
			h.entries = rows * (rows + 1) / 2
		case mtxSkew:
			h.entries = rows * (rows - 1) / 2
		}
		return nil // the values must all be present: rows is bounded by the file
	}
	h.entries = size[2]
	if rows > freeNodes && h.entries < math.MaxInt64/mtxNodesPerEntry && rows > mtxNodesPerEntry*h.entries {
		return s.errorf("%d rows for only %d entries: beyond %d rows, a file must store an entry per %d rows",
			rows, h.entries, freeNodes, mtxNodesPerEntry)
	}
	return nil
}

// readMTXValues checks the value fields of an entry and reports whether it
// is nonzero.
func readMTXValues(s *lineScanner, field mtxField, fs [][]byte) (nonzero bool, err error) {
	if field == mtxInteger {
		x, ok := parseDecInt(fs[0])
		if !ok {
			return false, s.errorf("bad integer value %s", quoteToken(fs[0]))
		}
		return x != 0, nil
	}
	for _, f := range fs {
		x, err := parseFiniteFloat(f)
		if err != nil {
			return false, s.errorf("value: %v", err)
		}
		nonzero = nonzero || x != 0
	}
	return nonzero, nil
}

// nextMTXLine returns the next line that is neither blank nor a comment,
// or a truncation error naming how much of the declared data was read.
func nextMTXLine(s *lineScanner, read, declared int64) ([]byte, error) {
	for s.scan() {
		if t := s.text(); len(t) > 0 && t[0] != '%' {
			return t, nil
		}
	}
	if err := s.err(); err != nil {
		return nil, err
	}
	return nil, s.errorf("unexpected end of file after %d of %d declared values", read, declared)
}

func readMTXCoordinate(s *lineScanner, h mtxHeader) (u, v []int32, err error) {
	nv := h.field.values()
	reserve := min(h.entries, mtxReserve)
	u = make([]int32, 0, reserve)
	v = make([]int32, 0, reserve)
	var fs [][]byte
	for k := int64(0); k < h.entries; k++ {
		t, err := nextMTXLine(s, k, h.entries)
		if err != nil {
			return nil, nil, err
		}
		fs = splitSpace(fs[:0], t, false)
		if len(fs) != 2+nv {
			return nil, nil, s.errorf("entry %s: want row, column and %d values, got %d fields",
				quoteToken(t), nv, len(fs))
		}
		var ij [2]int64
		for c := range 2 {
			x, ok := parseDecInt(fs[c])
			if !ok {
				return nil, nil, s.errorf("bad index %s", quoteToken(fs[c]))
			}
			if x < 1 || x > h.n {
				return nil, nil, s.errorf("index %d out of range [1, %d]", x, h.n)
			}
			ij[c] = x - 1
		}
		if _, err := readMTXValues(s, h.field, fs[2:]); err != nil {
			return nil, nil, err
		}
		if ij[0] == ij[1] {
			continue // the diagonal is dropped; do not spend memory on it
		}
		if 2*int64(len(u)) >= MaxEntries {
			return nil, nil, s.errorf("more than %d off-diagonal entries exceed the CSR limit", MaxEntries/2)
		}
		u = append(u, int32(ij[0]))
		v = append(v, int32(ij[1]))
	}
	return u, v, nil
}

func readMTXArray(s *lineScanner, h mtxHeader) (u, v []int32, err error) {
	nv := h.field.values()
	// (i, j) walks the stored part of the matrix in column-major order:
	// all of column j, or its lower triangle from the diagonal (symmetric,
	// hermitian) or from below it (skew-symmetric, whose diagonal is zero).
	first := func(j int64) int64 {
		switch h.symmetry {
		case mtxGeneral:
			return 0
		case mtxSkew:
			return j + 1
		default:
			return j
		}
	}
	var j int64
	i := first(0)
	var fs [][]byte
	for k := int64(0); k < h.entries; k++ {
		t, err := nextMTXLine(s, k, h.entries)
		if err != nil {
			return nil, nil, err
		}
		fs = splitSpace(fs[:0], t, false)
		if len(fs) != nv {
			return nil, nil, s.errorf("value line %s: want %d numbers, got %d", quoteToken(t), nv, len(fs))
		}
		nz, err := readMTXValues(s, h.field, fs)
		if err != nil {
			return nil, nil, err
		}
		if nz && i != j {
			if 2*int64(len(u)) >= MaxEntries {
				return nil, nil, s.errorf("more than %d off-diagonal nonzeros exceed the CSR limit", MaxEntries/2)
			}
			u = append(u, int32(i))
			v = append(v, int32(j))
		}
		if i++; i == h.n {
			j++
			i = first(j)
		}
	}
	return u, v, nil
}
