package seed004

import (
	"fmt"
	"io"
	"time"

	"gnnsim/accel/fpga"
)

// ParseCostModels reads the names of the cost models to search under
// (repro seed004 --models).
func ParseCostModels(names []string) ([]fpga.Model, error) {
	var ms []fpga.Model
	for _, name := range names {
		m, err := fpga.ParseModel(name)
		if err != nil {
			return nil, fmt.Errorf("--models: %w", err)
		}
		ms = append(ms, m)
	}
	return ms, nil
}

// WriteSummary prints one line per Table 3 cell and per Table 4 cell off
// Cora (Table 3 holds Cora's), then where the report went and the wall
// time.
func (r *Report) WriteSummary(w io.Writer, out string, wall time.Duration) {
	for _, c := range r.Table3 {
		fmt.Fprintf(w, "%-8s %-22s %-10s %-8s %s (trained %d)\n", c.Data, c.Limits, c.Model, c.Method, c.Verdict(), c.Trained)
	}
	for _, c := range r.Table4 {
		if c.Data != "cora" {
			fmt.Fprintf(w, "%-8s %-22s %-10s %-8s %s (trained %d)\n", c.Data, c.Limits, c.Model, c.Method, c.Verdict(), c.Trained)
		}
	}
	fmt.Fprintf(w, "report: %s/report.md (wall %.1f s)\n", out, wall.Seconds())
}
