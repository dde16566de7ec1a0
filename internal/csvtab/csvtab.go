// Package csvtab reads and writes the header-first CSV tables of gnnsim:
// reference files (STONNE-Omega, MAESTRO, the FGNAS authors' cost model),
// traces, measured tables, accuracy tables and claim ledgers. Open reads
// the header; Need maps the columns a table requires (others ignored),
// Positions the optional columns of a table that knows them all; Each
// hands on every record with its line number for errors. Parsing a
// record's fields is the caller's: each table knows its own types. It is
// the one place in gnnsim that uses encoding/csv.
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

// ErrEmpty is the error of a table with no header.
var ErrEmpty = errors.New("empty file")

// Options say how a table is laid out. The zero value is a plain CSV
// whose records are all as wide as the header.
type Options struct {
	// Comment starts a comment line (0: none).
	Comment rune
	// Ragged lets a record be narrower or wider than the header; a
	// caller then checks that the cells it reads are there.
	Ragged bool
	// Name, when set, prefixes the errors of malformed records (which
	// name their line): "NAME: record on line 3: ...". Errors of Each's
	// fn are returned as they are.
	Name string
}

// Table is a header-first CSV table being read: Header is its first
// record and Line the line it is on; Each reads the rest.
type Table struct {
	cr     *csv.Reader
	name   string
	Header []string
	Line   int
}

// Open reads the header of the table in r. An input with no record is
// ErrEmpty; a malformed header is an error naming its line.
func Open(r io.Reader, o Options) (*Table, error) {
	cr := csv.NewReader(r)
	cr.Comment = o.Comment
	if o.Ragged {
		cr.FieldsPerRecord = -1
	}
	cr.ReuseRecord = true
	head, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, ErrEmpty
	}
	if err != nil {
		return nil, fmt.Errorf("header: %w", err)
	}
	line, _ := cr.FieldPos(0)
	return &Table{cr: cr, name: o.Name, Header: slices.Clone(head), Line: line}, nil
}

// Need maps the header's names (spaces trimmed, lower-cased with fold)
// to their indices and checks that it names every column in need (given
// lower-case with fold). Other columns are ignored.
func (t *Table) Need(need []string, fold bool) (Columns, error) {
	col := make(Columns, len(t.Header))
	for i, h := range t.Header {
		h = strings.TrimSpace(h)
		if fold {
			h = strings.ToLower(h)
		}
		col[h] = i
	}
	for _, c := range need {
		if _, ok := col[c]; !ok {
			return nil, fmt.Errorf("no column %q", c)
		}
	}
	return col, nil
}

// Positions is the package function Positions on the table's header.
func (t *Table) Positions(known []string, fold bool) ([]int, error) {
	return Positions(t.Header, known, fold)
}

// Each calls fn with every remaining record and the line it starts on,
// stopping at the first error (fn's errors are returned as they are; a
// malformed record's csv.ParseError names its line, after Options.Name).
// rec is reused from
// one call to the next: fn keeps its strings, never the slice. Each
// returns the number of records read.
func (t *Table) Each(fn func(rec []string, line int) error) (int, error) {
	n := 0
	for {
		rec, err := t.cr.Read()
		if errors.Is(err, io.EOF) {
			return n, nil
		}
		if err != nil && t.name != "" {
			return n, fmt.Errorf("%s: %w", t.name, err)
		}
		if err != nil {
			return n, err
		}
		line, _ := t.cr.FieldPos(0)
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
	t, err := Open(r, Options{})
	if err != nil {
		return nil, err
	}
	col, err := t.Need(need, false)
	if err != nil {
		return nil, err
	}
	var rows []T
	_, err = t.Each(func(rec []string, line int) error {
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

// Write writes a table to w: the header, then n records, record i from
// rec (which may hand back the same slice each time, refilled).
func Write(w io.Writer, header []string, n int, rec func(i int) []string) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(header); err != nil {
		return err
	}
	for i := range n {
		if err := cw.Write(rec(i)); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
