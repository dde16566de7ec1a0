package sched

import (
	"fmt"

	"gnnsim/internal/pqio"
)

// SharedRecordRow is one job of one shared-memory run in
// schedule_records.parquet (the SoC path of gnnsim schedule). Times are
// ps from the trace origin. Seed is signed as seed 002's tables keep it.
type SharedRecordRow struct {
	Policy  string `parquet:"policy"`
	Seed    int64  `parquet:"seed"`
	JobID   int64  `parquet:"job_id"`
	Model   string `parquet:"model"` // the job's class: model, "/split:UNIT" for a split
	Machine string `parquet:"machine"`
	Arrival int64  `parquet:"arrival_ps"`
	Start   int64  `parquet:"start_ps"`
	Finish  int64  `parquet:"finish_ps"`
	// AlonePS is the job's contention-free latency on its machine (soc's
	// Eq. 6-7 evaluation); Slowdown is (Finish - Start) / AlonePS, >= 1:
	// what waiting for units and for the shared memory cost it.
	AlonePS  int64   `parquet:"alone_ps"`
	Slowdown float64 `parquet:"slowdown"`
}

// SharedRecordRows flattens shared runs, runs in order, jobs in problem
// order within a run.
func SharedRecordRows(sp *SharedProblem, results []*Result) []SharedRecordRow {
	total := 0
	for _, r := range results {
		total += len(r.Records)
	}
	rows := make([]SharedRecordRow, 0, total)
	jobs, machines := sp.Jobs(), sp.Machines()
	for _, r := range results {
		for i := range r.Records {
			rec := &r.Records[i]
			rows = append(rows, SharedRecordRow{
				Policy: r.Policy.Name, Seed: int64(r.Seed), JobID: jobs[rec.Job].ID,
				Model: sp.classes[sp.class[rec.Job]].Name, Machine: machines[rec.Machine].Name,
				Arrival: rec.Arrival, Start: rec.Start, Finish: rec.Finish,
				AlonePS: rec.TrueCycles, Slowdown: float64(rec.Finish-rec.Start) / float64(rec.TrueCycles),
			})
		}
	}
	return rows
}

// WriteSharedRecords writes rows as one Parquet table, atomically, with
// the given metadata.
func WriteSharedRecords(path string, rows []SharedRecordRow, meta map[string]string) error {
	if err := pqio.Write(path, rows, meta); err != nil {
		return fmt.Errorf("sched: %w", err)
	}
	return nil
}
