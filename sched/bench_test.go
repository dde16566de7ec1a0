package sched

import (
	"testing"
)

// BenchmarkSevenPolicies100k runs a 100,000-job Pareto trace at 85 %
// utilisation on three machines with eight mappings each through all seven
// standard policies (random baseline mappings, predictor charge on). One op = seven runs.
func BenchmarkSevenPolicies100k(b *testing.B) {
	in := randomInstance(b, 100000, []int{8, 8, 8}, 0.85, 0.3, 1)
	p := in.problem(b, true)
	pols := Standard()
	opt := Options{Baselines: MappingRandom, Seed: 1, InferenceCycles: 2312}
	b.ReportAllocs()
	for b.Loop() {
		for _, pol := range pols {
			if _, err := Run(p, pol, opt); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkNewProblem100k builds the Problem of the benchmark above:
// validation, best mappings and 2.4 million table predictions.
func BenchmarkNewProblem100k(b *testing.B) {
	in := randomInstance(b, 100000, []int{8, 8, 8}, 0.85, 0.3, 1)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := NewProblem(in.jobs, in.machines, in.truth, in.pred); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMetrics100k computes the metrics of one 100,000-job run.
func BenchmarkMetrics100k(b *testing.B) {
	in := randomInstance(b, 100000, []int{8, 8, 8}, 0.85, 0.3, 1)
	p := in.problem(b, true)
	res, err := Run(p, SJFPredicted(), Options{Baselines: MappingRandom, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = res.Metrics()
	}
}
