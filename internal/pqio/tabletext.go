package pqio

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// WriteRowsJSON prints rows of Head as JSON lines, one object per row
// (a NaN or an infinity as its text: JSON has neither).
func WriteRowsJSON(w io.Writer, cols []Column, data [][]any) error {
	var line []byte
	for _, r := range data {
		line = append(line[:0], '{')
		for i, c := range cols {
			if i > 0 {
				line = append(line, ',')
			}
			k, _ := json.Marshal(c.Name)
			v, err := json.Marshal(r[i])
			if err != nil { // NaN or Inf: JSON has neither
				v, _ = json.Marshal(fmt.Sprint(r[i]))
			}
			line = append(append(append(line, k...), ':'), v...)
		}
		line = append(line, '}', '\n')
		if _, err := w.Write(line); err != nil {
			return err
		}
	}
	return nil
}

// WriteTableText prints a file's Summary (columns, metadata) and rows of
// Head as text ('gnnsim table').
func WriteTableText(w io.Writer, path string, s Summary, cols []Column, data [][]any) {
	fmt.Fprintf(w, "%s: %d rows in %d row groups, %d columns; created by %s\n", path, s.Rows, s.RowGroups, len(s.Columns), s.CreatedBy)
	fmt.Fprintln(w, "columns:")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, c := range s.Columns {
		opt := ""
		if c.Optional {
			opt = "\toptional"
		}
		fmt.Fprintf(tw, "  %s\t%s%s\n", c.Name, c.Type, opt)
	}
	tw.Flush()
	if len(s.Meta) > 0 {
		fmt.Fprintln(w, "metadata:")
		for _, kv := range s.Meta {
			v := kv[1]
			if lines := strings.Count(strings.TrimRight(v, "\n"), "\n") + 1; lines > 1 {
				first, _, _ := strings.Cut(v, "\n")
				v = fmt.Sprintf("%s ... (%d lines)", first, lines)
			}
			fmt.Fprintf(w, "  %s = %s\n", kv[0], v)
		}
	}
	if len(data) == 0 {
		return
	}
	fmt.Fprintf(w, "first %d rows:\n", len(data))
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for i, c := range cols {
		if i > 0 {
			fmt.Fprint(tw, "\t")
		}
		fmt.Fprint(tw, c.Name)
	}
	fmt.Fprintln(tw)
	for _, r := range data {
		for i, v := range r {
			if i > 0 {
				fmt.Fprint(tw, "\t")
			}
			fmt.Fprint(tw, cellText(v))
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
}

// cellText is a value as a table cell: one line, lists cut to 8 elements.
func cellText(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		s := strings.ReplaceAll(x, "\n", `\n`)
		if len(s) > 60 {
			s = s[:57] + "..."
		}
		return s
	case []any:
		parts := make([]string, 0, min(len(x), 8))
		for _, e := range x[:min(len(x), 8)] {
			parts = append(parts, cellText(e))
		}
		s := "[" + strings.Join(parts, " ")
		if len(x) > 8 {
			s += fmt.Sprintf(" ... (%d)", len(x))
		}
		return s + "]"
	case map[string]any:
		b, _ := json.Marshal(x)
		return string(b)
	}
	return fmt.Sprint(v)
}
