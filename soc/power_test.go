package soc

import (
	"math"
	"slices"
	"strings"
	"testing"

	"gnnsim/workload"
)

// TestPowerModes checks the nvpmodel table of the default profile: names
// and IDs parse, budgets select modes, and a mode's setting holds its caps.
func TestPowerModes(t *testing.T) {
	s := Default()
	if n := len(s.PowerModes()); n != 8 {
		t.Fatalf("%d power modes, want nvpmodel_t194.conf's 8", n)
	}
	for _, tt := range []struct{ in, want string }{
		{"MAXN", "MAXN"}, {"maxn", "MAXN"}, {"10W", "MODE_10W"}, {"mode_15w", "MODE_15W"}, {"3", "MODE_30W_ALL"}, {"30w_2core", "MODE_30W_2CORE"},
	} {
		m, err := s.PowerMode(tt.in)
		if err != nil || m.Name != tt.want {
			t.Errorf("PowerMode(%q) = %s, %v; want %s", tt.in, m.Name, err, tt.want)
		}
	}
	if _, err := s.PowerMode("20W"); err == nil || !strings.Contains(err.Error(), "MODE_10W") {
		t.Errorf("PowerMode(20W): err = %v, want one listing the modes", err)
	}
	for _, tt := range []struct {
		w    float64
		want string
	}{{0, "MAXN"}, {math.Inf(1), "MAXN"}, {10, "MODE_10W"}, {12, "MODE_10W"}, {15, "MODE_15W"}, {29, "MODE_15W"}, {30, "MODE_30W_ALL"}, {100, "MODE_30W_ALL"}} {
		m, err := s.ModeForBudget(tt.w)
		if err != nil || m.Name != tt.want {
			t.Errorf("ModeForBudget(%g) = %s, %v; want %s", tt.w, m.Name, err, tt.want)
		}
	}
	if _, err := s.ModeForBudget(5); err == nil {
		t.Error("ModeForBudget(5 W): no error")
	}
	m10, _ := s.PowerMode("10W")
	set, err := s.ModeSetting(m10, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := DVFS{"gpu": 522.75, "dla": 550, "emc": 1065.6, "cpu": 1190.4}
	if got := s.DVFS(set); got.String() != want.String() {
		t.Errorf("10 W mode clocks %s, want %s", got, want)
	}
	if set.cpuCores != 2 || set.cores[0] != 2 {
		t.Errorf("10 W mode: %d CPU cores, %d GPU TPCs; want 2, 2", set.cpuCores, set.cores[0])
	}
	if _, err := s.ModeSetting(m10, DVFS{"gpu": 905.25}); err == nil || !strings.Contains(err.Error(), "exceeds power mode MODE_10W") {
		t.Errorf("905.25 MHz GPU in the 10 W mode: err = %v", err)
	}
	if _, err := s.ModeSetting(m10, DVFS{"gpu": 318.75, "cpu": 729.6}); err != nil {
		t.Errorf("clocks below the caps: %v", err)
	}
}

// modeOrder lists modes by budget: each draws at most the next one's power.
var modeOrder = []string{"MODE_10W", "MODE_15W", "MODE_30W_ALL", "MAXN"}

// TestLowerModeLessPower: for every mapping tried, a lower power mode never
// draws more average power, and is never faster.
func TestLowerModeLessPower(t *testing.T) {
	for _, s := range []*SoC{Default(), MaGNAS()} {
		lowerModeLessPower(t, s)
	}
}

func lowerModeLessPower(t *testing.T, s *SoC) {
	for _, op := range []workload.LayerKind{workload.MRConv, workload.SAGE} {
		e := mustEvaluator(t, s, vigS(t, op), Blocks)
		n := len(e.Segments())
		maps := []Mapping{MapAll(Blocks, 0, n), MapAll(Blocks, 1, n), randomMapping(Blocks, n, 2, 7)}
		for mi, m := range maps {
			prevW, prevMS := 0.0, math.Inf(1)
			for _, name := range modeOrder {
				mode, err := s.PowerMode(name)
				if err != nil {
					t.Fatal(err)
				}
				set, err := s.ModeSetting(mode, nil)
				if err != nil {
					t.Fatal(err)
				}
				var r Result
				if err := e.EvaluateAt(&r, m, set); err != nil {
					t.Fatal(err)
				}
				if r.PowerW() < prevW || r.LatencyMS() > prevMS {
					t.Errorf("%s mapping %d: %s draws %.2f W in %.2f ms; the mode below drew %.2f W in %.2f ms", op, mi, name, r.PowerW(), r.LatencyMS(), prevW, prevMS)
				}
				if mode.BudgetW > 0 && r.PowerW() > mode.BudgetW {
					t.Errorf("%s mapping %d: %s draws %.2f W, over its %g W budget", op, mi, name, r.PowerW(), mode.BudgetW)
				}
				prevW, prevMS = r.PowerW(), r.LatencyMS()
			}
		}
	}
}

// TestCPUClock: the CPU clock is a real knob. A slower CPU never makes a
// frame faster, and a faster one draws more power.
func TestCPUClock(t *testing.T) {
	s := Default()
	e := mustEvaluator(t, s, vigS(t, workload.GIN), Blocks)
	m := MapAll(Blocks, 0, len(e.Segments()))
	var prev Result
	for i, f := range s.CPU().PointsMHz {
		r, err := e.Evaluate(m, DVFS{"cpu": f})
		if err != nil {
			t.Fatal(err)
		}
		if i > 0 && (r.LatencyPS > prev.LatencyPS || r.PlatformPJ/float64(r.LatencyPS) <= prev.PlatformPJ/float64(prev.LatencyPS)) {
			t.Errorf("cpu %v MHz: %d ps at %.3f W platform power; the point below: %d ps at %.3f W", f, r.LatencyPS,
				r.PlatformPJ/float64(r.LatencyPS), prev.LatencyPS, prev.PlatformPJ/float64(prev.LatencyPS))
		}
		prev = r
	}
	lo, _ := e.Evaluate(m, DVFS{"cpu": 115.2})
	hi, _ := e.Evaluate(m, DVFS{"cpu": 2265.6})
	if lo.LatencyPS <= hi.LatencyPS {
		t.Errorf("the CPU clock does not change latency (%d ps at 115.2 MHz, %d at 2265.6)", lo.LatencyPS, hi.LatencyPS)
	}
}

// TestGlueDispatch: the graph ops' glue ops are dispatched by the CPU
// (CPUSpec.GlueCycles). Raising their cycles slows ViG-S by the same time
// at every GPU clock, by less at a faster CPU clock, and leaves a
// network without graph ops (GoogleNet) unchanged.
func TestGlueDispatch(t *testing.T) {
	base := DefaultSpec()
	slow := DefaultSpec()
	slow.CPU.GlueCycles = 10 * base.CPU.LaunchCycles
	vig := vigS(t, workload.GIN)
	goog, err := workload.GoogleNet()
	if err != nil {
		t.Fatal(err)
	}
	lat := func(s Spec, m workload.Model, set DVFS) int64 {
		t.Helper()
		soc, err := New(s)
		if err != nil {
			t.Fatal(err)
		}
		e := mustEvaluator(t, soc, m, Blocks)
		r, err := e.Evaluate(MapAll(Blocks, 0, len(e.Segments())), set)
		if err != nil {
			t.Fatal(err)
		}
		return r.LatencyPS
	}
	var extra []int64
	for _, set := range []DVFS{{"gpu": 522.75}, {"gpu": 1377}, {"gpu": 1377, "cpu": 1190.4}} {
		d := lat(slow, vig, set) - lat(base, vig, set)
		if d <= 0 {
			t.Errorf("%v: costlier glue dispatch adds %d ps", set, d)
		}
		extra = append(extra, d)
	}
	if r := float64(extra[0]) / float64(extra[1]); math.Abs(r-1) > 1e-3 {
		t.Errorf("glue dispatch depends on the GPU clock: %d ps at 522.75 MHz, %d at 1377", extra[0], extra[1])
	}
	if extra[2] <= extra[1] {
		t.Errorf("glue dispatch at CPU 1190.4 MHz (%d ps) not above 2265.6 MHz (%d ps)", extra[2], extra[1])
	}
	if a, b := lat(base, goog, nil), lat(slow, goog, nil); a != b {
		t.Errorf("googlenet: %d ps, %d with costlier glue dispatch (it has no graph ops)", a, b)
	}
}

// TestCacheNeverHurts: the GPU's L2 hits (reads of the previous kernel's
// output and glue copies served from it) never make a run slower, costlier
// or heavier on DRAM than the same run with nothing fitting in the L2, at
// the top and at low memory and GPU clocks, and they make the run less
// sensitive to the memory clock.
func TestCacheNeverHurts(t *testing.T) {
	with := MaGNAS()
	spec := MaGNASSpec()
	spec.Units = slices.Clone(spec.Units)
	for i := range spec.Units {
		if spec.Units[i].CacheBytes > 0 {
			// The same L2 path (its bandwidth bounds all the GPU's
			// traffic, at the GPU clock) with nothing fitting in it.
			spec.Units[i].CacheBytes = 1
		}
	}
	without, err := New(spec)
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range workload.ViGOps() {
		m := vigS(t, op)
		var slow [2]float64 // latency at emc 1065.6 over MaxN, without and with
		for si, s := range []*SoC{without, with} {
			e := mustEvaluator(t, s, m, Blocks)
			mp := MapAll(Blocks, unitIndex(t, s, "gpu"), len(e.Segments()))
			top, err := e.Evaluate(mp, nil)
			if err != nil {
				t.Fatal(err)
			}
			low, err := e.Evaluate(mp, DVFS{"emc": 1065.6})
			if err != nil {
				t.Fatal(err)
			}
			slow[si] = float64(low.LatencyPS) / float64(top.LatencyPS)
		}
		for _, d := range []DVFS{nil, {"emc": 1065.6}, {"gpu": 522.75}} {
			var r [2]Result
			for si, s := range []*SoC{without, with} {
				e := mustEvaluator(t, s, m, Blocks)
				r[si], err = e.Evaluate(MapAll(Blocks, unitIndex(t, s, "gpu"), len(e.Segments())), d)
				if err != nil {
					t.Fatal(err)
				}
			}
			if r[1].LatencyPS > r[0].LatencyPS || r[1].EnergyPJ > r[0].EnergyPJ*(1+1e-9) || r[1].DRAMBytes > r[0].DRAMBytes {
				t.Errorf("%s at %v: with the L2 %d ps %.4g pJ %d B, without %d ps %.4g pJ %d B", op, d,
					r[1].LatencyPS, r[1].EnergyPJ, r[1].DRAMBytes, r[0].LatencyPS, r[0].EnergyPJ, r[0].DRAMBytes)
			}
		}
		if slow[1] > slow[0] {
			t.Errorf("%s: halving the EMC clock slows GPU-only by x%.4f with the L2, x%.4f without", op, slow[1], slow[0])
		}
	}
}

// TestHostWorkDrawsWaitingUnit: the host's per-frame work adds its time
// to the frame and draws the platform's power plus the idle power of the
// unit that waits for it (the first one), at every CPU clock.
func TestHostWorkDrawsWaitingUnit(t *testing.T) {
	spec := MaGNASSpec()
	with, err := New(spec)
	if err != nil {
		t.Fatal(err)
	}
	spec.CPU.FrameCycles = 0
	without, err := New(spec)
	if err != nil {
		t.Fatal(err)
	}
	m := vigS(t, workload.GIN)
	for _, unit := range []string{"gpu", "dla"} {
		for _, d := range []DVFS{nil, {"cpu": 1728}, {"gpu": 522.75, "dla": 1050}} {
			var r [2]Result
			for i, s := range []*SoC{without, with} {
				e := mustEvaluator(t, s, m, Blocks)
				if r[i], err = e.Evaluate(MapAll(Blocks, unitIndex(t, s, unit), len(e.Segments())), d); err != nil {
					t.Fatal(err)
				}
			}
			set, err := with.Setting(d)
			if err != nil {
				t.Fatal(err)
			}
			units, _, err := with.Bind(set)
			if err != nil {
				t.Fatal(err)
			}
			idle, _ := units[unitIndex(t, with, unit)].(*Roofline).PowerW()
			dt := r[1].LatencyPS - r[0].LatencyPS
			if want := with.cpu.framePS(set.cpu); dt != want || want <= 0 {
				t.Errorf("%s at %v: host work adds %d ps, want %d", unit, d, dt, want)
			}
			de := r[1].EnergyPJ - r[0].EnergyPJ
			if want := (with.PlatformW(set) + idle) * float64(dt); math.Abs(de-want) > 1e-6*r[1].EnergyPJ {
				t.Errorf("%s at %v: host work adds %.6g pJ, want %.6g (platform %.3g W + idle %.3g W)", unit, d, de, want, with.PlatformW(set), idle)
			}
		}
	}
}
