package magnas

import (
	"testing"

	"gnnsim/workload"
)

func TestInterimXavierDomains(t *testing.T) {
	full := XavierGPUDomains()
	if n := []int{len(full[0].ClocksHz), len(full[1].ClocksHz), len(full[2].ClocksHz)}; n[0] != 14 || n[1] != 29 || n[2] != 9 {
		t.Fatalf("GPU/CPU/EMC points %v, want 14/29/9 (MISSION section 9)", n)
	}
	if c := full[1].ClocksHz; c[0] != 115.2e6 || c[28] != 2265.6e6 {
		t.Errorf("CPU clocks %v ... %v", c[0], c[28])
	}
	p, err := InterimXavier("x", full)
	if err != nil {
		t.Fatal(err)
	}
	m, err := workload.ViG("ti", workload.MRConv)
	if err != nil {
		t.Fatal(err)
	}
	mp := make([]int, len(m.Blocks))
	hi, err := p.Evaluate(m, mp, p.Setting(p.MaxN()))
	if err != nil {
		t.Fatal(err)
	}
	lo, err := p.Evaluate(m, mp, p.Setting(p.MinN()))
	if err != nil {
		t.Fatal(err)
	}
	if !(lo.TimePS > hi.TimePS) {
		t.Errorf("MinN %d ps not slower than MaxN %d ps", lo.TimePS, hi.TimePS)
	}
	for _, bad := range [][]Domain{
		{{Name: "npu", ClocksHz: []float64{1e9}}},
		{{Name: "gpu", ClocksHz: []float64{1e9}}, {Name: "gpu", ClocksHz: []float64{1e9}}},
		{{Name: "gpu", ClocksHz: []float64{2e9}}},
		{{Name: "gpu"}},
	} {
		if _, err := InterimXavier("bad", bad); err == nil {
			t.Errorf("InterimXavier(%v) accepted", bad)
		}
	}
}
