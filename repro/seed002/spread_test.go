package seed002

import (
	"math"
	"strings"
	"testing"

	"gnnsim/predict"
)

// spreadSamples are two graphs run with every (F, G) of SpreadSizes. Graph
// 0 is fastest on configuration 0 and graph 1 on configuration 1; the
// configuration that wins costs 1 x scale, the other 23 cost k x scale,
// with scale = F*G so that larger layers weigh more in the totals.
func spreadSamples(k float64) []predict.Sample {
	var out []predict.Sample
	for g := range 2 {
		for _, f := range SpreadSizes {
			for _, gg := range SpreadSizes {
				s := predict.Sample{Dataset: "Graphlaxy.test", GraphID: int64(g), F: f, G: gg}
				scale := float64(f * gg)
				for c := range s.Latency {
					s.Latency[c] = k * scale
				}
				s.Latency[g] = scale
				out = append(out, s)
			}
		}
	}
	return out
}

func TestSpread(t *testing.T) {
	const k = 9.0
	rows, err := Spread(spreadSamples(k), 90, 40, 1)
	if err != nil {
		t.Fatal(err)
	}
	n := len(SpreadSizes)
	if want := n*n + n*n - 1; len(rows) != want {
		t.Fatalf("%d rows, want %d (every single setting, every range but 16..16 x 16..16)", len(rows), want)
	}
	// Every case: optimum 1, random (1 + 23k)/24, the best fixed config 0
	// (graph 0 at 1, graph 1 at k; equal totals per setting, first wins).
	rnd := (1 + 23*k) / 24
	wantRnd := 100 * (rnd - 1) / rnd
	wantFixed := 100 * ((1 + k) - 2) / (1 + k)
	for _, r := range rows {
		if math.Abs(r.ImprovementVsRandom-wantRnd) > 1e-9 || math.Abs(r.RandomOverOptimal-rnd) > 1e-9 {
			t.Errorf("%s: improvement over random %.6f (R/O %.4f), want %.6f (%.4f)", r.Setting(), r.ImprovementVsRandom, r.RandomOverOptimal, wantRnd, rnd)
		}
		if !r.Range && (math.Abs(r.ImprovementVsBestFixed-wantFixed) > 1e-9 || r.BestFixed != predict.ConfigNames()[0]) {
			t.Errorf("%s: over best fixed %.6f (%s), want %.6f (%s)", r.Setting(), r.ImprovementVsBestFixed, r.BestFixed, wantFixed, predict.ConfigNames()[0])
		}
		if r.Graphs != 2 || r.Dataset != "Graphlaxy.test" {
			t.Errorf("%s: %d graphs of %q", r.Setting(), r.Graphs, r.Dataset)
		}
		if d := math.Hypot(r.ImprovementVsRandom-90, r.ImprovementVsBestFixed-40); math.Abs(d-r.Distance) > 1e-9 {
			t.Errorf("%s: distance %.6f, want %.6f", r.Setting(), r.Distance, d)
		}
		// The best fixed configuration can never beat the optimum.
		if r.ImprovementVsBestFixed < 0 {
			t.Errorf("%s: optimum worse than the best fixed configuration (%.3f %%)", r.Setting(), r.ImprovementVsBestFixed)
		}
	}
	again, err := Spread(spreadSamples(k), 90, 40, 1)
	if err != nil {
		t.Fatal(err)
	}
	for i := range rows {
		if rows[i] != again[i] {
			t.Fatalf("row %d differs between two runs: %+v vs %+v", i, rows[i], again[i])
		}
	}
	c, w := Closest(rows)
	if c.Distance > rows[0].Distance || w.ImprovementVsRandom < rows[0].ImprovementVsRandom {
		t.Errorf("Closest: %+v, %+v", c, w)
	}
}

func TestSpreadRefuses(t *testing.T) {
	base := spreadSamples(3)
	missing := base[1:]
	mixed := append([]predict.Sample(nil), base...)
	mixed[5].Dataset = "Other"
	odd := append([]predict.Sample(nil), base...)
	odd[3].F = 48
	for _, c := range []struct {
		name string
		in   []predict.Sample
		want string
	}{
		{"empty", nil, "no samples"},
		{"missing size", missing, "no case with F=16, G=16"},
		{"mixed sets", mixed, "mixed"},
		{"size off the grid", odd, "F=48"},
	} {
		_, err := Spread(c.in, 90, 40, 1)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}
