package fpga

import (
	"strings"
	"testing"

	"gnnsim/workload"
)

func TestParseLayers(t *testing.T) {
	ls, err := ParseLayers("gcn/add/relu/8x1; gat/mean/elu/7x2", "8,8,8,8,8", "2.5,3.4")
	if err != nil {
		t.Fatal(err)
	}
	want := LayerDesign{Embed: 7, Heads: 2, Attn: workload.AttGAT, Aggr: workload.AggMean, Act: workload.ActELU, T: Groups{8, 8, 8, 8, 8}, Bits: Precision{W: Fixed{2, 5}, A: Fixed{3, 4}}}
	if len(ls) != 2 || ls[1] != want {
		t.Fatalf("got %+v", ls)
	}
	for _, bad := range [][3]string{
		{"", "1,1,1,1,1", "1.1,1.1"},
		{"gcn/add/relu", "1,1,1,1,1", "1.1,1.1"},
		{"gcn/add/bogus/8", "1,1,1,1,1", "1.1,1.1"},
		{"gcn/add/relu/8", "1,1,1,1", "1.1,1.1"},
		{"gcn/add/relu/8", "0,1,1,1,1", "1.1,1.1"},
		{"gcn/add/relu/8", "1,1,1,1,1", "1.1"},
		{"gcn/add/relu/8;gcn/add/relu/8", "1,1,1,1,1;1,1,1,1,1;1,1,1,1,1", "1.1,1.1"},
		{"gcn/add/relu/-8", "1,1,1,1,1", "1.1,1.1"},
		{"gat/add/relu/8x0", "1,1,1,1,1", "1.1,1.1"}, // issue 38: 0 heads read as 1
	} {
		if _, err := ParseLayers(bad[0], bad[1], bad[2]); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func FuzzParseLayers(f *testing.F) {
	f.Add("gcn/add/relu/8x1;gat/max/tanh/7x4", "1,2,3,4,5", "1.2,3.4")
	f.Fuzz(func(t *testing.T, arch, tiles, bits string) {
		ls, err := ParseLayers(arch, tiles, bits)
		if err != nil {
			return
		}
		d := Design{Layers: ls}
		if err := d.Validate(); err != nil {
			t.Fatalf("parsed layers do not validate: %v", err)
		}
	})
}

// TestSpecLayers reads GNN stack model files (issue 27's sage3 among
// them) into designs our model prices, and refuses what has no FPGA
// pipeline.
func TestSpecLayers(t *testing.T) {
	sage3 := `name: sage3
layers:
  - {kind: sage, width: 64, aggregation: mean, activation: relu}
  - {kind: sage, width: 64, aggregation: max, activation: relu}
  - {kind: sage, width: 7}
`
	for _, c := range []struct {
		name, yaml string
		want       []LayerDesign // Embed, Heads, Attn, Aggr, Act only
		err        string
	}{
		{"sage3", sage3, []LayerDesign{
			{Embed: 64, Heads: 1, Attn: workload.AttSAGE, Aggr: workload.AggMean, Act: workload.ActReLU},
			{Embed: 64, Heads: 1, Attn: workload.AttSAGE, Aggr: workload.AggMax, Act: workload.ActReLU},
			{Embed: 7, Heads: 1, Attn: workload.AttSAGE, Aggr: workload.AggMean, Act: workload.ActLinear},
		}, ""},
		{"gcn-gat", "name: g\nlayers:\n  - {kind: gcn, width: 16, activation: elu}\n  - {kind: gat, width: 7, heads: 2}\n", []LayerDesign{
			{Embed: 16, Heads: 1, Attn: workload.AttGCN, Aggr: workload.AggAdd, Act: workload.ActELU},
			{Embed: 7, Heads: 2, Attn: workload.AttGAT, Aggr: workload.AggAdd, Act: workload.ActLinear},
		}, ""},
		{"gin", "name: g\nlayers:\n  - {kind: gin, width: 16}\n", nil, "kind gin has no FPGA pipeline"},
		{"gelu", "name: g\nlayers:\n  - {kind: gcn, width: 16, activation: gelu}\n", nil, "activation gelu has no FPGA unit"},
		{"zoo", "name: z\nzoo: vig-s\n", nil, "zoo model"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, err := workload.ParseModelSpec([]byte(c.yaml))
			if err != nil {
				t.Fatal(err)
			}
			ls, err := SpecLayers(s, "8,8,8,8,8", "2.5,2.5")
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want one containing %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for i, l := range ls {
				w := c.want[i]
				w.T, w.Bits = Groups{8, 8, 8, 8, 8}, Precision{W: Fixed{2, 5}, A: Fixed{2, 5}}
				if l != w {
					t.Errorf("layer %d: %+v, want %+v", i, l, w)
				}
			}
			d := Design{Layers: ls, InputNNZ: coraNNZ}
			r := mustEval(t, d, Options{})
			if r.SummedCycles <= 0 || r.PipelinedCycles > r.SummedCycles {
				t.Errorf("summed %d, pipelined %d cycles", r.SummedCycles, r.PipelinedCycles)
			}
			if last := r.Layers[len(ls)-1].Stages[Activate]; ls[len(ls)-1].Heads <= 1 && last.Cycles != 0 {
				t.Errorf("no activation, one head: activation stage %+v", last)
			}
			if _, err := New(d, Options{Model: FGNASCode}); err == nil {
				t.Error("fgnas-code accepted a layer without activation")
			}
		})
	}
}
