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
// the adjacency. A loop that prices one design after another (a search)
// reuses one Unit per goroutine with Unit.Reset and one Block with
// Design.BlockInto: pricing then allocates nothing.
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
//   - activation: t_act units; N ceil(G/t_act) cycles. linear (no
//     activation; model files' "none", our model only) builds nothing.
//
// A GraphSAGE layer (Attn workload.AttSAGE, "sage"; our model only, one head,
// mean or max; Hamilton et al. 2017 with PyG's root weight) is
// h_i' = act(W_self h_i + AGG_{j in N(i)} W_neigh h_j + b), priced as the
// same four stages: the linear stage computes both transforms of every
// node as one product of 2G columns, h_i [W_self | W_neigh] (N ceil(F/t_in)
// ceil(2G/t_out) cycles, or streaming the input's non-zeros); no
// attention; the aggregation walks the entries of A without the
// self-loops, adding (mean: then a divider's reciprocal of the degree and
// a scaling multiply per lane) or comparing, E_A ceil(G/t_aggr) cycles,
// then one pass per node, N ceil(G/t_aggr), adds the self transform (t_aggr
// more adders; the mean's scaling shares the pass). We chose two products
// of the transformed features over one product on the concatenation
// [h_i || AGG h_j] because aggregating the G-wide transforms is cheaper
// than the F-wide inputs whenever G < F (Cora's first layer: 64 or 128
// against 1,433 features a neighbour) and keeps the first layer's sparse
// input stream; for the mean both orders compute the same function. For
// max it is max_j W_neigh h_j, where PyG (and workload.SAGEMax's kernels)
// take W_neigh max_j h_j; package train trains the same form as priced
// here. The fgnas-code model has no SAGE layer and refuses one.
//
// Every stage adds its pipeline depth once. A layer's heads are parallel
// copies of its per-head stages (linear, GAT attention, aggregation,
// activation; each stage's control drives all its copies, and GCN
// coefficients are shared): resources x heads, cycles once, as the FGNAS
// authors build them; the last layer averages its copies' outputs in t_act
// adder trees of heads inputs (a shift for a power of two).
// Options.SerialHeads instead runs the heads one after another on one copy
// (cycles x heads, resources once; the last layer's average folds into its
// accumulators). Operator LUT / FF / DSP costs and latencies come from the
// table in table.go, each
// constant with its source (FGNAS's published magnitudes as recorded in
// MISSION section 12, Xilinx datasheets, or marked as assumed). Multipliers
// up to 10 x 10 bits take ~0.6 wa wb LUTs; FGNAS's whole space (at most
// 1 + 3 + 6 bits) stays below that, so DSPs come from the elu / sigmoid /
// tanh units and the GAT exp only.
//
// # On-chip buffers (BRAM18, per stage; see bufferBRAM)
//
// Linear: the weights of the next output group (F x t_out words per copy)
// double-buffered, so each weight is read once per pass while the current
// group is applied to every node, and a ping-pong pair of input blocks.
// GAT attention: both projections of every node per copy (read at random
// by the edge walk). Aggregation: a ping-pong pair of output blocks per
// copy (neighbours' features come from memory: any node may be one).
// Activation: a ping-pong pair of blocks of the layer's output, between
// the segment and memory. A block is Options.BlockNodes nodes; each buffer
// rounds up to whole 18-Kbit blocks. Buffers depend on the graph (nodes,
// input width), so Unit.Usage prices them for one node and a one-wide
// input and a report's Resources are the work's.
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
// # Two cost models
//
// Options.Model selects the cost model. Gnnsim (the default) is the model
// described above. FGNASCode is the FGNAS authors' own cost model as their
// repository computes it (github.com/qinglu0330/FGNAS, commit 71f64eb,
// fpga/architecture.py, fpga/operator.py, json/fpga/fpga_info.json),
// restated in Go from its formulas (codemodel.go) and its HLS operator
// table (codetable.go). It agrees exactly (cycles, LUT, FF, DSP, per layer,
// and each layer's output format) with every row of
// ../shared/fgnas-reference (package accel/fpgaref;
// gnnsim fpga validate fgnas). Per layer (N nodes, E = PyG's two-way edge
// count, G the layer's width, k_x = ceil(G/t_x)):
//
//   - linear: t_out columns of t_in multipliers and an adder tree (plus an
//     accumulator adder, a truncator and a register when t_in < F; t_in
//     and t_out clamped to the widths); ((c+1) ceil(F/t_in) + 1) k_out
//     cycles, c the column's operator latencies. No node count.
//   - attention: gcn costs nothing; constant is a divider per lane, (c+1)
//     passes of 2E + N steps, c = (div+1) k_attn; gat is two G -> 1 linear
//     units, an adder and a multiplier, two such edge walks.
//   - aggregation: t_aggr lanes of an accumulator (adder, register,
//     truncator), max comparator, or (mean) accumulator and divider; (c+1)
//     (2E + N) (+ div N for mean) steps, then ((steps+1) k_aggr).
//   - activation: t_act units, (((op+1) k_act + 1) k_act + 1) N cycles:
//     quadratic in k_act.
//   - heads: parallel copies, resources x heads, cycles unchanged; a
//     multi-head last layer adds an accumulator and a divider (div x k_act
//     cycles) to average them.
//
// Operators are looked up by bit width: one-index operators (adder, max,
// relu, truncator) by int + frac capped at 9, two-index ones (multiplier
// by [a bits][b bits], divider, elu, sigmoid, tanh by [int][frac]) capped
// at [3][6]; the formats grow through the layer as their model tracks
// them (a MAC adds an integer bit, an accumulator another). Float mode
// (every bit gene 0: Fixed{} for weights and activations) uses index 0,
// the floating-point operators. A fixed-point layer needs at least one
// integer bit in both formats (their multiplier asserts it). Stages and
// layers are summed; there is no memory, BRAM or DRAM traffic.
//
// Feasibility under FGNASCode is their strict test: cycles < limit and
// usage < limit. The FGNAS paper requires every resource under its limit
// (the default); their code's comparison passes when any one of LUT, FF
// and DSP is (Options.AnyResource).
//
// Where the two models differ, and why we keep ours as the default:
//
//   - Linear stage: theirs counts one row of the feature matrix
//     (no node count); ours counts every node (or streams the input's
//     non-zeros), since the hardware computes every node's transform.
//   - Edge walks: theirs walks 2E + N entries per pass (PyG's E already
//     counts both directions, so each undirected edge four times); ours
//     walks the E + N entries of A + I once.
//   - Activation: theirs is quadratic in ceil(G/t_act) (the feature
//     groups counted twice); ours is N ceil(G/t_act), linear.
//   - Attention: theirs prices constant as a divider per lane walking the
//     edges and gcn as free; ours prices constant as free (coefficient 1)
//     and gcn as one multiplier per entry from precomputed degree norms.
//   - Operators: their HLS profile, in which the math cores' FF are a
//     quarter of their LUTs and every accumulator carries a truncator of
//     ~230 LUTs; ours the published magnitudes of MISSION section 12 and
//     structural estimates (FF = LUT for math cores).
//   - Heads: both build parallel copies by default (resources x heads);
//     Options.SerialHeads runs them one after another on one copy in ours.
//   - Memory: theirs has none; ours sizes BRAM buffers per stage.
//   - Timing: theirs sums the stages; ours can also overlap them on node
//     blocks (PipelinedCycles).
//
// Model tests (TestModelProperties, on random 1-3 layer designs): in both
// models a larger group size is never slower and a wider word never
// faster. Theirs breaks two others: a wider word can be cheaper (no
// resource more, one fewer; ~8 % of one-bit widenings: their table is a
// measured HLS profile, not monotone, e.g. the 2 x 1-bit multiplier takes
// 14 LUTs and a DSP, the 2 x 2-bit one 7 LUTs and a DSP), and a larger t_in
// or t_attn can save resources (when it reaches the layer's width their
// linear unit drops its accumulator adder, truncator and register). Their
// quadratic activation keeps monotonicity (t_act's gain is superlinear,
// not negative). Ours clamps every group size to the width it spans
// (lanes past it would idle), so no doubling adds an adder-tree level for
// nothing.
//
// # What is left out
//
// No DRAM bandwidth limit (the ping-pong buffers are assumed to hide the
// transfers; Cost.DRAMBytes counts them), no energy (Cost.EnergyPJ is 0),
// no routing or timing closure (100 MHz is assumed met), no per-row
// padding of the sparse input stream, and only the per-operator resources
// of the table (no HLS sharing or fusion).
package fpga
