// Package fpga models FGNAS's FPGA accelerator for GNN inference (seed 004,
// section 3.3 and Figure 2): per GNN layer one segment of four registered
// stages, each scaled by a group size along the feature dimension, with
// ping-pong buffers between the segment and memory, at 100 MHz.
//
//	d := fpga.Design{Layers: []fpga.LayerDesign{...}, InputNNZ: 49216}
//	u, _ := fpga.New(d, fpga.Options{Budget: fpga.Budget{Resources: hw.Resources{LUT: 1e4, FF: 1e4, DSP: 10}, LatencyPS: 8e8}})
//	rep, _ := u.Evaluate(hw.BlockWork(d.Block(workload.Size{Nodes: 2708, NNZ: 10556}, 1433)))
//	fmt.Println(rep.SummedCycles, rep.PipelinedCycles, rep.Resources, rep.Feasible)
//
// A Unit is an hw.Unit, hw.Budgeted and hw.Clocked. Its Design (the
// architecture, group sizes and per-layer fixed-point formats) is its
// configuration; Run prices the workload.Block of the design's layers
// (Design.Block builds it) on a graph size. The first layer's input
// non-zeros are a field of the design (InputNNZ), since a Size knows only
// the adjacency.
//
// # Stages (per layer, per head; N nodes, E = adjacency entries + N)
//
//   - linear: t_in x t_out multipliers, t_out adder trees and accumulators;
//     N ceil(F/t_in) ceil(G/t_out) cycles, or ceil(nnz/t_in) ceil(G/t_out)
//     when the first layer streams its sparse input's non-zeros.
//   - attention: constant (no hardware, no cycles); GCN (one coefficient
//     per entry from precomputed degree norms, shared by the heads: E
//     cycles, one multiplier); GAT (the two projections at t_attn features
//     per cycle, N ceil(G/t_attn), then per entry a sum, LeakyReLU, exp and
//     the softmax normalisation, E cycles).
//   - aggregation: t_aggr lanes of weight-multiply (unless constant) and add
//     or compare; E ceil(G/t_aggr) cycles, mean adds a reciprocal of the
//     degree per node (a divider) and a scaling pass N ceil(G/t_aggr).
//   - activation: t_act units; N ceil(G/t_act) cycles.
//
// Every stage adds its pipeline depth once. Heads run one after another on
// the layer's hardware (cycles scale with heads, resources do not); the
// last layer averages its heads (folded into its accumulators). Operator
// LUT / FF / DSP costs and latencies come from the table in table.go, each
// constant with its source (FGNAS's published magnitudes as recorded in
// MISSION section 12, Xilinx datasheets, or marked as assumed). Multipliers
// up to 10 x 10 bits take ~0.6 wa wb LUTs; FGNAS's whole space (at most
// 1 + 3 + 6 bits) stays below that, so DSPs come from the elu / sigmoid /
// tanh units and the GAT exp only. BRAM holds two blocks of each layer's
// output; weights stream through two t_in x t_out register tiles.
//
// # Two timings
//
// SummedCycles is FGNAS's model: the stages of every layer in turn.
// PipelinedCycles runs the stages as processes on the sim kernel over
// blocks of Options.BlockNodes nodes, overlapping through ping-pong buffers
// (sim.Store) where the data allow: node-local stages stream into each
// other, aggregation (and GAT attention) wait for the whole linear stage
// (see pipeline.go). Options.Pipelined makes Run report the latter. The
// pipelined time lies between the busiest stage and the summed time.
//
// # Differences from the published model
//
// FGNAS's linear stage counts ceil(F/t_in) ceil(G/t_out) cycles per layer,
// without the node count, and reads the dense input. Ours counts every
// node and streams the first layer's non-zeros (Cora: 49,216 of
// 2,708 x 1,433). Options.Published restores the published linear stage for
// comparison. For Cora, a two-layer GCN with hidden width 8, all group
// sizes 8 and 8-bit words, the published timing gives 58,671 cycles
// (0.59 ms; FGNAS reports ~0.64 ms) and ours 67,350 (0.67 ms); both use
// ~10.8k LUTs (FGNAS: ~9k).
//
// # What is left out
//
// No DRAM bandwidth limit (the ping-pong buffers are assumed to hide the
// transfers; Cost.DRAMBytes counts them), no energy (Cost.EnergyPJ is 0),
// no routing or timing closure (100 MHz is assumed met), no per-row
// padding of the sparse input stream, and only the per-operator resources
// of the table (no HLS sharing or fusion).
package fpga
