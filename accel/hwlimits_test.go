package accel

import (
	"math"
	"strings"
	"testing"

	"gnnsim/dataflow"
	"gnnsim/workload"
)

// TestSlowerMemoryNeverFaster sweeps DRAM latency and bandwidth across their
// whole allowed range: a slower memory must never report fewer cycles (an
// overflow would wrap and report fewer), and values past the limits are
// refused rather than computed.
func TestSlowerMemoryNeverFaster(t *testing.T) {
	g := ring(t, 600)
	p, err := Prepare(g, workload.Layer{Kind: workload.GCN, F: 64, G: 16})
	if err != nil {
		t.Fatal(err)
	}
	base := DefaultHW()
	base.GlobalBufferBytes = 4 << 10 // force spills, so DRAM matters
	cfgs, err := p.Configs(base)
	if err != nil {
		t.Fatal(err)
	}
	lats := []int64{0, 1, 100, 1 << 10, 1 << 20, 1 << 30, maxDRAMLatency}
	bws := []float64{maxDRAMBytesCyc, 64, 1, 1.0 / 8, minDRAMBytesCyc}
	for _, cfg := range []dataflow.Config{cfgs[0], cfgs[9], cfgs[23]} {
		prevLat := int64(-1)
		for _, lat := range lats {
			prevBW := int64(-1)
			for _, bw := range bws {
				hw := base
				hw.DRAMLatency, hw.DRAMBytesPerCycle = lat, bw
				r, err := p.Run(cfg, hw, Options{})
				if err != nil {
					t.Fatalf("%s latency %d, %g B/cycle: %v", cfg.Name(), lat, bw, err)
				}
				if r.Cycles <= 0 || r.Cycles == math.MaxInt64 {
					t.Fatalf("%s latency %d, %g B/cycle: %d cycles", cfg.Name(), lat, bw, r.Cycles)
				}
				if r.Cycles < prevBW {
					t.Errorf("%s latency %d: %g B/cycle gives %d cycles, a faster channel gave %d", cfg.Name(), lat, bw, r.Cycles, prevBW)
				}
				prevBW = r.Cycles
				if bw == 64 {
					if r.Cycles < prevLat {
						t.Errorf("%s: latency %d gives %d cycles, a shorter one gave %d", cfg.Name(), lat, r.Cycles, prevLat)
					}
					prevLat = r.Cycles
				}
			}
		}
	}
}

func TestHWLimits(t *testing.T) {
	tests := []struct {
		yaml, want string
	}{
		{"dram_latency_cycles: 9223372036854775807", "dram_latency_cycles"},
		{"dram_bytes_per_cycle: 1e-18", "dram_bytes_per_cycle"},
		{"dram_bytes_per_cycle: .nan", "dram_bytes_per_cycle"},
		{"global_buffer_bytes: 9223372036854775807", "global_buffer_bytes"},
		{"distribution_bw: 2147483647", "bandwidths"},
		{"clock_hz: 1e300", "clock_hz"},
		{"energy_pj: {dram: 1e300}", "energy_pj.dram"},
	}
	for _, tc := range tests {
		_, err := ParseHW([]byte(tc.yaml))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want one naming %s", tc.yaml, err, tc.want)
		}
	}
}
