package accel

import "testing"

// TestDRAMExposureIndependentOfUnitSize splits the same work (compute
// cycles, DRAM bytes loaded and stored) into 1 to 256 units and runs the
// chain: with loads and stores streamed in bursts, DRAM adds at most the
// first load burst and the last store burst with their latencies to the
// longer of compute and channel time, whatever the unit size (as long as a
// unit is long enough for its successor's prefetch to cover the latency).
// Moving each unit's data whole before and after its compute would expose
// a whole unit's transfers: in one unit, twice the channel time.
func TestDRAMExposureIndependentOfUnitSize(t *testing.T) {
	hw := DefaultHW()
	exposed := 2 * (hw.DRAMLatency + int64(float64(hw.DRAMBurstBytes)/hw.DRAMBytesPerCycle))
	for _, tc := range []struct {
		name       string
		dur, l, st int64
	}{
		{"compute-bound", 1 << 16, 1 << 20, 1 << 20},
		{"balanced", 1 << 16, 1 << 21, 1 << 21},
		{"load-bound", 1 << 16, 1 << 23, 1 << 18},
		{"store-bound", 1 << 16, 1 << 18, 1 << 23},
		{"loads only", 1 << 16, 1 << 22, 0},
		{"stores only", 1 << 16, 0, 1 << 22},
	} {
		var e seqEngine
		low := max(tc.dur, int64(float64(tc.l+tc.st)/hw.DRAMBytesPerCycle))
		for n := int64(1); n <= 256; n *= 2 {
			us := make([]unit, n)
			for i := range us {
				us[i] = unit{dur: tc.dur / n, load: tc.l / n, store: tc.st / n}
			}
			cycles, _, events := e.run(unitSlice(us), hw)
			if cycles < low || cycles > low+exposed || events != uint64(n) {
				t.Errorf("%s in %d units: %d cycles (%d events), want max(compute, channel) = %d plus at most %d",
					tc.name, n, cycles, events, low, exposed)
			}
		}
	}
}
