package fpga

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"gnnsim/graphs"
	"gnnsim/hw"
	"gnnsim/hw/hwtest"
	"gnnsim/workload"
)

// Cora (Planetoid): 2,708 nodes, 10,556 adjacency entries, 1,433 features
// with 49,216 non-zeros; 7 classes.
var cora = workload.Size{Nodes: 2708, NNZ: 10556}

const (
	coraFeatures = 1433
	coraNNZ      = 49216
)

func gcn8(g int, bits Precision) Design {
	t := Groups{g, g, g, g, g}
	return Design{Layers: []LayerDesign{
		{Embed: 8, Attn: workload.AttGCN, Aggr: workload.AggAdd, Act: workload.ActReLU, T: t, Bits: bits},
		{Embed: 7, Attn: workload.AttGCN, Aggr: workload.AggAdd, Act: workload.ActReLU, T: t, Bits: bits},
	}, InputNNZ: coraNNZ}
}

var bits8 = Precision{W: Fixed{2, 5}, A: Fixed{2, 5}}

// designs covers every operator of the model.
func designs() []Design {
	var ds []Design
	for _, attn := range []workload.Attention{workload.AttConstant, workload.AttGCN, workload.AttGAT} {
		for _, aggr := range []workload.Aggregation{workload.AggAdd, workload.AggMean, workload.AggMax} {
			for _, act := range []workload.Activation{workload.ActReLU, workload.ActTanh, workload.ActSigmoid, workload.ActELU} {
				t := Groups{2, 3, 4, 2, 1}
				ds = append(ds, Design{Layers: []LayerDesign{
					{Embed: 16, Heads: 4, Attn: attn, Aggr: aggr, Act: act, T: t, Bits: Precision{W: Fixed{1, 4}, A: Fixed{3, 2}}},
					{Embed: 7, Heads: 2, Attn: attn, Aggr: aggr, Act: act, T: t, Bits: bits8},
				}, InputNNZ: coraNNZ})
			}
		}
	}
	return ds
}

func mustEval(t testing.TB, d Design, opt Options) Report {
	t.Helper()
	u, err := New(d, opt)
	if err != nil {
		t.Fatal(err)
	}
	r, err := u.Evaluate(hw.BlockWork(d.Block(cora, coraFeatures)))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// conform runs hw's conformance suite on u, the unit of design d, on Cora
// and on a small graph.
func conform(t *testing.T, u *Unit, d Design) {
	t.Helper()
	small := workload.Size{Nodes: 100, NNZ: 400}
	hwtest.Conformance(t, u, []hw.Work{
		hw.BlockWork(d.Block(cora, coraFeatures)),
		hw.BlockWork(d.Block(small, 1433)),
	})
}

func TestConformance(t *testing.T) {
	for _, opt := range []Options{{}, {Pipelined: true}, {Model: FGNASCode}, {SerialHeads: true}} {
		d := designs()[20]
		u, err := New(d, opt)
		if err != nil {
			t.Fatal(err)
		}
		conform(t, u, d)
	}
}

// Doubling any group size never adds cycles and never saves resources.
func TestGroupSizeMonotone(t *testing.T) {
	fields := groupFields
	for di, d := range designs() {
		for _, pub := range []bool{false, true} {
			for li := range d.Layers {
				for _, fd := range fields {
					for _, start := range []int{1, 2, 4} {
						a := cloneDesign(d)
						*fd.f(&a.Layers[li].T) = start
						b := cloneDesign(a)
						*fd.f(&b.Layers[li].T) = 2 * start
						ra, rb := mustEval(t, a, Options{Published: pub}), mustEval(t, b, Options{Published: pub})
						if rb.SummedCycles > ra.SummedCycles || rb.PipelinedCycles > ra.PipelinedCycles {
							t.Errorf("design %d layer %d: %s %d -> %d: cycles %d/%d -> %d/%d", di, li, fd.name, start, 2*start,
								ra.SummedCycles, ra.PipelinedCycles, rb.SummedCycles, rb.PipelinedCycles)
						}
						if !geq(rb.Resources, ra.Resources) {
							t.Errorf("design %d layer %d: %s %d -> %d: resources %+v -> %+v", di, li, fd.name, start, 2*start, ra.Resources, rb.Resources)
						}
					}
				}
			}
		}
	}
}

func geq(a, b hw.Resources) bool {
	return a.LUT >= b.LUT && a.FF >= b.FF && a.DSP >= b.DSP && a.BRAM >= b.BRAM
}

func cloneDesign(d Design) Design {
	d.Layers = append([]LayerDesign(nil), d.Layers...)
	return d
}

// A multiplier one bit wider never costs fewer LUTs while it stays in LUTs
// (up to 10 x 10 bits, which covers FGNAS's whole space: at most 1+3+6
// bits); crossing into DSP48 slices trades the LUTs for a DSP, and no
// resource falls beyond.
func TestMultWidthMonotone(t *testing.T) {
	for a := 1; a <= 40; a++ {
		for b := 1; b <= 40; b++ {
			m, wa, wb := Mult(a, b), Mult(a+1, b), Mult(a, b+1)
			for _, w := range []Op{wa, wb} {
				lutSide := max(a+1, b) <= lutMultMaxBits && max(a, b+1) <= lutMultMaxBits
				if w.DSP < m.DSP || (lutSide || m.DSP > 0) && w.LUT < m.LUT {
					t.Errorf("%dx%d %+v -> one bit wider %+v", a, b, m, w)
				}
				if w.DSP == m.DSP && w.LUT < m.LUT {
					t.Errorf("%dx%d: wider costs fewer LUTs on the same DSPs: %+v -> %+v", a, b, m, w)
				}
			}
		}
	}
	for a := 1; a <= 32; a++ {
		if Adder(a+1).LUT <= Adder(a).LUT {
			t.Errorf("adder %d bits not cheaper than %d", a, a+1)
		}
	}
	// Through the design: every format one bit wider.
	for _, d := range designs() {
		r0 := mustEval(t, d, Options{})
		for _, w := range []func(*Precision) *int{
			func(p *Precision) *int { return &p.W.Frac }, func(p *Precision) *int { return &p.A.Frac },
			func(p *Precision) *int { return &p.W.Int }, func(p *Precision) *int { return &p.A.Int },
		} {
			e := cloneDesign(d)
			*w(&e.Layers[0].Bits)++
			if r1 := mustEval(t, e, Options{}); r1.Resources.LUT < r0.Resources.LUT || r1.Resources.FF < r0.Resources.FF {
				t.Errorf("one bit wider: %+v -> %+v", r0.Resources, r1.Resources)
			}
		}
	}
}

// The pipelined time lies between the busiest stage and the sum of stages.
func TestPipelinedBounds(t *testing.T) {
	for di, d := range designs() {
		for _, bn := range []int{1, 7, 64, 5000} {
			for _, pub := range []bool{false, true} {
				r := mustEval(t, d, Options{BlockNodes: bn, Published: pub})
				var slowest int64
				for _, l := range r.Layers {
					for _, s := range l.Stages {
						slowest = max(slowest, s.Cycles)
					}
				}
				if r.PipelinedCycles > r.SummedCycles || r.PipelinedCycles < slowest {
					t.Errorf("design %d, blocks of %d: pipelined %d outside [%d, %d]", di, bn, r.PipelinedCycles, slowest, r.SummedCycles)
				}
			}
		}
	}
}

// Feasibility needs every resource and the latency within budget.
func TestFeasibility(t *testing.T) {
	d := designs()[3] // constant attention, ELU: 9 DSPs per unit
	r := mustEval(t, d, Options{})
	res := r.Resources
	lat := hw.PS(r.SummedCycles, ClockHz)
	cases := []struct {
		name string
		b    Budget
		ok   bool
		over string
	}{
		{"unconstrained", Budget{}, true, ""},
		{"exact", Budget{Resources: res, LatencyPS: lat}, true, ""},
		{"over DSPs, under LUTs", Budget{Resources: hw.Resources{LUT: res.LUT * 10, FF: res.FF * 10, DSP: res.DSP - 1}}, false, "DSP"},
		{"over LUTs", Budget{Resources: hw.Resources{LUT: res.LUT - 1, DSP: res.DSP}}, false, "LUT"},
		{"over FFs", Budget{Resources: hw.Resources{FF: res.FF - 1}}, false, "FF"},
		{"over BRAM", Budget{Resources: hw.Resources{BRAM: res.BRAM - 1}}, false, "BRAM"},
		{"over latency", Budget{Resources: hw.Resources{LUT: res.LUT, DSP: res.DSP}, LatencyPS: lat - 1}, false, "latency"},
	}
	for _, c := range cases {
		u, err := New(d, Options{Budget: c.b})
		if err != nil {
			t.Fatal(err)
		}
		ok, over, err := u.Feasible(hw.BlockWork(d.Block(cora, coraFeatures)))
		if err != nil || ok != c.ok || over != c.over {
			t.Errorf("%s: feasible %v (%q), %v; want %v (%q)", c.name, ok, over, err, c.ok, c.over)
		}
	}
	if res.DSP < 2 {
		t.Fatalf("test design uses %d DSPs", res.DSP)
	}
}

// The sparse first-layer input and the node count are what separate our
// linear stage from the published one.
func TestLinearStage(t *testing.T) {
	d := gcn8(8, bits8)
	pub := mustEval(t, d, Options{Published: true}).Layers
	ours := mustEval(t, d, Options{}).Layers
	dense := d
	dense.InputNNZ = 0
	dn := mustEval(t, dense, Options{}).Layers
	if got, want := pub[0].Stages[Linear].Work, int64(ceilDiv(coraFeatures, 8)); got != want {
		t.Errorf("published linear work %d, want ceil(1433/8) = %d", got, want)
	}
	if got, want := ours[0].Stages[Linear].Work, int64(coraNNZ/8); got != want {
		t.Errorf("sparse linear work %d, want 49216/8 = %d", got, want)
	}
	if got, want := dn[0].Stages[Linear].Work, int64(2708*ceilDiv(coraFeatures, 8)); got != want {
		t.Errorf("dense linear work %d, want 2708 x 180 = %d", got, want)
	}
	if got, want := ours[1].Stages[Linear].Work, int64(2708); got != want {
		t.Errorf("second linear work %d, want %d", got, want)
	}
}

func TestBadInput(t *testing.T) {
	good := gcn8(4, bits8)
	bad := []Design{
		{},
		{Layers: []LayerDesign{{Embed: 0, T: Groups{1, 1, 1, 1, 1}}}},
		{Layers: []LayerDesign{{Embed: 4, T: Groups{0, 1, 1, 1, 1}}}},
		{Layers: []LayerDesign{{Embed: 4, Attn: 9, T: Groups{1, 1, 1, 1, 1}}}},
		{Layers: []LayerDesign{{Embed: 4, T: Groups{1, 1, 1, 1, 1}, Bits: Precision{W: Fixed{-1, 0}}}}},
		{Layers: good.Layers, InputNNZ: -1},
	}
	for i, d := range bad {
		if _, err := New(d, Options{}); err == nil {
			t.Errorf("bad design %d accepted", i)
		}
	}
	if _, err := New(good, Options{BlockNodes: -1}); err == nil {
		t.Error("negative block accepted")
	}
	u, _ := New(good, Options{})
	w := hw.BlockWork(good.Block(cora, coraFeatures))
	w.Block.Layers = w.Block.Layers[:1]
	if _, err := u.Run(w); err == nil {
		t.Error("work with one layer for a two-layer design accepted")
	}
	w = hw.BlockWork(good.Block(cora, coraFeatures))
	w.Block.Layers[1].G = 9
	if _, err := u.Run(w); err == nil {
		t.Error("work with a different width accepted")
	}
	tooSparse := good
	tooSparse.InputNNZ = 2708*1433 + 1
	u, _ = New(tooSparse, Options{})
	if _, err := u.Run(hw.BlockWork(good.Block(cora, coraFeatures))); err == nil {
		t.Error("more non-zeros than entries accepted")
	}
}

// A reused unit prices every design as a new one does, under every model
// and timing; a failed Reset leaves it as it was; BlockInto builds Block.
func TestReset(t *testing.T) {
	var u Unit
	var blk workload.Block
	// A zero Unit has no design: no resources, and no work fits it.
	if u.Usage() != (hw.Resources{}) {
		t.Errorf("zero unit uses %+v", u.Usage())
	}
	if _, err := u.Run(hw.BlockWork(gcn8(2, bits8).Block(cora, coraFeatures))); err == nil {
		t.Error("zero unit ran a work")
	}
	for _, opt := range []Options{{}, {Pipelined: true}, {Published: true, SerialHeads: true}, {Model: FGNASCode}} {
		for i, d := range append(designs(), gcn8(3, bits8), gcn8(1, bits8)) {
			fresh, err := New(d, opt)
			if err != nil {
				t.Fatal(err)
			}
			if err := u.Reset(d, opt); err != nil {
				t.Fatal(err)
			}
			want := d.Block(cora, coraFeatures)
			d.BlockInto(&blk, cora, coraFeatures)
			if !reflect.DeepEqual(blk, want) {
				t.Fatalf("design %d: BlockInto %+v, Block %+v", i, blk, want)
			}
			a, errA := fresh.Evaluate(hw.BlockWork(want))
			b, errB := u.Evaluate(hw.BlockWork(blk))
			if errA != nil || errB != nil || !reflect.DeepEqual(a, b) {
				t.Fatalf("%+v design %d: reset unit %+v (%v), new unit %+v (%v)", opt, i, b, errB, a, errA)
			}
			if fresh.Usage() != u.Usage() || !reflect.DeepEqual(fresh.Design(), u.Design()) {
				t.Fatalf("%+v design %d: reset unit differs from a new one", opt, i)
			}
		}
		before := u.Usage()
		if err := u.Reset(Design{}, opt); err == nil {
			t.Fatal("Reset accepted a design without layers")
		}
		if u.Usage() != before {
			t.Fatal("a failed Reset changed the unit")
		}
	}
}

// Bad works are errors of Run, never panics: sizes no graph has, counts
// beyond int64, layers no design has.
func TestBadWork(t *testing.T) {
	good := gcn8(4, bits8)
	for _, opt := range []Options{{}, {Model: FGNASCode}} {
		u, err := New(good, opt)
		if err != nil {
			t.Fatal(err)
		}
		for name, edit := range map[string]func(*workload.Block){
			"negative entries":  func(b *workload.Block) { b.In.NNZ = -1 },
			"too many entries":  func(b *workload.Block) { b.In.NNZ = b.In.Nodes*b.In.Nodes + b.In.Nodes },
			"too many nodes":    func(b *workload.Block) { b.In.Nodes = workload.MaxNodes + 1 },
			"overflowing width": func(b *workload.Block) { b.In.Nodes, b.In.NNZ = workload.MaxNodes, workload.MaxNodes*1000 },
			"bad heads":         func(b *workload.Block) { b.Layers[0].Heads = 100 },
			"bad kind":          func(b *workload.Block) { b.Layers[1].Kind = workload.Conv },
			"bad width":         func(b *workload.Block) { b.Layers[0].F = 0 },
		} {
			b := good.Block(cora, coraFeatures)
			edit(&b)
			if _, err := u.Run(hw.BlockWork(b)); err == nil {
				t.Errorf("%s: %s accepted", opt.Model, name)
			} else if !strings.HasPrefix(err.Error(), "fpga: ") {
				t.Errorf("%s: %s: error %q does not name the model", opt.Model, name, err)
			}
		}
	}
}

func BenchmarkEvaluate(b *testing.B) {
	d := designs()[20]
	w := hw.BlockWork(d.Block(cora, coraFeatures))
	for _, c := range []struct {
		name string
		opt  Options
	}{{"summed", Options{}}, {"pipelined", Options{Pipelined: true}}, {"fgnas-code", Options{Model: FGNASCode}}} {
		b.Run(c.name, func(b *testing.B) {
			u, _ := New(d, c.opt)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := u.Run(w); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("new+run", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			u, _ := New(d, Options{})
			if _, err := u.Run(w); err != nil {
				b.Fatal(err)
			}
		}
	})
	// A search's loop: one unit reset to each design, its work rebuilt.
	b.Run("reset+run", func(b *testing.B) {
		var u Unit
		var blk workload.Block
		b.ReportAllocs()
		for b.Loop() {
			if err := u.Reset(d, Options{}); err != nil {
				b.Fatal(err)
			}
			d.BlockInto(&blk, cora, coraFeatures)
			if _, err := u.Run(hw.BlockWork(blk)); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// With the concrete graph the edge stages split their work by each block's
// adjacency rows (a star puts half its entries in the first block); the
// summed time does not depend on the split and the bounds still hold.
func TestPipelinedWithGraph(t *testing.T) {
	// A star: node 0 linked to every other node, so row 0 holds n-1 entries.
	const n = 2000
	g := &graphs.Graph{Name: "star", RowPtr: make([]int32, n+1)}
	g.Col = make([]int32, 0, 2*(n-1))
	for v := range n {
		if v == 0 {
			for u := 1; u < n; u++ {
				g.Col = append(g.Col, int32(u))
			}
		} else {
			g.Col = append(g.Col, 0)
		}
		g.RowPtr[v+1] = int32(len(g.Col))
	}
	for _, d := range designs()[:12] {
		d.InputNNZ = 0
		u, _ := New(d, Options{Pipelined: true})
		w := hw.GraphWork(g, d.Block(hw.SizeOf(g), 32).Layers...)
		withGraph, err := u.Evaluate(w)
		if err != nil {
			t.Fatal(err)
		}
		w.Graph = nil
		even, err := u.Evaluate(w)
		if err != nil {
			t.Fatal(err)
		}
		if withGraph.SummedCycles != even.SummedCycles {
			t.Errorf("summed time depends on the graph: %d vs %d", withGraph.SummedCycles, even.SummedCycles)
		}
		if withGraph.PipelinedCycles > withGraph.SummedCycles {
			t.Errorf("pipelined %d > summed %d", withGraph.PipelinedCycles, withGraph.SummedCycles)
		}
	}
}

// TestConformanceSAGE runs hw/hwtest's conformance on GraphSAGE designs
// (mean and max, a last layer without activation) in our model.
func TestConformanceSAGE(t *testing.T) {
	for _, aggr := range []workload.Aggregation{workload.AggMean, workload.AggMax} {
		for _, opt := range []Options{{}, {Pipelined: true}} {
			t.Run(fmt.Sprintf("%v_pipelined=%v", aggr, opt.Pipelined), func(t *testing.T) {
				g := Groups{2, 3, 4, 2, 1}
				d := Design{InputNNZ: coraNNZ, Layers: []LayerDesign{
					{Embed: 64, Attn: workload.AttSAGE, Aggr: aggr, Act: workload.ActReLU, T: g, Bits: bits8},
					{Embed: 7, Attn: workload.AttSAGE, Aggr: aggr, Act: workload.ActLinear, T: g, Bits: bits8},
				}}
				u, err := New(d, opt)
				if err != nil {
					t.Fatal(err)
				}
				conform(t, u, d)
			})
		}
	}
}

// TestSaturationIsAnError: a design whose latency does not fit in 64 bits
// is an error, never a clamped latency judged feasible (issue 38 item 6).
func TestSaturationIsAnError(t *testing.T) {
	reddit := workload.Size{Nodes: 232965, NNZ: 114615892}
	for _, tc := range []struct {
		name  string
		embed int
		n     int
		ok    bool
	}{
		{"cora-sized", 8, 2, true},
		{"40 layers of 2^20 on Reddit", 1 << 20, 40, false},
	} {
		var ls []LayerDesign
		for range tc.n {
			ls = append(ls, LayerDesign{Embed: tc.embed, Attn: workload.AttGCN, Aggr: workload.AggAdd, Act: workload.ActReLU, T: Groups{8, 8, 8, 8, 8}, Bits: bits8})
		}
		d := Design{Layers: ls}
		for _, m := range []Model{Gnnsim, FGNASCode} {
			u, err := New(d, Options{Model: m})
			if err != nil {
				t.Fatal(err)
			}
			r, err := u.Evaluate(hw.BlockWork(d.Block(reddit, 602)))
			if tc.ok != (err == nil) || err != nil && !strings.Contains(err.Error(), "64 bits") {
				t.Errorf("%s, %s: latency %d ps, feasible %v, err %v; want ok %v", tc.name, m, r.Cost.TimePS, r.Feasible, err, tc.ok)
			}
		}
	}
}

// TestTinyLatencyBudget: a positive latency bound however small is a bound
// (issue 38 item 8: 1e-12 ms became 0 ps, no limit).
func TestTinyLatencyBudget(t *testing.T) {
	d := designs()[3]
	for _, ms := range []float64{1e-15, 1e-12, 1e-6} {
		u, err := New(d, Options{Budget: Budget{LatencyPS: hw.MSToPS(ms)}})
		if err != nil {
			t.Fatal(err)
		}
		ok, over, err := u.Feasible(hw.BlockWork(d.Block(cora, coraFeatures)))
		if err != nil || ok || over != "latency" {
			t.Errorf("%g ms: feasible %v (%q), %v; want over latency", ms, ok, over, err)
		}
	}
}
