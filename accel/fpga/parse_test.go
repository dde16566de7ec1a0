package fpga

import "testing"

func TestParseLayers(t *testing.T) {
	ls, err := ParseLayers("gcn/add/relu/8x1; gat/mean/elu/7x2", "8,8,8,8,8", "2.5,3.4")
	if err != nil {
		t.Fatal(err)
	}
	want := LayerDesign{Embed: 7, Heads: 2, Attn: GATAttn, Aggr: AggMean, Act: ELU, T: Groups{8, 8, 8, 8, 8}, Bits: Precision{W: Fixed{2, 5}, A: Fixed{3, 4}}}
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
