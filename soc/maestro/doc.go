// Package maestro is an analytical cost model of spatial DNN accelerators
// (DSAs) in the manner of MAESTRO (Kwon et al., MICRO 2019;
// maestro-project/maestro, MIT licence): the DSA units of the
// heterogeneous SoC (package soc, MaGNAS) are priced with it.
//
// # What it models
//
// A DSA is an array of PEs with a private L1 each, fed from a shared L2
// over a NoC of a given bandwidth and hop latency (Hardware). A layer
// (Layer: MAESTRO's CONV, DSCONV or GEMM loop nest) is mapped onto it by a
// dataflow written in MAESTRO's directive language (Dataflow, read by
// Parse / ParseFile, or one of the standard MAESTRO dataflows of Builtin):
// SpatialMap and TemporalMap (size, offset) per dimension, and Cluster
// directives that split the PEs into nested cluster levels.
//
// Analyze reproduces MAESTRO's own analysis (HEAD 4eb08d1), quantity by
// quantity:
//
//   - Cluster analysis: each level's directive list is completed as MAESTRO
//     does (output-centric Y'/X' maps made input-centric, maps inherited
//     from the level above, unmapped input dimensions unrolled inside the
//     sub-cluster, strides folded into the Y/X offsets) and sized (the top
//     level sees the layer, a lower level the tile of the level above).
//   - Iteration cases: every map has an Init state, possibly Steady states
//     and a ragged Edge; a case picks one state per map and occurs the
//     product of their counts. Per case: the partial sums of the first
//     sub-cluster (innermost level: the compute delay, divided by the SIMD
//     lanes; outer levels: the runtime of the sub-cluster level analysed
//     recursively on the case's tile), the ingress of each input tensor
//     (0 if stationary, the new elements if shifted, the whole tile if
//     refetched; counted once if multicast, per sub-cluster if spatially
//     mapped) and the egress of the outputs (every case: no temporal reuse
//     of outputs).
//   - Delay: the NoC moves n elements in hops x hop latency + ceil(n/BW) - 1
//     cycles; a case costs max(ingress, compute, egress) (double
//     buffering), the all-Init case compute + ingress; runtime is the sum
//     of case delays times occurrences.
//   - Accesses (Result): L2 reads = ingress, L1 writes of inputs = L2
//     reads, L1 reads = MACs for every tensor, output L1 reads and writes =
//     MACs, L2 writes = the input tensors once plus all egress, the output
//     read once from L2. Energy = MACs + 1.68 L1 + 18.61 L2 accesses, in
//     units of one MAC, times 0.23 pJ (MAESTRO's constants).
//
// Against 6,327 MAESTRO runs on ViG / Pyramid ViG layers over 11
// dataflows and 9 hardware points (../shared/maestro-reference; see Score,
// ReferenceHardware and 'gnnsim soc validate maestro'), Analyze agrees
// exactly with MAESTRO on cycles, MACs and every access count of all 6,084
// runs MAESTRO completed with a correct MAC count, fails where MAESTRO
// fails (depth-wise layers on dataflows that map K inside clusters) and
// reproduces MAESTRO's MAC miscount of yxp_os on strided convolutions.
// Where MAESTRO's choices look accidental (an edge iteration refetching a
// full tile, the output tile of a single edge sub-cluster looked up by its
// input dimension, the enumeration order of cases) they are kept, so the
// numbers agree, and named in comments.
//
// # Deliberate differences
//
//   - Sending nothing over the NoC costs 0 cycles; MAESTRO's formula gives
//     hops x latency - 1 (0 for the reference's one hop of one cycle).
//   - L1 and L2 capacities are checked: when Hardware bounds them, tiles
//     that do not fit double-buffered are an error wrapping ErrCapacity
//     (MAESTRO only prints a warning). The reference runs are unbounded.
//   - Off-chip bandwidth is modelled as MAESTRO does at the top level and
//     is off (unlimited) by default; MAESTRO's default, 70,000 elements per
//     cycle, never binds on these layers.
//   - Bad input is an error, never a crash: dimensions a layer lacks,
//     filter dimensions mapped partially (MAESTRO's parser rule), clusters
//     larger than the PE array, more than four cluster levels.
//
// # What it leaves out
//
// As MAESTRO: no sparsity, no DRAM (all tensors are assumed in L2), no NoC
// contention between tensors, one clock; buffers are double-buffered and
// otherwise unbounded; unmapped dimensions are unrolled inside a PE whatever
// its L1 (dpt keeps all of K in a PE: up to 13,842 words of L1 in the
// reference runs). Strides are exact only for dataflows whose Y and X
// tiles are one filter window (kcp_ws, ykp_os, dpt, ...): MAESTRO takes a
// tile's outputs as input - filter + 1, so yxp_os over-counts strided
// layers (Result.MACs > Layer.MACs), as MAESTRO does. Not MAESTRO's
// grouped convolutions, LSTM, pooling or its area and power model, nor its
// design-space exploration.
//
// # Use
//
// Parse or pick the dataflow once; Analyze does not allocate and takes a
// few microseconds per layer:
//
//	df, _ := maestro.Builtin("kcp_ws")
//	hw := maestro.Hardware{PEs: 256, NoCBW: 64, NoCHops: 1, HopLatency: 1}
//	r, err := maestro.Analyze(maestro.MatMul(196, 192, 768), df, hw)
//	// r.Cycles, r.MACs, r.L2Reads.Total(), r.EnergyPJ, ...
//
// A MaGNAS DSA runs FC layers and 1x1 convolutions over N nodes, and the
// graph aggregation as a dense N x N product, as MatMul (a 1x1 CONV with
// Y = N, X = 1, the "flat" layout of the reference); GEMMLayer gives
// MAESTRO's GEMM layer type for the GEMM dataflows. Cycles are at the DSA's
// own clock; the caller converts them to time.
package maestro
