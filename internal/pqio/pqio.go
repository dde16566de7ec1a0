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
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/zstd"

	"gnnsim"
)

// RowGroupRows bounds the rows per row group.
const RowGroupRows = 64 * 1024

// VersionKey is the metadata key under which Write records gnnsim.Version.
const VersionKey = "gnnsim.version"

// Write writes rows to path atomically with the given key-value metadata
// (plus VersionKey). The directory of path must exist.
func Write[T any](path string, rows []T, meta map[string]string) (err error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("pqio: %w", err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err = Encode(tmp, rows, meta); err != nil {
		return fmt.Errorf("pqio: writing %s: %w", path, err)
	}
	if err = tmp.Sync(); err != nil {
		return fmt.Errorf("pqio: %w", err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("pqio: %w", err)
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("pqio: %w", err)
	}
	return nil
}

// Encode writes rows as one Parquet file to w (no temp-file handling).
func Encode[T any](w io.Writer, rows []T, meta map[string]string) error {
	opts := []parquet.WriterOption{
		parquet.Compression(&zstd.Codec{Level: zstd.SpeedDefault}),
		parquet.MaxRowsPerRowGroup(RowGroupRows),
		parquet.CreatedBy("gnnsim", gnnsim.Version, ""),
	}
	keys := make([]string, 0, len(meta)+1)
	for k := range meta {
		if k != VersionKey {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		opts = append(opts, parquet.KeyValueMetadata(k, meta[k]))
	}
	opts = append(opts, parquet.KeyValueMetadata(VersionKey, gnnsim.Version))
	pw := parquet.NewGenericWriter[T](w, opts...)
	for start := 0; start < len(rows); start += RowGroupRows {
		end := min(start+RowGroupRows, len(rows))
		if _, err := pw.Write(rows[start:end]); err != nil {
			pw.Close()
			return err
		}
	}
	return pw.Close()
}

// Read reads all rows of a Parquet file written for the row type T, and its
// key-value metadata.
func Read[T any](path string) ([]T, map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("pqio: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, nil, fmt.Errorf("pqio: %w", err)
	}
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		return nil, nil, fmt.Errorf("pqio: %s: %w", path, err)
	}
	meta := map[string]string{}
	for _, kv := range pf.Metadata().KeyValueMetadata {
		meta[kv.Key] = kv.Value
	}
	r := parquet.NewGenericReader[T](pf)
	defer r.Close()
	n := r.NumRows()
	rows := make([]T, n)
	got := 0
	for got < int(n) {
		k, err := r.Read(rows[got:])
		got += k
		if err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			return nil, nil, fmt.Errorf("pqio: reading %s: %w", path, err)
		}
		if k == 0 {
			break
		}
	}
	if got != int(n) {
		return nil, nil, fmt.Errorf("pqio: %s: read %d of %d rows", path, got, n)
	}
	return rows, meta, nil
}
