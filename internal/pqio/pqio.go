// Package pqio writes and reads gnnsim's Parquet tables. Every table goes
// through it so that all of them share the same guarantees:
//
//   - crash safety: rows go to a temp file in the target directory, which is
//     synced and renamed over the target only when complete, so a reader
//     never sees a half-written file;
//   - zstd compression and row groups of at most RowGroupRows rows, so files
//     stream in bounded memory in DuckDB, pandas, polars and Spark;
//   - key-value metadata (spec, seed, gnnsim version, ...) written in sorted
//     key order, so equal inputs give byte-identical files.
//
// Rows are Go structs with `parquet:"name"` tags (see parquet-go).
package pqio

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/zstd"

	"gnnsim"
	"gnnsim/internal/atomicfile"
	"gnnsim/internal/boundedio"
)

// RowGroupRows bounds the rows per row group.
const RowGroupRows = 64 * 1024

// codec compresses every file. One for all, so that its pool of zstd
// encoders (each with a history of megabytes) is reused: a codec per
// file left each file's encoders to the garbage collector, and a sweep
// writing thousands of part files peaked at gigabytes (issue 38 item 1).
var codec = &zstd.Codec{Level: zstd.SpeedDefault}

// CreatedBy is every file's created_by footer field.
const CreatedBy = "gnnsim version " + gnnsim.Version

// VersionKey is the metadata key under which Write records gnnsim.Version.
const VersionKey = "gnnsim.version"

// Write writes rows to path atomically with the given key-value metadata
// (plus VersionKey). The directory of path must exist.
func Write[T any](path string, rows []T, meta map[string]string) error {
	err := atomicfile.Write(path, func(w io.Writer) error { return Encode(w, rows, meta) })
	if err != nil {
		return fmt.Errorf("pqio: %w", err)
	}
	return nil
}

// Encode writes rows as one Parquet file to w (no temp-file handling).
func Encode[T any](w io.Writer, rows []T, meta map[string]string) error {
	sw := newWriter[T](w, meta)
	for start := 0; start < len(rows); start += RowGroupRows {
		end := min(start+RowGroupRows, len(rows))
		if _, err := sw.pw.Write(rows[start:end]); err != nil {
			sw.pw.Close()
			return err
		}
	}
	return sw.pw.Close()
}

// Writer streams rows into one Parquet file: it holds at most a row
// group's rows (RowGroupRows), so a table of any length is written in
// bounded memory. The file equals Encode's of all the rows written, byte
// for byte, however the rows were split among the calls to Write.
type Writer[T any] struct {
	pw  *parquet.GenericWriter[T]
	buf []T
	n   int64

	// With size set, a row group also ends once its rows' sizes sum to
	// budget bytes (WriteStreamBudget); used is the current group's sum.
	size         func(*T) int64
	budget, used int64
}

func newWriter[T any](w io.Writer, meta map[string]string) *Writer[T] {
	opts := []parquet.WriterOption{
		parquet.Compression(codec),
		parquet.MaxRowsPerRowGroup(RowGroupRows),
		// parquet-go's CreatedBy appends "(build B)" even to an empty B;
		// the file's created_by is "gnnsim version V", parquet-mr's form.
		&parquet.WriterConfig{CreatedBy: CreatedBy},
	}
	ns := Namespace(meta)
	keys := make([]string, 0, len(ns)+1)
	for k := range ns {
		if k != VersionKey {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		opts = append(opts, parquet.KeyValueMetadata(k, ns[k]))
	}
	opts = append(opts, parquet.KeyValueMetadata(VersionKey, gnnsim.Version))
	return &Writer[T]{pw: parquet.NewGenericWriter[T](w, opts...)}
}

// KeyPrefix starts every key-value metadata key gnnsim writes.
const KeyPrefix = "gnnsim."

// Namespace returns meta with every key under KeyPrefix ("seed" becomes
// "gnnsim.seed"), as every file gnnsim writes keeps them: one place, so
// no writer can leave a bare key beside namespaced ones. A bare key whose
// namespaced twin is also given yields to it.
func Namespace(meta map[string]string) map[string]string {
	out := make(map[string]string, len(meta))
	for k, v := range meta {
		if !strings.HasPrefix(k, KeyPrefix) {
			if _, dup := meta[KeyPrefix+k]; dup {
				continue
			}
			k = KeyPrefix + k
		}
		out[k] = v
	}
	return out
}

// Write appends rows. They are copied (shallowly): the caller may reuse
// the slice, not what its rows point to, until the file is written.
func (w *Writer[T]) Write(rows []T) error {
	for len(rows) > 0 {
		if w.buf == nil {
			w.buf = make([]T, 0, min(RowGroupRows, max(len(rows), 1024)))
		}
		k := min(len(rows), RowGroupRows-len(w.buf))
		if w.size != nil { // up to the row that reaches the budget
			for j := range k {
				if w.used += w.size(&rows[j]); w.used >= w.budget {
					k = j + 1
					break
				}
			}
		}
		w.buf = append(w.buf, rows[:k]...)
		rows = rows[k:]
		w.n += int64(k)
		if len(w.buf) == RowGroupRows || w.size != nil && w.used >= w.budget {
			if err := w.flush(); err != nil {
				return err
			}
		}
	}
	return nil
}

// Rows returns the number of rows written so far.
func (w *Writer[T]) Rows() int64 { return w.n }

// flush writes the buffered rows as Encode would: one call per row group.
func (w *Writer[T]) flush() error {
	if len(w.buf) == 0 {
		return nil
	}
	_, err := w.pw.Write(w.buf)
	if err == nil && len(w.buf) < RowGroupRows && w.size != nil && w.used >= w.budget {
		err = w.pw.Flush() // the budget ends the row group early
	}
	clear(w.buf) // drop references to the rows' lists and strings
	w.buf, w.used = w.buf[:0], 0
	return err
}

func (w *Writer[T]) close() error {
	if err := w.flush(); err != nil {
		w.pw.Close()
		return err
	}
	return w.pw.Close()
}

// WriteStream writes the rows fill passes to the Writer as one Parquet
// file at path, atomically (as Write), with the given metadata. When fill
// fails, nothing is written at path.
func WriteStream[T any](path string, meta map[string]string, fill func(*Writer[T]) error) error {
	return writeStream(path, meta, fill)
}

// WriteStreamBudget is WriteStream ending a row group also once the
// sizes of its rows (size, in bytes) sum to budget: rows of megabytes
// each (a graph and its CSR) would make a group of RowGroupRows rows,
// which the Writer and parquet-go hold until it is complete, gigabytes.
// A row group holds at least one row. The file is deterministic (the cut
// depends on the rows alone) and equals WriteStream's while the rows
// stay under budget.
func WriteStreamBudget[T any](path string, meta map[string]string, budget int64, size func(*T) int64, fill func(*Writer[T]) error) error {
	if budget <= 0 || size == nil {
		return errors.New("pqio: WriteStreamBudget needs a positive budget and a size")
	}
	return writeStream(path, meta, func(w *Writer[T]) error {
		w.size, w.budget = size, budget
		return fill(w)
	})
}

func writeStream[T any](path string, meta map[string]string, fill func(*Writer[T]) error) error {
	err := atomicfile.Write(path, func(out io.Writer) error {
		w := newWriter[T](out, meta)
		if err := fill(w); err != nil {
			w.pw.Close()
			return err
		}
		return w.close()
	})
	if err != nil {
		return fmt.Errorf("pqio: %w", err)
	}
	return nil
}

// File is an open Parquet file whose footer was checked before parquet-go
// parsed it. Close it when done.
type File struct {
	*parquet.File
	f *os.File
}

// Close closes the underlying file.
func (f *File) Close() error { return f.f.Close() }

// Open opens a Parquet file for reading. It checks the magic numbers and
// that the declared footer fits in the file first: parquet-go allocates
// whatever footer length a file declares, so a 19-byte corrupt file could
// otherwise ask for gigabytes.
func Open(path string) (*File, error) {
	if err := boundedio.CheckRegular(path, "Parquet"); err != nil {
		return nil, fmt.Errorf("pqio: %w", err)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("pqio: %w", err)
	}
	st, err := f.Stat()
	if err == nil {
		err = checkFooter(f, st.Size())
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("pqio: %s: %w", path, err)
	}
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("pqio: %s: %w", path, err)
	}
	return &File{pf, f}, nil
}

// CheckFile reads only the ends of path and reports whether it looks like
// a complete Parquet file (magic numbers, a footer that fits): a cheap
// check for files that a crash or a bad disk may have damaged.
func CheckFile(path string) error {
	if err := boundedio.CheckRegular(path, "Parquet"); err != nil {
		return fmt.Errorf("pqio: %w", err)
	}
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("pqio: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err == nil {
		err = checkFooter(f, st.Size())
	}
	if err != nil {
		return fmt.Errorf("pqio: %s: %w", path, err)
	}
	return nil
}

func checkFooter(r io.ReaderAt, size int64) error {
	const magic = "PAR1"
	if size < 12 {
		return fmt.Errorf("not a Parquet file (%d bytes)", size)
	}
	var head [4]byte
	var tail [8]byte
	if _, err := r.ReadAt(head[:], 0); err != nil {
		return err
	}
	if _, err := r.ReadAt(tail[:], size-8); err != nil {
		return err
	}
	if string(head[:]) != magic || string(tail[4:]) != magic {
		return errors.New("not a Parquet file (bad magic number)")
	}
	if n := int64(binary.LittleEndian.Uint32(tail[:4])); n > size-12 {
		return fmt.Errorf("corrupt Parquet file: footer of %d bytes in a %d-byte file", n, size)
	}
	return nil
}

// checkColumns makes sure the file has every required column of the row
// type with the same physical type: parquet-go reads columns missing from a
// file as zeros, so without this a Parquet file of another kind would read
// as rows of zeros. Optional columns may be absent.
func checkColumns(path string, have, want *parquet.Schema) error {
	for _, col := range want.Columns() {
		wl, _ := want.Lookup(col...)
		hl, ok := have.Lookup(col...)
		name := col[0]
		if !ok {
			if wl.Node.Optional() {
				continue
			}
			return fmt.Errorf("pqio: %s has no column %s: not the kind of table expected here", path, name)
		}
		if wk, hk := wl.Node.Type().Kind(), hl.Node.Type().Kind(); wk != hk {
			return fmt.Errorf("pqio: %s: column %s is %v, want %v: not the kind of table expected here", path, name, hk, wk)
		}
	}
	return nil
}

// HasColumn reports whether the Parquet file at path has a top-level column
// of that name.
func HasColumn(path, name string) (bool, error) {
	pf, err := Open(path)
	if err != nil {
		return false, err
	}
	defer pf.Close()
	_, ok := pf.Schema().Lookup(name)
	return ok, nil
}

// Meta returns the file's key-value metadata.
func (f *File) Meta() map[string]string {
	meta := map[string]string{}
	for _, kv := range f.Metadata().KeyValueMetadata {
		meta[kv.Key] = kv.Value
	}
	return meta
}

// Read reads all rows of a Parquet file written for the row type T, and its
// key-value metadata. Rows are read in batches, so memory follows the rows
// actually present, not the count the file declares.
func Read[T any](path string) ([]T, map[string]string, error) {
	pf, err := Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer pf.Close()
	if err := checkColumns(path, pf.Schema(), parquet.SchemaOf(new(T))); err != nil {
		return nil, nil, err
	}
	r := parquet.NewGenericReader[T](pf.File)
	defer r.Close()
	// The footer's row count sizes the result (bounded: a damaged footer
	// must not reserve gigabytes), so rows are copied once.
	rows := make([]T, 0, min(max(pf.NumRows(), 0), 1<<16))
	batch := make([]T, 1024)
	for {
		k, err := r.Read(batch)
		rows = append(rows, batch[:k]...)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, nil, fmt.Errorf("pqio: reading %s: %w", path, err)
		}
		if k == 0 {
			return nil, nil, fmt.Errorf("pqio: reading %s: no progress after row %d", path, len(rows))
		}
	}
	if n := r.NumRows(); int64(len(rows)) != n {
		return nil, nil, fmt.Errorf("pqio: %s: read %d of %d rows", path, len(rows), n)
	}
	return rows, pf.Meta(), nil
}

// StreamRuns writes the items fill hands to add as one Parquet table at
// path, atomically, with the given metadata: rows appends an item's rows
// to dst (its rows are written, then dst is reused for the next item),
// so memory holds one item's rows and a row group however many items
// come (a schedule's runs, each its jobs' records). The file equals
// Write's of all the rows. When fill or rows fails nothing is written at
// path, and fill's own error is returned as it gave it.
func StreamRuns[R, T any](path string, meta map[string]string, rows func(dst []T, item R) ([]T, error), fill func(add func(R) error) error) error {
	var buf []T
	var fillErr error
	err := WriteStream(path, meta, func(w *Writer[T]) error {
		fillErr = fill(func(item R) error {
			var err error
			if buf, err = rows(buf[:0], item); err != nil {
				return err
			}
			err = w.Write(buf)
			clear(buf) // drop references the writer has copied
			return err
		})
		return fillErr
	})
	if fillErr != nil {
		return fillErr
	}
	return err
}
