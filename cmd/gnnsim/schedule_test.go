package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var scheduleKeys = []string{"policy", "scenario", "mean_completion", "mean_turnaround", "mean_execution", "mean_waiting", "p99_turnaround"}

type scheduleRow struct {
	Policy         string  `json:"policy"`
	Scenario       int     `json:"scenario"`
	MeanCompletion float64 `json:"mean_completion"`
	MeanTurnaround float64 `json:"mean_turnaround"`
	MeanExecution  float64 `json:"mean_execution"`
	MeanWaiting    float64 `json:"mean_waiting"`
	P99Turnaround  float64 `json:"p99_turnaround"`
}

func TestScheduleJSON(t *testing.T) {
	data := tinySweep(t, tinySweepSize)
	models := trainModels(t, data)
	allPolicies := []string{"Random", "FCFS", "LIFO", "SJF-Nodes", "SJF-Edges", "SJF-Truth", "SJF-Predicted"}
	tests := []struct {
		name      string
		args      []string
		policies  []string
		scenarios []int
	}{
		{"all policies, both scenarios", []string{"--models", models}, allPolicies, []int{1, 2}},
		{"scenario 2, two policies, no models", []string{"--policies", "FCFS,SJF-Truth", "--scenario", "2"}, []string{"FCFS", "SJF-Truth"}, []int{2}},
		{"poisson arrivals, 30 jobs", []string{"--models", models, "--arrivals", "poisson", "--jobs", "30", "--scenario", "1"}, allPolicies, []int{1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"schedule", "--data", data, "--seeds", "1,2", "--json"}, tt.args...)
			out := mustRun(t, append(args, "--workers", "1")...)
			objs := decodeObjects(t, out)
			checkKeys(t, objs, scheduleKeys)
			var rows []scheduleRow
			if err := json.Unmarshal([]byte(out), &rows); err != nil {
				t.Fatal(err)
			}
			if len(rows) != len(tt.policies)*len(tt.scenarios) {
				t.Fatalf("%d objects, want %d policies x %d scenarios", len(rows), len(tt.policies), len(tt.scenarios))
			}
			for _, sc := range tt.scenarios {
				var got []string
				for _, r := range rows {
					if r.Scenario == sc {
						got = append(got, r.Policy)
					}
				}
				if !slices.Equal(slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(tt.policies))) {
					t.Errorf("scenario %d: policies %v, want %v", sc, got, tt.policies)
				}
			}
			for _, r := range rows {
				for _, v := range []float64{r.MeanCompletion, r.MeanTurnaround, r.MeanExecution, r.MeanWaiting, r.P99Turnaround} {
					if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
						t.Errorf("%s scenario %d: %+v: want finite, non-negative cycles", r.Policy, r.Scenario, r)
						break
					}
				}
				// A job's turnaround is its waiting plus its execution, and
				// it completes no earlier than its turnaround after cycle 0.
				if d := r.MeanTurnaround - r.MeanWaiting - r.MeanExecution; math.Abs(d) > 1e-9*r.MeanTurnaround {
					t.Errorf("%s scenario %d: turnaround %g != waiting %g + execution %g", r.Policy, r.Scenario, r.MeanTurnaround, r.MeanWaiting, r.MeanExecution)
				}
				if r.MeanCompletion < r.MeanTurnaround || r.MeanExecution <= 0 {
					t.Errorf("%s scenario %d: completion %g, turnaround %g, execution %g", r.Policy, r.Scenario, r.MeanCompletion, r.MeanTurnaround, r.MeanExecution)
				}
			}
			// Results do not depend on the worker count.
			if par := mustRun(t, append(args, "--workers", "2")...); par != out {
				t.Errorf("--workers 2 gives other numbers than --workers 1")
			}
		})
	}
}

// TestScheduleOut checks the text summary and the Parquet files of --out.
func TestScheduleOut(t *testing.T) {
	data := tinySweep(t, tinySweepSize)
	models := trainModels(t, data)
	out := filepath.Join(t.TempDir(), "sched")
	txt := mustRun(t, "schedule", "--data", data, "--models", models, "--seeds", "1", "--out", out)
	for _, want := range []string{fmt.Sprintf("%d jobs from ", tinySweepSize), "SJF-Predicted vs the best baseline", "wrote " + out + "/{"} {
		if !strings.Contains(txt, want) {
			t.Errorf("output lacks %q:\n%s", want, txt)
		}
	}
	for _, f := range []string{"schedule_records.parquet", "schedule_metrics.parquet", "schedule_mean.parquet"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("%s not written: %v", f, err)
		}
	}
}

func TestScheduleBadFlags(t *testing.T) {
	data := tinySweep(t, 4)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"SJF-Predicted without models", nil, "SJF-Predicted"},
		{"unknown scenario", []string{"--policies", "FCFS", "--scenario", "3"}, "--scenario"},
		{"bad seed", []string{"--policies", "FCFS", "--seeds", "x"}, "--seeds"},
		{"negative inference charge", []string{"--policies", "FCFS", "--inference-cycles", "-1"}, "--inference-cycles"},
		{"measured charge without models", []string{"--policies", "FCFS", "--inference-cycles", "measured"}, "--models"},
		{"unknown arrivals", []string{"--policies", "FCFS", "--arrivals", "gamma"}, "--arrivals"},
		{"unknown policy", []string{"--policies", "SJF-Magic"}, "SJF-Magic"},
		{"bad machines", []string{"--policies", "FCFS", "--machines", "xx"}, "xx"},
		{"missing models", []string{"--models", filepath.Join(data, "nomodels")}, "nomodels"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// --out: a refused run leaves no directory behind (records
			// stream to it while the runs go on).
			out := filepath.Join(t.TempDir(), "never")
			_, _, err := run(t, append([]string{"schedule", "--data", data, "--seeds", "1", "--json", "--out", out}, tt.args...)...)
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not contain %q", err, tt.want)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("refused run left %s", out)
			}
		})
	}
}

// TestScheduleSoCRefusedLeavesNoOut: on the SoC path too, a run refused
// after --out was made (here its arrivals overflow the clock) leaves no
// directory behind, and the error names the flags that made the trace.
func TestScheduleSoCRefusedLeavesNoOut(t *testing.T) {
	out := filepath.Join(t.TempDir(), "never")
	_, _, err := run(t, "schedule", "--job-models", "googlenet", "--jobs", "100000", "--utilisation", "1e-6", "--policies", "FCFS", "--seeds", "1", "--out", out)
	if err == nil || !strings.Contains(err.Error(), "overflow the clock") || !strings.Contains(err.Error(), "--utilisation 1e-06 with --jobs 100000") {
		t.Fatalf("error %v, want the arrivals' overflow, blamed on --utilisation and --jobs", err)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("refused run left %s", out)
	}
}
