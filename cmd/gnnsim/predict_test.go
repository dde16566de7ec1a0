package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gnnsim/internal/pqio"
	"gnnsim/repro/seed002"
)

// tinySweepSize is the number of graphs of the sweeps the predictor and
// scheduler tests run on: enough for a 70/15/15 split with a few test graphs.
const tinySweepSize = 20

// trainModels trains models with the default options (+features+log) on
// the sweep data and returns the model directory.
func trainModels(t *testing.T, data string, extra ...string) string {
	t.Helper()
	models := filepath.Join(t.TempDir(), "models")
	out := mustRun(t, append([]string{"predict", "train", "--data", data, "--out", models}, extra...)...)
	if !strings.HasPrefix(out, "trained ") {
		t.Errorf("train printed %q", strings.SplitN(out, "\n", 2)[0])
	}
	return models
}

var evalKeys = []string{"dataset", "n_graphs", "mape", "top1", "top3", "improvement_vs_random", "improvement_vs_best_fixed", "degradation_vs_optimal"}

func TestPredictTrainEval(t *testing.T) {
	data := tinySweep(t, tinySweepSize)
	models := trainModels(t, data, "--workers", "1")
	// Training does not depend on the worker count.
	sameFiles(t, models, trainModels(t, data, "--workers", "2"))

	dir := t.TempDir()
	pq, md := filepath.Join(dir, "eval.parquet"), filepath.Join(dir, "eval.md")
	out := mustRun(t, "predict", "eval", "--models", models, "--data", data, "--json", "--out", pq, "--markdown", md)
	// --parquet, the old name of --out, writes the same file and says so.
	old := filepath.Join(dir, "old.parquet")
	// (cobra writes the note to the command's output stream: stderr in a
	// terminal, the test's stdout buffer here.)
	if stdout, stderr, err := run(t, "predict", "eval", "--models", models, "--data", data, "--json", "--parquet", old); err != nil || !strings.Contains(stdout+stderr, "--parquet has been deprecated, use --out") {
		t.Errorf("--parquet: %v, stderr %q", err, stderr)
	}
	if a, b := readFile(t, pq), readFile(t, old); string(a) != string(b) {
		t.Error("--parquet and --out wrote different files")
	}
	objs := decodeObjects(t, out)
	if len(objs) != 1 {
		t.Fatalf("%d objects, want one per data set (1)", len(objs))
	}
	checkKeys(t, objs, evalKeys)
	var row struct {
		Dataset                string  `json:"dataset"`
		NGraphs                int     `json:"n_graphs"`
		MAPE                   float64 `json:"mape"`
		Top1                   float64 `json:"top1"`
		Top3                   float64 `json:"top3"`
		ImprovementVsRandom    float64 `json:"improvement_vs_random"`
		ImprovementVsBestFixed float64 `json:"improvement_vs_best_fixed"`
		DegradationVsOptimal   float64 `json:"degradation_vs_optimal"`
	}
	raw, _ := json.Marshal(objs[0])
	if err := json.Unmarshal(raw, &row); err != nil {
		t.Fatal(err)
	}
	if row.Dataset != "er" {
		t.Errorf("dataset %q, want er (the generator's name)", row.Dataset)
	}
	// The trained-on set is scored on its test split only.
	if row.NGraphs < 1 || row.NGraphs >= tinySweepSize/2 {
		t.Errorf("n_graphs %d, want the test split of %d graphs", row.NGraphs, tinySweepSize)
	}
	for name, v := range map[string]float64{"mape": row.MAPE, "top1": row.Top1, "top3": row.Top3,
		"improvement_vs_random": row.ImprovementVsRandom, "improvement_vs_best_fixed": row.ImprovementVsBestFixed,
		"degradation_vs_optimal": row.DegradationVsOptimal} {
		if math.IsNaN(v) || math.IsInf(v, 0) || v > 100 && name != "mape" {
			t.Errorf("%s = %g: want a finite percentage", name, v)
		}
	}
	if row.MAPE < 0 || row.DegradationVsOptimal < 0 || row.Top1 < 0 || row.Top3 < row.Top1 {
		t.Errorf("mape %g, degradation %g, top1 %g, top3 %g: want mape, degradation >= 0 and top3 >= top1 >= 0",
			row.MAPE, row.DegradationVsOptimal, row.Top1, row.Top3)
	}
	if again := mustRun(t, "predict", "eval", "--models", models, "--data", data, "--json"); again != out {
		t.Errorf("eval is not deterministic")
	}
	if _, err := os.Stat(pq); err != nil {
		t.Errorf("--parquet: %v", err)
	}
	if b, err := os.ReadFile(md); err != nil || !strings.Contains(string(b), "| Data set |") {
		t.Errorf("--markdown did not write the Table 3 Markdown (err %v)", err)
	}

	// Without --json: the Markdown table after a models line.
	txt := mustRun(t, "predict", "eval", "--models", models, "--data", data)
	if !strings.HasPrefix(txt, "models: "+models) || !strings.Contains(txt, "| er |") {
		t.Errorf("eval table:\n%s", txt)
	}
}

var predictedLine = regexp.MustCompile(`^\s*(\d+)\s+(\S+)\s+(\d+) cycles$`)

func TestPredictGraph(t *testing.T) {
	data := tinySweep(t, tinySweepSize)
	models := trainModels(t, data)
	out := mustRun(t, "predict", "graph", "--models", models, "--graphs", filepath.Join(data, "graphs.parquet"), "--graph", "3", "--F", "32", "--G", "16")
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) != 26 {
		t.Fatalf("%d lines, want a header, 24 ranks and the best:\n%s", len(lines), out)
	}
	if !strings.HasPrefix(lines[0], `graph "er_3"`) {
		t.Errorf("header %q does not name graph er_3", lines[0])
	}
	seen := map[string]bool{}
	var first string
	prev := -1.0
	for i, l := range lines[1:25] {
		m := predictedLine.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("rank line %q", l)
		}
		if m[1] != strconv.Itoa(i+1) {
			t.Errorf("line %q: rank %s, want %d", l, m[1], i+1)
		}
		c, err := strconv.ParseFloat(m[3], 64)
		if err != nil || c < prev {
			t.Errorf("line %q: latencies not ascending", l)
		}
		prev = c
		seen[m[2]] = true
		if i == 0 {
			first = m[2]
		}
	}
	if len(seen) != 24 {
		t.Errorf("%d distinct configurations, want 24", len(seen))
	}
	if !strings.HasPrefix(lines[25], "predicted best: "+first+" ") {
		t.Errorf("last line %q, want the best to be rank 1's %s", lines[25], first)
	}
	if _, _, err := run(t, "predict", "graph", "--models", models, "--graphs", filepath.Join(data, "graphs.parquet"), "--graph", "99"); err == nil || !strings.Contains(err.Error(), "99") {
		t.Errorf("--graph 99 of %d: error %v", tinySweepSize, err)
	}
	// --json prints what the text says, --out writes its configurations.
	pq := filepath.Join(t.TempDir(), "pred.parquet")
	js := mustRun(t, "predict", "graph", "--models", models, "--graphs", filepath.Join(data, "graphs.parquet"), "--graph", "3", "--F", "32", "--G", "16",
		"--json", "--out", pq)
	var pr seed002.Prediction
	if err := json.Unmarshal([]byte(js), &pr); err != nil || pr.Graph != "er_3" || len(pr.Configs) != 24 || pr.Best != first || pr.Configs[0].Config != first {
		t.Fatalf("--json %v: %s", err, js)
	}
	rows, _, err := pqio.Read[seed002.PredictedCycles](pq)
	if err != nil || !slices.Equal(rows, pr.Configs) {
		t.Errorf("--out rows %v (%v), want --json's configs", rows, err)
	}
}

// TestPredictTrainDefaults checks that the defaults train the recommended
// variant and that every ablation variant stays reachable by flags.
func TestPredictTrainDefaults(t *testing.T) {
	data := tinySweep(t, tinySweepSize)
	for _, tc := range []struct {
		flags             []string
		variant, baseline string
	}{
		{nil, "base+features+log", "loglinear"},
		{[]string{"--log=false"}, "base+features", "none"},
		{[]string{"--features", "base"}, "base+log", "loglinear"},
		{[]string{"--features", "base", "--log=false"}, "base", "none"},
		{[]string{"--baseline", "none"}, "base+features+log", "none"},
	} {
		models := trainModels(t, data, append([]string{"--workers", "2"}, tc.flags...)...)
		raw, err := os.ReadFile(filepath.Join(models, "manifest.json"))
		if err != nil {
			t.Fatal(err)
		}
		var man struct {
			Features string `json:"features"`
			Log      bool   `json:"log"`
			Baseline string `json:"baseline"`
		}
		if err := json.Unmarshal(raw, &man); err != nil {
			t.Fatal(err)
		}
		v := "base"
		if man.Features == "full" {
			v += "+features"
		}
		if man.Log {
			v += "+log"
		}
		if v != tc.variant || man.Baseline != tc.baseline {
			t.Errorf("train %v: variant %s baseline %s, want %s baseline %s", tc.flags, v, man.Baseline, tc.variant, tc.baseline)
		}
	}
}

func TestPredictTrainJSON(t *testing.T) {
	data := tinySweep(t, tinySweepSize)
	models := filepath.Join(t.TempDir(), "models")
	out := mustRun(t, "predict", "train", "--data", data, "--out", models, "--workers", "2", "--json")
	var obj map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &obj); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	checkKeys(t, []map[string]json.RawMessage{obj}, []string{"variant", "baseline", "samples", "best_fixed", "models", "validation"})
	var sum seed002.FitSummary
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatal(err)
	}
	if sum.Variant != "base+features+log" || sum.Samples != tinySweepSize || len(sum.Models) != 24 || len(sum.Validation) != 1 {
		t.Errorf("summary %+v", sum)
	}
	for _, m := range sum.Models {
		if m.Trees < 1 {
			t.Errorf("model %s has %d trees", m.Config, m.Trees)
		}
	}
	checkKeys(t, decodeObjects(t, string(obj["validation"])), evalKeys)
	if v := sum.Validation[0]; !(v.MAPE >= 0) || v.Top1 < 0 || v.Top1 > 100 {
		t.Errorf("validation row %+v", v)
	}
}

// TestPredictAblationJSON: --json prints the four variants' rows (the
// keys of predict eval --json) and writes the same files as the text run.
func TestPredictAblationJSON(t *testing.T) {
	data := tinySweep(t, tinySweepSize)
	dir := t.TempDir()
	txt, js := filepath.Join(dir, "txt"), filepath.Join(dir, "js")
	mustRun(t, "predict", "ablation", "--data", data, "--out", txt, "--num-iterations", "5", "--workers", "1")
	out := mustRun(t, "predict", "ablation", "--data", data, "--out", js, "--num-iterations", "5", "--workers", "1", "--json")
	var rows []map[string]any
	if err := json.Unmarshal([]byte(out), &rows); err != nil || len(rows) == 0 {
		t.Fatalf("--json: %v\n%s", err, out)
	}
	for _, k := range evalKeys {
		if _, ok := rows[0][k]; !ok {
			t.Errorf("row without %q: %v", k, rows[0])
		}
	}
	if a, b := readFile(t, filepath.Join(txt, "table4.md")), readFile(t, filepath.Join(js, "table4.md")); string(a) != string(b) {
		t.Error("--json wrote another table4.md")
	}
}
