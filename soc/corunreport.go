package soc

import (
	"fmt"
	"io"
	"text/tabwriter"
)

// CoRunRecord is one run of a co-run as 'gnnsim soc corun' reports it:
// its latency alone and beside the others, and per unit its busy share of
// the window and its DRAM bandwidth there.
type CoRunRecord struct {
	Model     string  `json:"model" parquet:"model"`
	Mapping   string  `json:"mapping" parquet:"mapping"`
	AloneMS   float64 `json:"alone_ms" parquet:"alone_ms"`
	LatencyMS float64 `json:"latency_ms" parquet:"latency_ms"`
	Slowdown  float64 `json:"slowdown" parquet:"slowdown"`
	Frames    int     `json:"frames" parquet:"frames"`
	Steady    bool    `json:"steady" parquet:"steady"`
	// Per unit, in the order of Units: the share of the co-run's window
	// the run held the unit, and the DRAM bandwidth its steps there used.
	Units     []string  `json:"units" parquet:"units,list"`
	BusyShare []float64 `json:"busy_share" parquet:"busy_share,list"`
	DRAMGBps  []float64 `json:"dram_gbps" parquet:"dram_gbps,list"`
	DVFS      string    `json:"dvfs" parquet:"dvfs"`
}

// CoRunRecords reports the co-run res on s at set of the models names
// under mappings (one per run, in res's order).
func CoRunRecords(s *SoC, set Setting, res CoRunResult, names, mappings []string) []CoRunRecord {
	units := s.Units()
	recs := make([]CoRunRecord, len(res.Runs))
	win := float64(res.WindowPS)
	for i, x := range res.Runs {
		rec := CoRunRecord{Model: names[i], Mapping: mappings[i], AloneMS: float64(x.AlonePS) * 1e-9, LatencyMS: x.MeanPS * 1e-9,
			Slowdown: x.Slowdown(), Frames: x.Frames, Steady: x.Steady, Units: units, DVFS: s.DVFS(set).String(),
			BusyShare: make([]float64, len(units)), DRAMGBps: make([]float64, len(units))}
		for u := range units {
			if win > 0 {
				rec.BusyShare[u] = float64(x.BusyPS[u]) / win
				rec.DRAMGBps[u] = float64(x.DRAMBytes[u]) / win * 1e3 // bytes per ps -> GB/s
			}
		}
		recs[i] = rec
	}
	return recs
}

// WriteCoRun prints the records of the co-run res on s at set as a table.
func WriteCoRun(w io.Writer, s *SoC, set Setting, res CoRunResult, recs []CoRunRecord) error {
	units := s.Units()
	win := float64(res.WindowPS)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "co-run on %s at %s: %.1f ms simulated, memory busy %.1f %%\n", s.Name(), s.DVFS(set).String(), win*1e-9, 100*float64(res.ChannelBusyPS)/max(win, 1))
	fmt.Fprintf(tw, "model\tmapping\talone_ms\tlatency_ms\tslowdown\tframes")
	for _, u := range units {
		fmt.Fprintf(tw, "\tbusy_%s\tgbps_%s", u, u)
	}
	fmt.Fprintln(tw)
	for _, r := range recs {
		steady := ""
		if !r.Steady {
			steady = " (not steady)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%.3f\t%.3f\t%.3f\t%d%s", r.Model, r.Mapping, r.AloneMS, r.LatencyMS, r.Slowdown, r.Frames, steady)
		for u := range units {
			fmt.Fprintf(tw, "\t%.2f\t%.1f", r.BusyShare[u], r.DRAMGBps[u])
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}
