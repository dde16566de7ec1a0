package workload

import "testing"

// TestLayerKernelMACs checks each layer kind's MACs against its closed form
// (Layer.Kernels's table) on N = 100 nodes with A = 400 entries.
func TestLayerKernelMACs(t *testing.T) {
	in := Size{Nodes: 100, NNZ: 400}
	const N, A = 100, 400
	for _, tc := range []struct {
		l    Layer
		macs int64
	}{
		{Layer{Kind: GCN, F: 16, G: 8}, (A+N)*16 + N*16*8},
		{Layer{Kind: GIN, F: 16, G: 8}, (A+N)*16 + N*16*8 + N*8*8},
		{Layer{Kind: SAGE, F: 16, G: 8}, A*16 + N*32*8},
		{Layer{Kind: SAGEMax, F: 16, G: 8}, N * 32 * 8},
		{Layer{Kind: GAT, F: 16, G: 8, Heads: 2}, 2 * (N*16*10 + (A + N) + (A+N)*8)},
		{Layer{Kind: EdgeConv, F: 16, G: 8}, A * 32 * 8},
		{Layer{Kind: MRConv, F: 16, G: 8}, N * 32 * 8},
		{Layer{Kind: MRConv, F: 16, G: 8, K: 3, Groups: 4}, N * 32 * 8 / 4},
		{Layer{Kind: FC, F: 16, G: 8}, N * 16 * 8},
		{Layer{Kind: Conv, F: 4, G: 8, Window: 3, Stride: 2}, 25 * 36 * 8},
		{Layer{Kind: BN, F: 16, G: 16}, 0},
		{Layer{Kind: KNN, F: 16, G: 16, K: 5}, N * N * 16},
		{Layer{Kind: KNN, F: 16, G: 16, K: 5, Reduce: 2}, N * 25 * 16},
		{Layer{Kind: Pool, F: 16, G: 16}, 0},
	} {
		ks, err := tc.l.Kernels(in)
		if err != nil {
			t.Errorf("%+v: %v", tc.l, err)
			continue
		}
		if macs, _, _ := Totals(ks); macs != tc.macs {
			t.Errorf("%s %+v: %d MACs, want %d", tc.l.Kind, tc.l, macs, tc.macs)
		}
	}
	// Pooled k-NN candidates: the pooling is an element-wise kernel over
	// the input, producing N/r^2 candidates.
	ks, _ := Layer{Kind: KNN, F: 16, G: 16, K: 5, Reduce: 2}.Kernels(in)
	if len(ks) != 3 || ks[0].Name != "pool-candidates" || ks[0].Ops != N*16 || ks[0].OutElems != 25*16 {
		t.Errorf("pooled k-NN kernels: %+v", ks)
	}
}
