package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"gnnsim/internal/pqio"
)

func init() { register(newTableCmd) }

// maxTableRows bounds --rows: a look into a file, not an export.
const maxTableRows = 1_000_000

func newTableCmd() *cobra.Command {
	var rows int
	var cols []string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "table FILE.parquet [--rows N] [--columns a,b] [--json]",
		Short: "Show a Parquet file: schema, metadata, row count and its first rows",
		Long: `Show any Parquet file gnnsim writes (or any other) without pyarrow or
DuckDB: its row count, row groups and creator, its columns (name, physical
and logical type, list<...> for a list column, optional), its key-value
metadata (gnnsim.* keys: the command and flags or spec that made it, the
seed, the version; a value of several lines shows its first line and the
count) and its first --rows rows (default 10) as an aligned table; lists
show their first 8 elements and their length.

--columns keeps those top-level columns, in that order. --json prints the
rows alone as JSON lines (one object a row, lists whole), for jq or a
script; the summary then is left out.`,
		Example: `  gnnsim table results/example/runs.parquet
  gnnsim table runs.parquet --rows 3 --columns graph_id,config,cycles
  gnnsim table sch/schedule_records.parquet --rows 100 --json | jq .slowdown`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			path := args[0]
			picked, data, err := pqio.Head(path, cols, rows)
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			if asJSON {
				return writeTableJSON(w, picked, data)
			}
			s, err := pqio.Summarize(path)
			if err != nil {
				return err
			}
			writeTableText(w, path, s, picked, data)
			return nil
		},
	}
	f := cmd.Flags()
	intFlag(f, &rows, "rows", 10, 0, maxTableRows, "rows to show from the start")
	listFlag(f, &cols, "columns", nil, "top-level columns to show, in this order (default: all)")
	f.BoolVar(&asJSON, "json", false, "print the rows as JSON lines, nothing else")
	return cmd
}

// writeTableJSON prints a JSON object a row, its keys in column order.
func writeTableJSON(w io.Writer, cols []pqio.Column, data [][]any) error {
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

func writeTableText(w io.Writer, path string, s pqio.Summary, cols []pqio.Column, data [][]any) {
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
