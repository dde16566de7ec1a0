package magnas

import (
	"errors"
	"math"
	"testing"

	"gnnsim/hw"
	"gnnsim/soc"
	"gnnsim/workload"
)

func TestXavierDomains(t *testing.T) {
	full := XavierGPUDomains()
	if n := []int{len(full[0].ClocksHz), len(full[1].ClocksHz), len(full[2].ClocksHz)}; n[0] != 14 || n[1] != 29 || n[2] != 9 {
		t.Fatalf("GPU/CPU/EMC points %v, want 14/29/9 (MISSION section 9)", n)
	}
	if c := full[1].ClocksHz; c[0] != 115.2e6 || c[28] != 2265.6e6 {
		t.Errorf("CPU clocks %v ... %v", c[0], c[28])
	}
}

// TestSoCPlatformMatchesSoC: the adapter is soc.Evaluate, exactly, for
// ViG-S on every unit at MaxN, and its MaxN and MinN are soc's top and
// bottom clocks.
func TestSoCPlatformMatchesSoC(t *testing.T) {
	s := soc.Default()
	p, err := SoCPlatform("x", s, XavierTable1Domains(), XavierCPU)
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range workload.ViGOps() {
		m, err := workload.ViG("s", op)
		if err != nil {
			t.Fatal(err)
		}
		for u, name := range p.Units {
			mp := make([]int, len(m.Blocks))
			for i := range mp {
				mp[i] = u
			}
			got, err := p.EvaluateModel(m, mp, p.Setting(p.MaxN()))
			if err != nil {
				t.Fatal(err)
			}
			want, err := soc.Evaluate(s, m, soc.MapAll(soc.Blocks, u, len(m.Blocks)), soc.DVFS{})
			if err != nil {
				t.Fatal(err)
			}
			if got.TimePS != want.LatencyPS || got.EnergyPJ != want.EnergyPJ {
				t.Errorf("ViG-S %s on %s: adapter %d ps %g pJ, soc %d ps %g pJ", op, name, got.TimePS, got.EnergyPJ, want.LatencyPS, want.EnergyPJ)
			}
			lo, err := p.EvaluateModel(m, mp, p.Setting(p.MinN()))
			if err != nil {
				t.Fatal(err)
			}
			wlo, err := soc.Evaluate(s, m, soc.MapAll(soc.Blocks, u, len(m.Blocks)), soc.DVFS{"gpu": 522.75, "dla": 1050, "emc": 1065.6})
			if err != nil {
				t.Fatal(err)
			}
			if lo.TimePS != wlo.LatencyPS || lo.EnergyPJ != wlo.EnergyPJ {
				t.Errorf("ViG-S %s on %s at MinN: adapter %d ps, soc %d ps", op, name, lo.TimePS, wlo.LatencyPS)
			}
			if !(lo.TimePS > got.TimePS) {
				t.Errorf("ViG-S %s on %s: MinN %d ps not slower than MaxN %d ps", op, name, lo.TimePS, got.TimePS)
			}
		}
	}
	// The CPU clock moves no cost: soc does not model the CPU.
	m, _ := workload.ViG("ti", workload.MRConv)
	mp := make([]int, len(m.Blocks))
	a, err := p.EvaluateModel(m, mp, p.Setting(p.SettingIndex([]int{0, 2, 1, 1})))
	if err != nil {
		t.Fatal(err)
	}
	b, err := p.EvaluateModel(m, mp, p.Setting(p.SettingIndex([]int{1, 2, 1, 1})))
	if err != nil {
		t.Fatal(err)
	}
	if a != b {
		t.Errorf("CPU clock changed the cost: %+v vs %+v", a, b)
	}
}

func TestSoCPlatformErrors(t *testing.T) {
	s := soc.Default()
	for _, bad := range [][]Domain{
		{{Name: "npu", ClocksHz: []float64{1e9}}},
		{{Name: "cpu", ClocksHz: []float64{1e9}}}, // not declared unmodelled
		{{Name: "gpu", ClocksHz: []float64{1377e6}}, {Name: "gpu", ClocksHz: []float64{1377e6}}},
		{{Name: "gpu", ClocksHz: []float64{2e9}}},
		{{Name: "gpu", ClocksHz: []float64{1000e6}}}, // not a GPU operating point
		{{Name: "gpu"}},
	} {
		if _, err := SoCPlatform("bad", s, bad); err == nil {
			t.Errorf("SoCPlatform(%v) accepted", bad)
		}
	}
	if _, err := SoCPlatform("nil", nil, nil); err == nil {
		t.Error("nil SoC accepted")
	}
	p, err := SoCPlatform("x", s, nil)
	if err != nil {
		t.Fatal(err)
	}
	m, _ := workload.ViG("ti", workload.MRConv)
	if _, err := p.EvaluateModel(m, []int{0}, p.Setting(0)); err == nil {
		t.Error("short mapping accepted")
	}
	mp := make([]int, len(m.Blocks))
	mp[1] = 7
	if _, err := p.EvaluateModel(m, mp, p.Setting(0)); err == nil || errors.Is(err, ErrUnsupported) {
		t.Errorf("unit 7: %v", err)
	}
}

// TestDSASoC: the DSA platform is soc's Evaluator over the DSAs; a
// standalone block costs what the DSA charges, or the time the shared
// memory needs to move its bytes, whichever is longer.
func TestDSASoC(t *testing.T) {
	dsas, err := soc.DefaultDSAs()
	if err != nil {
		t.Fatal(err)
	}
	p, err := DSAPlatform(dsas)
	if err != nil {
		t.Fatal(err)
	}
	m, err := workload.PyramidViG("m", workload.GIN)
	if err != nil {
		t.Fatal(err)
	}
	one := workload.Model{Name: "one", Blocks: m.Blocks[1:2]}
	for u, d := range dsas {
		got, err := p.EvaluateModel(one, []int{u}, p.Setting(0))
		if err != nil {
			t.Fatal(err)
		}
		c, err := d.Run(hw.BlockWork(one.Blocks[0]))
		if err != nil {
			t.Fatal(err)
		}
		memPS := int64(math.Ceil(float64(c.DRAMBytes) / 64e9 * 1e12))
		if want := max(c.TimePS, memPS); got.TimePS < want-1 || got.TimePS > want+1 || got.EnergyPJ != c.EnergyPJ {
			t.Errorf("%s: platform %d ps %g pJ, DSA %d ps (memory %d ps) %g pJ", d.Name(), got.TimePS, got.EnergyPJ, c.TimePS, memPS, c.EnergyPJ)
		}
	}
	if _, err := DSAPlatform([]*soc.DSA{dsas[0], dsas[0]}); err == nil {
		t.Error("a DSA added twice was accepted")
	}
	if _, err := DSAPlatform([]*soc.DSA{nil}); err == nil {
		t.Error("nil DSA accepted")
	}
}

// TestModePlatform: a power mode's platform has one setting, and a lower
// mode's clock caps never make a standalone mapping faster.
func TestModePlatform(t *testing.T) {
	s := soc.Default()
	if _, err := ModePlatform("x", nil, soc.PowerMode{}); err == nil {
		t.Error("nil SoC accepted")
	}
	m, err := workload.ViG("s", workload.GIN)
	if err != nil {
		t.Fatal(err)
	}
	prev := map[int]int64{}
	for i, w := range []float64{0, 30, 15, 10} { // MAXN, then lower budgets
		mode, err := s.ModeForBudget(w)
		if err != nil {
			t.Fatal(err)
		}
		p, err := ModePlatform("x", s, mode)
		if err != nil {
			t.Fatal(err)
		}
		if p.NumSettings() != 1 {
			t.Errorf("%s: %d settings, want 1", mode.Name, p.NumSettings())
		}
		for u := range p.Units {
			mp := make([]int, len(m.Blocks))
			for j := range mp {
				mp[j] = u
			}
			o, err := p.EvaluateModel(m, mp, p.Setting(0))
			if err != nil {
				t.Fatal(err)
			}
			if i > 0 && o.TimePS < prev[u] {
				t.Errorf("%s: %s-only %d ps, faster than under a higher mode (%d ps)", mode.Name, p.Units[u], o.TimePS, prev[u])
			}
			prev[u] = o.TimePS
		}
	}
}
