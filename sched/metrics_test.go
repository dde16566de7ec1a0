package sched

import (
	"math"
	"reflect"
	"testing"

	"gnnsim/workload"
)

// Two machines, four jobs, FCFS; every metric computed by hand.
//
//	job  arrival  latency(m0, m1)
//	 0      0       10  10
//	 1      0       20  20
//	 2      5       30  30
//	 3      5       40  40
//
// FCFS on identical machines: jobs 0 and 1 start at 0 (machines chosen at
// random, latencies equal); job 0 ends at 10, job 2 runs [10, 40); job 1
// ends at 20, job 3 runs [20, 60).
func TestMetricsByHand(t *testing.T) {
	lat := []int64{10, 20, 30, 40}
	arr := []int64{0, 0, 5, 5}
	tab, _ := NewTable(4, machines(1, 1))
	jobs := make([]workload.Job, 4)
	for j := range jobs {
		jobs[j] = workload.Job{ID: int64(j), GraphIndex: -1, Nodes: 2, Edges: 1, F: 1, G: 1, Kind: workload.GCN, Arrival: arr[j]}
		tab.Set(j, 0, 0, lat[j])
		tab.Set(j, 1, 0, lat[j])
	}
	p, err := NewProblem(jobs, machines(1, 1), tab, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(p, FCFS(), Options{Baselines: MappingOptimal, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	m := res.Metrics()
	// finish: 10, 20, 40, 60; start: 0, 0, 10, 20
	want := Metrics{
		Policy: "FCFS", Baselines: MappingOptimal, Seed: 3, Seeds: 1, Jobs: 4, Feasible: false,
		MeanCompletion: (10 + 20 + 40 + 60) / 4.0,
		MeanTurnaround: (10 + 20 + 35 + 55) / 4.0,
		MeanExecution:  (10 + 20 + 30 + 40) / 4.0,
		MeanWaiting:    (0 + 0 + 5 + 15) / 4.0,
		P50Turnaround:  20, // sorted 10 20 35 55: rank ceil(2) = 2nd
		P95Turnaround:  55,
		P99Turnaround:  55,
		Makespan:       60,
	}
	// The two machines split the work 10+30 and 20+40 whichever way the
	// random machine choice went.
	u := m.Utilisation
	if len(u) != 2 || math.Abs(u[0]+u[1]-100.0/60) > 1e-12 || (u[0] != 40.0/60 && u[0] != 60.0/60) {
		t.Errorf("utilisation %v", u)
	}
	m.Utilisation = nil
	if !reflect.DeepEqual(m, want) {
		t.Errorf("metrics\n got %+v\nwant %+v", m, want)
	}
}

func TestPercentile(t *testing.T) {
	s := make([]int64, 100)
	for i := range s {
		s[i] = int64(i + 1)
	}
	for _, c := range []struct {
		p    float64
		want int64
	}{{0.5, 50}, {0.95, 95}, {0.99, 99}, {1, 100}, {0, 1}} {
		if got := percentile(s, c.p); got != c.want {
			t.Errorf("p%v = %d, want %d", c.p, got, c.want)
		}
	}
	if percentile([]int64{7}, 0.99) != 7 {
		t.Error("single value")
	}
}

func TestAverageAndNormalise(t *testing.T) {
	ms := []Metrics{
		{Policy: "A", Baselines: MappingRandom, Seed: 1, Seeds: 1, MeanCompletion: 10, MeanTurnaround: 4, Makespan: 100, Utilisation: []float64{0.5}},
		{Policy: "B", Baselines: MappingRandom, Seed: 1, Seeds: 1, MeanCompletion: 40, MeanTurnaround: 1, Makespan: 50, Utilisation: []float64{0.9}},
		{Policy: "A", Baselines: MappingRandom, Seed: 2, Seeds: 1, MeanCompletion: 20, MeanTurnaround: 8, Makespan: 300, Utilisation: []float64{0.7}},
		{Policy: "B", Baselines: MappingRandom, Seed: 2, Seeds: 1, MeanCompletion: 60, MeanTurnaround: 3, Makespan: 150, Utilisation: []float64{0.3}},
	}
	avg := Average(ms)
	if len(avg) != 2 || avg[0].Policy != "A" || avg[1].Policy != "B" || avg[0].Seeds != 2 {
		t.Fatalf("Average = %+v", avg)
	}
	if avg[0].MeanCompletion != 15 || avg[1].MeanTurnaround != 2 || avg[0].Makespan != 200 || math.Abs(avg[0].Utilisation[0]-0.6) > 1e-12 {
		t.Errorf("Average = %+v", avg)
	}
	if ms[0].MeanCompletion != 10 {
		t.Error("Average modified its input")
	}
	norm := NormaliseByMax(avg)
	if norm[0].MeanCompletion != 0.3 || norm[1].MeanCompletion != 1 || norm[0].MeanTurnaround != 1 || math.Abs(norm[1].MeanTurnaround-1.0/3) > 1e-15 || norm[0].MeanWaiting != 0 {
		t.Errorf("NormaliseByMax = %+v", norm)
	}
	rel, err := RelativeTo(avg, "B")
	if err != nil {
		t.Fatal(err)
	}
	if rel[0].MeanCompletion != 0.3 || rel[1].MeanCompletion != 1 || rel[0].MeanTurnaround != 3 {
		t.Errorf("RelativeTo = %+v", rel)
	}
	if _, err := RelativeTo(avg, "C"); err == nil {
		t.Error("missing baseline accepted")
	}
}
