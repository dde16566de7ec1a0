package soc

import (
	"testing"

	"gnnsim/hw"
	"gnnsim/hw/hwtest"
	"gnnsim/soc/maestro"
	"gnnsim/workload"
)

func dsaWorks() []hw.Work {
	return []hw.Work{
		hw.BlockWork(workload.GrapherBlock(196, 320, 12, workload.GIN, 1, true)),
		hw.BlockWork(workload.GrapherBlock(196, 320, 16, workload.EdgeConv, 1, false)),
		hw.BlockWork(workload.FFNBlock(196, 320, 192)),
		hw.BlockWork(workload.ViGStemBlock(224, 320)),
		hw.BlockWork(workload.HeadBlock(196, 320, 1000)),
		hw.BlockWork(workload.GrapherBlock(3136, 96, 9, workload.MRConv, 4, true)),
	}
}

func TestDSAConformance(t *testing.T) {
	dsas, err := DefaultDSAs()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dsas {
		hwtest.Conformance(t, d, dsaWorks())
	}
	c := DefaultDSAConfigs()[0]
	c.Points = []hw.OperatingPoint{{FreqHz: 5e8, Volts: 0.7}, {FreqHz: 8e8, Volts: 0.85}, {FreqHz: 1e9, Volts: 1}}
	s, err := NewScalableDSA(c)
	if err != nil {
		t.Fatal(err)
	}
	hwtest.Conformance(t, s, dsaWorks())
}

// TestDSAMatchesMaestro checks that a single FC layer costs exactly what
// maestro.Analyze says for the same product, and that the dense
// aggregation is priced as the N x N product.
func TestDSAMatchesMaestro(t *testing.T) {
	dsas, err := DefaultDSAs()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dsas {
		fc := hw.BlockWork(workload.Block{Name: "fc", Kind: workload.FFN, In: workload.Size{Nodes: 196},
			Layers: []workload.Layer{{Kind: workload.FC, F: 192, G: 768}}})
		c, err := d.Run(fc)
		if err != nil {
			t.Fatal(err)
		}
		r, err := maestro.Analyze(maestro.MatMul(196, 192, 768), d.dataflow, d.hardware)
		if err != nil {
			t.Fatal(err)
		}
		if c.Cycles != r.Cycles {
			t.Errorf("%s: fc %d cycles, maestro %d", d.Name(), c.Cycles, r.Cycles)
		}
		wantE := r.EnergyPJ + DefaultDSAStaticW*float64(c.TimePS)
		if diff := c.EnergyPJ - wantE; diff > 1e-6*wantE || diff < -1e-6*wantE {
			t.Errorf("%s: fc energy %g pJ, want %g", d.Name(), c.EnergyPJ, wantE)
		}
		agg := hw.BlockWork(workload.Block{Name: "gin", Kind: workload.Grapher, In: workload.Size{Nodes: 196, NNZ: 196 * 9},
			Layers: []workload.Layer{{Kind: workload.GIN, F: 64, G: 64}}})
		ca, err := d.Run(agg)
		if err != nil {
			t.Fatal(err)
		}
		ra, _ := maestro.Analyze(maestro.MatMul(196, 196, 64), d.dataflow, d.hardware)
		rb, _ := maestro.Analyze(maestro.MatMul(196, 64, 64), d.dataflow, d.hardware)
		rc, _ := maestro.Analyze(maestro.MatMul(196, 64, 64), d.dataflow, d.hardware)
		if want := ra.Cycles + rb.Cycles + rc.Cycles; ca.Cycles != want {
			t.Errorf("%s: GIN %d cycles, dense aggregation + two combinations %d", d.Name(), ca.Cycles, want)
		}
	}
}

func TestDSABadConfig(t *testing.T) {
	for _, c := range []DSAConfig{
		{Name: "x", Dataflow: "nope", Hardware: maestro.ReferenceHardware(256, 64), ClockHz: 1e9},
		{Name: "x", Dataflow: "dpt", Hardware: maestro.Hardware{}, ClockHz: 1e9},
		{Name: "x", Dataflow: "dpt", Hardware: maestro.ReferenceHardware(256, 64), ClockHz: 0},
		{Name: "", Dataflow: "dpt", Hardware: maestro.ReferenceHardware(256, 64), ClockHz: 1e9},
	} {
		if _, err := NewDSA(c); err == nil {
			t.Errorf("NewDSA(%+v) accepted", c)
		}
	}
	if _, err := NewScalableDSA(DefaultDSAConfigs()[0]); err == nil {
		t.Errorf("NewScalableDSA without points accepted")
	}
}
