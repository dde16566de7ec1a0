package seed002

import (
	"fmt"
	"math"
	"slices"

	"gnnsim/dataflow"
	"gnnsim/internal/pqio"
	"gnnsim/predict"
	"gnnsim/sched"
)

// This file holds the schedule tables of the reproduction: one row per job
// and run, one per run's metrics.

// RecordRow is one job of one run in schedule_records.parquet. Machine is
// the machine's index, Dataflow the inter-phase dataflow it ran (seq, sp
// or pp) and Tiling the tiling (a..h), the names of the runs table's inter
// and tiling columns. Seed is the run's seed as a signed integer (Spark has
// no unsigned 64-bit type; seeds above 2^63-1 keep their bits and read
// negative).
type RecordRow struct {
	Policy      string   `parquet:"policy"`
	Scenario    int32    `parquet:"scenario"`
	Seed        int64    `parquet:"seed"`
	JobID       int64    `parquet:"job_id"`
	Graph       string   `parquet:"graph"`
	Nodes       int64    `parquet:"nodes"`
	Edges       int64    `parquet:"edges"`
	Machine     int32    `parquet:"machine"`
	MachineName string   `parquet:"machine_name"`
	Dataflow    string   `parquet:"dataflow"`
	Tiling      string   `parquet:"tiling"`
	Arrival     int64    `parquet:"arrival_cycle"`
	Start       int64    `parquet:"start_cycle"`
	Finish      int64    `parquet:"finish_cycle"`
	TrueCycles  int64    `parquet:"true_cycles"`
	Predicted   *float64 `parquet:"predicted_cycles,optional"` // null without predictions
}

// recordRows flattens results into schedule-table rows, runs in order, jobs
// in problem order within a run.
func recordRows(results []*sched.Result) ([]RecordRow, error) {
	total := 0
	for _, r := range results {
		total += len(r.Records)
	}
	rows := make([]RecordRow, 0, total)
	for _, r := range results {
		var err error
		if rows, err = appendRecordRows(rows, r); err != nil {
			return nil, err
		}
	}
	return rows, nil
}

// appendRecordRows appends the rows of run r, jobs in problem order, to
// dst.
func appendRecordRows(dst []RecordRow, r *sched.Result) ([]RecordRow, error) {
	names := predict.ConfigNames()
	// Backing store for the optional column, one per run: its capacity is
	// final, so the pointers taken into it stay valid.
	preds := make([]float64, 0, len(r.Records))
	jobs, machines := r.Problem.Jobs(), r.Problem.Machines()
	for i := range r.Records {
		rec := &r.Records[i]
		job := &jobs[rec.Job]
		mc := &machines[rec.Machine]
		cfg := slices.Index(names, mc.Mappings[rec.Mapping])
		if cfg < 0 {
			return nil, fmt.Errorf("seed002: machine %s ran %q, not one of the %d configurations", mc.Name, mc.Mappings[rec.Mapping], predict.NumConfigs)
		}
		tilings := len(dataflow.TilingNames)
		row := RecordRow{
			Policy: r.Policy.Name, Scenario: int32(ScenarioOf(r.Baselines)), Seed: int64(r.Seed),
			JobID: job.ID, Graph: job.Graph, Nodes: job.Nodes, Edges: job.Edges,
			Machine: int32(rec.Machine), MachineName: mc.Name,
			Dataflow: dataflow.Inters[cfg/tilings].String(), Tiling: dataflow.TilingNames[cfg%tilings : cfg%tilings+1],
			Arrival: rec.Arrival, Start: rec.Start, Finish: rec.Finish, TrueCycles: rec.TrueCycles,
		}
		if !math.IsNaN(rec.PredictedCycles) {
			preds = append(preds, rec.PredictedCycles)
			row.Predicted = &preds[len(preds)-1]
		}
		dst = append(dst, row)
	}
	return dst, nil
}

// writeRecords writes the per-job records of results as one Parquet table
// (atomically, with the given key-value metadata).
func writeRecords(path string, results []*sched.Result, meta map[string]string) error {
	rows, err := recordRows(results)
	if err != nil {
		return err
	}
	if err := pqio.Write(path, rows, meta); err != nil {
		return fmt.Errorf("seed002: %w", err)
	}
	return nil
}

// StreamRecords writes the runs fill hands to add as path's
// schedule_records table (writeRecords' file, byte for byte), holding one
// run's rows at a time: give add as ScheduleOptions.Records. When fill
// fails nothing is written and its error is returned as it gave it.
func StreamRecords(path string, meta map[string]string, fill func(add func(*sched.Result) error) error) error {
	var fillErr error
	err := pqio.StreamRuns(path, meta, appendRecordRows, func(add func(*sched.Result) error) error {
		fillErr = fill(add)
		return fillErr
	})
	if err != nil && err != fillErr {
		return fmt.Errorf("seed002: %w", err)
	}
	return err
}

// MetricsRow is one sched.Metrics in schedule_metrics.parquet and
// schedule_mean.parquet.
type MetricsRow struct {
	Policy         string    `parquet:"policy"`
	Scenario       int32     `parquet:"scenario"`
	Seed           int64     `parquet:"seed"` // signed, as RecordRow's
	Seeds          int32     `parquet:"seeds"`
	Jobs           int64     `parquet:"jobs"`
	Feasible       bool      `parquet:"feasible"`
	MeanCompletion float64   `parquet:"mean_completion"`
	MeanTurnaround float64   `parquet:"mean_turnaround"`
	MeanExecution  float64   `parquet:"mean_execution"`
	MeanWaiting    float64   `parquet:"mean_waiting"`
	P50Turnaround  float64   `parquet:"p50_turnaround"`
	P95Turnaround  float64   `parquet:"p95_turnaround"`
	P99Turnaround  float64   `parquet:"p99_turnaround"`
	Makespan       float64   `parquet:"makespan"`
	Utilisation    []float64 `parquet:"utilisation,list"`
}

// writeMetrics writes metrics as one Parquet table.
func writeMetrics(path string, ms []sched.Metrics, meta map[string]string) error {
	rows := make([]MetricsRow, len(ms))
	for i, m := range ms {
		rows[i] = MetricsRow{
			Policy: m.Policy, Scenario: int32(ScenarioOf(m.Baselines)), Seed: int64(m.Seed), Seeds: int32(m.Seeds), Jobs: int64(m.Jobs),
			Feasible:       m.Feasible,
			MeanCompletion: m.MeanCompletion, MeanTurnaround: m.MeanTurnaround,
			MeanExecution: m.MeanExecution, MeanWaiting: m.MeanWaiting,
			P50Turnaround: m.P50Turnaround, P95Turnaround: m.P95Turnaround, P99Turnaround: m.P99Turnaround,
			Makespan: m.Makespan, Utilisation: m.Utilisation,
		}
	}
	if err := pqio.Write(path, rows, meta); err != nil {
		return fmt.Errorf("seed002: %w", err)
	}
	return nil
}
