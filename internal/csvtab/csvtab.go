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
