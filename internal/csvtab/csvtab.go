// Package csvtab reads the header-first CSV tables that gnnsim's reference
// files use (STONNE-Omega, MAESTRO and the FGNAS authors' cost model): the
// header maps column names to indices, every needed column must be there,
// and each record is handed on with its line number for errors. Parsing a
// record's fields is the caller's: each table knows its own types.
package csvtab

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// Columns maps a column name (spaces trimmed) to its index in a record.
type Columns map[string]int

// ReadHeader reads the first record of cr as the header and checks that it
// names every column in need. An empty input is an error that says so.
func ReadHeader(cr *csv.Reader, need []string) (Columns, error) {
	head, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, errors.New("empty file")
	}
	if err != nil {
		return nil, fmt.Errorf("header: %w", err)
	}
	col := make(Columns, len(head))
	for i, h := range head {
		col[strings.TrimSpace(h)] = i
	}
	for _, c := range need {
		if _, ok := col[c]; !ok {
			return nil, fmt.Errorf("no column %q", c)
		}
	}
	return col, nil
}

// Each calls fn with every remaining record of cr and the line it starts on,
// stopping at the first error (fn's errors are returned as they are). It
// returns the number of records read.
func Each(cr *csv.Reader, fn func(rec []string, line int) error) (int, error) {
	n := 0
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return n, nil
		}
		if err != nil {
			return n, err
		}
		line, _ := cr.FieldPos(0)
		if err := fn(rec, line); err != nil {
			return n, err
		}
		n++
	}
}

// Rows reads a whole table from r: the header (every column in need
// present), then one T per record from parse, errors naming the record's
// line; a table with no records is an error.
func Rows[T any](r io.Reader, need []string, parse func(rec []string, col Columns, line int) (T, error)) ([]T, error) {
	cr := csv.NewReader(r)
	col, err := ReadHeader(cr, need)
	if err != nil {
		return nil, err
	}
	var rows []T
	_, err = Each(cr, func(rec []string, line int) error {
		row, err := parse(rec, col, line)
		if err != nil {
			return fmt.Errorf("line %d: %w", line, err)
		}
		rows = append(rows, row)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, errors.New("no rows")
	}
	return rows, nil
}

// Positions maps a header of optional columns to their places: the index
// of each name of known in header, -1 where absent. Names are trimmed (and
// lower-cased with fold), a spreadsheet's byte-order mark before the first
// is dropped; a name not in known, or given twice, is an error naming it.
// It is for the tables whose columns are all optional but a few the
// caller checks (traces, measured tables); ReadHeader is for those that
// need every named column and ignore the others.
func Positions(header, known []string, fold bool) ([]int, error) {
	idx := make([]int, len(known))
	for i := range idx {
		idx[i] = -1
	}
	for pos, h := range header {
		h = strings.TrimSpace(h)
		if fold {
			h = strings.ToLower(h)
		}
		if pos == 0 {
			h = strings.TrimPrefix(h, "\ufeff")
		}
		k := slices.Index(known, h)
		if k < 0 {
			return nil, fmt.Errorf("unknown column %q (known: %s)", h, strings.Join(known, ", "))
		}
		if idx[k] >= 0 {
			return nil, fmt.Errorf("column %q appears twice", h)
		}
		idx[k] = pos
	}
	return idx, nil
}

// Cell returns the trimmed text of column col of rec (idx from
// Positions) and whether the column is present and not empty.
func Cell(rec []string, idx []int, col int) (string, bool) {
	if idx[col] < 0 || idx[col] >= len(rec) {
		return "", false
	}
	s := strings.TrimSpace(rec[idx[col]])
	return s, s != ""
}
