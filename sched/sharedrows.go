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

// AppendSharedRecordRows appends the rows of run r, jobs in problem order,
// to dst.
func AppendSharedRecordRows(dst []SharedRecordRow, sp *SharedProblem, r *Result) []SharedRecordRow {
	jobs, machines := sp.Jobs(), sp.Machines()
	for i := range r.Records {
		rec := &r.Records[i]
		dst = append(dst, SharedRecordRow{
			Policy: r.Policy.Name, Seed: int64(r.Seed), JobID: jobs[rec.Job].ID,
			Model: sp.classes[sp.class[rec.Job]].Name, Machine: machines[rec.Machine].Name,
			Arrival: rec.Arrival, Start: rec.Start, Finish: rec.Finish,
			AlonePS: rec.TrueCycles, Slowdown: float64(rec.Finish-rec.Start) / float64(rec.TrueCycles),
		})
	}
	return dst
}

// StreamSharedRecords writes the runs fill hands to add as one Parquet
// table, atomically, with the given metadata, holding one run's rows at a
// time: the records of any number of runs in bounded memory. The file
// equals pqio.Write's of all the rows. When fill fails nothing is
// written.
func StreamSharedRecords(path string, meta map[string]string, fill func(add func(*SharedProblem, *Result) error) error) error {
	type run struct {
		sp *SharedProblem
		r  *Result
	}
	rows := func(dst []SharedRecordRow, x run) ([]SharedRecordRow, error) {
		return AppendSharedRecordRows(dst, x.sp, x.r), nil
	}
	var fillErr error
	err := pqio.StreamRuns(path, meta, rows, func(add func(run) error) error {
		fillErr = fill(func(sp *SharedProblem, r *Result) error { return add(run{sp, r}) })
		return fillErr
	})
	if err != nil && err != fillErr {
		return fmt.Errorf("sched: %w", err)
	}
	return err
}
