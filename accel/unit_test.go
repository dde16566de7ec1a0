package accel

import (
	"strings"
	"testing"

	"gnnsim/dataflow"
	"gnnsim/hw"
	"gnnsim/hw/hwtest"
	"gnnsim/workload"
)

func newUnit(t *testing.T, h HW, opts Options) Unit {
	t.Helper()
	u, err := NewUnit(h, opts)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

var unitOptions = []struct {
	name string
	opts Options
}{{"omega", Options{Mode: Omega}}, {"extended", Options{}}}

// TestUnitRunMappingEqualsPrepared checks that RunMapping gives, for each
// of the 24 configurations, exactly what Prepared.Run gives: the same
// cycles, MACs, total energy and DRAM bytes, and the cycles' time at the
// clock.
func TestUnitRunMappingEqualsPrepared(t *testing.T) {
	h := DefaultHW()
	h.GlobalBufferBytes = 16 << 10 // let extended mode spill
	h.ClockHz = 0.7e9              // a clock where cycles and ps differ
	for _, o := range unitOptions {
		u := newUnit(t, h, o.opts)
		for i, tc := range randomCases(t, 6) {
			for _, kind := range []workload.LayerKind{workload.GCN, workload.GIN, workload.SAGE, workload.GAT} {
				l := workload.Layer{Kind: kind, F: tc.F, G: tc.G}
				w := hw.LayerWork(tc.g, l)
				cfgs, err := u.Mappings(w)
				if err != nil {
					t.Fatal(err)
				}
				p, err := Prepare(tc.g, l)
				if err != nil {
					t.Fatal(err)
				}
				all, _ := p.Configs(h)
				if len(cfgs) != dataflow.NumConfigs || [dataflow.NumConfigs]dataflow.Config(cfgs) != all {
					t.Fatalf("%s case %d: Mappings gave %d configurations, not dataflow.All's 24", o.name, i, len(cfgs))
				}
				for _, c := range cfgs {
					got, err := u.RunMapping(w, c)
					if err != nil {
						t.Fatal(err)
					}
					r, err := p.Run(c, h, o.opts)
					if err != nil {
						t.Fatal(err)
					}
					want := hw.Cost{TimePS: hw.PS(r.Cycles, h.ClockHz), Cycles: r.Cycles, EnergyPJ: r.Energy.Total(), DRAMBytes: r.DRAM.Bytes, MACs: r.MACs}
					if got != want {
						t.Errorf("%s case %d %s %s: RunMapping %+v, Prepared.Run %+v", o.name, i, kind, c.Name(), got, want)
					}
					if o.opts.Mode == Omega && (got.EnergyPJ != 0 || got.DRAMBytes != 0) {
						t.Errorf("omega mode has energy or DRAM traffic: %+v", got)
					}
				}
			}
		}
	}
}

// TestUnitRunIsFastest checks the default mapping: the fastest of the 24,
// ties to the first.
func TestUnitRunIsFastest(t *testing.T) {
	for _, o := range unitOptions {
		u := newUnit(t, DefaultHW(), o.opts)
		for i, tc := range randomCases(t, 8) {
			w := hw.LayerWork(tc.g, gcn(tc.F, tc.G))
			got, err := u.Run(w)
			if err != nil {
				t.Fatal(err)
			}
			cfgs, _ := u.Mappings(w)
			var best hw.Cost
			for j, c := range cfgs {
				cost, _ := u.RunMapping(w, c)
				if j == 0 || cost.Cycles < best.Cycles {
					best = cost
				}
			}
			if got != best {
				t.Errorf("%s case %d: Run %+v, fastest mapping %+v", o.name, i, got, best)
			}
		}
	}
}

// TestUnitMultiLayer checks that a stack of layers costs the sum of its
// layers, each at its own fastest configuration, and that RunMapping
// re-resolves a recipe for layers of other widths.
func TestUnitMultiLayer(t *testing.T) {
	g := rmat(t, 300, 1500, 5)
	u := newUnit(t, DefaultHW(), Options{})
	m, err := workload.GNN(workload.GCN, hw.SizeOf(g), []int{64, 32, 7})
	if err != nil {
		t.Fatal(err)
	}
	l0, l1 := m.Blocks[0].Layers[0], m.Blocks[1].Layers[0]
	w := hw.GraphWork(g, l0, l1)
	c0, _ := u.Run(hw.LayerWork(g, l0))
	c1, _ := u.Run(hw.LayerWork(g, l1))
	if got, _ := u.Run(w); got != c0.Add(c1) {
		t.Errorf("two layers cost %+v, their sum %+v", got, c0.Add(c1))
	}
	cfgs, _ := u.Mappings(w)
	for _, c := range cfgs {
		got, err := u.RunMapping(w, c)
		if err != nil {
			t.Fatalf("%s: %v", c.Name(), err)
		}
		a, _ := u.RunMapping(hw.LayerWork(g, l0), c)
		tl, _ := dataflow.Named(c.Tiling)
		c1, _ := tl.Config(c.Inter, dataflow.Dims{V: g.NumNodes(), F: l1.F, G: l1.G}, c.PEs, 0)
		b, _ := u.RunMapping(hw.LayerWork(g, l1), c1)
		if got != a.Add(b) {
			t.Errorf("%s: stack %+v, layers %+v + %+v", c.Name(), got, a, b)
		}
	}
}

func TestUnitErrors(t *testing.T) {
	u := newUnit(t, DefaultHW(), Options{})
	g := ring(t, 12)
	sizeOnly := hw.BlockWork(workload.Block{Name: "sized", In: workload.Size{Nodes: 12, NNZ: 24}, Layers: []workload.Layer{gcn(8, 8)}})
	mismatch := hw.LayerWork(g, gcn(8, 8))
	mismatch.Block.In.NNZ++
	for _, tc := range []struct {
		name string
		w    hw.Work
		want string
	}{
		{"no graph", sizeOnly, "needs the graph itself"},
		{"size mismatch", mismatch, "its graph has 12 and 24"},
		{"mrconv", hw.LayerWork(g, workload.Layer{Kind: workload.MRConv, F: 8, G: 8}), "layer 0: accel: mrconv layers are not modelled"},
		{"heads", hw.GraphWork(g, gcn(8, 8), workload.Layer{Kind: workload.GAT, F: 8, G: 8, Heads: 2}), "layer 1"},
	} {
		if _, err := u.Run(tc.w); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Run: %v, want error containing %q", tc.name, err, tc.want)
		}
		if _, err := u.Mappings(tc.w); err == nil {
			t.Errorf("%s: Mappings succeeded", tc.name)
		}
	}
	c, _ := dataflow.Named("a")
	cfg, _ := c.Config(dataflow.Seq, dataflow.Dims{V: 12, F: 8, G: 8}, 256, 0)
	if _, err := u.RunMapping(hw.LayerWork(g, gcn(8, 8)), cfg); err == nil || !strings.Contains(err.Error(), "256 PEs") {
		t.Errorf("configuration for another array: %v", err)
	}
	if _, err := (Unit{}).Run(hw.LayerWork(g, gcn(8, 8))); err == nil {
		t.Error("zero Unit ran")
	}
	bad := DefaultHW()
	bad.PEs = 0
	for _, tc := range []struct {
		h    HW
		o    Options
		want string
	}{{bad, Options{}, "pes = 0"}, {DefaultHW(), Options{Mode: 7}, "mode"}, {DefaultHW(), Options{Engine: 9}, "engine"}, {DefaultHW(), Options{Disable: 1 << 30}, "effects"}} {
		if _, err := NewUnit(tc.h, tc.o); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("NewUnit(%+v): %v, want error containing %q", tc.o, err, tc.want)
		}
	}
}

// TestUnitConformance runs the hw contract's conformance suite on the
// accelerator in both modes.
func TestUnitConformance(t *testing.T) {
	var works []hw.Work
	for i, tc := range randomCases(t, 6) {
		kind := []workload.LayerKind{workload.GCN, workload.GIN, workload.SAGE, workload.GAT}[i%4]
		works = append(works, hw.LayerWork(tc.g, workload.Layer{Kind: kind, F: tc.F, G: tc.G}))
	}
	g := rmat(t, 150, 600, 9)
	works = append(works, hw.GraphWork(g, gcn(32, 16), workload.Layer{Kind: workload.GIN, F: 16, G: 4}))
	for _, o := range unitOptions {
		hwtest.Conformance(t, newUnit(t, DefaultHW(), o.opts), works)
	}
}

// TestRunSaturationIsAnError: a stack whose summed cost does not fit in 64
// bits is an error, never a clamped number (issue 38 item 6).
func TestRunSaturationIsAnError(t *testing.T) {
	u, err := NewUnit(DefaultHW(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	g := ring(t, 1<<18) // 2^58 MACs a layer: 9 layers pass 2^61
	for _, tc := range []struct {
		layers int
		ok     bool
	}{{2, true}, {9, false}} {
		ls := make([]workload.Layer, tc.layers)
		for i := range ls {
			ls[i] = workload.Layer{Kind: workload.GCN, F: 1 << 20, G: 1 << 20}
		}
		w := hw.GraphWork(g, ls...)
		p, err := Prepare(g, ls[0])
		if err != nil {
			t.Fatal(err)
		}
		cfgs, err := p.Configs(DefaultHW())
		if err != nil {
			t.Fatal(err)
		}
		c, err := u.RunMapping(w, cfgs[0]) // one mapping: Run tries 24 a layer
		if tc.ok != (err == nil) || err != nil && !strings.Contains(err.Error(), "64 bits") {
			t.Errorf("%d layers: %+v, %v; want ok %v", tc.layers, c, err, tc.ok)
		}
	}
}
