package main

import (
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
				return pqio.WriteRowsJSON(w, picked, data)
			}
			s, err := pqio.Summarize(path)
			if err != nil {
				return err
			}
			pqio.WriteTableText(w, path, s, picked, data)
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
