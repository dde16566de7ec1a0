package soc

import (
	"fmt"
	"io"
	"text/tabwriter"
)

// StaticRecord is one network under one static schedule (a JSON object,
// a Parquet row): its mapping, its latency alone and co-running, the
// schedule's worst latency and the co-runs its search ran; times in ms.
type StaticRecord struct {
	Schedule  string  `json:"schedule" parquet:"schedule"`
	Model     string  `json:"model" parquet:"model"`
	Mapping   string  `json:"mapping" parquet:"mapping"`
	AloneMS   float64 `json:"alone_ms" parquet:"alone_ms"`
	LatencyMS float64 `json:"latency_ms" parquet:"latency_ms"`
	WorstMS   float64 `json:"worst_ms" parquet:"worst_ms"`
	CoRuns    int     `json:"co_runs" parquet:"co_runs"`
}

// StaticRecords runs every static schedule (Plans) and returns one record
// per schedule and network.
func (ss *StaticScheduler) StaticRecords() ([]StaticRecord, error) {
	plans, err := ss.Plans()
	if err != nil {
		return nil, err
	}
	var recs []StaticRecord
	names := ss.Names()
	for _, p := range plans {
		for i, sp := range p.Splits {
			recs = append(recs, StaticRecord{Schedule: p.Name, Model: names[i], Mapping: ss.FormatSplit(i, sp),
				AloneMS: float64(p.AlonePS[i]) * 1e-9, LatencyMS: p.LatencyPS[i] * 1e-9, WorstMS: p.WorstPS * 1e-9, CoRuns: p.Evaluated})
		}
	}
	return recs, nil
}

// WriteStaticTable writes the records as an aligned text table.
func WriteStaticTable(w io.Writer, recs []StaticRecord) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "schedule\tmodel\tmapping\talone_ms\tlatency_ms\tworst_ms\tco-runs\n")
	for _, r := range recs {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%.3f\t%.3f\t%.3f\t%d\n", r.Schedule, r.Model, r.Mapping, r.AloneMS, r.LatencyMS, r.WorstMS, r.CoRuns)
	}
	return tw.Flush()
}
