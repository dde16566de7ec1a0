package main

import (
	"encoding/json"
	"gnnsim/internal/pqio"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestScheduleStatic: every schedule of the issue, each network's
// latency while co-running never below alone, the contention-aware
// search no worse than the best baseline (to the co-run's resolution).
func TestScheduleStatic(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "new", "folder") // --out makes its folder (main refused one not there)
	out := mustRun(t, "schedule", "--static", "--job-models", "googlenet,resnet18", "--json", "--out", dir)
	rows, _, err := pqio.Read[scheduleStaticRecord](filepath.Join(dir, "schedule_static.parquet"))
	if err != nil || len(rows) == 0 {
		t.Fatalf("--out: %d rows, %v", len(rows), err)
	}
	var recs []scheduleStaticRecord
	if err := json.Unmarshal([]byte(out), &recs); err != nil || !slices.Equal(recs, rows) {
		t.Fatalf("not a JSON array of the file's rows: %v\n%s", err, out)
	}
	worst := map[string]float64{}
	for _, r := range recs {
		worst[r.Schedule] = r.WorstMS
		if r.LatencyMS < r.AloneMS {
			t.Errorf("%s %s (%s): %v ms co-running, %v alone", r.Schedule, r.Model, r.Mapping, r.LatencyMS, r.AloneMS)
		}
	}
	best := 0.0
	for _, name := range []string{"GPU only", "GPU&DLA", "H2H-like", "Herald-like"} {
		w, ok := worst[name]
		if !ok {
			t.Fatalf("no %s schedule in %v", name, worst)
		}
		if best == 0 || w < best {
			best = w
		}
	}
	if w := worst["contention-aware"]; w == 0 || w > best*1.01 {
		t.Errorf("contention-aware worst %v ms, best baseline %v ms", w, best)
	}
}

func TestScheduleStaticErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"schedule", "--static", "--job-models", "googlenet"}, "two or more"},
		{[]string{"schedule", "--static", "--job-models", "googlenet,nosuchnet"}, "nosuchnet"},
		{[]string{"schedule", "--static", "--job-models", "googlenet,alexnet", "--machines", "gpu"}, "two"},
		{[]string{"schedule", "--static", "--job-models", "googlenet,alexnet", "--machines", "gpu,tpu"}, "tpu"},
	} {
		_, _, err := run(t, tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want one mentioning %q", tc.args, err, tc.want)
		}
	}
}
