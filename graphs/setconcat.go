package graphs

import (
	"errors"
	"fmt"
	"maps"
	"strconv"
	"strings"

	"gnnsim/internal/pqio"
)

// estimatedKey prefixes the metadata key of a graph whose clustering and
// triangles were estimated (see WriteOptions.Features): the key ends in
// the graph's row.
const estimatedKey = "gnnsim.features.estimated."

// ConcatSets writes the graph-set files parts, in order, as one set file
// at path with meta as its metadata: the file WriteSet writes for all
// their graphs, byte for byte, without holding them. Rows are
// renumbered, each part's stored features are copied (they are what
// WriteSet computes for the graph) and its estimate notes moved to the
// rows' new numbers. One part's graphs and one row group's rows are in
// memory at a time, so a set of any length is joined in bounded memory
// (a graph sweep's graphs.parquet, issue 38 item 1). Every part is read
// as ReadSet reads it: schema, CSR invariants and row ids checked.
func ConcatSets(path string, parts []string, meta map[string]string) error {
	all, err := concatMeta(parts, meta)
	if err != nil {
		return err
	}
	err = writeSetRows(path, all, func(w *pqio.Writer[setRow]) error {
		var next int64
		for _, part := range parts {
			rows, err := readParts(part)
			if err != nil {
				return &PartError{Path: part, Err: err}
			}
			for i := range rows {
				rows[i].ID = next + int64(i)
			}
			next += int64(len(rows))
			if err := w.Write(rows); err != nil {
				return err
			}
		}
		return nil
	})
	var pe *PartError
	if errors.As(err, &pe) {
		return pe
	}
	if err != nil {
		return fmt.Errorf("graphs: %w", err)
	}
	return nil
}

// PartError is ConcatSets' error when one of its parts cannot be read.
type PartError struct {
	Path string
	Err  error
}

func (e *PartError) Error() string { return e.Err.Error() }
func (e *PartError) Unwrap() error { return e.Err }

// concatMeta returns meta plus the estimate notes of parts, keyed by the
// rows the joined file gives their graphs. It reads only the footers.
func concatMeta(parts []string, meta map[string]string) (map[string]string, error) {
	var out map[string]string
	var offset int64
	for _, part := range parts {
		f, err := pqio.Open(part)
		if err != nil {
			return nil, &PartError{Path: part, Err: err}
		}
		n, pm := f.NumRows(), f.Meta()
		f.Close()
		for k, v := range pm {
			row, ok := strings.CutPrefix(k, estimatedKey)
			if !ok {
				continue
			}
			i, err := strconv.ParseInt(row, 10, 64)
			if err != nil || i < 0 || i >= n {
				return nil, fmt.Errorf("graphs: %s: metadata %s names no row of its %d", part, k, n)
			}
			if out == nil { // the caller's map stays as it was
				out = maps.Clone(meta)
				if out == nil {
					out = map[string]string{}
				}
			}
			out[estimatedKey+strconv.FormatInt(offset+i, 10)] = v
		}
		offset += n
	}
	if out == nil {
		return meta, nil
	}
	return out, nil
}

// readParts reads a part's rows as ReadSet reads them (schema, graphs and
// row ids checked), their stored features included.
func readParts(path string) (rows []setRow, err error) {
	defer recoverCorrupt(path, &err)
	rows, _, _, err = readSetRows(path, noMeter{})
	return rows, err
}
