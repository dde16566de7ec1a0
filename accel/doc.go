// Package accel runs GNN layers on a model of an Omega-style spatial
// accelerator (Garg et al., IPDPS 2022, as used by seed 002): a PE array
// fed from a global buffer through a distribution network, results
// collected through a reduction network, and one of the 24 dataflow
// configurations of package dataflow.
//
//	p, _ := accel.Prepare(g, workload.Layer{Kind: workload.GCN, F: 64, G: 16})
//	res, _ := p.Run(cfg, accel.DefaultHW(), accel.Options{Mode: accel.Omega})
//	all, _ := p.RunAll(hw, opts, nil) // the 24 configurations, reusing p
//
// Runs happen on the sim kernel at row-group and tile granularity: one
// event per group of T_Va rows, per combination tile and per pipeline step,
// never per PE or per cycle (a DRAM transfer's timing is computed when it
// is requested). A run costs O(V + V/T_Va + V/T_Vc) after an O(V) Prepare,
// plus the timing of one row per distinct row length and of one
// combination tile, which a small cycle-level model of the output path
// gives (see "Output path"; its cost does not grow with V, and a Prepared
// keeps the results for the next run with the same tiles). Of the graph
// only the row lengths enter (the row pointers; which columns a row holds
// does not change its time), so a graph whose column ids were released
// (graphs.Graph.ReleaseCols, as simulate does above 2^23 entries) runs
// the same.
// Options.Engine = Fast computes the same numbers in closed form when no
// DRAM transfers are modelled (tests check the two agree exactly).
//
// # Modes
//
// Omega mode reproduces STONNE-Omega (stonne-simulator/omega, the
// simulator behind seed 002's labels), quirks included, with no memory
// limits: an unlimited global buffer, no DRAM, networks as wide as the PE
// array and no energy. On the reference set of ../shared/omega-reference
// (1,888 runs) it reproduces every value exactly: the agg, comb, seq, sp and
// pp cycles, every per-row timestamp of timestamps.jsonl, every tile size
// and global-buffer access count (see package omegaref; the one calibrated
// constant, pipeDepth, is chosen on the TU graphs alone and holds on the
// SuiteSparse and synthetic graphs).
//
// Extended mode (the default) adds the effects a designer needs, each one a
// bit of Effect that Options.Disable switches off; with every effect off it
// equals omega mode:
//
//   - FiniteBuffer: the global buffer holds HW.GlobalBufferBytes. Weights
//     stay resident; the inter-phase buffer (seq: the whole V x F
//     intermediate; sp: the T_Vc x G partial-sum tile when T_Fc < F folds
//     the features, nothing otherwise; pp: the ping-pong pair of T_Vp rows)
//     takes what it needs next, and what does not fit is written to DRAM
//     and read back; H gets the rest, and the share of H that does not fit
//     is fetched again for every neighbour that needs it. The graph (CSR)
//     and H are loaded, and the output stored, once. Transfers go through
//     one DRAM channel (see "DRAM streaming" below).
//   - NoCLimits: the distribution network injects HW.DistributionBW words
//     per cycle and the reduction network collects HW.ReductionBW results
//     per cycle (each phase's share in proportion to its PEs in pp). The
//     networks are pipelined, so traffic flows at their rate across steps
//     rather than each step rounding up to whole cycles: a group of
//     aggregation rows cannot finish its multicast phase before its rows'
//     A values have passed, nor a pass before their H values have passed
//     and its rows*T_Fa results have been collected (rows whose neighbours
//     are exhausted take no more words); a combination step needing more
//     than the bandwidth (stationary loads, weight streaming, per-column
//     outputs) takes proportionally longer.
//   - SharedPorts: in pp both phases draw on the global buffer's
//     HW.GlobalBufferBW words per cycle; a step cannot end before its
//     combined traffic has passed (Stalls.Ports).
//   - Energy: per-access energies of HW.Energy (pJ per word): MACs, three
//     register-file accesses per MAC, NoC words, global-buffer and DRAM
//     accesses.
//   - FixLastGroup, FixRowTimes, FixPPTiles, FixPPStamps correct omega's
//     bookkeeping quirks (below).
//
// # DRAM streaming
//
// With FiniteBuffer, a DMA engine moves every transfer as a stream of
// HW.DRAMBurstBytes bursts through one DRAM channel (a sim.Channel) of
// HW.DRAMBytesPerCycle; a burst's data lands HW.DRAMLatency cycles after it
// leaves the channel. The channel serves one stream at a time in request
// order (pp's two stores of a step in whichever order finishes both
// first). Each unit of work (a row group, a combination tile, a pp tile)
// is double-buffered: its successor's load is requested when the unit may
// start, the buffer half its predecessor used being free by then.
//
// Compute consumes a load as it arrives: a unit starts on its load's first
// burst and, consuming its data evenly, ends no earlier than its last
// burst's arrival plus the compute that burst feeds. A unit's store leaves
// as compute produces it: its stream starts once the first burst is
// produced and ends no earlier than one burst after compute ends; compute
// never waits for a store (the write side of the buffer drains behind it),
// and the run ends when the last burst is in DRAM. So what DRAM exposes at
// the start and end of a run is one burst plus the latency, not a whole
// unit: a bigger tile no longer means a longer prologue or epilogue. (An
// earlier model moved each unit's transfer whole before or after its
// compute; with tiling a, whose tiles grow with the PEs, more PEs then made
// DRAM-bound runs slower.)
//
// # More PEs
//
// Under tiling a, more PEs make bigger tiles. seq and sp are never slower
// for it, in either mode and with every effect on (a property test doubles
// the PEs from 64 to 1024 on random graphs, with networks that grow with
// the array or stay fixed, buffers that hold the working set or spill, and
// DRAM latencies of 0 to 400 cycles). pp is never slower in omega mode or
// without FiniteBuffer; with it, two physical effects of its tile-sized
// hand-off remain:
//
//   - Pipeline fill. Combination starts only when the first tile is
//     aggregated, and that needs all of the tile's data from DRAM; while
//     it waits, the channel can only prefetch the second tile. With fewer,
//     bigger tiles, less traffic overlaps the fill and, in a DRAM-bound
//     run, the output stream starts later. At the extreme of one tile, pp
//     is seq. Measured: at most 3.9 % slower per doubling (1.0 % with a
//     400-cycle latency); the test allows 5 %.
//   - Buffer overflow. The ping-pong pair of T_Vp rows grows with the
//     tiles; once it and H outgrow the buffer, more of the intermediate
//     spills and more of H is fetched again. More PEs then move more DRAM
//     bytes, which a designer should see: measured up to 46 % slower (4 KiB
//     buffer), at most 6.7 % beyond the added bytes' channel time; the test
//     allows 10 % beyond it.
//
// # Timing model (both modes)
//
// The model follows STONNE, the cycle-level simulator STONNE-Omega runs
// each phase on, at the level of its controllers' sends and its output
// path; the rules were read from its source and checked against every
// timestamp of the reference set.
//
// Aggregation runs row by row, as STONNE's sparse-dense controller does. A
// row with d nonzeros takes iK = ceil(d/T_N) neighbour steps: the
// controller configures for a cycle, multicasts the A values for iK
// cycles, then streams H for iN = ceil(F/T_Fa) passes of iK cycles. Each
// pass ends with T_Fa sums (virtual neurons, VNs, of T_N multipliers; with
// T_N = 1 an accumulator per PE sums over the steps). The next row
// configures the cycle after the row's last result is written, so a row's
// time is its sends plus the output path's drain. What STONNE-Omega
// records, and groups T_Va rows at a time in lock step (a group costs its
// slowest row), is the write cycle of the row's last feature column.
//
// Combination runs tile by tile (T_Vc rows), as STONNE's dense controller
// does with the intermediate stationary: a tile loads S = ceil(F/T_Fc)
// stationary folds, a cycle each, then streams the ceil(G/T_Gc) weight
// column groups, S cycles each, each ending with T_Vc*T_Gc sums (VNs of
// T_Fc multipliers). The next tile starts the cycle after the tile's last
// result is written.
//
// # Output path
//
// A result reaches its collection-bus line pipeDepth (2) cycles after the
// controller's last send for it, plus its latency in the reduction network;
// the bus lines deliver it to the global buffer, which writes it. Three
// mechanisms decide when each result is written (rnet.go):
//
//   - Reduction latency. With T_N (aggregation) or T_Fc (combination) above
//     1 the VNs are summed by an augmented reduction tree (MAERI's ART),
//     one cycle per level; a VN of 2^k aligned multipliers takes k cycles.
//     Other sizes use the forwarding links between neighbouring subtrees,
//     each costing one more cycle (see quirk 6).
//   - Bus lines. The two switches of a forwarding-link pair share a bus
//     line that delivers one result per cycle, alternating between them;
//     a level's first and last switch, and a temporal reduction's
//     accumulators, have lines of their own. The buffer takes the results
//     in line order: pairs level by level from the root, then the unpaired
//     switches.
//   - Write queue. The buffer writes the first ceil(n/2) of the n results
//     queued each cycle (quirk 5).
//
// The model simulates this path cycle by cycle for one row of each row
// length and one tile (results only shift with the start cycle), skipping
// idle cycles and, once a wave of results repeats the previous one, the
// rest; a test checks that against a plain simulation.
//
// Inter-phase (STONNE-Omega's analytical step, omega.cpp):
//
//	seq = agg + comb
//	sp  = seq - l + p, l = ceil(V/T_Vc)*S (stationary loads saved),
//	      p = ceil(G*T_Vc*S/P)*ceil(V/T_Vc) partial-sum overhead (0 if T_Fc = F)
//	pp  = a_1 + sum_{k=2..T} max(a_k, c_{k-1}) + c_T over T = ceil(V/T_Vp)
//	      tiles of T_Vp = max(T_Va, T_Vc) rows, each phase on its own share
//	      of the PEs, in lock step (both phases start each step together)
//
// Loop orders other than VFN (aggregation) and VGF (combination) are
// rejected: STONNE-Omega models no others.
//
// With NoC limits (extended mode) a group of rows lasts at least as long
// as the networks take to move its words (aggregation), and a tile's loads,
// weight streaming and result collection stretch where they need more
// than the bandwidth (combination); the output path itself is modelled
// with one bus line per switch pair whatever the reduction bandwidth.
//
// # Quirks
//
// Omega mode reproduces four pieces of STONNE-Omega's bookkeeping; extended
// mode corrects each unless its Fix effect is disabled:
//
//  1. Last partial group (FixLastGroup): when T_Va does not divide V, the
//     last group of rows counts only its final row, not its slowest.
//  2. Row times (FixRowTimes): a row's time is the difference between its
//     output timestamp and the previous row's, and row 0's time is its
//     absolute finish time; the fix uses each row's start-to-start time.
//  3. pp tiles (FixPPTiles): the aggregation part of pp tile k ends after
//     floor(k*T_Vp/T_Va) groups, and when T_Vp divides V the rows after the
//     last whole group are never counted; the fix cuts both phases at whole
//     tiles of T_Vp rows.
//  4. pp timestamps (FixPPStamps): the combination part of pp tile k is the
//     difference of the write cycles of the tile ends' last rows, which the
//     bus lines and the write queue order differently from the rows (a
//     row on an unpaired line can be written long before its tile ends:
//     row 0 of an 11-row tile of tiling a at cycle 42 of 76; the last
//     row's may be written before an earlier row's); the fix uses the
//     tiles' finish times.
//
// Both modes model three mechanisms of STONNE's output path (above) that a
// hardware design would not share; they are what makes a drain differ
// from a fixed latency:
//
//  5. Write queue. STONNE's buffer writes while its loop index is below the
//     queue's length, which shrinks as it writes: each cycle only the first
//     ceil(n/2) of n queued results. A burst of n results takes floor(log2
//     n) + 1 cycles. So a one-tile combination with a temporal reduction
//     (tilings d and f) drains in 3 + floor(log2 T_Vc) cycles, one less
//     than ceil would give whenever T_Vc is not a power of two; and with
//     the bus lines' two waves (6 then 5 results for 11 VNs of tiling b)
//     a drain grows by a cycle at about 2/3 of each power of two of VNs
//     (at 6, 11, 22, 43, 86, 171 and 342 VNs), not at the power itself.
//  6. Forwarding links. A switch receiving over its forwarding link runs
//     before its partner sends in the same cycle, so an operand that
//     joins a VN over the link arrives a cycle later. VNs that are not
//     aligned powers of two pay this once per link on their path: 13 or
//     14 multipliers (tilings f and h on 13- and 14-node graphs, or tiling
//     e when T_N is reduced to 14 on 256 PEs) take 5 cycles, not 4; 28
//     multipliers take 6; the 18-wide VNs of tiling e take 4 or 5
//     depending on their offset.
//  7. Bus-line pairs. The two switches of a link pair share a bus line, so
//     of two results ready together one waits a cycle; with one fold per
//     column (S = 1: tilings a, g, h) a pair's line carries two results
//     per column and sets the pace at 2 cycles per column.
//
// Beyond those, STONNE-Omega's pp formula reads past the end of its arrays
// when V < 2*T_Vp; gnnsim evaluates the same formula within bounds (one
// tile: a_1 + c_1; two tiles: a_1 + max(a_2, c_1) + c_2), which is the
// reference set's pp_cycles_safe.
//
// # Layer kinds
//
// GCN aggregates over A+I and combines F x G. GIN aggregates over A+I and
// runs a two-layer MLP (F x G, then G x G) in the combination phase. SAGE
// aggregates over A (mean) and combines the concatenation [h_v || mean] of
// width 2F. GAT combines F x (G+2) (W and the two attention projections),
// aggregates the G transformed features over A+I and spends one more step
// per neighbour step on the attention weights; its phase order (combination
// first) is not modelled: the phases are costed in Omega's order. Only GCN
// is validated against STONNE-Omega. Layers are workload.Layer values; their
// MACs equal those of workload's kernels (a test checks it). Other kinds,
// GAT with more than one head, aggregation over a k-NN graph (Layer.K) and
// grouped products are errors.
//
// A model's element-wise activations (workload.Act layers, a model file's
// activation: keys) are fused into the combination phase's output write
// and skipped by ModelLayers: they add no traffic, their cycles hide
// behind the write, and their energy is not modelled.
//
// Left out: loop orders other than the defaults, DRAM refresh and bank
// conflicts, more than one DRAM channel, interleaving DMA streams (one
// stream holds the channel until it is sent), back-pressure from stores
// (the write queue is unbounded), partial reconfiguration costs
// between tiles, activation functions and normalisation, and the energy of
// control logic and of leakage.
package accel
