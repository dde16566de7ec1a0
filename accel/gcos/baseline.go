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

// The baselines as their own papers size them. G-CoS (seed 001, Sec. V-B)
// compares against the speed-ups HyGCN and AWB-GCN publish over PyG-CPU,
// i.e. against each accelerator on its own platform; the 4,096-DSP cap of
// Sec. V-A binds G-CoS's designs only. So each baseline keeps its own PE
// split, clock and memory.
const (
	// HyGCN (Yan et al., HPCA 2020; arXiv 2001.02514 v1, re-read for
	// issue 26), Table 6 "System configurations":
	// "1 GHz @ 32 SIMD16 cores and 8 systolic modules (each with 4x128
	// arrays)", i.e. an aggregation engine of 512 lanes and a combination
	// engine of 4,096 MACs (aggregation has 512 / 4,608 = 11 % of the
	// ALUs); off-chip "256GB/s HBM1.0"; TSMC 12 nm, a 0.9 ns critical
	// path, "comfortably at 1 GHz" (Sec. 5.1). Its GNNs (Table 5: GCN,
	// GraphSage with 25 sampled neighbours, GINConv, every layer combining
	// to 128 wide) are repro/seed001's HyGCNModels.
	HyGCNSIMDCores    = 32
	HyGCNSIMDLanes    = 16
	HyGCNModules      = 8
	HyGCNModuleRows   = 4
	HyGCNModuleCols   = 128
	HyGCNClockHz      = 1e9
	HyGCNHBMBytesPerS = 256e9
	// HyGCN's on-chip memory (Table 6): "128 KB (Input), 2 MB (Edge), 2 MB
	// (Weight), 4 MB (Output) and 16 MB (Aggregation)". Only its budget
	// uses it: the tiles below need far less.
	HyGCNOnChipBytes = (16+4+2+2)<<20 + 128<<10

	// AWB-GCN (Geng et al., MICRO 2020; arXiv 1908.10834): "up to 4K
	// PEs", "Evaluation is performed using an Intel D5005 FPGA with five
	// commonly-used datasets" (MICRO abstract). Its own evaluation section
	// was not in reach; GCoD (You, Geng et al., HPCA 2022, arXiv
	// 2112.11594), Table V "System configurations of the baselines and
	// GCoD", gives AWB-GCN's row: "330MHz@Intel D5005 FPGA", "4096 PEs",
	// "244 Mb Scratchpad", "76.8 GB/s DDR4" (and 215 W); its Sec. VI-A:
	// "For a fair comparison with AWB-GCN [13], GCoD accelerator is clocked
	// at 330MHz and adopts 4096 PEs with a 32-bit fixed point precision".
	// (AWB-GCN computes in 32 bits: GCNAX, Li et al., HPCA 2021, Sec. VI:
	// "HyGCN and AWB-GCN use single-precision floating point numbers
	// (32-bit)"; every design here moves 16-bit words, WordBytes.)
	AWBGCNPEs     = 4096
	AWBGCNClockHz = 330e6
	// The D5005's off-chip memory: four DDR4-2400 banks of 64 data bits
	// (Intel FPGA PAC D5005 data sheet), 4 x 19.2 GB/s, the "76.8 GB/s
	// DDR4" of GCoD's Table V.
	AWBGCNDDRBytesPerS = 4 * 2400e6 * 8
	// AWBGCNUtilization is the average PE utilisation AWB-GCN reports for
	// its 4K-PE design after runtime rebalancing (arXiv 1908.10834
	// abstract: "from 32.5 % to 88.6 %"; the version G-CoS cites for
	// "7.4x over HyGCN"). Its SpMM runs at this fraction of perfect
	// balance, or at the static mapping's if that is better.
	AWBGCNUtilization = 0.886
	// The Stratix 10 SX 2800 of the D5005 has 5,760 DSP blocks (Intel
	// Stratix 10 device overview); AWB-GCN's scratchpad is "244 Mb" (GCoD,
	// Table V), 30.5 MiB. Only its budget uses it.
	awbDSPBlocks   = 5760
	awbOnChipBytes = 244 << 20 / 8
)

// HyGCN returns the HyGCN-like baseline (Yan et al., HPCA 2020) on this
// engine, sized as its paper:
//
//   - aggregation engine: 32 SIMD cores of 16 lanes, 512 PEs, in HyGCN's
//     vertex-disperse mode (Sec. 4.3.1: a vertex's feature elements over
//     all cores, free cores take other vertices, "all cores are always
//     busy without workload imbalance") with its interval-shard partition
//     (Sec. 4.3.2: destination intervals as large as the 16 MB ping-pong
//     Aggregation Buffer's half, source features read once per interval);
//     Sub.Disperse;
//   - combination engine: 8 systolic modules of 4 x 128, 4,096 PEs, output
//     columns 128 wide, weights reused across vertices (weight-reuse
//     tiling), output tiles of 4,096 rows that keep a layer's partial sums
//     on chip;
//   - an aggregation and the combination after it form an inter-engine
//     pipeline in row blocks, the aggregated rows passing on chip, the
//     aggregation engine's loads queued ahead of the combination's (its
//     priority-based memory coordination) and streamed shard by shard; no
//     buffer re-purposing or sharing between layers;
//   - 1 GHz, 256 GB/s of HBM, its own budget (4,608 ALUs, ~24 MB).
//
// HyGCN aggregates before it combines (GCN: "Add & |a|-128", Table 5)
// and does not skip zero input features (its sparsity elimination works on
// the adjacency; Table 4 stores Cora's features dense, 15 MB): a caller
// that prices its work should give it dense input features and leave
// workload.Layer.CheapOrder off (repro/seed001 does). It computes in 32-bit fixed point (Sec. 5.2.1); every design here
// moves 16-bit words.
func HyGCN() Config {
	agg := HyGCNSIMDCores * HyGCNSIMDLanes
	comb := HyGCNModules * HyGCNModuleRows * HyGCNModuleCols
	return Config{
		Name:   "hygcn-like",
		Scheme: Hybrid,
		Subs: []Sub{
			// Output tiles of 4,096 x 1,024 words: a 16 MB double buffer,
			// HyGCN's ping-pong Aggregation Buffer; 4,096 x 32 COO pairs of
			// index buffer, its 2 MB Edge Buffer.
			{PEs: agg, Tiling: FeatureReuse, Kernel: InnerProduct, TileM: 4096, TileK: 32, TileN: 1024, Disperse: true},
			// Output tiles of 4,096 x 128 words (the largest tile): a 2 MB
			// double buffer, as near Table 6's 4 MB Output Buffer as tiles
			// go, so a layer's partial sums stay on chip; K tiles of 32 keep
			// both engines within Table 6's ~24 MB in all.
			{PEs: comb, Tiling: WeightReuse, Kernel: InnerProduct, TileM: 4096, TileK: 32, TileN: HyGCNModuleCols},
		},
		ClockHz:        HyGCNClockHz,
		HBMBytesPerSec: HyGCNHBMBytesPerS,
		Budget:         budget(int64(agg+comb), HyGCNOnChipBytes),
	}
}

// AWBGCN returns the AWB-GCN-like baseline (Geng et al., MICRO 2020) on
// this engine, sized as its paper (as GCoD's Table V re-states it): one
// array of 4,096 PEs at 330 MHz computing column-wise products (each PE owns rows of A, dealt round
// robin; output columns one after another, A streamed per column tile),
// with runtime workload rebalancing at the utilisation AWB-GCN reports
// (AWBGCNUtilization), on the D5005's DDR4. Its combination and
// aggregation are pipelined at column granularity (Geng et al., MICRO
// 2020: a column of XW goes straight into A x (XW) on chip), so a kernel's
// output that fits in its buffers never goes off chip: Repurpose. It
// computes A x (XW) on dense features too: a caller that prices its work
// should set workload.Layer.CheapOrder (repro/seed001 does).
//
// A column tile is 64 wide, the widest layer AWB-GCN runs (its Reddit and
// Nell GCNs are 64 hidden: GCNAX Table II, GCoD Sec. VI-A), so A streams
// once per layer. AWB-GCN's own Reddit figures rule out more: its PyG-CPU
// latency, 2.94e5 ms (seed 001, Sec. I, citing AWB-GCN), over its 9242x
// on Reddit (GCoD, Table VI) is 31.8 ms, and one pass over Reddit's 115 M
// entries of A+I at 6 bytes or more each (a 16-bit value, a 32-bit index)
// takes 9 ms or more at 76.8 GB/s: two layers leave room for about 3.5
// passes in all, where 16-wide tiles would make 7 (4 + 3). Its sparse
// operands (A, and X in the first layer) are stored CSC (Sub.CSC).
func AWBGCN() Config {
	return Config{
		Name:      "awb-gcn-like",
		Alloc:     ByRows,
		Repurpose: true,
		Subs: []Sub{
			{PEs: AWBGCNPEs, Tiling: WeightReuse, Kernel: ColumnWise, TileM: 256, TileK: 256, TileN: 64,
				Rebalance: true, Utilization: AWBGCNUtilization, CSC: true},
		},
		ClockHz:        AWBGCNClockHz,
		HBMBytesPerSec: AWBGCNDDRBytesPerS,
		Budget:         budget(awbDSPBlocks, awbOnChipBytes),
	}
}
