package soc

import (
	"testing"

	"gnnsim/workload"
)

func TestStaticSchedules(t *testing.T) {
	s := Default()
	for _, pair := range [][2]string{{"googlenet", "resnet101"}, {"resnet152", "vgg19"}} {
		ss, err := NewStaticScheduler(s, s.top(), []workload.Model{zooModel(t, pair[0]), zooModel(t, pair[1])}, "gpu", "dla")
		if err != nil {
			t.Fatal(err)
		}
		plans, err := ss.Plans()
		if err != nil {
			t.Fatal(err)
		}
		var ca StaticPlan
		worstBase := 0.0
		for _, p := range plans {
			t.Logf("%v %-16s %s %s: %.3f / %.3f ms (alone %.3f / %.3f), %d co-runs", pair, p.Name, ss.FormatSplit(0, p.Splits[0]), ss.FormatSplit(1, p.Splits[1]),
				p.LatencyPS[0]*1e-9, p.LatencyPS[1]*1e-9, float64(p.AlonePS[0])*1e-9, float64(p.AlonePS[1])*1e-9, p.Evaluated)
			for i, l := range p.LatencyPS {
				if l < float64(p.AlonePS[i]) {
					t.Errorf("%s: network %d faster co-run than alone", p.Name, i)
				}
			}
			if p.Name == "contention-aware" {
				ca = p
			} else if worstBase == 0 || p.WorstPS < worstBase {
				worstBase = p.WorstPS
			}
		}
		// The search starts from the best baseline and keeps only
		// improvements (final co-run at full length may differ by its
		// resolution).
		if ca.WorstPS > worstBase*(1+0.01) {
			t.Errorf("%v: contention-aware %.3f ms, best baseline %.3f ms", pair, ca.WorstPS*1e-9, worstBase*1e-9)
		}
	}
}

func TestStaticScheduleErrors(t *testing.T) {
	s := Default()
	g := zooModel(t, "googlenet")
	for _, tc := range []struct {
		ms   []workload.Model
		a, b string
	}{
		{[]workload.Model{g}, "gpu", "dla"},
		{[]workload.Model{g, g}, "gpu", "gpu"},
		{[]workload.Model{g, g}, "gpu", "tpu"},
	} {
		if _, err := NewStaticScheduler(s, s.top(), tc.ms, tc.a, tc.b); err == nil {
			t.Errorf("%d networks on %s, %s: no error", len(tc.ms), tc.a, tc.b)
		}
	}
}

// BenchmarkStaticSearchPair: every baseline and the contention-aware
// search for GoogleNet and ResNet-101 on the GPU and the DLA.
func BenchmarkStaticSearchPair(b *testing.B) {
	s := Default()
	ms := []workload.Model{zooModel(b, "googlenet"), zooModel(b, "resnet101")}
	for b.Loop() {
		ss, err := NewStaticScheduler(s, s.top(), ms, "gpu", "dla")
		if err != nil {
			b.Fatal(err)
		}
		if _, err := ss.Plans(); err != nil {
			b.Fatal(err)
		}
	}
}
