package seed002

import (
	"bytes"
	"context"
	"fmt"
	"gnnsim/repro/claims"
	"image/png"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gnnsim/internal/pqio"
	"gnnsim/predict"
)

// fakeRealData writes a tiny real-data directory: five square Matrix
// Market networks (a ring, a star, a path, a grid and a clique).
func fakeRealData(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	mm := filepath.Join(dir, "matrix-market")
	if err := os.MkdirAll(mm, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name string, n int, edges [][2]int) {
		var b strings.Builder
		fmt.Fprintf(&b, "%%%%MatrixMarket matrix coordinate pattern symmetric\n%d %d %d\n", n, n, len(edges))
		for _, e := range edges {
			fmt.Fprintf(&b, "%d %d\n", max(e[0], e[1])+1, min(e[0], e[1])+1)
		}
		if err := os.WriteFile(filepath.Join(mm, name+".mtx"), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var ring, star, path, grid, clique [][2]int
	for i := range 12 {
		ring = append(ring, [2]int{i, (i + 1) % 12})
	}
	for i := 1; i < 9; i++ {
		star = append(star, [2]int{0, i})
	}
	for i := range 19 {
		path = append(path, [2]int{i, i + 1})
	}
	for r := range 4 {
		for c := range 5 {
			if c+1 < 5 {
				grid = append(grid, [2]int{r*5 + c, r*5 + c + 1})
			}
			if r+1 < 4 {
				grid = append(grid, [2]int{r*5 + c, (r+1)*5 + c})
			}
		}
	}
	for i := range 6 {
		for j := i + 1; j < 6; j++ {
			clique = append(clique, [2]int{i, j})
		}
	}
	write("ring", 12, ring)
	write("star", 9, star)
	write("path", 20, path)
	write("grid", 20, grid)
	write("clique", 6, clique)
	return dir
}

// tinyRun is a reproduction small enough for a unit test.
func tinyRun(out, data string) Options {
	return Options{Out: out, Seed: 3, DataDir: data, Mode: "omega",
		Sizes: Sizes{Small: 30, Medium: 30, Large: 16, ScheduleSeeds: 2, SpreadGraphs: 3}}
}

// The whole chain on tiny sets writes the report, the figures and the
// tables, and a second run with the same seed writes identical tables.
func TestReproTiny(t *testing.T) {
	data := fakeRealData(t)
	base := t.TempDir()
	a, b := filepath.Join(base, "a"), filepath.Join(base, "b")
	var log bytes.Buffer
	o := tinyRun(a, data)
	o.Log = &log
	sum, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if !sum.RealData || sum.Jobs != 5 || !strings.Contains(sum.JobsFrom, "real") {
		t.Errorf("real data %v, %d jobs from %q; want the 5 real graphs", sum.RealData, sum.Jobs, sum.JobsFrom)
	}
	if !strings.Contains(log.String(), "repro: report:") {
		t.Errorf("progress log lacks the final line:\n%s", log.String())
	}

	rep, err := os.ReadFile(sum.Report)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## Table 3", "## Table 4", "Scenario 1", "Scenario 2", "3.17x", "6.26x", ">1000x",
		"SuiteSparse", "fig6_scenario1.png", "## Wall-clock times",
		"## (F, G) spread", "Closest to seed 002", "Largest spread of any setting", "improvement over random >= 80 % on Medium",
		"### Scheduling study", "Load x job mix", "Nearest setting to the seed's speed-ups",
		"### Real data sets: present and missing", "| PROTEINS | 1,113 graphs | missing |", "Missing from seed 002's sets: ENZYMES, PROTEINS"} {
		if !bytes.Contains(rep, []byte(want)) {
			t.Errorf("report lacks %q", want)
		}
	}
	for _, f := range []string{"fig1_optimal_graphlaxy_small", "fig5_optimal_configs", "fig6_scenario1", "fig7_scenario2",
		"fig_fg_spread_medium", "fig_fg_spread_large", "fig_schedule_study"} {
		fh, err := os.Open(filepath.Join(a, f+".png"))
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := png.DecodeConfig(fh)
		fh.Close()
		if err != nil || cfg.Width < 800 || cfg.Height < 400 {
			t.Errorf("%s.png: %v, %dx%d", f, err, cfg.Width, cfg.Height)
		}
		svg, err := os.ReadFile(filepath.Join(a, f+".svg"))
		if err != nil || !bytes.Contains(svg, []byte("<svg")) {
			t.Errorf("%s.svg: %v", f, err)
		}
	}

	// The ledger: every claim, finite, the same table at the report's top.
	l, err := claims.Check(filepath.Join(a, ClaimsFile), ClaimIDs)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range l.Claims() {
		if !bytes.Contains(rep[:bytes.Index(rep, []byte("## Data sets"))], []byte("| "+c.ID+" | ")) {
			t.Errorf("claim %s not in the report's opening table", c.ID)
		}
	}
	t3, _, err := pqio.Read[predict.EvalRow](filepath.Join(a, Table3File))
	if err != nil {
		t.Fatal(err)
	}
	var sets []string
	for _, r := range t3 {
		sets = append(sets, r.Dataset)
		if strings.HasPrefix(r.Models, "/") {
			t.Errorf("table 3 names an absolute model path %q", r.Models)
		}
	}
	if got := strings.Join(sets, ","); got != "Graphlaxy.small,Graphlaxy.medium,Graphlaxy.large,SuiteSparse" {
		t.Errorf("table 3 data sets %s", got)
	}
	t4, _, err := pqio.Read[predict.EvalRow](filepath.Join(a, Table4File))
	if err != nil || len(t4) != 4*len(t3) {
		t.Errorf("table 4: %d rows (%v), want %d", len(t4), err, 4*len(t3))
	}
	mean, _, err := pqio.Read[MetricsRow](filepath.Join(a, ScheduleMeanFile))
	if err != nil || len(mean) != 14 {
		t.Errorf("schedule means: %d rows (%v), want 14", len(mean), err)
	}
	spread, _, err := pqio.Read[SpreadRow](filepath.Join(a, SpreadFile))
	n := len(SpreadSizes)
	if want := len(SpreadSets) * (2*n*n - 1); err != nil || len(spread) != want {
		t.Errorf("spread table: %d rows (%v), want %d", len(spread), err, want)
	}
	for _, r := range spread {
		if r.Graphs != 3 || r.ImprovementVsRandom <= 0 || r.ImprovementVsRandom >= 100 || r.ImprovementVsBestFixed < 0 {
			t.Errorf("spread row %s of %s: %d graphs, %.2f %% over random, %.2f %% over best fixed", r.Setting(), r.Dataset, r.Graphs, r.ImprovementVsRandom, r.ImprovementVsBestFixed)
		}
	}
	study, _, err := pqio.Read[StudyRow](filepath.Join(a, StudyFile))
	if err != nil || len(study) == 0 {
		t.Fatalf("study table: %d rows (%v)", len(study), err)
	}
	for _, r := range study {
		if !(r.Completion > 0) || !(r.Execution > 0) || !(r.Turnaround > 0) || r.Cases == 0 {
			t.Errorf("study row %+v", r)
		}
	}
	recs, _, err := pqio.Read[RecordRow](filepath.Join(a, ScheduleRecordsFile))
	if err != nil || len(recs) != 2*2*7*5 {
		t.Errorf("schedule records: %d rows (%v), want %d", len(recs), err, 2*2*7*5)
	}

	// Same seed, other directory: identical tables and report (but the
	// wall-clock section).
	if _, err := Run(context.Background(), tinyRun(b, data)); err != nil {
		t.Fatal(err)
	}
	compared := 0
	err = filepath.WalkDir(a, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(a, path)
		if !strings.HasSuffix(path, ".parquet") && !strings.HasSuffix(path, ".txt") && !strings.HasSuffix(path, ".json") {
			return nil
		}
		x, _ := os.ReadFile(path)
		y, err := os.ReadFile(filepath.Join(b, rel))
		if err != nil {
			return err
		}
		if !bytes.Equal(x, y) {
			t.Errorf("%s differs between two runs with the same seed", rel)
		}
		compared++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if compared < 100 {
		t.Errorf("compared only %d files", compared)
	}
	repB, _ := os.ReadFile(filepath.Join(b, ReportFile))
	cut := func(r []byte) []byte { i := bytes.Index(r, []byte("## Wall-clock")); return r[:i] }
	if !bytes.Equal(cut(rep), cut(repB)) {
		t.Error("report.md differs before its wall-clock section")
	}
}

// Without real data the reproduction schedules held-out generated graphs
// and says so.
func TestReproNoRealData(t *testing.T) {
	out := t.TempDir()
	o := tinyRun(out, filepath.Join(out, "no-such-dir"))
	o.Sizes.ScheduleSeeds = 1
	sum, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if sum.RealData || !strings.Contains(sum.JobsFrom, "test-split") || sum.Jobs == 0 {
		t.Errorf("real %v, %d jobs from %q", sum.RealData, sum.Jobs, sum.JobsFrom)
	}
	rep, err := os.ReadFile(sum.Report)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"No real data sets", "does not exist", "held-out"} {
		if !bytes.Contains(rep, []byte(want)) {
			t.Errorf("report lacks %q", want)
		}
	}
	if _, err := Run(context.Background(), Options{Out: out, Mode: "fast"}); err == nil {
		t.Error("unknown mode accepted")
	}
}
