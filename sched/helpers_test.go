package sched

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gnnsim/workload"
)

// instance is a random scheduling instance for tests.
type instance struct {
	jobs     []workload.Job
	machines []Machine
	truth    *Table
	pred     *Table // truth times a lognormal error, rounded
}

// randomInstance draws n jobs over machines with the given mapping counts, latencies spread over three orders
// of magnitude and correlated with job size as in real workloads, arrivals
// from a Pareto trace at the given utilisation (util 0: all at cycle 0),
// and predictions off by a lognormal factor of spread sigma.
func randomInstance(tb testing.TB, n int, mappings []int, util, sigma float64, seed uint64) *instance {
	tb.Helper()
	rng := rand.New(rand.NewPCG(seed, 99))
	in := &instance{machines: machines(mappings...)}
	var err error
	if in.truth, err = NewTable(n, in.machines); err != nil {
		tb.Fatal(err)
	}
	in.pred, _ = NewTable(n, in.machines)
	for j := range n {
		v := int64(2 + rng.IntN(2000))
		e := min(v*(v-1)/2, v*int64(1+rng.IntN(8)))
		in.jobs = append(in.jobs, workload.Job{ID: int64(1000 + j), Graph: "g", GraphIndex: -1,
			Nodes: v, Edges: e, F: 16, G: 16, Kind: workload.GCN})
		base := float64(v+e) * (1 + rng.Float64())
		for m := range mappings {
			speed := math.Exp(rng.NormFloat64() * 0.5) // machine-dependent
			for t := range mappings[m] {
				c := int64(base*speed*math.Exp(rng.NormFloat64()*0.7)) + 1
				in.truth.Set(j, m, t, c)
				in.pred.Set(j, m, t, int64(float64(c)*math.Exp(rng.NormFloat64()*sigma))+1)
			}
		}
	}
	if util > 0 {
		svc, err := ReferenceService(in.truth)
		if err != nil {
			tb.Fatal(err)
		}
		gap, err := workload.MeanGap(svc, len(in.machines), util)
		if err != nil {
			tb.Fatal(err)
		}
		times, err := workload.ArrivalSpec{Process: workload.Pareto, MeanGap: gap}.Times(n, seed)
		if err != nil {
			tb.Fatal(err)
		}
		if err := workload.SetArrivals(in.jobs, times); err != nil {
			tb.Fatal(err)
		}
	}
	return in
}

// machines returns machines A, B, ... with the given numbers of mappings,
// named m0, m1, ...
func machines(mappings ...int) []Machine {
	out := make([]Machine, len(mappings))
	for m, n := range mappings {
		out[m].Name = string(rune('A' + m))
		for k := range n {
			out[m].Mappings = append(out[m].Mappings, fmt.Sprintf("m%d", k))
		}
	}
	return out
}

func (in *instance) problem(tb testing.TB, withPred bool) *Problem {
	tb.Helper()
	var pred Predictor
	if withPred {
		pred = in.pred
	}
	p, err := NewProblem(in.jobs, in.machines, in.truth, pred)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}
