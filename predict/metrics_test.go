package predict

import (
	"math"
	"testing"
)

// Three graphs, three configurations, worked by hand:
//
//	graph 0: true 10 20 40, predicted 12 18 40 -> picks 0 (true best)
//	graph 1: true 30 10 20, predicted 25 30 20 -> picks 2 (second best)
//	graph 2: true  5  5 50, predicted  6  4 50 -> picks 1 (tied best)
var (
	metricTruth = [][]float64{{10, 20, 40}, {30, 10, 20}, {5, 5, 50}}
	metricPred  = [][]float64{{12, 18, 40}, {25, 30, 20}, {6, 4, 50}}
)

func TestEvaluate(t *testing.T) {
	fixed, err := BestFixed(metricTruth)
	if err != nil {
		t.Fatal(err)
	}
	if fixed != 1 { // totals 45, 35, 110
		t.Fatalf("BestFixed = %d, want 1", fixed)
	}
	// Chosen total P = 10+20+5 = 35, optimal O = 10+10+5 = 25,
	// random R = 70/3 + 60/3 + 60/3 = 190/3.
	cases := []struct {
		fixed int
		want  Metrics
	}{
		{1, Metrics{
			Graphs: 3,
			// (2/10 + 2/20 + 0 + 5/30 + 20/10 + 0 + 1/5 + 1/5 + 0) / 9
			MAPE:                   100 * (43.0 / 15) / 9,
			Top1:                   100 * 2.0 / 3,
			Top3:                   100,
			ImprovementVsRandom:    100 * 17.0 / 38, // (190/3 - 35) / (190/3)
			ImprovementVsBestFixed: 0,               // fixed total 20+10+5 = 35
			DegradationVsOptimal:   40,              // (35 - 25) / 25
		}},
		{0, Metrics{
			Graphs:                 3,
			MAPE:                   100 * (43.0 / 15) / 9,
			Top1:                   100 * 2.0 / 3,
			Top3:                   100,
			ImprovementVsRandom:    100 * 17.0 / 38,
			ImprovementVsBestFixed: 100 * 10.0 / 45, // fixed total 10+30+5 = 45
			DegradationVsOptimal:   40,
		}},
	}
	for _, c := range cases {
		got, err := Evaluate(metricTruth, metricPred, c.fixed)
		if err != nil {
			t.Fatal(err)
		}
		close := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }
		if got.Graphs != c.want.Graphs || !close(got.MAPE, c.want.MAPE) || !close(got.Top1, c.want.Top1) ||
			!close(got.Top3, c.want.Top3) || !close(got.ImprovementVsRandom, c.want.ImprovementVsRandom) ||
			!close(got.ImprovementVsBestFixed, c.want.ImprovementVsBestFixed) ||
			!close(got.DegradationVsOptimal, c.want.DegradationVsOptimal) {
			t.Errorf("fixed %d:\n got %+v\nwant %+v", c.fixed, got, c.want)
		}
	}
}

// TestEvaluatePerfect: predictions equal to the truth are optimal.
func TestEvaluatePerfect(t *testing.T) {
	m, err := Evaluate(metricTruth, metricTruth, 2)
	if err != nil {
		t.Fatal(err)
	}
	if m.MAPE != 0 || m.Top1 != 100 || m.Top3 != 100 || m.DegradationVsOptimal != 0 {
		t.Errorf("perfect predictions: %+v", m)
	}
	// Fixed config 2 totals 110 against the optimal 25.
	if want := 100 * 85.0 / 110; math.Abs(m.ImprovementVsBestFixed-want) > 1e-9 {
		t.Errorf("improvement vs fixed %v, want %v", m.ImprovementVsBestFixed, want)
	}
}

func TestTopK(t *testing.T) {
	truth := [][]float64{{1, 2, 3, 4, 5}}
	for pick, want := range []struct{ top1, top3 float64 }{{100, 100}, {0, 100}, {0, 100}, {0, 0}, {0, 0}} {
		pred := [][]float64{{9, 9, 9, 9, 9}}
		pred[0][pick] = 1
		m, err := Evaluate(truth, pred, 0)
		if err != nil {
			t.Fatal(err)
		}
		if m.Top1 != want.top1 || m.Top3 != want.top3 {
			t.Errorf("picking rank %d: top1 %v top3 %v, want %v %v", pick+1, m.Top1, m.Top3, want.top1, want.top3)
		}
	}
}

func TestArgMin(t *testing.T) {
	for _, c := range []struct {
		xs   []float64
		want int
	}{{nil, -1}, {[]float64{3}, 0}, {[]float64{3, 1, 1, 2}, 1}, {[]float64{-1, -5, 0}, 1}} {
		if got := ArgMin(c.xs); got != c.want {
			t.Errorf("ArgMin(%v) = %d, want %d", c.xs, got, c.want)
		}
	}
}

func TestMetricErrors(t *testing.T) {
	ok := [][]float64{{1, 2}, {3, 4}}
	cases := []struct {
		name        string
		truth, pred [][]float64
		fixed       int
	}{
		{"empty", nil, nil, 0},
		{"ragged truth", [][]float64{{1, 2}, {3}}, ok, 0},
		{"ragged pred", ok, [][]float64{{1, 2}, {3}}, 0},
		{"row count", ok, ok[:1], 0},
		{"config count", ok, [][]float64{{1, 2, 3}, {3, 4, 5}}, 0},
		{"zero latency", [][]float64{{1, 0}, {3, 4}}, ok, 0},
		{"negative latency", [][]float64{{1, -2}, {3, 4}}, ok, 0},
		{"NaN prediction", ok, [][]float64{{1, math.NaN()}, {3, 4}}, 0},
		{"fixed range", ok, ok, 2},
		{"negative fixed", ok, ok, -1},
	}
	for _, c := range cases {
		if _, err := Evaluate(c.truth, c.pred, c.fixed); err == nil {
			t.Errorf("%s: accepted", c.name)
		}
	}
	if _, err := BestFixed([][]float64{{1, math.Inf(1)}}); err == nil {
		t.Error("BestFixed accepted an infinite latency")
	}
}
