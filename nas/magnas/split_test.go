package magnas

import (
	"math"
	"slices"
	"testing"

	"gnnsim/workload"
)

// TestSplit: at both granularities the segments' kernels are the model's,
// in order; within a block a segment reads at least what the one before
// wrote (more when it also reads the layer's input: MRConv and SAGE
// combine [x || aggregate]); layer-wise,
// each layer with fused element-wise layers is one segment, and a graph op
// mixing aggregation and combination is one segment per run of either
// (GIN: aggregate | combine; MRConv: gather, max | combine; EdgeConv:
// gather | edge MLP | max; ViG's SAGE: neighbour MLP | max | combine).
func TestSplit(t *testing.T) {
	pyr, err := PyramidModel(Uniform(4, workload.Superblock{Depth: 2, Op: workload.GIN, PreFC: true, FFN: true, FFNHidden: 320}))
	if err != nil {
		t.Fatal(err)
	}
	extra := map[workload.LayerKind]int{workload.GIN: 1, workload.MRConv: 1, workload.EdgeConv: 2, workload.SAGE: 2}
	type model struct {
		m  workload.Model
		op workload.LayerKind
	}
	models := []model{{pyr, workload.GIN}}
	for _, op := range workload.ViGOps() {
		m, err := workload.ViG("s", op)
		if err != nil {
			t.Fatal(err)
		}
		models = append(models, model{m, op})
	}
	for _, tt := range models {
		want, err := tt.m.Kernels()
		if err != nil {
			t.Fatal(err)
		}
		var layers, graphers int
		for _, b := range tt.m.Blocks {
			graphers += btoi(b.Kind == workload.Grapher)
			for i, l := range b.Layers {
				layers += btoi(i == 0 || !l.Kind.Elementwise())
			}
		}
		for _, g := range []Granularity{BlockWise, LayerWise} {
			segs, err := Split(tt.m, g)
			if err != nil {
				t.Fatal(err)
			}
			n := len(tt.m.Blocks)
			if g == LayerWise {
				n = layers + extra[tt.op]*graphers
			}
			if len(segs) != n {
				t.Errorf("%s %s: %d segments, want %d", tt.m.Name, g, len(segs), n)
			}
			var got []workload.Kernel
			for i, sg := range segs {
				got = append(got, sg.Kernels...)
				if sg.Block < 0 || sg.Block >= len(tt.m.Blocks) || (i > 0 && sg.Block < segs[i-1].Block) {
					t.Errorf("%s %s: segment %s in block %d", tt.m.Name, g, sg.Name, sg.Block)
				}
				if i > 0 && sg.Block == segs[i-1].Block && sg.InElems < segs[i-1].OutElems {
					t.Errorf("%s %s: %s reads %d elements, %s wrote %d", tt.m.Name, g, sg.Name, sg.InElems, segs[i-1].Name, segs[i-1].OutElems)
				}
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s %s: segments' kernels differ from the model's (%d vs %d)", tt.m.Name, g, len(got), len(want))
			}
		}
	}
	if _, err := Split(workload.Model{Name: "empty"}, LayerWise); err == nil {
		t.Error("empty model accepted")
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestLayerWiseStandaloneMatchesBlockWise: on the DSAs, whose costs add up
// kernel by kernel, a whole model on one DSA costs the same whether it is
// split into blocks or into layers and kernel groups; so both searches
// share Eq. 13's normalisation.
func TestLayerWiseStandaloneMatchesBlockWise(t *testing.T) {
	c := dsaCosts(t)
	p := c.P
	m, err := PyramidModel(Uniform(4, workload.Superblock{Depth: 4, Op: workload.GIN, PreFC: true, FFN: true, FFNHidden: 320}))
	if err != nil {
		t.Fatal(err)
	}
	bt, err := c.Table(m, BlockWise)
	if err != nil {
		t.Fatal(err)
	}
	lt, err := c.Table(m, LayerWise)
	if err != nil {
		t.Fatal(err)
	}
	for u := range p.Units {
		tb, eb, _ := bt.Eval(bt.Standalone(u), 0)
		tl, el, _ := lt.Eval(lt.Standalone(u), 0)
		if math.Abs(tb-tl) > 1e-9*tb || math.Abs(eb-el) > 1e-9*eb {
			t.Errorf("%s: block-wise %g ps %g pJ, layer-wise %g ps %g pJ", p.Units[u], tb, eb, tl, el)
		}
	}
}
