package problems

import (
	"context"
	"strings"
	"testing"
)

// TestRunSizesAndSummary: sizes beyond the limits are refused before any
// work, naming the flag; a small run's summary is within physical bounds
// (hypervolumes positive, at most the true front's) and the same for the
// same seed.
func TestRunSizesAndSummary(t *testing.T) {
	for _, tc := range []struct {
		o    RunOptions
		want string
	}{
		{RunOptions{Problem: "zdt1", Pop: 0, Generations: 1}, "--pop 0"},
		{RunOptions{Problem: "zdt1", Pop: 10, Generations: MaxGenerations + 1}, "--generations"},
		{RunOptions{Problem: "zdt1", Pop: MaxPop, Generations: 1000}, "evaluations, above the limit"},
		{RunOptions{Problem: "zdt1", Pop: 10, Generations: 2, Workers: -1}, "--workers -1"},
		{RunOptions{Problem: "nope", Pop: 10, Generations: 2}, "nope"},
		{RunOptions{Problem: "zdt1", Pop: 10, Generations: 2, Ref: "1,2,3"}, "--ref"},
	} {
		if _, _, err := Run(context.Background(), tc.o); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", tc.o, err, tc.want)
		}
	}
	o := RunOptions{Problem: "zdt1", Pop: 16, Generations: 10, Seed: 3, Workers: 1, Ref: "2,10"}
	a, _, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	b, _, _ := Run(context.Background(), o)
	if a.TrueHV == nil || a.FrontHV <= 0 || a.FrontHV > *a.TrueHV || a.PopulationHV > a.FrontHV+1e-12 || a.Evaluations != 16*10 {
		t.Errorf("summary out of bounds: %+v", a)
	}
	if *a.TrueHV != *b.TrueHV || a.FrontHV != b.FrontHV || a.PopulationHV != b.PopulationHV {
		t.Error("same seed, different summaries")
	}
}
