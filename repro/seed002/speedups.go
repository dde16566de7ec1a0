package seed002

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"time"

	"gnnsim/internal/pqio"
	"gnnsim/predict"
	"gnnsim/sched"
)

// This file compares policies (speed-ups over the best baseline) and writes
// the scheduling tables.

// PolicySummary is one policy's averaged metrics in one scenario, in
// cycles: the objects of 'gnnsim schedule --json'.
type PolicySummary struct {
	Policy         string  `json:"policy"`
	Scenario       int     `json:"scenario"`
	MeanCompletion float64 `json:"mean_completion"`
	MeanTurnaround float64 `json:"mean_turnaround"`
	MeanExecution  float64 `json:"mean_execution"`
	MeanWaiting    float64 `json:"mean_waiting"`
	P99Turnaround  float64 `json:"p99_turnaround"`
}

// Summaries turns averaged metrics into PolicySummary values, in order.
func Summaries(mean []sched.Metrics) []PolicySummary {
	out := make([]PolicySummary, len(mean))
	for i, m := range mean {
		out[i] = PolicySummary{
			Policy: m.Policy, Scenario: int(ScenarioOf(m.Baselines)),
			MeanCompletion: m.MeanCompletion, MeanTurnaround: m.MeanTurnaround,
			MeanExecution: m.MeanExecution, MeanWaiting: m.MeanWaiting,
			P99Turnaround: m.P99Turnaround,
		}
	}
	return out
}

// Speedup compares a policy with the best baseline of its scenario on one
// metric.
type Speedup struct {
	Scenario int32   `parquet:"scenario"`
	Metric   string  `parquet:"metric"` // completion | turnaround | execution | waiting
	Policy   string  `parquet:"policy"`
	Value    float64 `parquet:"value"` // the policy's mean, cycles
	// Baseline is the baseline with the smallest mean on the metric: among
	// the feasible policies other than Policy when there are any
	// (BaselineFeasible), otherwise among all but Policy and SJF-Truth.
	Baseline         string  `parquet:"baseline"`
	BaselineFeasible bool    `parquet:"baseline_feasible"`
	BaselineValue    float64 `parquet:"baseline_value"`
	Speedup          float64 `parquet:"speedup"` // BaselineValue / Value
	// Truth is SJF-Truth's mean on the metric and TruthRatio Value / Truth
	// (NaN without an SJF-Truth run).
	Truth      float64 `parquet:"truth_value"`
	TruthRatio float64 `parquet:"truth_ratio"`
}

// Words says the speed-up in plain words against the baseline: "1.25x
// faster than B", or, below 1, "1.004x slower than B" (the inverse), so a
// loss never reads as a gain of less than one.
// A mean of 0 (no waiting at all) has no ratio: it is said in words.
func (s Speedup) Words() string {
	switch {
	case s.Value == 0 && s.BaselineValue == 0:
		return fmt.Sprintf("as fast as %s (both 0)", s.Baseline)
	case s.Value == 0:
		return fmt.Sprintf("0 against %.4g for %s", s.BaselineValue, s.Baseline)
	case s.BaselineValue == 0:
		return fmt.Sprintf("slower than %s, which takes 0", s.Baseline)
	case s.Speedup > 0 && s.Speedup < 1:
		return fmt.Sprintf("%.4gx slower than %s", 1/s.Speedup, s.Baseline)
	}
	return fmt.Sprintf("%.4gx faster than %s", s.Speedup, s.Baseline)
}

// TruthWords says the policy's mean against SJF-Truth's: "1.0123 x
// SJF-Truth", or in words when either is 0 or there is no SJF-Truth run.
func (s Speedup) TruthWords() string {
	switch {
	case math.IsNaN(s.Truth):
		return "no SJF-Truth run"
	case s.Truth == 0 && s.Value == 0:
		return "= SJF-Truth (both 0)"
	case s.Truth == 0:
		return "SJF-Truth takes 0"
	case math.IsNaN(s.TruthRatio):
		return "no SJF-Truth run"
	}
	return fmt.Sprintf("%.4f x SJF-Truth", s.TruthRatio)
}

// SpeedupMetrics are the metrics Speedups compares, seed 002's three plus
// waiting time.
var SpeedupMetrics = []string{"completion", "turnaround", "execution", "waiting"}

func metricValue(m *sched.Metrics, name string) float64 {
	switch name {
	case "completion":
		return m.MeanCompletion
	case "turnaround":
		return m.MeanTurnaround
	case "execution":
		return m.MeanExecution
	case "waiting":
		return m.MeanWaiting
	}
	panic("seed002: unknown metric " + name)
}

// Speedups compares policy with the best baseline of each scenario of mean
// (averaged metrics, as ScheduleResult.Mean) on every SpeedupMetrics entry.
func Speedups(mean []sched.Metrics, policy string) ([]Speedup, error) {
	var scen []Scenario
	for _, m := range mean {
		if sc := ScenarioOf(m.Baselines); !slices.Contains(scen, sc) {
			scen = append(scen, sc)
		}
	}
	truthName := sched.SJFTruth().Info().Name
	var out []Speedup
	for _, sc := range scen {
		var ours, truth *sched.Metrics
		var feasible, others []*sched.Metrics
		for i := range mean {
			m := &mean[i]
			switch {
			case ScenarioOf(m.Baselines) != sc:
			case m.Policy == policy:
				ours = m
			default:
				if m.Policy == truthName {
					truth = m
				} else {
					others = append(others, m)
				}
				if m.Feasible {
					feasible = append(feasible, m)
				}
			}
		}
		if ours == nil {
			return nil, fmt.Errorf("seed002: no %s run in scenario %d", policy, sc)
		}
		pool, isFeasible := feasible, true
		if len(pool) == 0 {
			pool, isFeasible = others, false
		}
		if len(pool) == 0 {
			return nil, fmt.Errorf("seed002: no baseline to compare %s with in scenario %d", policy, sc)
		}
		for _, name := range SpeedupMetrics {
			best := pool[0]
			for _, m := range pool[1:] {
				if metricValue(m, name) < metricValue(best, name) {
					best = m
				}
			}
			v, b := metricValue(ours, name), metricValue(best, name)
			sp := Speedup{Scenario: int32(sc), Metric: name, Policy: policy, Value: v,
				Baseline: best.Policy, BaselineFeasible: isFeasible, BaselineValue: b,
				Speedup: b / v, Truth: math.NaN(), TruthRatio: math.NaN()}
			if truth != nil {
				sp.Truth = metricValue(truth, name)
				sp.TruthRatio = v / sp.Truth
			}
			out = append(out, sp)
		}
	}
	return out, nil
}

// Schedule output files, written by WriteSchedule into a directory.
const (
	ScheduleRecordsFile = "schedule_records.parquet" // RecordRow per job and run (with KeepRecords)
	ScheduleRunsFile    = "schedule_metrics.parquet" // MetricsRow per run
	ScheduleMeanFile    = "schedule_mean.parquet"    // MetricsRow averaged over seeds
)

// WriteSchedule writes a schedule result's tables into dir (which must
// exist): the per-run and averaged metrics, and the per-job records when
// the result kept them.
func WriteSchedule(dir string, r *ScheduleResult, meta map[string]string) error {
	if r.Results != nil {
		if err := writeRecords(filepath.Join(dir, ScheduleRecordsFile), r.Results, meta); err != nil {
			return err
		}
	}
	if err := writeMetrics(filepath.Join(dir, ScheduleRunsFile), r.Runs, meta); err != nil {
		return err
	}
	return writeMetrics(filepath.Join(dir, ScheduleMeanFile), r.Mean, meta)
}

// WriteSpeedups writes speed-ups as a Parquet table.
func WriteSpeedups(path string, sp []Speedup, meta map[string]string) error {
	if err := pqio.Write(path, sp, meta); err != nil {
		return fmt.Errorf("seed002: %w", err)
	}
	return nil
}

// MeasureInference times predictions of up to n of cases (all 24
// configurations per prediction, one goroutine) and returns the mean wall
// time per prediction. It reads the clock, so its result is only ever
// reported, never fed into a result table.
func MeasureInference(p CasePredictor, cases []predict.Sample, n int) (time.Duration, error) {
	if len(cases) == 0 || n <= 0 {
		return 0, errors.New("seed002: nothing to time")
	}
	var out [predict.NumConfigs]float64
	k := min(n, len(cases))
	// One untimed pass warms caches and the leaves trees.
	for i := range min(k, 64) {
		if _, err := p.PredictSample(&cases[i], out[:]); err != nil {
			return 0, err
		}
	}
	start := time.Now()
	for i := range k {
		if _, err := p.PredictSample(&cases[i*len(cases)/k], out[:]); err != nil {
			return 0, err
		}
	}
	return time.Since(start) / time.Duration(k), nil
}
