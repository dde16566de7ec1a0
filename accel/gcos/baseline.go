package gcos

// Default returns a hand-set G-CoS design (not a searched one): five
// sub-accelerators of 816 DSPs (4,080 of the 4,096 allowed), row-wise
// kernels with output reuse, tiles 64 x 256 x 64, rows allocated by their
// measured lengths.
func Default() Config {
	subs := make([]Sub, MaxSubs)
	for i := range subs {
		subs[i] = Sub{PEs: 816, Tiling: OutputReuse, Kernel: RowWise, TileM: 64, TileK: 256, TileN: 64}
	}
	return Config{Name: "gcos-default", Subs: subs, Alloc: ByRows}
}

// HyGCN returns the HyGCN-like baseline (Yan et al., HPCA 2020) on this
// engine, scaled to the 4,096-DSP budget:
//
//   - aggregation engine: 32 SIMD cores of 16 lanes (HyGCN's), 512 PEs; each
//     core takes one vertex of a group of 32 and walks its edges 16 features
//     at a time (inner-product kernel, TileN = 16, static vertex groups: a
//     group waits for its longest row);
//   - combination engine: the remaining 3,584 DSPs as systolic modules of
//     4 x 128 (HyGCN has 8 such modules; 7 fit the budget), output
//     columns 128 wide, weights reused across vertices (weight-reuse
//     tiling, 128-wide tiles);
//   - an aggregation and the combination after it form an inter-engine
//     pipeline in row blocks, the aggregated rows passing on chip; no
//     buffer re-purposing or sharing between layers.
func HyGCN() Config {
	return Config{
		Name:   "hygcn-like",
		Scheme: Hybrid,
		Subs: []Sub{
			{PEs: 512, Tiling: FeatureReuse, Kernel: InnerProduct, TileM: 32, TileK: 256, TileN: 16},
			{PEs: 3584, Tiling: WeightReuse, Kernel: InnerProduct, TileM: 128, TileK: 128, TileN: 128},
		},
	}
}

// AWBGCN returns the AWB-GCN-like baseline (Geng et al., MICRO 2020) on
// this engine: one array of 4,096 PEs computing column-wise products (each
// PE owns rows of A, output columns one after another, A streamed per
// column tile), with runtime workload rebalancing: after auto-tuning the
// rows' work is spread evenly over the PEs (we model the converged,
// perfectly balanced state, which favours the baseline).
func AWBGCN() Config {
	return Config{
		Name:  "awb-gcn-like",
		Alloc: ByRows,
		Subs: []Sub{
			{PEs: 4096, Tiling: WeightReuse, Kernel: ColumnWise, TileM: 256, TileK: 256, TileN: 16, Rebalance: true},
		},
	}
}
