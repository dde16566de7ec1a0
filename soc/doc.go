// Package soc models a heterogeneous SoC: compute units sharing one memory
// (MaGNAS, seed 000: a Jetson AGX Xavier's GPU and DLA), the mapping of a
// model's blocks, layers or kernel groups onto them, DVFS and power modes,
// and the cost of a mapping by MaGNAS Eq. 6-7 or by streaming frames
// through it on the sim kernel.
//
//	s := soc.Default()                              // Jetson AGX Xavier
//	m, _ := workload.ViG("s", workload.GIN)
//	e, _ := soc.NewEvaluator(s, m, soc.Blocks)     // Stem, 16 x (Grapher, FFN), Cls
//	mp, _ := s.ParseMapping("gpu", soc.Blocks, len(e.Segments()))
//	r, _ := e.Evaluate(mp, soc.DVFS{"gpu": 1377, "emc": 2133})
//	fmt.Println(r.LatencyMS(), r.EnergyMJ(), r.PowerW(), r.Transitions)
//
// # Units
//
// A unit is any hw.Scalable. Units may also implement Binder (bound to
// the memory's clock and to the units they need, as a DLA's fallback GPU),
// KernelCoster (priced kernel by kernel), Phaser, DAGPlanner (kernels
// planned with their data flow) and Transferer (their side of a
// hand-off). Roofline units (a Spec's units:) price a kernel as the
// slowest of its compute time (tile and wave quantisation for dense
// products), its DRAM bytes at the unit's share of the memory bandwidth
// and its traffic through the GPU's L2, plus the launch or CPU enqueue;
// energy is voltage-scaled leakage, activity-scaled C V^2 f and the DRAM
// bytes. Their plans (Roofline.PlanDAG) run a segment's kernels as
// TensorRT does: epilogue fusion, the DLA's convolution buffer, GPU
// fallback for what the DLA cannot run, glue kernels of the graph ops,
// one DLA loadable per contiguous run. MAESTRO-like DSAs (a Spec's dsas:,
// package soc/maestro) and boards' Measured tables (ReadTable,
// SoC.UseTable) plug in beside them.
//
// # Mappings, DVFS and power
//
// A Mapping assigns each Segment to a unit; an Evaluator tabulates every
// segment on every unit once per DVFS setting, so an evaluation is the
// sum of Eq. 6-7: compute, plus each side's hand-off and feature-map
// transfer where the unit changes, at least the shared memory's time for
// the DRAM bytes. Consecutive segments of one block on one unit run as
// one plan, so a block costs the same mapped by block, layer or kernel
// group. The CPU cluster and the memory draw their power over the whole
// frame; PowerModes are NVIDIA's nvpmodel modes (clock caps, online
// cores). Latency is in ps throughout; Result reports ms, mJ and W.
//
// # Frames and co-running
//
// Evaluator.Pipeline streams frames through a mapping on the sim kernel,
// all shared-memory traffic contending in one channel, in a fixed
// periodic order (a max-plus system: a faster clock never makes a frame
// later; one frame equals Eq. 6-7 exactly). SoC.CoRun runs several
// networks at once until their latencies are steady: units shared kernel
// by kernel in turns, DRAM traffic in chunks spread over each kernel,
// and the row switches of interleaved streams from JEDEC LPDDR4 timing
// (MemorySpec.MixedEfficiency, MixedLatencyPS). StaticScheduler picks a
// transition point per network by co-running candidates.
//
// # Profiles
//
// xavier.yaml (Default) and tx2.yaml (TX2, HADAS's platform) hold every
// constant with its source. Mechanisms come from datasheets, vendor
// documentation and published measurements; what none resolves is fitted
// to MaGNAS Tables 2 and 3 (Xavier, TestFitXavier) or HADAS Table III
// (TX2), and each fitted value is printed beside its range. MaGNAS() is
// the Xavier as MaGNAS ran it (GPU in FP32, the harness's per-frame work).
// The fits, the constants on their bounds, the figures the model misses
// and the held-out checks (HaX-CoNN's GoogleNet profiles and co-run
// slowdowns, torch2trt's CNN latencies, MaGNAS Figure 7's DVFS saving)
// are in docs/soc-calibration.md.
//
// # What it leaves out
//
// Caches other than the DLA's convolution buffer and the GPU's L2 (empty
// at the start of each plan, so nothing hits across a mapping's segments
// or across frames), fusion across block boundaries and across the
// segments of NewSegmentEvaluator, TensorRT's per-layer tactic timing
// beyond the tile choice, reformat kernels at precision or layout
// changes, the second DLA, power gating of idle units (an idle unit
// draws nothing), thermal limits, concurrent kernels on one unit, the
// CPU-side enqueue of co-running streams, the memory controller's
// priorities between its clients and the GPU's context switches between
// processes (two networks on one unit take plain turns), per-kernel DRAM traffic beyond
// each tensor read and written once (implicit GEMM's tile re-reads), and
// the residual operand a block keeps when its layers are mapped apart.
// The glue counts of ViG's graph ops are read off its reference code, not
// measured.
package soc
