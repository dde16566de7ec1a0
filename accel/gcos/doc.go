// Package gcos models the multi-sub-accelerator GNN accelerator template of
// G-CoS (seed 001, Sec. IV-C, Fig. 3-5, Table I) on a Xilinx VCU128: up to
// five sub-accelerators, each a PE array of DSPs (one 16-bit MAC per cycle)
// with its own feature, index, weight and output buffers, a tiling mode, tile
// sizes and a kernel mode, all drawing on one 460 GB/s HBM. A design
// (Config) is an hw.Unit, hw.Budgeted (4,096 DSPs, 42 MB on chip) and
// hw.Clocked (330 MHz).
//
//	u, _ := gcos.New(gcos.Default())
//	cost, _ := u.Run(hw.GraphWork(cora, workload.Layer{Kind: workload.GCN, F: 1433, G: 16}))
//	ok, _ := hw.Feasible(u)
//
// # Execution
//
// A work's kernels (workload.Layer.Kernels: SpMM aggregations, GEMM
// combinations, GAT attention, max aggregation, element-wise layers) run
// one after another. Each kernel C = A x B (M x K times K x N) is split
// among the sub-accelerators in proportion to their PEs: by output rows
// (Alloc = ByRows; a sparse kernel's cut points follow the measured row
// lengths of the work's graph, so every share holds work in proportion to
// PEs) or by output columns (ByColumns). A share is computed in up to 8
// chunks, double buffered: each chunk's bytes are one request to the HBM, a
// sim.Channel (FIFO bandwidth server, whole 64-byte bursts, a fixed
// latency) shared by all sub-accelerators (requests queue round robin, chunk by chunk, which
// keeps every time a max-plus function of compute and transfer times: more
// bandwidth, or every PE array grown by one factor, never slows a design
// down). The kernel ends when the last share does.
//
// Proportional allocation has one known non-monotonicity: growing one
// sub-accelerator alone moves work to it, and when it is less efficient
// per PE than the others (a lock-step kernel mode on a skewed graph, a
// narrow tile) the design can get slower. On random designs and works a
// single sub-accelerator grown by 16-256 PEs was slower in 17 % of cases
// (worst 1.8x; 8 % with infinite bandwidth). This is the paper's rule
// (work in proportion to PEs), kept as is.
//
// Row lengths: with a graph (hw.Work.Graph) the real ones; a work whose
// Block.In.NNZ is below its graph's entries is neighbour-sampled (G-CoS's
// sampling rate 0.1 / 0.5 / 1) and every row keeps that fraction of its
// entries. Sizes-only work assumes every row has the average length.
//
// # Kernel modes (our reading of Fig. 4)
//
// P PEs, c = min(TileN, N, P) output columns side by side, g = P/c rows (or
// nonzeros) at once; for a sparse A, len(i) is row i's entries.
//
//	mode        parallelism (compute cycles)                        off-chip traffic                        buffer need
//	inner       PE owns C[m][n]; static groups of g rows wait for    per tiling mode (below)                 A, B and C tiles
//	            their longest: ceil(N/c) * sum over groups of max len
//	            (dense: ceil(M/g) ceil(N/c) K)
//	outer       nonzeros of A spread flat over the PEs, partial     A and B once; C spills                  all M x N partial sums
//	            products merged in the output buffer:               (2 * K passes - 1) times unless the     (the largest output buffer)
//	            ceil(N/c) * nnz / g (dense: K x N spatial, spare PEs whole output slice fits
//	            take further rows)
//	row         Gustavson: rows queued to PE groups as they free:   A and C once; unless B fits the weight  one B row per lane
//	            ceil(N/c) * max(nnz / g, longest row)              buffer, one B row gathered per nonzero  (the smallest)
//	                                                                (dense: B once per row tile)
//	column      PE owns a row, output columns one after another:    B and C once; A once per column tile    a B column tile and an
//	            N * sum over groups of P rows of max len            unless A fits its buffers               output column of the slice
//	            (dense: ceil(M/P) K N)
//
// Tiling modes (Fig. 5) set the inner product's loop order: weight reuse
// keeps B tiles and streams A once per column tile (partial sums of the
// slice's rows x TileN must fit the output buffer, else they spill once per
// K tile that holds work); feature reuse keeps A tiles and streams B once
// per row tile (partial sums TileM x N); output reuse keeps C tiles and
// streams both. An operand that fits its buffer is read once; a sparse
// row tile reads at most its entries' rows of B. Buffers are sized by the
// tiles and double buffered: feature 2 TileM TileK words, index
// 2 TileM TileK COO pairs (32-bit), weight 2 TileK TileN, output
// 2 TileM TileN (16-bit words).
//
// Buffer re-purposing keeps a kernel's output on chip for the next kernel
// when it fits in all buffers of all sub-accelerators (it is then neither
// written nor read back); weight-buffer sharing broadcasts a B operand
// every sub-accelerator needs (row allocation) once per pass of the most
// demanding one. Either option needs one tiling and kernel mode for all
// sub-accelerators (seed 001, Sec. IV-C). Neither can add traffic.
//
// # Sparse input features
//
// A work whose first layer has a sparse input (workload.Layer.InputDensity:
// Cora's bag-of-words features are 1.3 % non-zero) brings its product
// X x W as an SpMM kernel of nnz(X) entries (workload combines such a
// layer before aggregating). The template runs it as any sparse product
// (the sub-accelerators' sparse/dense hybrid engines, seed 001, Sec. IV-C):
// MACs are the kernel's nnz(X) x G, compute follows the kernel mode with
// every row of X at the average length (a Size carries no feature rows), X
// crosses the HBM as COO (a 16-bit value and two 32-bit indices per
// non-zero: the paper's index buffer holds "the index for sparse features
// (assuming a COO format)", Sec. IV-C) and W is its B operand. Both
// baselines run the same kernels on this engine, so all three designs see
// the same sparse input: the AWB-GCN-like array (AWB-GCN skips zeros of X
// too) and the HyGCN-like combination engine, where X x W belongs (a
// favour to the baseline: HyGCN's systolic combination engine does not
// skip zeros).
//
// # Baselines on the same engine
//
// HyGCN returns a HyGCN-like design and AWBGCN an AWB-GCN-like one, each
// sized as its own paper (G-CoS compares with their published speed-ups,
// so each runs on its own platform; the 4,096-DSP cap binds G-CoS's
// designs only):
//
//   - HyGCN-like (Scheme Hybrid): a 512-lane SIMD aggregation engine (32
//     cores x 16 lanes) in HyGCN's vertex-disperse mode with its
//     interval-shard partition (Sub.Disperse) and a 4,096-PE systolic
//     combination engine (8 modules of 4 x 128), an aggregation pipelined
//     with the combination after it in row blocks; 1 GHz, 256 GB/s HBM,
//     its ~24 MB of buffers;
//   - AWB-GCN-like: one 4,096-PE array at 330 MHz, column-wise products,
//     rows dealt round robin and rebalanced at run time to the 88.6 % PE
//     utilisation AWB-GCN reports for 4K PEs (or the static mapping's, if
//     better); the D5005's 76.8 GB/s of DDR4.
//
// The constants and their sources are in baseline.go. RoundRobinBalance
// gives a profile's utilisation before rebalancing (AWB-GCN reports 32.5 %
// on average over its data sets).
//
// Row lengths may come from a degree profile instead of a graph
// (hw.Work.Rows: row pointers without column indices, for graphs too large
// to hold, graphs.PowerLawRows).
//
// # What it leaves out
//
// Energy (Cost.EnergyPJ is 0), the baselines' word widths (HyGCN computes
// in 32-bit fixed point; every design here moves 16-bit words, a favour to
// the baseline's traffic), the host CPU, on-chip network contention,
// bank conflicts in merging partial sums, the row-length profile of a
// sparse input (its average is used), sparsity of hidden features (dense),
// and the choice of A(XW) versus (AX)W: the kernels run in the order
// workload defines (aggregation first; combination first for a sparse
// input, or for a narrowing GCN layer that asks for the cheaper order,
// workload.Layer.CheapOrder, which the caller sets for the designs that
// reorder: G-CoS's PyG models and AWB-GCN, not HyGCN).
package gcos
