package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"gnnsim/internal/memavail"
)

// BenchmarkSweepSocMemory runs a soc sweep of GNNSIM_BENCH_POINTS random
// mappings (default 200,000) and reports the peak Go heap and the
// process's peak RSS (run it alone, -run '^$', for RSS to be its own) per
// 10^6 points: issue 38 item 1 (a 10^6-point sweep held every row and
// died out of memory).
func BenchmarkSweepSocMemory(b *testing.B) {
	n := 200_000
	if v, err := strconv.Atoi(os.Getenv("GNNSIM_BENCH_POINTS")); err == nil && v > 0 {
		n = v
	}
	spec := fmt.Sprintf("name: s\nseed: 1\nunit: soc\nsoc:\n  models: [vig-ti]\n  mappings:\n    - random: {count: %d, seed: 7}\n", n)
	for b.Loop() {
		p := mustPlan(b, spec)
		dir := filepath.Join(b.TempDir(), "s")
		runtime.GC()
		stop := memavail.PeakHeap()
		sum, err := p.Run(context.Background(), dir, Options{})
		peak := stop()
		if err != nil || !sum.Complete {
			b.Fatal(sum, err)
		}
		per := 1e6 / float64(n) / (1 << 20)
		b.ReportMetric(float64(peak)*per, "heap-MiB/1e6pts")
		b.ReportMetric(float64(memavail.PeakRSS())*per, "rss-MiB/1e6pts")
	}
}

// BenchmarkMergeMemory assembles the final tables of finished sweeps
// (Merge of their parts) and reports the peak Go heap while it runs:
// per 10^6 points of an fpga sweep of GNNSIM_BENCH_POINTS points
// (default 200,000), and per graph of a graph sweep of GNNSIM_BENCH_GRAPHS
// Erdos-Renyi graphs of 10^5 edges (default 64) beside the bytes of
// their CSR. Issue 38 item 1: merge of 4M fpga points peaked at 6.56 GB,
// and a graph sweep's assembly held every graph.
func BenchmarkMergeMemory(b *testing.B) {
	points, graphsN := 200_000, 64
	if v, err := strconv.Atoi(os.Getenv("GNNSIM_BENCH_POINTS")); err == nil && v > 0 {
		points = v
	}
	if v, err := strconv.Atoi(os.Getenv("GNNSIM_BENCH_GRAPHS")); err == nil && v > 0 {
		graphsN = v
	}
	var tiles, bits []string
	for t := 1; t <= 10; t++ {
		for u := 1; u <= 10; u++ {
			tiles = append(tiles, fmt.Sprintf("\"%d,%d,4,4,4\"", t, u))
		}
	}
	for wf := 0; wf < 5; wf++ {
		for af := 0; af < 5; af++ {
			bits = append(bits, fmt.Sprintf("\"2.%d,2.%d\"", wf, af))
		}
	}
	archs := (points + len(tiles)*len(bits) - 1) / (len(tiles) * len(bits))
	var arch []string
	for a := range archs {
		arch = append(arch, fmt.Sprintf("gcn/add/relu/%d;gcn/add/relu/7", a+1))
	}
	fpgaSpec := fmt.Sprintf("name: m\nseed: 1\nunit: fpga\nfpga:\n  data: cora\n  archs: [%s]\n  tiles: [%s]\n  bits: [%s]\n",
		strings.Join(arch, ", "), strings.Join(tiles, ", "), strings.Join(bits, ", "))
	graphSpec := fmt.Sprintf("name: g\nseed: 1\nchunk_graphs: 4\ngraphs:\n  - generator: er\n    count: %d\n    nodes: [10000, 10000]\n    params: {avg_degree: 10}\nsizes: {F: [16], G: [16]}\nconfigurations: {dataflows: [seq], tilings: [a]}\n", graphsN)
	for _, tc := range []struct {
		name, spec string
	}{{"fpga", fpgaSpec}, {"graphs", graphSpec}} {
		b.Run(tc.name, func(b *testing.B) {
			p := mustPlan(b, tc.spec)
			dir := filepath.Join(b.TempDir(), "s")
			if sum, err := p.Run(context.Background(), dir, Options{}); err != nil || !sum.Complete {
				b.Fatal(sum, err)
			}
			for b.Loop() {
				out := filepath.Join(b.TempDir(), "m")
				runtime.GC()
				stop := memavail.PeakHeap()
				sum, err := Merge([]string{dir}, out)
				peak := stop()
				if err != nil || !sum.Complete {
					b.Fatal(sum, err)
				}
				if sum.Points > 0 {
					b.ReportMetric(float64(peak)/(1<<20), "heap-MiB")
					b.ReportMetric(float64(peak)/(1<<20)*1e6/float64(sum.Points), "heap-MiB/1e6pts")
					continue
				}
				st, err := os.Stat(filepath.Join(out, GraphsFile))
				if err != nil {
					b.Fatal(err)
				}
				csr := float64(sum.Graphs) * (4*10_001 + 4*100_000) // row_ptr and col of each graph, about
				b.ReportMetric(float64(peak)/(1<<20), "heap-MiB")
				b.ReportMetric(csr/(1<<20), "csr-MiB")
				b.ReportMetric(float64(st.Size())/(1<<20), "file-MiB")
			}
		})
	}
}
