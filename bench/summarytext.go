package bench

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// SummaryReport is a sweep's Summary as 'gnnsim sweep --json' prints it. It
// holds no wall-clock time: the same sweep prints the same object.
type SummaryReport struct {
	Graphs         int           `json:"graphs"`
	Points         int           `json:"points"`
	Runs           int           `json:"runs"`
	Chunks         int           `json:"chunks"`
	ChunksDone     int           `json:"chunks_done"`
	ChunksComputed int           `json:"chunks_computed"`
	ChunksReused   int           `json:"chunks_reused"`
	Complete       bool          `json:"complete"`
	Best           []ConfigCount `json:"best"`
	Skipped        []string      `json:"skipped"`
	Removed        []string      `json:"removed"`
	Out            string        `json:"out"`
}

// ConfigCount is how often a configuration was the best one.
type ConfigCount struct {
	Config string `json:"config"`
	N      int    `json:"n"`
}

// Report returns the summary of a sweep written to out as a report.
func (sum *Summary) Report(out string) SummaryReport {
	s := SummaryReport{Graphs: sum.Graphs, Points: sum.Points, Runs: sum.Runs, Chunks: sum.Chunks, ChunksDone: sum.ChunksDone, ChunksComputed: sum.ChunksComputed,
		ChunksReused: sum.ChunksReused, Complete: sum.Complete, Best: []ConfigCount{},
		Skipped: append([]string{}, sum.Skipped...), Removed: append([]string{}, sum.Removed...), Out: out}
	for _, c := range sum.Best {
		s.Best = append(s.Best, ConfigCount{c.Config, c.N})
	}
	return s
}

// WriteText prints the summary of a sweep written to out in wall time.
func (sum *Summary) WriteText(w io.Writer, out string, wall time.Duration) {
	if len(sum.Skipped) > 0 {
		fmt.Fprintf(w, "skipped %d files:\n", len(sum.Skipped))
		for _, s := range sum.Skipped {
			fmt.Fprintf(w, "  %s\n", s)
		}
	}
	if sum.ChunksReused > 0 {
		fmt.Fprintf(w, "resumed: %d of %d chunks were already finished\n", sum.ChunksReused, sum.Chunks)
	}
	if len(sum.Best) > 0 { // omega sweeps: configurations to count
		total := 0
		for _, c := range sum.Best {
			total += c.N
		}
		fmt.Fprintf(w, "optimal configuration per case (%d cases):\n", total)
		var parts []string
		for _, c := range sum.Best {
			parts = append(parts, fmt.Sprintf("%s=%d (%.1f%%)", c.Config, c.N, 100*float64(c.N)/float64(max(total, 1))))
		}
		for i := 0; i < len(parts); i += 6 {
			fmt.Fprintf(w, "  %s\n", strings.Join(parts[i:min(i+6, len(parts))], "  "))
		}
	}
	if sum.Points > 0 { // a design-point sweep (fpga): no graphs
		fmt.Fprintf(w, "points=%d runs=%d wall_s=%.2f out=%s\n", sum.Points, sum.Runs, wall.Seconds(), out)
		return
	}
	fmt.Fprintf(w, "graphs=%d runs=%d wall_s=%.2f out=%s\n", sum.Graphs, sum.Runs, wall.Seconds(), out)
}
