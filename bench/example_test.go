package bench_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"gnnsim/bench"
)

// A sweep: a spec (here inline; usually a file read with LoadSpec) is
// planned into chunks and run into a folder, which then holds the graphs
// and runs tables as Parquet. Rerunning skips finished chunks; shards
// (Options.Shard) run disjoint chunks and Merge joins them.
func ExamplePlan_Run() {
	spec, err := bench.ParseSpec([]byte(`name: tiny
seed: 1
graphs:
  - generator: er
    count: 4
    nodes: [20, 40]
sizes: {F: [16], G: [8]}
configurations: {dataflows: [seq, pp], tilings: [a, b]}
chunk_graphs: 2
`))
	if err != nil {
		panic(err)
	}
	p, err := bench.NewPlan(spec)
	if err != nil {
		panic(err)
	}
	dir, err := os.MkdirTemp("", "sweep")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	sum, err := p.Run(context.Background(), dir, bench.Options{Workers: 2})
	if err != nil {
		panic(err)
	}
	_, statErr := os.Stat(filepath.Join(dir, bench.RunsFile))
	fmt.Println("graphs:", sum.Graphs, "runs:", sum.Runs, "chunks:", sum.Chunks, "complete:", sum.Complete, "runs.parquet:", statErr == nil)
	// Output:
	// graphs: 4 runs: 16 chunks: 2 complete: true runs.parquet: true
}
