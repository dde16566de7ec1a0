package workload

import (
	"math"
	"slices"
	"testing"
)

func TestTimesDeterministicAndSorted(t *testing.T) {
	for _, p := range []Process{Pareto, Lomax, Poisson} {
		spec := ArrivalSpec{Process: p, MeanGap: 1000}
		a, err := spec.Times(5000, 42)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := spec.Times(5000, 42)
		c, _ := spec.Times(5000, 43)
		if !slices.Equal(a, b) {
			t.Errorf("%v: same seed gave different traces", p)
		}
		if slices.Equal(a, c) {
			t.Errorf("%v: different seeds gave the same trace", p)
		}
		if !slices.IsSorted(a) || a[0] < 0 {
			t.Errorf("%v: times not sorted or negative", p)
		}
	}
}

// The gap laws: Pareto I gaps never fall below x_m and have median
// x_m*2^(1/alpha); Lomax median x_m*(2^(1/alpha)-1); exponential median
// mean*ln 2. Gaps are recovered from the rounded times, so allow a cycle.
func TestGapDistributions(t *testing.T) {
	const n, mean = 200000, 10000.0
	alpha := 2.5
	tests := []struct {
		spec   ArrivalSpec
		min    float64
		median float64
	}{
		{ArrivalSpec{Process: Pareto, Shape: alpha, MeanGap: mean}, mean * (alpha - 1) / alpha, mean * (alpha - 1) / alpha * math.Pow(2, 1/alpha)},
		{ArrivalSpec{Process: Lomax, Shape: alpha, MeanGap: mean}, 0, mean * (alpha - 1) * (math.Pow(2, 1/alpha) - 1)},
		{ArrivalSpec{Process: Poisson, MeanGap: mean}, 0, mean * math.Ln2},
	}
	for _, tt := range tests {
		times, err := tt.spec.Times(n, 1)
		if err != nil {
			t.Fatal(err)
		}
		gaps := make([]float64, n)
		prev := int64(0)
		for i, x := range times {
			gaps[i] = float64(x - prev)
			prev = x
		}
		slices.Sort(gaps)
		if gaps[0] < tt.min-1 {
			t.Errorf("%v: smallest gap %v below the support minimum %v", tt.spec.Process, gaps[0], tt.min)
		}
		med := gaps[n/2]
		if math.Abs(med-tt.median) > 0.01*tt.median {
			t.Errorf("%v: median gap %v, want %v within 1%%", tt.spec.Process, med, tt.median)
		}
		// alpha = 2.5 has finite variance, so the sample mean converges
		// at the usual rate.
		realised := float64(times[n-1]) / n
		if math.Abs(realised-mean) > 0.02*mean {
			t.Errorf("%v: realised mean gap %v, want %v within 2%%", tt.spec.Process, realised, mean)
		}
	}
}

// Seed 002's setting: Pareto gaps (default shape 1.5, infinite variance)
// scaled so the offered utilisation hits 85 %. On a long trace the realised
// utilisation must be close to the target for every seed tried.
func TestParetoUtilisationHitsTarget(t *testing.T) {
	n := 1_000_000
	if testing.Short() {
		n = 200_000
	}
	const machines = 3
	service := make([]int64, 1000) // a spread of job sizes, cycled over the trace
	for i := range service {
		service[i] = int64(1000 + (i*7919)%50000)
	}
	gap, err := MeanGap(service, machines, DefaultUtilisation)
	if err != nil {
		t.Fatal(err)
	}
	full := make([]int64, n)
	for i := range full {
		full[i] = service[i%len(service)]
	}
	for seed := uint64(1); seed <= 5; seed++ {
		times, err := ArrivalSpec{Process: Pareto, MeanGap: gap}.Times(n, seed)
		if err != nil {
			t.Fatal(err)
		}
		u := OfferedUtilisation(full, times, machines)
		if math.Abs(u-DefaultUtilisation) > 0.05*DefaultUtilisation {
			t.Errorf("seed %d: realised utilisation %.4f, want %.2f within 5%%", seed, u, DefaultUtilisation)
		}
		t.Logf("seed %d: realised utilisation %.4f over %d jobs", seed, u, n)

		exact, err := ArrivalSpec{Process: Pareto, MeanGap: gap, Exact: true}.Times(2000, seed)
		if err != nil {
			t.Fatal(err)
		}
		if u := OfferedUtilisation(full[:2000], exact, machines); math.Abs(u-DefaultUtilisation) > 1e-3 {
			t.Errorf("seed %d: Exact trace utilisation %.6f, want %.2f", seed, u, DefaultUtilisation)
		}
	}
}

func TestArrivalSpecErrors(t *testing.T) {
	bad := []ArrivalSpec{
		{Process: 0, MeanGap: 1},
		{Process: Pareto, Shape: 1, MeanGap: 1},
		{Process: Lomax, Shape: 0.5, MeanGap: 1},
		{Process: Pareto, Shape: math.NaN(), MeanGap: 1},
		{Process: Poisson, MeanGap: 0},
		{Process: Poisson, MeanGap: math.Inf(1)},
		{Process: Poisson, MeanGap: math.NaN()},
	}
	for _, s := range bad {
		if _, err := s.Times(10, 1); err == nil {
			t.Errorf("%+v accepted", s)
		}
	}
	if _, err := (ArrivalSpec{Process: Poisson, MeanGap: 1}).Times(-1, 1); err == nil {
		t.Error("negative n accepted")
	}
	if _, err := (ArrivalSpec{Process: Poisson, MeanGap: 1 << 59}).Times(100, 1); err == nil {
		t.Error("overflowing span accepted")
	}
	if _, err := MeanGap(nil, 3, 0.85); err == nil {
		t.Error("MeanGap of no jobs accepted")
	}
	if _, err := MeanGap([]int64{5, 0}, 3, 0.85); err == nil {
		t.Error("zero service accepted")
	}
	if _, err := MeanGap([]int64{5}, 0, 0.85); err == nil {
		t.Error("zero machines accepted")
	}
	if _, err := MeanGap([]int64{5}, 1, math.NaN()); err == nil {
		t.Error("NaN utilisation accepted")
	}
	if err := SetArrivals(make([]Job, 2), []int64{1}); err == nil {
		t.Error("length mismatch accepted")
	}
}

func TestMeanGapFormula(t *testing.T) {
	g, err := MeanGap([]int64{100, 300}, 2, 0.5)
	if err != nil || g != 200 {
		t.Errorf("MeanGap = %v, %v; want 200", g, err)
	}
	if u := OfferedUtilisation([]int64{100, 300}, []int64{100, 400}, 2); u != 0.5 {
		t.Errorf("OfferedUtilisation = %v, want 0.5", u)
	}
}

func TestProcessNames(t *testing.T) {
	for p := Pareto; p <= Poisson; p++ {
		if q, err := ParseProcess(p.String()); err != nil || q != p {
			t.Errorf("ParseProcess(%q) = %v, %v", p.String(), q, err)
		}
	}
	if _, err := ParseProcess("uniform"); err == nil {
		t.Error("unknown process accepted")
	}
}

// TestLomaxLargeShapes: as the shape grows Lomax gaps tend to exponential
// ones of the same mean; no shape may collapse the trace onto a few times
// or overflow (issue 38 item 7: 1e20 put every job at 0, 1e16 on 64
// distinct times, 1e308 printed a negative arrival).
func TestLomaxLargeShapes(t *testing.T) {
	const n, mean = 20000, 1e6
	for _, a := range []float64{2.5, 1e6, 1e16, 1e20, 1e300, 1e308, math.MaxFloat64} {
		s := ArrivalSpec{Process: Lomax, Shape: a, MeanGap: mean}
		times, err := s.Times(n, 3)
		if err != nil {
			t.Fatalf("shape %g: %v", a, err)
		}
		distinct := 1
		for i := 1; i < n; i++ {
			if times[i] < times[i-1] || times[i] < 0 {
				t.Fatalf("shape %g: arrival %d at %d after %d", a, i, times[i], times[i-1])
			}
			if times[i] != times[i-1] {
				distinct++
			}
		}
		if distinct < n*99/100 {
			t.Errorf("shape %g: %d distinct arrival times of %d", a, distinct, n)
		}
		if realised := float64(times[n-1]) / n; math.Abs(realised-mean) > 0.05*mean {
			t.Errorf("shape %g: realised mean gap %g, want %g within 5%%", a, realised, mean)
		}
		if a >= 1e16 { // exponential: the median gap is ln 2 of the mean
			gaps := make([]float64, n)
			prev := int64(0)
			for i, x := range times {
				gaps[i], prev = float64(x-prev), x
			}
			slices.Sort(gaps)
			if med := gaps[n/2]; math.Abs(med-mean*math.Ln2) > 0.03*mean*math.Ln2 {
				t.Errorf("shape %g: median gap %g, want %g (exponential)", a, med, mean*math.Ln2)
			}
		}
	}
}
