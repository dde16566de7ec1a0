package workload

import (
	"fmt"
	"io"
	"text/tabwriter"
)

// ZooRow summarises a zoo model: blocks, layers, GMACs and parameters in
// millions ('gnnsim models').
type ZooRow struct {
	Name   string  `json:"name"`
	Blocks int     `json:"blocks"`
	Layers int     `json:"layers"`
	GMACs  float64 `json:"gmacs"`
	Params float64 `json:"params_m"`
}

// ZooRows summarises every zoo model, in ModelNames' order.
func ZooRows() ([]ZooRow, error) {
	var rows []ZooRow
	for _, name := range ModelNames() {
		m, err := LookupModel(name, 0)
		if err != nil {
			return nil, err
		}
		macs, err := m.MACs()
		if err != nil {
			return nil, err
		}
		r := ZooRow{Name: name, Blocks: len(m.Blocks), GMACs: float64(macs) / 1e9, Params: float64(m.Params()) / 1e6}
		for _, b := range m.Blocks {
			r.Layers += len(b.Layers)
		}
		rows = append(rows, r)
	}
	return rows, nil
}

// WriteZooTable prints zoo rows as an aligned table.
func WriteZooTable(w io.Writer, rows []ZooRow) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "model\tblocks\tlayers\tGMACs\tparams_M")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.3f\t%.3f\n", r.Name, r.Blocks, r.Layers, r.GMACs, r.Params)
	}
	return tw.Flush()
}
