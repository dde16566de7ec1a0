package soc

import (
	"testing"

	"gnnsim/hw/hwtest"
	"gnnsim/workload"
)

// TestTX2 checks the TX2 profile: the Pascal GPU and LPDDR4 of the
// datasheet, HADAS Table II's 13 GPU and 11 EMC operating points, hw.Unit
// conformance, and that a slower clock never runs faster.
func TestTX2(t *testing.T) {
	s := TX2()
	if got := s.Units(); len(got) != 1 || got[0] != "gpu" {
		t.Fatalf("TX2 units %v, want [gpu]", got)
	}
	u, _ := s.Unit("gpu")
	if n := len(u.OperatingPoints()); n != 13 {
		t.Errorf("TX2 GPU: %d operating points, HADAS Table II has 13", n)
	}
	if n := len(s.Memory().PointsMHz); n != 11 {
		t.Errorf("TX2 EMC: %d operating points, HADAS Table II has 11", n)
	}
	if bw := s.Memory().BytesPerCycle * 1866e6; bw < 59.6e9 || bw > 59.8e9 {
		t.Errorf("TX2 peak bandwidth %.4g B/s, datasheet 59.7 GB/s", bw)
	}
	hwtest.Conformance(t, u, vigWorks(t))
	m := vigS(t, workload.MRConv)
	e := mustEvaluator(t, s, m, Blocks)
	gpu := unitIndex(t, s, "gpu")
	n := len(e.Segments())
	prev := int64(0)
	for i, f := range []float64{1300.5, 854.25, 114.75} {
		r, err := e.Evaluate(MapAll(Blocks, gpu, n), DVFS{"gpu": f})
		if err != nil {
			t.Fatal(err)
		}
		if i > 0 && r.LatencyPS < prev {
			t.Errorf("TX2 at %v MHz: %d ps, faster than at the higher clock (%d ps)", f, r.LatencyPS, prev)
		}
		prev = r.LatencyPS
	}
}
