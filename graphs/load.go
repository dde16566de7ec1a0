package graphs

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gnnsim/internal/boundedio"
)

// Format names an on-disk graph format understood by Load.
type Format string

// The formats Load reads. FormatAuto lets Load choose from the path.
const (
	FormatAuto      Format = ""
	FormatTU        Format = "tu"        // TUDataset raw text: DS_A.txt, DS_graph_indicator.txt, ...
	FormatMTX       Format = "mtx"       // Matrix Market exchange format
	FormatEdgeList  Format = "edgelist"  // one edge per line, arbitrary node ids
	FormatCites     Format = "cites"     // Planetoid/LINQS citation list ("cited citing")
	FormatPlanetoid Format = "planetoid" // Planetoid ind.<name>.* pickles (graph of LoadPlanetoid)
	FormatNPZ       Format = "npz"       // gnn-benchmark .npz archive (graph of ReadPlanetoidNPZ)
	FormatOGB       Format = "ogb"       // OGB node-property raw folder (LoadOGB)
	FormatBinEdges  Format = "binedges"  // binary edge list, little-endian uint32 pairs (ReadBinaryEdges)
)

// ParseFormat checks a format name: one of the formats above, or empty
// to detect it from the path.
func ParseFormat(s string) (Format, error) {
	switch f := Format(s); f {
	case FormatAuto, FormatTU, FormatMTX, FormatEdgeList, FormatCites, FormatPlanetoid, FormatNPZ, FormatOGB, FormatBinEdges:
		return f, nil
	}
	return "", fmt.Errorf("--format %q: want tu, mtx, edgelist, cites, planetoid, npz, ogb or binedges (or empty to detect)", s)
}

// edgeListExts are the file extensions FormatAuto reads as edge lists.
var edgeListExts = []string{".txt", ".edges", ".edgelist", ".el", ".tsv", ".csv"}

// Load reads the graphs stored at path in the given format. Single-graph
// formats return a slice of one; a TUDataset file set returns all its
// graphs in graph-id order.
//
// With FormatAuto the format follows from the path: a directory, a path
// ending in "_A.txt", or a prefix P for which P_A.txt exists is a TUDataset;
// a directory holding an OGB raw layout (raw/edge.csv.gz) is FormatOGB;
// .bel and .binedges are binary edge lists;
// ".mtx" (or any file starting with a %%MatrixMarket banner) is Matrix
// Market; ".cites" is a citation list; .txt, .edges, .edgelist, .el, .tsv
// and .csv are edge lists; ".npz" is a gnn-benchmark archive; a Planetoid
// prefix (dir/ind.cora or dir/cora with dir/ind.cora.graph present) or one
// of its files is a Planetoid set. Anything else is an error asking for a
// format. For the two node-classification formats Load returns the graph
// only; LoadPlanetoid also returns features, labels and the split.
//
// Graph names are the file name without directory and extension (TU graphs
// are named DS_g<id>), so a graph's Name and Source do not depend on where
// the data lives. Errors name the path as given and the line.
func Load(path string, format Format) ([]*Graph, error) {
	if format == FormatAuto {
		f, err := detectFormat(path)
		if err != nil {
			return nil, err
		}
		format = f
	}
	var read func(io.Reader, string) (*Graph, error)
	kind := boundedio.Graph
	switch format {
	case FormatTU:
		return LoadTU(path)
	case FormatMTX:
		read = ReadMatrixMarket
	case FormatEdgeList:
		read = ReadEdgeList
	case FormatCites:
		read = ReadCites
	case FormatBinEdges:
		read, kind = ReadBinaryEdges, largeGraphFile
	case FormatOGB:
		g, err := LoadOGB(path)
		if err != nil {
			return nil, err
		}
		return []*Graph{g}, nil
	case FormatPlanetoid, FormatNPZ:
		load := loadPlanetoidInd
		if format == FormatNPZ {
			load = ReadPlanetoidNPZ
		}
		p, err := load(path)
		if err != nil {
			return nil, err
		}
		return []*Graph{p.Graph}, nil
	default:
		return nil, fmt.Errorf("graphs: unknown format %q (want %q, %q, %q, %q, %q, %q, %q or %q)",
			format, FormatTU, FormatMTX, FormatEdgeList, FormatCites, FormatPlanetoid, FormatNPZ, FormatOGB, FormatBinEdges)
	}
	f, err := boundedio.Open(path, kind)
	if err != nil {
		return nil, fmt.Errorf("graphs: %w", err)
	}
	defer f.Close()
	g, err := read(f, path)
	if err != nil {
		return nil, err
	}
	return []*Graph{g}, nil
}

// detectFormat implements Load's FormatAuto rules.
func detectFormat(path string) (Format, error) {
	if strings.EqualFold(filepath.Ext(path), ".npz") {
		return FormatNPZ, nil
	}
	if _, _, ok := planetoidPrefix(path); ok {
		if st, err := os.Stat(path); err != nil || !st.IsDir() {
			return FormatPlanetoid, nil
		}
	}
	st, err := os.Stat(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			if _, err2 := os.Stat(path + "_A.txt"); err2 == nil {
				return FormatTU, nil
			}
		}
		return "", fmt.Errorf("graphs: %w", err)
	}
	if st.IsDir() && IsOGB(path) {
		return FormatOGB, nil
	}
	if st.IsDir() || strings.HasSuffix(path, "_A.txt") {
		return FormatTU, nil
	}
	ext := strings.ToLower(filepath.Ext(path))
	switch ext {
	case ".bel", ".binedges":
		return FormatBinEdges, nil
	case ".mtx":
		return FormatMTX, nil
	case ".cites":
		return FormatCites, nil
	}
	if hasMatrixMarketBanner(path) {
		return FormatMTX, nil
	}
	for _, e := range edgeListExts {
		if ext == e {
			return FormatEdgeList, nil
		}
	}
	return "", fmt.Errorf("graphs: cannot tell the format of %s from its name; pass one of %q, %q, %q, %q, %q, %q, %q, %q",
		path, FormatTU, FormatMTX, FormatEdgeList, FormatCites, FormatPlanetoid, FormatNPZ, FormatOGB, FormatBinEdges)
}

func hasMatrixMarketBanner(path string) bool {
	f, err := boundedio.Open(path, boundedio.Graph)
	if err != nil {
		return false
	}
	defer f.Close()
	var buf [len(mtxBanner)]byte
	n, _ := io.ReadFull(f, buf[:])
	return strings.EqualFold(string(buf[:n]), mtxBanner)
}

// graphName is the base name of file without its extension.
func graphName(file string) string {
	base := filepath.Base(file)
	return strings.TrimSuffix(base, filepath.Ext(base))
}

// setFileIdentity names a graph read from file in the given format:
// Name is the bare file name, Source "<format>:<file name>".
func setFileIdentity(g *Graph, format Format, file string) {
	g.Name = graphName(file)
	g.Source = string(format) + ":" + filepath.Base(file)
}

// ParseError reports malformed input: the file, the 1-based line (0 when the
// problem concerns the file as a whole, such as a missing line count) and
// what is wrong. Its message reads "file:line: problem".
type ParseError struct {
	File string
	Line int
	Err  error
}

func (e *ParseError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err)
	}
	return fmt.Sprintf("%s: %v", e.File, e.Err)
}

func (e *ParseError) Unwrap() error { return e.Err }

// maxLineBytes bounds a single input line. The longest lines in practice are
// TUDataset node attributes (a few hundred bytes); a longer line means a
// binary or corrupt file, and the bound keeps such a file from growing the
// scanner buffer without limit.
const maxLineBytes = 1 << 20

// lineScanner reads a file line by line without allocating per line and
// keeps the line number for error messages.
type lineScanner struct {
	sc    *bufio.Scanner
	file  string
	line  int
	blank int // first blank line seen by record, 0 if none
}

func newLineScanner(r io.Reader, file string) *lineScanner {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLineBytes)
	return &lineScanner{sc: sc, file: file}
}

// scan advances to the next line, reporting false at the end of input or on
// a read error (see err).
func (s *lineScanner) scan() bool {
	if !s.sc.Scan() {
		return false
	}
	s.line++
	return true
}

// text returns the current line without surrounding white space (and
// without the CR of CRLF line ends). It aliases the scanner's buffer.
func (s *lineScanner) text() []byte { return bytes.TrimSpace(s.sc.Bytes()) }

// record advances to the next line of a positional file, one in which
// line i describes item i (a node, a graph) and so the line number is the
// item number: blank lines may trail the data but not interrupt it. It
// reports false at the end of the input or on error.
func (s *lineScanner) record() ([]byte, bool, error) {
	for s.scan() {
		t := s.text()
		if len(t) == 0 {
			if s.blank == 0 {
				s.blank = s.line
			}
			continue
		}
		if s.blank != 0 {
			return nil, false, &ParseError{File: s.file, Line: s.blank,
				Err: errors.New("blank line inside the data (line i describes item i)")}
		}
		return t, true, nil
	}
	return nil, false, s.err()
}

// err returns the read error that stopped scan, if any, as a ParseError.
func (s *lineScanner) err() error {
	err := s.sc.Err()
	if err == nil {
		return nil
	}
	if errors.Is(err, bufio.ErrTooLong) {
		err = fmt.Errorf("line longer than %d bytes", maxLineBytes)
	}
	return &ParseError{File: s.file, Line: s.line + 1, Err: err}
}

// errorf returns a ParseError at the current line.
func (s *lineScanner) errorf(format string, args ...any) error {
	return &ParseError{File: s.file, Line: s.line, Err: fmt.Errorf(format, args...)}
}

// fileErrorf returns a ParseError about the file as a whole.
func (s *lineScanner) fileErrorf(format string, args ...any) error {
	return &ParseError{File: s.file, Err: fmt.Errorf(format, args...)}
}

// parseDecInt parses an optionally signed decimal integer that fits in an
// int64. Unlike strconv.ParseInt it works on bytes and never allocates.
func parseDecInt(b []byte) (int64, bool) {
	neg := false
	if len(b) > 0 && (b[0] == '+' || b[0] == '-') {
		neg = b[0] == '-'
		b = b[1:]
	}
	if len(b) == 0 {
		return 0, false
	}
	const limit = uint64(1) << 63 // |MinInt64|
	var n uint64
	for _, c := range b {
		d := c - '0'
		if d > 9 || n > limit/10 {
			return 0, false
		}
		n = n*10 + uint64(d)
		if n > limit {
			return 0, false
		}
	}
	if neg {
		return -int64(n), true // n == limit wraps to MinInt64, as wanted
	}
	if n == limit {
		return 0, false
	}
	return int64(n), true
}

// parseFiniteFloat parses a float64 and rejects NaN and infinities, which
// no graph file has a use for and which would poison anything computed
// from them.
func parseFiniteFloat(b []byte) (float64, error) {
	x, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return 0, fmt.Errorf("bad number %s", quoteToken(b))
	}
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, fmt.Errorf("non-finite number %s", quoteToken(b))
	}
	return x, nil
}

// quoteToken quotes an input token for an error message, shortened so that
// a corrupt multi-kilobyte token does not swamp the message.
func quoteToken(b []byte) string {
	const max = 40
	if len(b) > max {
		return strconv.Quote(string(b[:max])) + "..."
	}
	return strconv.Quote(string(b))
}

func isSpaceByte(c byte) bool { return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r' }

// splitSpace appends to dst the fields of line separated by runs of white
// space, and also by commas when comma is set. The fields alias line.
func splitSpace(dst [][]byte, line []byte, comma bool) [][]byte {
	i := 0
	for i < len(line) {
		for i < len(line) && (isSpaceByte(line[i]) || comma && line[i] == ',') {
			i++
		}
		j := i
		for j < len(line) && !(isSpaceByte(line[j]) || comma && line[j] == ',') {
			j++
		}
		if j > i {
			dst = append(dst, line[i:j])
		}
		i = j
	}
	return dst
}

// splitComma appends to dst the comma-separated fields of line, each
// trimmed of surrounding white space. Empty fields are kept (and rejected by
// the callers' number parsing), so "1,,2" does not silently read as "1,2".
func splitComma(dst [][]byte, line []byte) [][]byte {
	for {
		k := bytes.IndexByte(line, ',')
		if k < 0 {
			return append(dst, bytes.TrimSpace(line))
		}
		dst = append(dst, bytes.TrimSpace(line[:k]))
		line = line[k+1:]
	}
}
