package main

import (
	"encoding/json"
	"fmt"
	"gnnsim/internal/pqio"
	"gnnsim/search"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestSearchNSGA2HV runs NSGA-II briefly and checks that the file does not
// depend on --workers and that 'search hv' on it reproduces the archive
// front's hypervolume that nsga2 printed.
func TestSearchNSGA2HV(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		problem, ref string
	}{
		{"zdt1", "10,10"},
		{"dtlz2", "3,3,3"},
		{"bnh", "150,60"},
	}
	archive := regexp.MustCompile(`(?m)^archive front:\s+(\d+) points, hypervolume (\S+)$`)
	for _, tt := range tests {
		t.Run(tt.problem, func(t *testing.T) {
			var files []string
			var first string
			for _, w := range []string{"1", "2"} {
				f := filepath.Join(dir, tt.problem+"-"+w+".parquet")
				out := mustRun(t, "search", "nsga2", "--problem", tt.problem, "--pop", "12", "--generations", "6", "--seed", "4",
					"--ref", tt.ref, "--workers", w, "--out", f)
				if first == "" {
					first = out
				} else if strings.ReplaceAll(out, f, "") != strings.ReplaceAll(first, files[0], "") {
					t.Errorf("--workers %s printed other numbers than --workers 1", w)
				}
				files = append(files, f)
			}
			if a, b := readFile(t, files[0]), readFile(t, files[1]); string(a) != string(b) {
				t.Errorf("--workers 1 and 2 wrote different files")
			}
			m := archive.FindStringSubmatch(first)
			if m == nil {
				t.Fatalf("no archive front line in:\n%s", first)
			}
			hv := mustRun(t, "search", "hv", files[0], "--ref", tt.ref)
			if want := "nsga2-" + tt.problem + ": " + m[1] + " front points, hypervolume " + m[2] + "\n"; hv != want {
				t.Errorf("hv printed %q, want %q", hv, want)
			}
			if _, _, err := run(t, "search", "hv", files[0], "--ref", "1"); err == nil {
				t.Errorf("--ref with too few values: no error")
			}
			// --json prints what the text says; hv --out writes it.
			js := mustRun(t, "search", "nsga2", "--problem", tt.problem, "--pop", "12", "--generations", "6", "--seed", "4",
				"--ref", tt.ref, "--json")
			var sum struct {
				FrontPoints int     `json:"front_points"`
				FrontHV     float64 `json:"front_hypervolume"`
			}
			if err := json.Unmarshal([]byte(js), &sum); err != nil || strconv.Itoa(sum.FrontPoints) != m[1] || fmt.Sprintf("%.6g", sum.FrontHV) != m[2] {
				t.Errorf("nsga2 --json %s (%v), want the text's %s points, %s", js, err, m[1], m[2])
			}
			hvOut := filepath.Join(dir, tt.problem+"-hv.parquet")
			js = mustRun(t, "search", "hv", files[0], "--ref", tt.ref, "--json", "--out", hvOut)
			var hs []search.FrontHV
			if err := json.Unmarshal([]byte(js), &hs); err != nil || len(hs) != 1 || fmt.Sprintf("%.6g", hs[0].Hypervolume) != m[2] {
				t.Errorf("hv --json %s (%v)", js, err)
			}
			if rows, _, err := pqio.Read[search.FrontHV](hvOut); err != nil || len(rows) != 1 || rows[0] != hs[0] {
				t.Errorf("hv --out: %v %v, want %v", rows, err, hs)
			}
		})
	}
}

// TestSearchFGNASOut: --out writes every distinct design --json prints.
// The default limits make the first designs infeasible: no training.
func TestSearchFGNASOut(t *testing.T) {
	dir := filepath.Dir(planetoidData(t))
	pq := filepath.Join(t.TempDir(), "fgnas.parquet")
	js := mustRun(t, "search", "fgnas", "--data", "cora", "--data-dir", dir, "--episodes", "5", "--json", "--out", pq)
	rows := decodeJSON[fgnasSampleRow](t, js, true)
	for i, r := range rows {
		if r.Index != i || r.Method != "joint" || r.Design == "" || r.Cycles <= 0 || r.Feasible == (r.Over != "") {
			t.Errorf("row %d: %+v", i, r)
		}
	}
	checkOut(t, pq, rows, "search fgnas", "design", "latency_ms", "feasible", "val", "test", "best")
}
