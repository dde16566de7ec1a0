package predict

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gnnsim/internal/pqio"
)

// relabel returns a copy of ss with data set label ds and graph ids moved
// by off.
func relabel(ss []Sample, ds string, off int64) []Sample {
	out := slices.Clone(ss)
	for i := range out {
		out[i].Dataset = ds
		out[i].GraphID += off
	}
	return out
}

func TestEvaluateSplits(t *testing.T) {
	train := syntheticSamples(t, 120, "Graphlaxy.syn", 11)
	_, p := fitAndLoad(t, train, testFitOptions())
	other := syntheticSamples(t, 40, "x", 12)
	eval := append(slices.Clone(train), relabel(other, "Other", 0)...)
	eval = append(eval, relabel(other, "graphlaxy.other", 0)...)
	sets, err := p.Evaluate(eval)
	if err != nil {
		t.Fatal(err)
	}
	splits := AssignSplits(eval, 1)
	nTest := func(ds string) int {
		n := 0
		for i, s := range eval {
			if s.Dataset == ds && splits[i] == TestSplit {
				n++
			}
		}
		return n
	}
	man := p.Manifest()
	want := []struct {
		ds, split string
		n         int
		fixed     string
	}{
		// Trained on: its test split, its own best fixed configuration.
		{"Graphlaxy.syn", "test", nTest("Graphlaxy.syn"), man.TrainedOn[0].BestFixed},
		// Not trained on: every graph, the overall best fixed one.
		{"Other", "all", 40, man.BestFixed},
		// A Graphlaxy set: its test split, as seed 002 evaluates them.
		{"graphlaxy.other", "test", nTest("graphlaxy.other"), man.BestFixed},
	}
	if len(sets) != len(want) {
		t.Fatalf("%d sets, want %d", len(sets), len(want))
	}
	for i, w := range want {
		s := sets[i]
		if s.Dataset != w.ds || s.Split != w.split || s.Metrics.Graphs != w.n || s.Graphs != w.n || s.BestFixed != w.fixed || s.Mode != "extended" {
			t.Errorf("set %d: %s %s %d cases %d graphs fixed %s mode %s; want %s %s %d fixed %s",
				i, s.Dataset, s.Split, s.Metrics.Graphs, s.Graphs, s.BestFixed, s.Mode, w.ds, w.split, w.n, w.fixed)
		}
		if !(s.MAPE >= 0 && s.Top1 <= s.Top3 && s.DegradationVsOptimal >= 0) {
			t.Errorf("set %s: implausible metrics %+v", s.Dataset, s.Metrics)
		}
	}
	if w := man.TrainedOn[0]; w.Name != "Graphlaxy.syn" || w.Graphs != 120 || w.Train+w.Valid+w.Test != 120 {
		t.Errorf("trained_on %+v", w)
	}

	// A trained-on set that lost graphs would not have its held-out test
	// split: refused.
	if _, err := p.Evaluate(train[:100]); err == nil || !strings.Contains(err.Error(), "held-out") {
		t.Errorf("changed trained-on set: %v", err)
	}
}

func testRows() []EvalRow {
	return []EvalRow{
		{Variant: "base+features+log", Baseline: "loglinear", Dataset: "Graphlaxy.medium", Split: "test", Graphs: 1375, Cases: 1375,
			MAPE: 1.25, Top1: 92.5, Top3: 99.5, ImprovementVsRandom: 60, ImprovementVsBestFixed: 8.5, DegradationVsOptimal: 0.12},
		{Variant: "base", Baseline: "none", Dataset: "MUTAG", Split: "all", Graphs: 188, Cases: 188, MAPE: 6},
	}
}

func TestEvalRowJSONAndParquet(t *testing.T) {
	rows := testRows()
	data, err := json.Marshal(rows[:1])
	if err != nil {
		t.Fatal(err)
	}
	var got []map[string]any
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range got[0] {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	want := []string{"dataset", "degradation_vs_optimal", "improvement_vs_best_fixed", "improvement_vs_random", "mape", "n_graphs", "top1", "top3"}
	if !slices.Equal(keys, want) {
		t.Errorf("JSON keys %v, want %v", keys, want)
	}
	path := filepath.Join(t.TempDir(), "eval.parquet")
	if err := WriteRows(path, rows, map[string]string{"k": "v"}); err != nil {
		t.Fatal(err)
	}
	back, meta, err := pqio.Read[EvalRow](path)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(back, rows) || meta["gnnsim.k"] != "v" {
		t.Fatalf("read back %+v (meta %v), wrote %+v", back, meta, rows)
	}
}
