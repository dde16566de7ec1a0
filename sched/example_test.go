package sched_test

import (
	"fmt"

	"gnnsim/sched"
	"gnnsim/workload"
)

// A schedule: three GCN jobs arrive at an accelerator and a SoC unit; the
// caller fills the table of true latencies (from a hardware model's runs,
// here typed in), and a policy decides what runs where. SJF-Truth takes
// the (job, free machine) pair with the shortest latency: job 0 on omega
// first, job 1 on the GPU, and job 2, released at 50, waits for omega.
func ExampleRun() {
	jobs := []workload.Job{
		{ID: 0, Nodes: 100, Edges: 400, F: 16, G: 16, Kind: workload.GCN, Arrival: 0, GraphIndex: -1},
		{ID: 1, Nodes: 900, Edges: 4000, F: 16, G: 16, Kind: workload.GCN, Arrival: 0, GraphIndex: -1},
		{ID: 2, Nodes: 300, Edges: 900, F: 16, G: 16, Kind: workload.GCN, Arrival: 50, GraphIndex: -1},
	}
	machines := []sched.Machine{{Name: "omega", Mappings: []string{"pp-a"}}, {Name: "gpu", Mappings: []string{"1377MHz"}}}
	truth, err := sched.NewTable(len(jobs), machines)
	if err != nil {
		panic(err)
	}
	for j, c := range [][2]int64{{100, 150}, {800, 500}, {300, 200}} { // cycles on omega, on gpu
		truth.Set(j, 0, 0, c[0])
		truth.Set(j, 1, 0, c[1])
	}
	p, err := sched.NewProblem(jobs, machines, truth, nil)
	if err != nil {
		panic(err)
	}
	res, err := sched.Run(p, sched.SJFTruth(), sched.Options{Baselines: sched.MappingOptimal, Seed: 1})
	if err != nil {
		panic(err)
	}
	for _, r := range res.Records {
		fmt.Printf("job %d on %s: start %d, finish %d\n", r.Job, machines[r.Machine].Name, r.Start, r.Finish)
	}
	fmt.Println("makespan:", res.Metrics().Makespan)
	// Output:
	// job 0 on omega: start 0, finish 100
	// job 1 on gpu: start 0, finish 500
	// job 2 on omega: start 100, finish 400
	// makespan: 500
}
