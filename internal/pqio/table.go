package pqio

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/parquet-go/parquet-go"
)

// This file looks into any Parquet file without knowing its row type:
// what `gnnsim table` prints (schema, key-value metadata, row count, the
// first rows), so that a result can be read without pyarrow or DuckDB.

// Column is one top-level column of a file.
type Column struct {
	Name string
	// Type is the leaf's physical type with its logical type when it has
	// one ("BYTE_ARRAY (STRING)"); a list column's is its element's,
	// written "list<...>".
	Type     string
	Optional bool
	leaves   []parquet.LeafColumn // the column's leaf columns, in file order
}

// Summary is what a file declares: its columns, rows, row groups,
// creator and key-value metadata (sorted by key).
type Summary struct {
	Rows      int64
	RowGroups int
	CreatedBy string
	Columns   []Column
	Meta      [][2]string
}

// Summarize reads the footer of the Parquet file at path.
func Summarize(path string) (Summary, error) {
	f, err := Open(path)
	if err != nil {
		return Summary{}, err
	}
	defer f.Close()
	return summarize(f), nil
}

func summarize(f *File) Summary {
	md := f.Metadata()
	s := Summary{Rows: f.NumRows(), RowGroups: len(f.RowGroups()), CreatedBy: md.CreatedBy}
	for _, kv := range md.KeyValueMetadata {
		s.Meta = append(s.Meta, [2]string{kv.Key, kv.Value})
	}
	slices.SortFunc(s.Meta, func(a, b [2]string) int { return strings.Compare(a[0], b[0]) })
	schema := f.Schema()
	for _, path := range schema.Columns() {
		leaf, ok := schema.Lookup(path...)
		if !ok {
			continue
		}
		if n := len(s.Columns); n > 0 && s.Columns[n-1].Name == path[0] {
			s.Columns[n-1].leaves = append(s.Columns[n-1].leaves, leaf)
			continue
		}
		typ := leaf.Node.Type().String()
		if lt := leaf.Node.Type().LogicalType(); lt != nil {
			typ = fmt.Sprintf("%s (%s)", leaf.Node.Type().Kind(), lt)
		}
		if leaf.MaxRepetitionLevel > 0 {
			typ = "list<" + typ + ">"
		}
		top := schema.Fields()
		opt := false
		for _, fd := range top {
			if fd.Name() == path[0] {
				opt = fd.Optional()
			}
		}
		s.Columns = append(s.Columns, Column{Name: path[0], Type: typ, Optional: opt, leaves: []parquet.LeafColumn{leaf}})
	}
	return s
}

// Head reads the first n rows of the file at path (all of them for n < 0),
// keeping the top-level columns named in cols (all when empty, in file
// order; else in the order given). Each row holds one value per column:
// nil for a null, a bool, int32, int64, float32, float64 or string for a
// scalar, a []any of them for a list; a column of several leaves (a
// struct) gives a map of leaf path to value.
func Head(path string, cols []string, n int) ([]Column, [][]any, error) {
	f, err := Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	s := summarize(f)
	picked := s.Columns
	if len(cols) > 0 {
		picked = nil
		for _, name := range cols {
			i := slices.IndexFunc(s.Columns, func(c Column) bool { return c.Name == name })
			if i < 0 {
				names := make([]string, len(s.Columns))
				for k, c := range s.Columns {
					names[k] = c.Name
				}
				return nil, nil, fmt.Errorf("pqio: %s has no column %q (it has %s)", path, name, strings.Join(names, ", "))
			}
			if slices.ContainsFunc(picked, func(c Column) bool { return c.Name == name }) {
				return nil, nil, fmt.Errorf("pqio: column %q named twice", name)
			}
			picked = append(picked, s.Columns[i])
		}
	}
	// leafOf maps a leaf column index to (picked column, leaf).
	type at struct{ col, leaf int }
	leafOf := map[int]at{}
	for ci, c := range picked {
		for li, l := range c.leaves {
			leafOf[l.ColumnIndex] = at{ci, li}
		}
	}
	var out [][]any
	buf := make([]parquet.Row, 64)
	for _, rg := range f.RowGroups() {
		if n >= 0 && len(out) >= n {
			break
		}
		rows := rg.Rows()
		for n < 0 || len(out) < n {
			k, err := rows.ReadRows(buf)
			for _, row := range buf[:k] {
				if n >= 0 && len(out) >= n {
					break
				}
				vals := make([][][]any, len(picked)) // per column, per leaf, its values
				for ci := range picked {
					vals[ci] = make([][]any, len(picked[ci].leaves))
				}
				for _, v := range row {
					a, ok := leafOf[v.Column()]
					if !ok {
						continue
					}
					l := picked[a.col].leaves[a.leaf]
					var x any
					if v.DefinitionLevel() == l.MaxDefinitionLevel {
						x = goValue(v)
					} else if l.MaxRepetitionLevel > 0 {
						continue // an empty or null list: no element
					}
					vals[a.col][a.leaf] = append(vals[a.col][a.leaf], x)
				}
				r := make([]any, len(picked))
				for ci, c := range picked {
					one := func(li int) any {
						if c.leaves[li].MaxRepetitionLevel > 0 {
							if vals[ci][li] == nil {
								return []any{}
							}
							return vals[ci][li]
						}
						if len(vals[ci][li]) == 0 {
							return nil
						}
						return vals[ci][li][0]
					}
					if len(c.leaves) == 1 {
						r[ci] = one(0)
						continue
					}
					m := map[string]any{}
					for li, l := range c.leaves {
						m[strings.Join(l.Path, ".")] = one(li)
					}
					r[ci] = m
				}
				out = append(out, r)
			}
			if errors.Is(err, io.EOF) || k == 0 && err == nil {
				break
			}
			if err != nil {
				rows.Close()
				return nil, nil, fmt.Errorf("pqio: reading %s: %w", path, err)
			}
		}
		rows.Close()
	}
	return picked, out, nil
}

// goValue converts a non-null leaf value.
func goValue(v parquet.Value) any {
	switch v.Kind() {
	case parquet.Boolean:
		return v.Boolean()
	case parquet.Int32:
		return v.Int32()
	case parquet.Int64:
		return v.Int64()
	case parquet.Float:
		return v.Float()
	case parquet.Double:
		return v.Double()
	case parquet.ByteArray, parquet.FixedLenByteArray:
		return string(v.ByteArray())
	}
	return v.String()
}
