package train

import (
	"syscall"
	"testing"
	"time"

	"gnnsim/workload"
)

// BenchmarkTrainGCNCora: Kipf's GCN (hidden 16) on Cora, 200 epochs
// (2,708 nodes, 13,264 A+I entries, 49,216 feature entries). Target: at
// most 1 s per op on one core (-cpu 1). cpu-s/op is the process CPU time
// per op, the figure to read on a shared machine.
func BenchmarkTrainGCNCora(b *testing.B) {
	benchTrain(b, GCNArch(16), GCNConfig())
}

// BenchmarkTrainGATCora: GAT 8 heads x 8 hidden, 1 output head, on Cora,
// 200 epochs. Target: at most 10 s per op on one core.
func BenchmarkTrainGATCora(b *testing.B) {
	benchTrain(b, GATArch(8, 8, 1), GATConfig())
}

// BenchmarkTrainSAGECora: GraphSAGE, 2 layers, hidden 64, mean, on Cora,
// 200 epochs (SAGEConfig).
func BenchmarkTrainSAGECora(b *testing.B) {
	benchTrain(b, SAGEArch(2, 64, workload.AggMean), SAGEConfig())
}

func benchTrain(b *testing.B, a Arch, c Config) {
	d := loadData(b, "cora")
	b.ReportAllocs()
	cpu0 := cpuTime()
	n := 0
	for b.Loop() {
		if _, err := Train(d, a, c); err != nil {
			b.Fatal(err)
		}
		n++
	}
	b.ReportMetric((cpuTime()-cpu0).Seconds()/float64(n), "cpu-s/op")
}

// cpuTime is the user+system CPU time of the process.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
