package workload

import (
	"math"
	"testing"
)

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

// TestSparseInputKernels checks the sparse-input products against their
// closed forms (nnz(X) = round(d N F) non-zeros, each multiplying a row of
// W) and that an unset or full density is exactly the dense count.
func TestSparseInputKernels(t *testing.T) {
	in := Size{Nodes: 100, NNZ: 400}
	const N, A = 100, 400
	const d = 0.05 // nnz(X) = 0.05 x 100 x 16 = 80
	const nnz = 80
	for _, tc := range []struct {
		l     Layer
		macs  int64
		first string // the kernel that reads X
	}{
		{Layer{Kind: GCN, F: 16, G: 8, InputDensity: d}, nnz*8 + (A+N)*8, "combine"},
		{Layer{Kind: GIN, F: 16, G: 8, InputDensity: d}, nnz*8 + (A+N)*8 + N*8*8, "combine"},
		{Layer{Kind: GAT, F: 16, G: 8, Heads: 2, InputDensity: d}, 2 * (nnz*10 + (A + N) + (A+N)*8), "combine"},
		{Layer{Kind: FC, F: 16, G: 8, InputDensity: d}, nnz * 8, "fc"},
		{Layer{Kind: FC, F: 16, G: 8, Groups: 4, InputDensity: d}, nnz * 8 / 4, "fc"},
		// Kinds whose first step on X is not X x W count dense work.
		{Layer{Kind: SAGE, F: 16, G: 8, InputDensity: d}, A*16 + N*32*8, "aggregate"},
		{Layer{Kind: SAGEMax, F: 16, G: 8, InputDensity: d}, N * 32 * 8, "aggregate"},
		{Layer{Kind: GIN, F: 16, G: 8, K: 3, InputDensity: d}, (N*3+N)*16 + N*16*8, "aggregate"},
		{Layer{Kind: BN, F: 16, G: 16, InputDensity: d}, 0, "bn"},
	} {
		ks, err := tc.l.Kernels(in)
		if err != nil {
			t.Errorf("%+v: %v", tc.l, err)
			continue
		}
		if macs, _, _ := Totals(ks); macs != tc.macs {
			t.Errorf("%s %+v: %d MACs, want %d", tc.l.Kind, tc.l, macs, tc.macs)
		}
		if ks[0].Name != tc.first {
			t.Errorf("%s %+v: first kernel %q, want %q", tc.l.Kind, tc.l, ks[0].Name, tc.first)
		}
		if k := ks[0]; tc.l.sparseInput() && (k.Class != SpMM || k.NNZ != nnz || k.M != N || k.K != int64(tc.l.F) || k.InElems != nnz ||
			k.WeightElems != int64(tc.l.F)*k.N/or1(tc.l.Groups)) {
			t.Errorf("%s: sparse product %+v, want an SpMM of %d non-zeros reading them and W", tc.l.Kind, k, nnz)
		}
	}
	// Unset and full density are the dense count, kernel for kernel.
	for _, l := range []Layer{{Kind: GCN, F: 16, G: 8}, {Kind: GIN, F: 16, G: 8}, {Kind: GAT, F: 16, G: 8, Heads: 2}, {Kind: FC, F: 16, G: 8}} {
		dense, err := l.Kernels(in)
		if err != nil {
			t.Fatal(err)
		}
		full := l
		full.InputDensity = 1
		ks, err := full.Kernels(in)
		if err != nil {
			t.Fatal(err)
		}
		if len(ks) != len(dense) {
			t.Fatalf("%s: density 1 gives %d kernels, unset %d", l.Kind, len(ks), len(dense))
		}
		for i := range ks {
			if ks[i] != dense[i] {
				t.Errorf("%s kernel %d: density 1 %+v, unset %+v", l.Kind, i, ks[i], dense[i])
			}
		}
		// Any density below 1 does less work on a graph layer whose input
		// is wider than its output.
		sparse := l
		sparse.InputDensity = 0.5
		ks, err = sparse.Kernels(in)
		if err != nil {
			t.Fatal(err)
		}
		dm, _, _ := Totals(dense)
		if sm, _, _ := Totals(ks); sm >= dm {
			t.Errorf("%s: density 0.5 costs %d MACs, dense %d", l.Kind, sm, dm)
		}
	}
}

func TestInputDensityValidate(t *testing.T) {
	for _, tc := range []struct {
		d  float64
		ok bool
	}{
		{0, true}, {1e-6, true}, {0.0127, true}, {1, true},
		{-0.1, false}, {1.0001, false}, {math.NaN(), false}, {math.Inf(1), false}, {math.Inf(-1), false},
	} {
		l := Layer{Kind: GCN, F: 16, G: 8, InputDensity: tc.d}
		err := l.Validate()
		if (err == nil) != tc.ok {
			t.Errorf("density %v: error %v, want ok = %v", tc.d, err, tc.ok)
		}
		if _, kerr := l.Kernels(Size{Nodes: 10, NNZ: 20}); (kerr == nil) != tc.ok {
			t.Errorf("density %v: Kernels error %v, want ok = %v", tc.d, kerr, tc.ok)
		}
	}
}

// TestCheapOrder: a narrowing GCN layer asked for the cheaper order
// combines first (A(XW)), with the same combination and the aggregation at
// the output width; a widening one, another kind, or the option unset keep
// the aggregation first. Params do not depend on the order.
func TestCheapOrder(t *testing.T) {
	in := Size{Nodes: 100, NNZ: 400}
	const N, A = 100, 400
	for _, tc := range []struct {
		l     Layer
		macs  int64
		first string
	}{
		{Layer{Kind: GCN, F: 64, G: 8, CheapOrder: true}, N*64*8 + (A+N)*8, "combine"},
		{Layer{Kind: GCN, F: 64, G: 8}, (A+N)*64 + N*64*8, "aggregate"},
		{Layer{Kind: GCN, F: 8, G: 64, CheapOrder: true}, (A+N)*8 + N*8*64, "aggregate"},
		{Layer{Kind: GCN, F: 16, G: 16, CheapOrder: true}, (A+N)*16 + N*16*16, "aggregate"},
		{Layer{Kind: GIN, F: 64, G: 8, CheapOrder: true}, (A+N)*64 + N*64*8 + N*8*8, "aggregate"},
		{Layer{Kind: SAGE, F: 64, G: 8, CheapOrder: true}, A*64 + N*128*8, "aggregate"},
		// A sparse input already combines first; the option changes nothing.
		{Layer{Kind: GCN, F: 64, G: 8, InputDensity: 0.05, CheapOrder: true}, 320*8 + (A+N)*8, "combine"},
	} {
		ks, err := tc.l.Kernels(in)
		if err != nil {
			t.Fatalf("%+v: %v", tc.l, err)
		}
		if macs, _, _ := Totals(ks); macs != tc.macs {
			t.Errorf("%+v: %d MACs, want %d", tc.l, macs, tc.macs)
		}
		if ks[0].Name != tc.first {
			t.Errorf("%+v: first kernel %q, want %q", tc.l, ks[0].Name, tc.first)
		}
		plain := tc.l
		plain.CheapOrder = false
		if tc.l.Params() != plain.Params() {
			t.Errorf("%+v: %d params, %d without the option", tc.l, tc.l.Params(), plain.Params())
		}
		// Never more work than the default order.
		pk, err := plain.Kernels(in)
		if err != nil {
			t.Fatal(err)
		}
		if pm, _, _ := Totals(pk); pm < tc.macs {
			t.Errorf("%+v: cheap order does %d MACs, the default %d", tc.l, tc.macs, pm)
		}
	}
}
