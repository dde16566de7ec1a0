package graphs

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"math/bits"
	"runtime"
	"slices"
	"sync"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding/rle"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"

	"gnnsim/internal/pqio"
)

// Streamed graph sets. parquet-go writes a row's list as one page: it
// copies the row's values into a column buffer, encodes them into a page
// buffer and compresses that, so a graph of 10^8 edges (1.94e8 column ids)
// costs about four CSRs of memory while it is written, and a graph of 10^9
// edges cannot be written at all (its page would exceed the 2^31 bytes a
// page header can state). A set holding more than streamAbove values in a
// list column is therefore written by encodeStreamed instead: the scalar
// columns, schema and metadata come from parquet-go (it writes the set with
// its lists emptied, and their column chunks are copied verbatim), and the
// three list columns are written here as version-1 data pages of at most
// streamPageValues entries each, which may begin inside a row (Parquet
// allows that for v1 pages when a chunk has no offset index, and none is
// written for these chunks). Pages are encoded and compressed on every core
// and written in order as they are done, so the writer holds a few pages
// beside the graphs: bounded memory, at any size.
//
// Sets at or below streamAbove (every set written before this writer, up to
// R-MAT's 10^7 draws; the 10^8-draw set holds 1.94e8 column ids and is the
// first above) keep parquet-go's bytes exactly. A streamed file reads back
// to the same graphs, features and metadata (TestStreamedSetEquivalence).

// streamAbove is the number of values of one list column in a whole set
// above which the set is streamed; streamPageValues bounds the entries of
// a streamed page (4 MB of column ids). Variables so that tests can take
// the streamed path at small sizes.
var (
	streamAbove      = 1 << 27
	streamPageValues = 1 << 20
)

// listColumns are the list columns of a set row, in schema order.
var listColumns = [...]string{"row_ptr", "col", "node_attr"}

// streamed reports whether rows are written by encodeStreamed.
func streamed(rows []setRow) bool {
	var n [3]int64
	for i := range rows {
		r := &rows[i]
		n[0] += int64(len(r.RowPtr))
		n[1] += int64(len(r.Col))
		n[2] += int64(len(r.NodeAttr))
	}
	return max(n[0], n[1], n[2]) > int64(streamAbove)
}

// rowEntries is the number of entries a list of n values takes in its
// column: an empty list still takes one (a level without a value).
func rowEntries(n int) int64 { return int64(max(n, 1)) }

// streamGroups splits rows into row groups: consecutive rows while their
// list entries stay within streamAbove (a larger row alone), at most
// pqio.RowGroupRows rows each.
func streamGroups(rows []setRow) []int {
	var groups []int
	n, size := 0, int64(0)
	for i := range rows {
		r := &rows[i]
		e := max(rowEntries(len(r.RowPtr)), rowEntries(len(r.Col)), rowEntries(len(r.NodeAttr)))
		if n > 0 && (size+e > int64(streamAbove) || n == pqio.RowGroupRows) {
			groups = append(groups, n)
			n, size = 0, 0
		}
		n++
		size += e
	}
	if n > 0 || len(groups) == 0 {
		groups = append(groups, n)
	}
	return groups
}

// streamEntries is the number of entries the list columns of rows hold:
// the total of the encode stage.
func streamEntries(rows []setRow) int64 {
	var n int64
	for i := range rows {
		r := &rows[i]
		n += rowEntries(len(r.RowPtr)) + rowEntries(len(r.Col)) + rowEntries(len(r.NodeAttr))
	}
	return n
}

// countWriter counts the bytes written through it: the file offsets.
type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	k, err := c.w.Write(p)
	c.n += int64(k)
	return k, err
}

// encodeStreamed writes rows as a graph-set file to w (see above), telling
// meter the list entries encoded.
func encodeStreamed(w io.Writer, rows []setRow, meta map[string]string, meter Meter) error {
	groups := streamGroups(rows)
	shadow := make([]setRow, len(rows))
	for i := range rows {
		shadow[i] = setRow{featureRow: rows[i].featureRow}
	}
	var sb bytes.Buffer
	if err := pqio.EncodeGroups(&sb, shadow, groups, meta); err != nil {
		return err
	}
	src := sb.Bytes()
	pf, err := parquet.OpenFile(bytes.NewReader(src), int64(len(src)))
	if err != nil {
		return fmt.Errorf("reading back the scalar columns: %w", err)
	}
	md := *pf.Metadata()
	if len(md.RowGroups) != len(groups) {
		return fmt.Errorf("parquet-go wrote %d row groups, want %d", len(md.RowGroups), len(groups))
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	cw := &countWriter{w: bw}
	if _, err := io.WriteString(cw, "PAR1"); err != nil {
		return err
	}
	meter.Stage("encode", "entries", streamEntries(rows))
	rgs := make([]format.RowGroup, len(md.RowGroups))
	start := 0
	for g := range md.RowGroups {
		rg := md.RowGroups[g]
		grp := rows[start : start+groups[g]]
		start += groups[g]
		cols := make([]format.ColumnChunk, len(rg.Columns))
		var size, csize int64
		for j := range rg.Columns {
			cc := &rg.Columns[j]
			begin := cw.n
			var err error
			switch name := cc.MetaData.PathInSchema; {
			case len(name) == 3 && name[0] == listColumns[0]:
				cols[j], err = writeListChunk(cw, pf.Schema(), cc, grp, func(r *setRow) []int32 { return r.RowPtr }, appendInt32s, meter)
			case len(name) == 3 && name[0] == listColumns[1]:
				cols[j], err = writeListChunk(cw, pf.Schema(), cc, grp, func(r *setRow) []int32 { return r.Col }, appendInt32s, meter)
			case len(name) == 3 && name[0] == listColumns[2]:
				cols[j], err = writeListChunk(cw, pf.Schema(), cc, grp, func(r *setRow) []float64 { return r.NodeAttr }, appendFloat64s, meter)
			default:
				cols[j], err = copyChunk(cw, src, cc)
			}
			if err != nil {
				return fmt.Errorf("row group %d, column %v: %w", g, cc.MetaData.PathInSchema, err)
			}
			if j == 0 {
				rg.FileOffset = begin
			}
			size += cols[j].MetaData.TotalUncompressedSize
			csize += cols[j].MetaData.TotalCompressedSize
		}
		rg.Columns = cols
		rg.TotalByteSize, rg.TotalCompressedSize = size, csize
		rgs[g] = rg
	}
	md.RowGroups = rgs
	footer, err := thrift.Marshal(new(thrift.CompactProtocol), &md)
	if err != nil {
		return fmt.Errorf("encoding the footer: %w", err)
	}
	if _, err := cw.Write(footer); err != nil {
		return err
	}
	var tail [8]byte
	binary.LittleEndian.PutUint32(tail[:4], uint32(len(footer)))
	copy(tail[4:], "PAR1")
	if _, err := cw.Write(tail[:]); err != nil {
		return err
	}
	return bw.Flush()
}

// copyChunk copies column chunk cc of the file src to w verbatim, moving
// its offsets. The page index is not copied (no chunk of a streamed file
// has one), so neither are its offsets.
func copyChunk(w *countWriter, src []byte, cc *format.ColumnChunk) (format.ColumnChunk, error) {
	out := *cc
	m := &out.MetaData
	begin := m.DataPageOffset
	if d := m.DictionaryPageOffset; d > 0 && d < begin {
		begin = d
	}
	end := begin + m.TotalCompressedSize
	if begin < 4 || end > int64(len(src)) || end < begin {
		return out, fmt.Errorf("chunk [%d, %d) outside the %d-byte file", begin, end, len(src))
	}
	delta := w.n - begin
	if _, err := w.Write(src[begin:end]); err != nil {
		return out, err
	}
	m.DataPageOffset += delta
	if m.DictionaryPageOffset > 0 {
		m.DictionaryPageOffset += delta
	}
	if m.IndexPageOffset > 0 {
		m.IndexPageOffset += delta
	}
	if out.FileOffset > 0 {
		out.FileOffset += delta
	}
	out.ColumnIndexOffset, out.ColumnIndexLength = 0, 0
	out.OffsetIndexOffset, out.OffsetIndexLength = 0, 0
	return out, nil
}

// appendInt32s and appendFloat64s append values PLAIN-encoded (little
// endian).
func appendInt32s(dst []byte, v []int32) []byte {
	for _, x := range v {
		dst = binary.LittleEndian.AppendUint32(dst, uint32(x))
	}
	return dst
}

func appendFloat64s(dst []byte, v []float64) []byte {
	for _, x := range v {
		dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(x))
	}
	return dst
}

// streamPage is one data page of a list chunk: the entries from row r,
// value k on, n entries in all, and its encoded and compressed bytes.
type streamPage struct {
	r, k, n  int
	rep, def []byte // levels, one per entry
	plain    []byte // uncompressed page: levels (length-prefixed) and values
	tmp      []byte // encoded levels
	comp     []byte
	err      error
}

// writeListChunk writes the list column of chunk cc (in the shadow file)
// for rows grp as data pages of at most streamPageValues entries, and
// returns the chunk's metadata.
func writeListChunk[T any](w *countWriter, schema *parquet.Schema, cc *format.ColumnChunk, grp []setRow,
	list func(*setRow) []T, appendValues func([]byte, []T) []byte, meter Meter) (format.ColumnChunk, error) {
	out := *cc
	leaf, ok := schema.Lookup(cc.MetaData.PathInSchema...)
	if !ok || leaf.MaxRepetitionLevel != 1 || leaf.MaxDefinitionLevel < 1 {
		return out, fmt.Errorf("not a list column of one level")
	}
	maxDef := byte(leaf.MaxDefinitionLevel)
	emptyDef := maxDef - 1 // a list without elements
	if leaf.Node.Optional() {
		emptyDef-- // the level below max marks a null element
	}
	// Page boundaries: page p starts at entry p*P of the chunk.
	var entries int64
	for i := range grp {
		entries += rowEntries(len(list(&grp[i])))
	}
	P := int64(streamPageValues)
	npages := int((entries + P - 1) / P)
	workers := max(1, min(runtime.GOMAXPROCS(0), npages))
	slots := make([]streamPage, workers)
	r, k := 0, 0 // the next page's first entry: row r, value k
	begin := w.n
	var usize, csize int64
	for p := 0; p < npages; p += workers {
		batch := slots[:min(workers, npages-p)]
		for i := range batch {
			s := &batch[i]
			s.r, s.k = r, k
			s.n = int(min(P, entries-int64(p+i)*P))
			r, k = advance(grp, list, r, k, s.n)
		}
		var wg sync.WaitGroup
		for i := range batch {
			wg.Add(1)
			go func(s *streamPage) {
				defer wg.Done()
				s.err = encodePage(s, grp, list, appendValues, maxDef, emptyDef)
			}(&batch[i])
		}
		wg.Wait()
		for i := range batch {
			s := &batch[i]
			if s.err != nil {
				return out, s.err
			}
			if len(s.plain) > math.MaxInt32 || len(s.comp) > math.MaxInt32 {
				return out, fmt.Errorf("page of %d bytes", len(s.plain))
			}
			h := format.PageHeader{
				Type:                 format.DataPage,
				UncompressedPageSize: int32(len(s.plain)),
				CompressedPageSize:   int32(len(s.comp)),
				CRC:                  int32(crc32.ChecksumIEEE(s.comp)),
				DataPageHeader: thrift.New(format.DataPageHeader{
					NumValues:               int32(s.n),
					Encoding:                format.Plain,
					DefinitionLevelEncoding: format.RLE,
					RepetitionLevelEncoding: format.RLE,
				}),
			}
			hb, err := thrift.Marshal(new(thrift.CompactProtocol), &h)
			if err != nil {
				return out, err
			}
			if _, err := w.Write(hb); err != nil {
				return out, err
			}
			if _, err := w.Write(s.comp); err != nil {
				return out, err
			}
			usize += int64(len(hb) + len(s.plain))
			csize += int64(len(hb) + len(s.comp))
			meter.Add(int64(s.n))
		}
	}
	if r != len(grp) {
		return out, fmt.Errorf("pages end at row %d of %d", r, len(grp))
	}
	out.FileOffset = begin
	out.ColumnIndexOffset, out.ColumnIndexLength = 0, 0
	out.OffsetIndexOffset, out.OffsetIndexLength = 0, 0
	m := &out.MetaData
	m.Encoding = thrift.Slice[format.Encoding]{format.Plain, format.RLE}
	m.NumValues = entries
	m.TotalUncompressedSize, m.TotalCompressedSize = usize, csize
	m.DataPageOffset, m.DictionaryPageOffset, m.IndexPageOffset = begin, 0, 0
	m.Statistics = format.Statistics{}
	m.SizeStatistics = format.SizeStatistics{}
	m.EncodingStats = thrift.Slice[format.PageEncodingStats]{{PageType: format.DataPage, Encoding: format.Plain, Count: int32(npages)}}
	m.BloomFilterOffset, m.BloomFilterLength = 0, 0
	return out, nil
}

// advance moves the entry cursor (row r, value k) on by n entries.
func advance[T any](grp []setRow, list func(*setRow) []T, r, k, n int) (int, int) {
	for n > 0 && r < len(grp) {
		left := int(rowEntries(len(list(&grp[r])))) - k
		if n < left {
			return r, k + n
		}
		n -= left
		r, k = r+1, 0
	}
	return r, k
}

// encodePage fills page s's levels and values (entries of list in grp)
// and compresses it.
func encodePage[T any](s *streamPage, grp []setRow, list func(*setRow) []T, appendValues func([]byte, []T) []byte,
	maxDef, emptyDef byte) error {
	s.rep, s.def = s.rep[:0], s.def[:0]
	// Levels first, then the values behind them: two walks over the rows.
	r, k, left := s.r, s.k, s.n
	for left > 0 {
		l := list(&grp[r])
		if len(l) == 0 {
			s.rep, s.def = append(s.rep, 0), append(s.def, emptyDef)
			left--
			r, k = r+1, 0
			continue
		}
		take := min(left, len(l)-k)
		n0 := len(s.rep)
		s.rep, s.def = fill(s.rep, take, 1), fill(s.def, take, maxDef)
		if k == 0 {
			s.rep[n0] = 0 // a row starts
		}
		left -= take
		if k += take; k == len(l) {
			r, k = r+1, 0
		}
	}
	var err error
	s.plain = s.plain[:0]
	for _, lv := range [...]struct {
		levels []byte
		width  int
	}{{s.rep, 1}, {s.def, bits.Len8(maxDef)}} {
		enc := rle.Encoding{BitWidth: lv.width}
		if s.tmp, err = enc.EncodeLevels(s.tmp[:0], lv.levels); err != nil {
			return err
		}
		s.plain = binary.LittleEndian.AppendUint32(s.plain, uint32(len(s.tmp)))
		s.plain = append(s.plain, s.tmp...)
	}
	r, k, left = s.r, s.k, s.n
	for left > 0 {
		l := list(&grp[r])
		if len(l) == 0 {
			left--
			r, k = r+1, 0
			continue
		}
		take := min(left, len(l)-k)
		s.plain = appendValues(s.plain, l[k:k+take])
		left -= take
		if k += take; k == len(l) {
			r, k = r+1, 0
		}
	}
	s.comp, err = pqio.Compress(s.comp, s.plain)
	return err
}

// fill appends n copies of b to dst.
func fill(dst []byte, n int, b byte) []byte {
	dst = slices.Grow(dst, n)
	m := len(dst)
	dst = dst[:m+n]
	for i := m; i < len(dst); i++ {
		dst[i] = b
	}
	return dst
}
