package soc

import (
	"errors"
	"math"
	"math/rand/v2"
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

// TestDSAKernelCoster: the DSA prices kernel groups (KernelCost,
// RunKernels) exactly as Run prices the whole work: its cost is a sum over
// kernels, so the aggregation and combination of a layer may be split.
func TestDSAKernelCoster(t *testing.T) {
	dsas, err := DefaultDSAs()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dsas {
		var _ KernelCoster = d
		for _, w := range dsaWorks() {
			whole, err := d.Run(w)
			if err != nil {
				t.Fatal(err)
			}
			ks, err := w.Kernels()
			if err != nil {
				t.Fatal(err)
			}
			run, err := d.RunKernels(ks)
			if err != nil {
				t.Fatal(err)
			}
			var sum hw.Cost
			for _, k := range ks {
				c, err := d.KernelCost(k)
				if err != nil {
					t.Fatal(err)
				}
				sum = sum.Add(c)
			}
			for _, c := range []struct {
				name string
				got  hw.Cost
			}{{"RunKernels", run}, {"sum of KernelCost", sum}} {
				if c.got.Cycles != whole.Cycles || c.got.TimePS != whole.TimePS || c.got.MACs != whole.MACs ||
					math.Abs(c.got.EnergyPJ-whole.EnergyPJ) > 1e-9*whole.EnergyPJ {
					t.Errorf("%s, %s: %s %d cycles %g pJ, Run %d cycles %g pJ", d.Name(), w.Block.Name, c.name,
						c.got.Cycles, c.got.EnergyPJ, whole.Cycles, whole.EnergyPJ)
				}
			}
		}
		if _, err := d.KernelCost(workload.Kernel{Class: workload.GEMM, Name: "bad", M: 4, K: 4, N: 4, MACs: -1}); err == nil {
			t.Errorf("%s: negative MACs accepted", d.Name())
		}
	}
}

// dsaSoC returns the three default DSAs (one operating point each) around
// a 64 B/cycle memory.
func dsaSoC(t testing.TB) *SoC {
	t.Helper()
	s, err := NewShared("dsas", MemorySpec{BytesPerCycle: 64, PointsMHz: []float64{1000}, BurstBytes: 64, PJPerByte: 20, ElementBytes: 1, HandoffUS: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range DefaultDSAConfigs() {
		c.Points = []hw.OperatingPoint{{FreqHz: c.ClockHz, Volts: DefaultDSANomVolts}}
		d, err := NewScalableDSA(c)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Add(d); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// TestSegmentEvaluator: an evaluator of caller-made segments equals the
// model's evaluator on the same segments, at every granularity and for
// mixed mappings; on the DSAs every granularity agrees when the whole model
// runs on one DSA (kernel groups included, now that DSAs price kernels);
// segments that do no work are refused.
func TestSegmentEvaluator(t *testing.T) {
	s := dsaSoC(t)
	m := vigS(t, workload.GIN)
	r := rand.New(rand.NewPCG(1, 2))
	for _, g := range []Granularity{Blocks, Layers, KernelGroups} {
		ref := mustEvaluator(t, s, m, g)
		segs := ref.Segments()
		own, err := NewSegmentEvaluator(s, segs, g)
		if err != nil {
			t.Fatal(err)
		}
		for trial := range 10 {
			mp := Mapping{Granularity: g, Units: make([]int, len(segs))}
			for i := range mp.Units {
				mp.Units[i] = r.IntN(len(s.Units()))
			}
			if trial < len(s.Units()) {
				mp = MapAll(g, trial, len(segs))
			}
			a, err := ref.Evaluate(mp, nil)
			if err != nil {
				t.Fatal(err)
			}
			b, err := own.Evaluate(mp, nil)
			if err != nil {
				t.Fatal(err)
			}
			if a.LatencyPS != b.LatencyPS || a.EnergyPJ != b.EnergyPJ || a.Transitions != b.Transitions {
				t.Errorf("%s-wise trial %d: segment evaluator %d ps %g pJ, model evaluator %d ps %g pJ", g, trial, b.LatencyPS, b.EnergyPJ, a.LatencyPS, a.EnergyPJ)
			}
		}
	}
	blocks := mustEvaluator(t, s, m, Blocks)
	kernels := mustEvaluator(t, s, m, KernelGroups)
	for u := range s.Units() {
		a, err := blocks.Evaluate(MapAll(Blocks, u, len(blocks.Segments())), nil)
		if err != nil {
			t.Fatal(err)
		}
		b, err := kernels.Evaluate(MapAll(KernelGroups, u, len(kernels.Segments())), nil)
		if err != nil {
			t.Fatal(err)
		}
		if a.LatencyPS != b.LatencyPS || math.Abs(a.EnergyPJ-b.EnergyPJ) > 1e-9*a.EnergyPJ {
			t.Errorf("all on %s: kernel-group-wise %d ps %g pJ, block-wise %d ps %g pJ", s.Units()[u], b.LatencyPS, b.EnergyPJ, a.LatencyPS, a.EnergyPJ)
		}
	}
	for _, bad := range [][]Segment{nil, {{Name: "empty"}}, {{Name: "neg", Kernels: []workload.Kernel{{Class: workload.GEMM, M: 1, K: 1, N: 1, MACs: 1}}, InElems: -1}}} {
		if _, err := NewSegmentEvaluator(s, bad, KernelGroups); err == nil {
			t.Errorf("segments %+v accepted", bad)
		}
	}
	if _, err := NewSegmentEvaluator(nil, blocks.Segments(), Blocks); err == nil {
		t.Error("nil SoC accepted")
	}
}

// TestDSACapacity: the default DSAs differ in PEs and buffers, and a
// kernel whose tiles do not fit a DSA's L1 is refused with
// maestro.ErrCapacity, while the same DSA with unbounded buffers runs it
// (dpt keeps a whole row of the 3072 outputs per PE: 12,290 B).
func TestDSACapacity(t *testing.T) {
	cs := DefaultDSAConfigs()
	for i := range cs {
		for j := i + 1; j < len(cs); j++ {
			a, b := cs[i].Hardware, cs[j].Hardware
			if a.PEs == b.PEs && a.L1Bytes == b.L1Bytes && a.L2Bytes == b.L2Bytes {
				t.Errorf("%s and %s have the same PEs and buffers", cs[i].Name, cs[j].Name)
			}
		}
	}
	wide := hw.BlockWork(workload.Block{Name: "fc", Kind: workload.FFN, In: workload.Size{Nodes: 49},
		Layers: []workload.Layer{{Kind: workload.FC, F: 768, G: 3072}}})
	small := hw.BlockWork(workload.Block{Name: "fc", Kind: workload.FFN, In: workload.Size{Nodes: 49},
		Layers: []workload.Layer{{Kind: workload.FC, F: 96, G: 96}}})
	for _, c := range cs {
		d, err := NewDSA(c)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := d.Run(small); err != nil {
			t.Errorf("%s refuses a 96 -> 96 FC: %v", c.Name, err)
		}
		_, err = d.Run(wide)
		if c.Dataflow != "dpt" {
			if err != nil {
				t.Errorf("%s refuses the 768 -> 3072 FC: %v", c.Name, err)
			}
			continue
		}
		if !errors.Is(err, maestro.ErrCapacity) {
			t.Errorf("%s: 768 -> 3072 FC: want ErrCapacity, got %v", c.Name, err)
		}
		c.Hardware.L1Bytes, c.Hardware.L2Bytes = 0, 0
		u, err := NewDSA(c)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := u.Run(wide); err != nil {
			t.Errorf("%s with unbounded buffers: %v", c.Name, err)
		}
	}
}
