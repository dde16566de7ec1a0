package main

import (
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gnnsim/internal/pqio"
)

// TestTableReadsEveryOutput: gnnsim table shows every kind of file gnnsim
// writes (a sweep's runs and graphs, soc eval, schedule's three tables, a
// graph set): the summary names the rows and the gnnsim.* metadata, and
// --json gives as many rows as asked, each with the columns asked for,
// equal to what the file holds (issue 38 item 16).
func TestTableReadsEveryOutput(t *testing.T) {
	dir := t.TempDir()
	sw := filepath.Join(dir, "sweep")
	mustRun(t, "sweep", "../../bench/testdata/soc.yaml", "--out", sw)
	sch := filepath.Join(dir, "sch")
	mustRun(t, "schedule", "--job-models", "googlenet", "--jobs", "30", "--policies", "FCFS", "--seeds", "1", "--out", sch, "--json")
	ev := filepath.Join(dir, "ev.parquet")
	mustRun(t, "soc", "eval", "--model", "vig-ti", "--mapping", "gpu", "--out", ev)
	gs := genSet(t, dir, "g.parquet", "--generator", "er", "--count", "3", "--seed", "2", "--nodes", "10:20")
	files := []string{filepath.Join(sw, "runs.parquet"), ev, gs,
		filepath.Join(sch, "schedule_records.parquet"), filepath.Join(sch, "schedule_metrics.parquet"), filepath.Join(sch, "schedule_mean.parquet")}
	for _, f := range files {
		s, err := pqio.Summarize(f)
		if err != nil {
			t.Fatal(err)
		}
		text := mustRun(t, "table", f, "--rows", "2")
		if !strings.Contains(text, strconv.FormatInt(s.Rows, 10)+" rows in") || !strings.Contains(text, "gnnsim.version = ") ||
			!strings.Contains(text, "created by gnnsim version ") {
			t.Errorf("%s: summary\n%s", f, text)
		}
		first := s.Columns[0].Name
		last := s.Columns[len(s.Columns)-1].Name
		out := mustRun(t, "table", f, "--rows", "3", "--json", "--columns", last+","+first)
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if want := min(3, int(s.Rows)); len(lines) != want {
			t.Errorf("%s: %d JSON lines, want %d", f, len(lines), want)
			continue
		}
		for _, l := range lines {
			var obj map[string]any
			if err := json.Unmarshal([]byte(l), &obj); err != nil || len(obj) != 2 && first != last {
				t.Errorf("%s: line %q: %v", f, l, err)
			}
			if i, j := strings.Index(l, strconv.Quote(last)), strings.Index(l, strconv.Quote(first)); i > j {
				t.Errorf("%s: columns not in the order asked: %s", f, l)
			}
		}
	}
	// The values are the file's: point_id counts up from 0, the soc
	// eval row's model is vig-ti, busy_ms is a list of one entry per unit.
	out := mustRun(t, "table", files[0], "--json", "--rows", "4", "--columns", "point_id,busy_ms,units")
	for i, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var r struct {
			PointID int64     `json:"point_id"`
			Busy    []float64 `json:"busy_ms"`
			Units   []string  `json:"units"`
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil || r.PointID != int64(i) || len(r.Busy) != len(r.Units) || len(r.Units) == 0 {
			t.Errorf("row %d: %s (%v)", i, l, err)
		}
	}
	if out := mustRun(t, "table", ev, "--json", "--columns", "model"); strings.TrimSpace(out) != `{"model":"vig-ti"}` {
		t.Errorf("soc eval row: %s", out)
	}
	for _, bad := range [][]string{{"table", ev, "--columns", "nope"}, {"table", filepath.Join(dir, "missing.parquet")}, {"table", "../../bench/testdata/soc.yaml"}} {
		if _, _, err := run(t, bad...); err == nil {
			t.Errorf("%v: no error", bad)
		}
	}
}
