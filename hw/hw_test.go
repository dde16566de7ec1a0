package hw_test

import (
	"math"
	"strings"
	"testing"

	"gnnsim/hw"
	"gnnsim/hw/hwtest"
	"gnnsim/workload"
)

// roofline is the smallest analytical unit: one MAC per cycle at 1 GHz.
func roofline() hw.UnitFunc {
	return hw.NewUnitFunc("roofline", func(w hw.Work) (hw.Cost, error) {
		ks, err := w.Kernels()
		if err != nil {
			return hw.Cost{}, err
		}
		macs, ops, _ := workload.Totals(ks)
		cyc := macs + ops
		return hw.Cost{TimePS: hw.PS(cyc, 1e9), Cycles: cyc, EnergyPJ: float64(macs), MACs: macs}, nil
	})
}

func TestUnitFuncConforms(t *testing.T) {
	works := []hw.Work{
		hw.BlockWork(workload.Block{Name: "gcn", In: workload.Size{Nodes: 100, NNZ: 400}, Layers: []workload.Layer{{Kind: workload.GCN, F: 16, G: 8}}}),
		hw.BlockWork(workload.Block{Name: "gat", In: workload.Size{Nodes: 50, NNZ: 100}, Layers: []workload.Layer{{Kind: workload.GAT, F: 8, G: 8, Heads: 4}, {Kind: workload.GAT, F: 32, G: 3, Heads: 2, Last: true}}}),
	}
	hwtest.Conformance(t, roofline(), works)
}

func TestSatAddAndPS(t *testing.T) {
	tests := []struct{ a, b, want int64 }{
		{1, 2, 3}, {math.MaxInt64, 1, math.MaxInt64}, {math.MaxInt64 - 1, 1, math.MaxInt64}, {math.MinInt64, -1, math.MinInt64},
	}
	for _, tc := range tests {
		if got := hw.SatAdd(tc.a, tc.b); got != tc.want {
			t.Errorf("SatAdd(%d, %d) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
	if got := hw.PS(3, 1e9); got != 3000 {
		t.Errorf("PS(3, 1 GHz) = %d", got)
	}
	if got := hw.PS(math.MaxInt64, 1e6); got != math.MaxInt64 {
		t.Errorf("PS saturates: got %d", got)
	}
}

func TestResourcesWithin(t *testing.T) {
	budget := hw.Resources{LUT: 10000, DSP: 10}
	if ok, what := (hw.Resources{LUT: 9000, DSP: 11}).Within(budget); ok || what != "DSP" {
		t.Errorf("over DSPs, under LUTs: ok = %v, %q", ok, what)
	}
	if ok, _ := (hw.Resources{LUT: 9000, DSP: 10, FF: 1 << 40}).Within(budget); !ok {
		t.Error("unconstrained FF should not count")
	}
}

// TestMSToPS: a positive time never rounds to 0 (which reads as "none").
func TestMSToPS(t *testing.T) {
	for _, tc := range []struct {
		ms   float64
		want int64
	}{
		{0, 0}, {-1, 0}, {math.NaN(), 0}, {1e-15, 1}, {1e-12, 1}, {1e-9, 1}, {1.5e-9, 2}, {1, 1e9}, {0.8, 800_000_000},
		{1e300, math.MaxInt64}, {math.Inf(1), math.MaxInt64},
	} {
		if got := hw.MSToPS(tc.ms); got != tc.want {
			t.Errorf("MSToPS(%g) = %d, want %d", tc.ms, got, tc.want)
		}
	}
}

// TestCostCheckRange names the first saturated field of a cost.
func TestCostCheckRange(t *testing.T) {
	for _, tc := range []struct {
		c    hw.Cost
		want string // "" for no error
	}{
		{hw.Cost{TimePS: 1e18, Cycles: 1e18, DRAMBytes: 1e18, MACs: 1e18}, ""},
		{hw.Cost{TimePS: hw.MaxTimePS}, "latency (ps)"},
		{hw.Cost{Cycles: math.MaxInt64}, "cycles"},
		{hw.Cost{DRAMBytes: -1}, "off-chip bytes"},
		{hw.Cost{MACs: math.MaxInt64}, "MACs"},
	} {
		err := tc.c.CheckRange("unit", "smaller")
		if (err == nil) != (tc.want == "") || err != nil && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", tc.c, err, tc.want)
		}
	}
}
