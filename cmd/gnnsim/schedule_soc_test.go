package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gnnsim/internal/pqio"
	"gnnsim/repro/seed002"
	"gnnsim/sched"
	"gnnsim/soc"
	"gnnsim/workload"
)

// TestScheduleSoCOneJobEqualsEval: on the SoC path, a trace whose jobs
// never overlap gives each job exactly soc eval's latency of the same
// (model, unit) (whole and split), and the tables are written.
func TestScheduleSoCOneJobEqualsEval(t *testing.T) {
	dir := t.TempDir()
	trace := writeSpecFile(t, "t.csv", "job_id,arrival_ps,model\n1,0,googlenet\n2,1000000000000,vig-s/split:dla\n3,2000000000000,googlenet\n")
	out := filepath.Join(dir, "out")
	mustRun(t, "schedule", "--job-models", "googlenet,vig-s/split:dla", "--machines", "gpu,dla", "--arrivals", trace,
		"--policies", "FCFS", "--seeds", "1,2", "--out", out, "--json")
	rows, _, err := pqio.Read[sched.SharedRecordRow](filepath.Join(out, "schedule_records.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 6 {
		t.Fatalf("%d records, want 3 jobs x 2 seeds", len(rows))
	}
	s := soc.Default()
	for _, r := range rows {
		name, split, _ := strings.Cut(r.Model, "/split:")
		m, err := workload.LookupModel(name, 0)
		if err != nil {
			t.Fatal(err)
		}
		e, err := soc.NewEvaluator(s, m, soc.Blocks)
		if err != nil {
			t.Fatal(err)
		}
		u, _ := s.UnitIndex(r.Machine)
		mp := soc.MapAll(soc.Blocks, u, len(e.Segments()))
		if split != "" {
			d, _ := s.UnitIndex(split)
			for k, sg := range e.Segments() {
				if sg.Kind == workload.Grapher {
					mp.Units[k] = d
				}
			}
		}
		want, err := e.Evaluate(mp, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := r.Finish - r.Start; got != want.LatencyPS || r.AlonePS != want.LatencyPS || r.Slowdown != 1 {
			t.Errorf("%s on %s: %d ps (alone %d, slowdown %v), soc eval %d ps", r.Model, r.Machine, got, r.AlonePS, r.Slowdown, want.LatencyPS)
		}
	}
	for _, f := range []string{"schedule_metrics.parquet", "schedule_mean.parquet", "schedule_policies.png", "schedule_policies.svg"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("%s not written", f)
		}
	}
}

// TestScheduleSoCJSON: generated arrivals, the default policies, JSON.
func TestScheduleSoCJSON(t *testing.T) {
	out := mustRun(t, "schedule", "--job-models", "googlenet,alexnet", "--arrivals", "periodic", "--jobs", "50", "--seeds", "1", "--json")
	var rows []map[string]any
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) != 7 {
		t.Fatalf("%d policies, want 7", len(rows))
	}
	for _, r := range rows {
		for _, k := range []string{"policy", "feasible", "mean_completion_ms", "mean_turnaround_ms", "mean_execution_ms", "mean_waiting_ms", "p99_turnaround_ms", "makespan_ms", "mean_slowdown", "machines", "utilisation"} {
			if _, ok := r[k]; !ok {
				t.Errorf("%v: no key %s", r["policy"], k)
			}
		}
		if sd, _ := r["mean_slowdown"].(float64); sd < 1 {
			t.Errorf("%v: mean slowdown %v < 1", r["policy"], sd)
		}
	}
}

// TestScheduleSoCErrors: bad units, models and traces get clear errors.
func TestScheduleSoCErrors(t *testing.T) {
	dir := t.TempDir()
	bad := writeSpecFile(t, "bad.csv", "job_id,arrival_ps,model\n1,0,resnet50\n")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--job-models", "googlenet", "--machines", "gpu,npu"}, "units gpu, dla"},
		{[]string{"--job-models", "nosuchnet"}, "neither a zoo model"},
		{[]string{"--job-models", "vig-s/split:"}, "names no unit"},
		{[]string{"--job-models", "vig-s/split:tpu"}, "unknown unit"},
		{[]string{"--job-models", "googlenet", "--arrivals", bad}, "not one of the scheduled models"},
		{[]string{"--job-models", "googlenet", "--arrivals", "weekly"}, "poisson, bursty"},
		{[]string{"--job-models", "googlenet", "--policies", "SJF-Predicted"}, "needs predictions"},
		{[]string{"--machines", "gpu,dla", "--data", dir}, "--job-models"},
		{[]string{}, "--job-models"},
	} {
		_, _, err := run(t, append([]string{"schedule"}, tc.args...)...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want it to mention %q", tc.args, err, tc.want)
		}
	}
}

// TestScheduleSoCModelFile: issue 27's 3-layer GraphSAGE file runs as
// jobs on the karate graph, whole and split (its layers on the GPU), beside
// a zoo CNN.
func TestScheduleSoCModelFile(t *testing.T) {
	g := karateGraph(t)
	sage3 := writeModel(t, "sage3.yaml", sage3Layers)
	out := mustRun(t, "schedule", "--job-models", sage3+","+sage3+"/split:gpu,googlenet", "--graph", g, "--features", "34",
		"--jobs", "60", "--seeds", "1", "--policies", "FCFS,EFT", "--json")
	var rows []seed002.SoCScheduleRow
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0].Jobs != 60 || rows[0].MeanSlowdown < 1 {
		t.Fatalf("rows %+v", rows)
	}
}

// TestScheduleSoCMetadataRecreatesRun: the SoC path's tables carry what
// re-creates the run: command and flags as given, and the resolved load,
// jobs, shape, policies and seeds (issue 38 item 15).
func TestScheduleSoCMetadataRecreatesRun(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	mustRun(t, "schedule", "--job-models", "googlenet", "--jobs", "40", "--arrivals", "lomax", "--shape", "3",
		"--utilisation", "0.5", "--policies", "FCFS,EFT", "--seeds", "4,5", "--out", out, "--json")
	for _, f := range []string{"schedule_records.parquet", "schedule_metrics.parquet", "schedule_mean.parquet"} {
		pf, err := pqio.Open(filepath.Join(out, f))
		if err != nil {
			t.Fatal(err)
		}
		meta := pf.Meta()
		pf.Close()
		for k, want := range map[string]string{
			"gnnsim.command": "schedule", "gnnsim.utilisation": "0.5", "gnnsim.jobs": "40", "gnnsim.shape": "3",
			"gnnsim.policies": "FCFS,EFT", "gnnsim.seeds": "4,5", "gnnsim.arrivals": "lomax", "gnnsim.job_models": "googlenet",
		} {
			if meta[k] != want {
				t.Errorf("%s: %s = %q, want %q", f, k, meta[k], want)
			}
		}
		if !strings.Contains(meta["gnnsim.flags"], "--utilisation=0.5") {
			t.Errorf("%s: flags %q", f, meta["gnnsim.flags"])
		}
	}
}
