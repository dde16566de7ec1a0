package seed002

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gnnsim/predict"
)

func TestSeedName(t *testing.T) {
	for in, want := range map[string]string{
		"Graphlaxy.medium": "Graphlaxy.Medium",
		"graphlaxy.LARGE":  "Graphlaxy.Large",
		"SuiteSparse":      "SparseSuite.Mix",
		"ENZYMES":          "ENZYMES",
		"MUTAG":            "",
		"Cora":             "",
	} {
		if got := SeedName(in); got != want {
			t.Errorf("SeedName(%q) = %q, want %q", in, got, want)
		}
	}
}

// tableRows are two evaluation rows: a data set of the seed's Table 3 and
// Table 4, and one the seed does not have.
func tableRows() []predict.EvalRow {
	return []predict.EvalRow{
		{Variant: "base+features+log", Baseline: "loglinear", Dataset: "Graphlaxy.medium", Split: "test", Graphs: 1375, Cases: 1375,
			MAPE: 1.25, Top1: 92.5, Top3: 99.5, ImprovementVsRandom: 60, ImprovementVsBestFixed: 8.5, DegradationVsOptimal: 0.12},
		{Variant: "base", Baseline: "none", Dataset: "MUTAG", Split: "all", Graphs: 188, Cases: 188, MAPE: 6},
	}
}

func TestWriteTables(t *testing.T) {
	var b bytes.Buffer
	if err := WriteTable3(&b, tableRows()); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"| Graphlaxy.medium | test | 1375 | 1.25 (3.78) | 92.50 (91.28) | 99.50 (99.62) | 60.00 (93.63) | 8.50 (58.42) | 0.12 (0.56) |",
		"| MUTAG | all | 188 | 6.00 (—) |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("Table 3 lacks %q:\n%s", want, out)
		}
	}
	b.Reset()
	if err := WriteTable4(&b, tableRows()); err != nil {
		t.Fatal(err)
	}
	out = b.String()
	for _, want := range []string{
		"| Graphlaxy.medium | base+features+log | 1.25 | 3.78 | 0.12 | 0.56 |",
		"| MUTAG | base | 6.00 | — | 0.00 | — |",
		"log-linear baseline",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("Table 4 lacks %q:\n%s", want, out)
		}
	}
}

func TestAblation(t *testing.T) {
	cases := tinyCases(t, 140)
	train := slices.Clone(cases[:120])
	other := slices.Clone(cases[120:])
	for i := range other {
		other[i].Dataset = "Other"
	}
	eval := append(slices.Clone(train), other...)
	dir := t.TempDir()
	o := predict.DefaultFitOptions()
	o.Params.NumIterations, o.Params.MinDataInLeaf = 10, 5
	rows, err := Ablation(train, eval, o, dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rows {
		got = append(got, r.Dataset+"/"+r.Variant+"/"+r.Baseline)
	}
	want := []string{
		"Graphlaxy.small/base/none", "Graphlaxy.small/base+features/none", "Graphlaxy.small/base+log/loglinear", "Graphlaxy.small/base+features+log/loglinear",
		"Other/base/none", "Other/base+features/none", "Other/base+log/loglinear", "Other/base+features+log/loglinear",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("rows %v, want %v", got, want)
	}
	for _, v := range []string{"base", "base+features", "base+log", "base+features+log"} {
		if _, err := predict.LoadPredictor(filepath.Join(dir, v)); err != nil {
			t.Errorf("variant %s not saved: %v", v, err)
		}
	}
}
