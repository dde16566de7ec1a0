package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// peakHeap samples the Go heap in use every few milliseconds until stop is
// called, and returns the largest sample (bytes).
func peakHeap() (stop func() uint64) {
	var peak atomic.Uint64
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > peak.Load() {
				peak.Store(ms.HeapInuse)
			}
			select {
			case <-done:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	return func() uint64 {
		close(done)
		<-finished
		return peak.Load()
	}
}

// vmHWM returns the process's peak resident set (Linux /proc; 0 elsewhere).
func vmHWM() uint64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}

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
		stop := peakHeap()
		sum, err := p.Run(context.Background(), dir, Options{})
		peak := stop()
		if err != nil || !sum.Complete {
			b.Fatal(sum, err)
		}
		per := 1e6 / float64(n) / (1 << 20)
		b.ReportMetric(float64(peak)*per, "heap-MiB/1e6pts")
		b.ReportMetric(float64(vmHWM())*per, "rss-MiB/1e6pts")
	}
}
