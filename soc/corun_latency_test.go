package soc

import (
	"fmt"
	"math"
	"testing"
)

// TestMixedLatencyPS: the latency a request loses when interleaved is zero
// while compute hides the stretched memory time, never negative, rises
// with the memory time and the ratio, falls with the time alone, and
// saturates rather than wraps.
func TestMixedLatencyPS(t *testing.T) {
	for _, c := range []struct {
		name      string
		mem, ps   int64
		ratio     float64
		want      int64
		wantAbove int64 // > 0: want more than this instead of want
	}{
		{"no bytes", 0, 1000, 0.36, 0, 0},
		{"no ratio", 1000, 1000, 0, 0, 0},
		{"NaN ratio", 1000, 1000, math.NaN(), 0, 0},
		{"compute hides it", 1000, 1360, 0.36, 0, 0},
		{"memory bound", 1000, 1000, 0.36, 360, 0},
		{"partly hidden", 1000, 1200, 0.36, 160, 0},
		{"negative time alone", 1000, -5, 0.36, 1360, 0},
		{"saturates", math.MaxInt64 / 2, 0, 3, math.MaxInt64, 0},
	} {
		if got := MixedLatencyPS(c.mem, c.ps, c.ratio); got != c.want {
			t.Errorf("%s: MixedLatencyPS(%d, %d, %v) = %d, want %d", c.name, c.mem, c.ps, c.ratio, got, c.want)
		}
	}
	for mem := int64(0); mem <= 2000; mem += 100 {
		for ps := mem; ps <= 3000; ps += 250 {
			prev := int64(-1)
			for _, ratio := range []float64{0, 0.1, 0.36, 1, 2} {
				x := MixedLatencyPS(mem, ps, ratio)
				if x < 0 || x < prev {
					t.Fatalf("MixedLatencyPS(%d, %d, %v) = %d after %d at a smaller ratio", mem, ps, ratio, x, prev)
				}
				prev = x
				if y := MixedLatencyPS(mem+100, ps, ratio); y < x {
					t.Fatalf("more memory time gives less: %d < %d", y, x)
				}
				if y := MixedLatencyPS(mem, ps+100, ratio); y > x {
					t.Fatalf("a longer time alone gives more: %d > %d", y, x)
				}
			}
		}
	}
}

// TestLatencyRatio: the default profile's row switch over latency (36 ns
// over 100 ns), and zero when the memory gives no row switch or latency.
func TestLatencyRatio(t *testing.T) {
	m := DefaultSpec().Memory
	if got := m.LatencyRatio(); math.Abs(got-0.36) > 1e-12 {
		t.Errorf("default latency ratio %v, want 0.36", got)
	}
	for _, f := range []func(*MemorySpec){
		func(m *MemorySpec) { m.RowSwitchNS = 0 },
		func(m *MemorySpec) { m.PageBytes = 0 },
		func(m *MemorySpec) { m.LatencyNS = 0 },
	} {
		x := m
		f(&x)
		if got := x.LatencyRatio(); got != 0 {
			t.Errorf("%+v: latency ratio %v, want 0", x, got)
		}
	}
}

// TestCoRunMonotoneInOtherDemand: a GPU network is never faster beside a
// DLA network that asks more of the memory per second (the DLA's clock
// raised: the same bytes a frame in less time), to the co-run's
// resolution (coRunOpt.Tolerance).
func TestCoRunMonotoneInOtherDemand(t *testing.T) {
	for _, p := range [][2]string{{"alexnet", "resnet101"}, {"googlenet", "googlenet"}} {
		s := Default()
		runs := []CoRunner{coRunner(t, s, p[0], "gpu", Blocks), coRunner(t, s, p[1], "dla", Blocks)}
		prev := 0.0
		for _, mhz := range []float64{550, 750, 1050, 1395.2} {
			set, err := s.Setting(DVFS{"dla": mhz})
			if err != nil {
				t.Fatal(err)
			}
			r := mustCoRun(t, s, set, runs...)
			gpu := r.Runs[0].MeanPS
			if gpu < float64(r.Runs[0].AlonePS) {
				t.Errorf("%v at dla %v MHz: GPU run %.0f ps, faster than alone %d", p, mhz, gpu, r.Runs[0].AlonePS)
			}
			if gpu < prev*(1-coRunOpt.Tolerance) {
				t.Errorf("%v: GPU run %.0f ps beside the DLA at %v MHz, %.0f beside a slower DLA", p, gpu, mhz, prev)
			}
			prev = gpu
		}
	}
}

// latencyBound returns a run's latency, over its latency alone, if every
// one of its kernels' bytes waited r times the memory's latency (each
// kernel taking max(its time alone, r x its bytes at its unit's memory
// share)): the most a latency-bound memory phase can cost the run when
// the other runs' traffic lengthens every access, interleaved or not.
func latencyBound(t *testing.T, s *SoC, run CoRunner, r float64) float64 {
	t.Helper()
	set := s.top()
	st, err := run.Eval.steps(run.Mapping, set)
	if err != nil {
		t.Fatal(err)
	}
	bps := s.env(set).BytesPerSec * 1e-12
	var alone, stretched float64
	for _, x := range st {
		parts := x.parts
		if len(parts) == 0 {
			parts = []part{{x.ps, x.bytes}}
		}
		for _, p := range parts {
			alone += float64(p.ps)
			rf, ok := s.units[x.unit].(*Roofline)
			if x.xfer || !ok {
				stretched += float64(p.ps)
				continue
			}
			mem := float64(p.bytes) / (rf.spec.MemoryShare * bps)
			stretched += max(float64(p.ps), r*mem)
		}
	}
	return stretched / alone
}

// TestCoRunLatencyBound: the bound is 1 with the latency unchanged and
// rises with it; its figures (go test ./soc -run TestCoRunLatencyBound -v)
// are soc/doc.go's: how far a latency mechanism alone could take each
// network of the pairs.
func TestCoRunLatencyBound(t *testing.T) {
	s := Default()
	for _, c := range [][2]string{{"googlenet", "gpu"}, {"googlenet", "dla"}, {"resnet152", "gpu"}, {"alexnet", "gpu"}, {"resnet101", "dla"}, {"vgg19", "dla"}, {"inception-v4", "dla"}} {
		run := coRunner(t, s, c[0], c[1], Blocks)
		if b := latencyBound(t, s, run, 1); math.Abs(b-1) > 1e-9 {
			t.Errorf("%v: bound %v with the latency unchanged, want 1", c, b)
		}
		prev := 1.0
		line := ""
		for _, r := range []float64{1 + s.mem.LatencyRatio(), 2, 3, 4} {
			b := latencyBound(t, s, run, r)
			if b < prev {
				t.Errorf("%v: bound %v at latency x%v, %v below", c, b, r, prev)
			}
			prev = b
			line += fmt.Sprintf("  x%.2f: %.3f", r, b)
		}
		t.Logf("%s on the %s, slowdown if every byte waited longer:%s", c[0], c[1], line)
	}
}
