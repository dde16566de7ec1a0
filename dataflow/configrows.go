package dataflow

import (
	"fmt"
	"io"
	"text/tabwriter"
)

// ConfigRow is a configuration with the tile sizes it takes for one layer
// ('gnnsim configs').
type ConfigRow struct {
	Name    string `json:"name"`
	Inter   string `json:"inter"`
	Tiling  string `json:"tiling"`
	AggPEs  int    `json:"agg_pes"`
	CombPEs int    `json:"comb_pes"`
	Va      int    `json:"t_va"`
	N       int    `json:"t_n"`
	Fa      int    `json:"t_fa"`
	Vc      int    `json:"t_vc"`
	Gc      int    `json:"t_gc"`
	Fc      int    `json:"t_fc"`
}

// ConfigRows lists configurations with their tiles.
func ConfigRows(cfgs []Config) []ConfigRow {
	rows := make([]ConfigRow, len(cfgs))
	for i, c := range cfgs {
		t := c.Tiles
		rows[i] = ConfigRow{c.Name(), c.Inter.String(), c.Tiling, c.AggPEs, c.CombPEs, t.Va, t.N, t.Fa, t.Vc, t.Gc, t.Fc}
	}
	return rows
}

// WriteConfigTable prints configuration rows as a right-aligned table.
func WriteConfigTable(w io.Writer, rows []ConfigRow) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "config\tagg_pes\tcomb_pes\tT_Va\tT_N\tT_Fa\tT_Vc\tT_Gc\tT_Fc\t\n")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t\n", r.Name, r.AggPEs, r.CombPEs, r.Va, r.N, r.Fa, r.Vc, r.Gc, r.Fc)
	}
	return tw.Flush()
}
