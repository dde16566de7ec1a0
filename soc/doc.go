// Package soc models a heterogeneous SoC: compute units sharing one memory
// (MaGNAS, seed 000: a Jetson AGX Xavier's GPU and DLA), the mapping of a
// model's blocks or layers onto them, DVFS, and the cost of a mapping by
// MaGNAS Eq. 6-7 or by streaming frames through it on the sim kernel.
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
// A unit is any hw.Scalable. The SoC binds units that implement Binder to
// the memory's clock and to the units they need (a DLA's fallback GPU);
// others it runs through At. Units may also implement KernelCoster (price
// kernel by kernel: needed for kernel-group mappings and as a fallback
// target), Phaser (report the parts run on other units), DAGPlanner (plan
// kernels with their data flow: the evaluator then prices segments from
// the plan, runs a block's consecutive segments on the unit as one plan
// and reports layers from it, whatever the unit's type; Roofline is one)
// and Transferer (price their side of a hand-off). Roofline units come
// from a Spec's units:, MAESTRO-like DSAs (DSA) from its dsas: (DSASpec: PEs, NoC, L1/L2,
// clock, a built-in or .m dataflow read relative to the spec file; one
// operating point) and follow the roofline units in SoC order; any other
// unit or a Measured table plugs in with SoC.Add or SoC.UseTable, with no
// change here. StandaloneDSA is the SoC of one DSA on DSAMemory.
//
// Roofline (the GPU and the DLA) prices a kernel of class c, W operations
// and B bytes moved through memory as
//
//	t = max(t_c(W), B / (share * 64 B * f_EMC), (B + H) / (L2 B/clk * f)) + max(launch, CPU enqueue)
//	E = P_idle(V) * t + a C V(f)^2 f * (t - launch) + B * e_DRAM
//
// where B are the DRAM bytes and H the L2 hits: the GPU's 512 KB
// write-back L2 is a fully associative LRU cache of whole tensors over a
// plan's kernels (a kernel's reads, then its weights, then its output
// touch it): a kernel reads a tensor (any earlier kernel's output, the
// plan's input, an output written before the plan) there when that tensor
// and the distinct data touched since fit (LRU's stack distance; the
// write still reaches DRAM), and a glue copy's source when source and
// destination fit; all the GPU's traffic passes the L2 at its bandwidth,
// which scales with the GPU clock (141 B per clock for 8 SMs, from Volta
// microbenchmarks). A bigger L2 never hits less (TestBiggerCacheNeverSlower).
// Xavier's 4 MB L3 serves the CPU clusters only, so no system cache
// stands in front of DRAM for the GPU or the DLA (xavier.yaml, gpu
// cache_bytes). Measured (issue 35): reuse beyond the previous kernel
// changes no zoo network's DRAM bytes at 512 KB (GoogleNet 34.2 MB,
// ResNet-50 112.9 MB, ViG-S 257.6 MB a frame, FP16 GPU): what a later
// kernel reads again (an Inception module's input for its pool branch,
// the reduce outputs of its second branch) has been pushed out by the
// weights and outputs in between.
//
// where t_c is, for dense products (gemm, knn) of a unit with a tiling, the
// time of the fastest tile shape: ceil(tiles / SMs) waves of Mt x Nt x
// (K rounded up to the K step, plus the pipeline fill) MACs at the tile's
// efficiency of one SM's peak (tile and wave quantisation, NVIDIA's GEMM
// performance guide; a grouped product tiles each group), or a CUDA-core
// path for products the tiles waste; other classes run at eff_c * peak.
// a is the engines' activity (operations over what the peak does in the
// busy time), so a kernel waiting on memory switches little; P_idle scales
// as V^3 (leakage). The GPU is 8 SMs in 4 TPCs; the DLA is NVDLA nv_full
// (1024 FP16 MACs as atomic-C 64 x atomic-K 16: K rounds to 64, N to 16),
// whose Winograd mode runs a 3x3 stride-1 convolution's tiles 2.25x
// faster (TilingSpec.Winograd).
//
// A segment's kernels run as TensorRT runs them (Roofline.PlanDAG, on the
// data flow of workload.Block's layers):
//
//   - fusion: an element-wise epilogue (bn, act, add) whose producer is a
//     product read by nothing else runs in that product's epilogue (no
//     launch, no round trip); 1x1 products reading the same input run as
//     one product (an Inception module's reduce convolutions); a concat
//     whose producers ran on the same unit is elided (written in place);
//   - the DLA keeps an intermediate in its 512 KiB convolution buffer when
//     it fits and the next kernel runs on the DLA;
//   - kernels a unit cannot run (no efficiency for their class, or refused
//     by name: TensorRT's DLA support list has no GELU, softmax, gather,
//     neighbour max, k-NN, top-k) run on its fallback unit, with a
//     fallback crossing each way (the DLA's fallback-out cost, or coming
//     back its fallback-in cost plus a loadable submission; the GPU's
//     hand-off sides; the crossing tensor through memory);
//   - glue: the graph ops' extra kernels (index arithmetic, transposes,
//     permutes of ViG's ONNX form) as launches and copies.
//
// The DLA runs a contiguous run of segments as one loadable: its
// submission is paid on entering the DLA (the frame's start, or a hand-off
// from another unit), not per segment or kernel.
//
// A mapping finer than blocks (layers, kernel groups) that puts
// consecutive segments of one block on one roofline unit runs them as one
// plan, as TensorRT builds one engine for a contiguous subgraph on one
// device: fusion, the DLA's buffer and the GPU's L2 work across their
// boundaries (Segment.Producers keeps the block's data flow, a negative
// index naming a kernel of an earlier segment). So a block mapping costs
// the same given by block, layer or kernel group (TestGranularitiesAgree):
// GoogleNet all on the GPU by layer took 2.75 ms before, 1.67 ms as by
// block. On the HaX-CoNN artifact's public Xavier profiles (GoogleNet,
// TensorRT 7.1.3 FP16, MAXN; GPU layers [0, K), DLA [K, 140), eight K) the
// plans' latency is now within 3.1 % median (11.5 % worst) of measured,
// 31 % median before. Runs stop at block boundaries, as blocks do; the
// magnas package's layer-wise segments (NewSegmentEvaluator) are priced
// one by one.
//
// # Precision
//
// Spec.Precision selects the arithmetic of the units that list other
// precisions: the default profile is FP16 (tensor cores, the held-out
// TensorRT profiles); MaGNAS() runs the GPU in FP32 (CUDA cores, 1.41
// TFLOPS, 4-byte operands), which MaGNAS Table 2 implies (see
// MaGNASPrecision). The DLA runs FP16 in both.
//
// # Power
//
// Each unit draws voltage-scaled leakage and activity-scaled C V^2 f (a
// power mode's gated cores, the GPU's TPCs, scale both); the CPU cluster
// (online cores' leakage, the inference thread's core busy) and the memory
// (a background and a part proportional to the EMC clock) draw their power
// over the whole frame (Result.PlatformPJ). The CPU clock is a DVFS domain
// ("cpu"): it sets the CPU's power and the time to enqueue a kernel, a
// floor under every unit's launch. PowerModes are NVIDIA's nvpmodel modes
// (MAXN, 10 W, 15 W, 30 W with 8/6/4/2 cores, 15 W desktop): clock caps
// and online cores; ModeForBudget picks the mode a budget allows,
// ModeSetting resolves clocks within a mode, ModePoints lists a domain's
// allowed points. Latency stays the objective under a mode.
//
// # Mappings and Eq. 6-7
//
// A Mapping assigns each Segment to a unit. Segments are blocks (Stem,
// each Grapher, each FFN, Cls), layers, or kernel groups (each layer's runs
// of aggregation and of combination kernels). Evaluator tabulates every
// segment on every unit once per DVFS setting, so an evaluation is a sum:
//
//	T = sum_i tau_comp(i) + [unit changes before i] tau_in(i) + [unit changes after i] tau_out(i)
//
// and the same for energy. tau_in and tau_out are each side's half of the
// hand-off latency plus the segment's input or output feature map moved
// at that unit's share of the bandwidth, after the memory's latency. A
// change of unit is a change of the unit running the kernels at the
// boundary (a DLA segment ending in GPU fallback hands over from the GPU).
// tau_comp is at least the time the shared memory needs for the segment's
// DRAM bytes. The first segment also pays the unit's entry: the host's
// per-frame work (CPUSpec.FrameCycles, at the CPU clock, drawing the
// platform's power and the waiting unit's idle power) and a DLA's loadable submission. Latency is in ps
// throughout; Result reports ms, mJ and W.
//
// # Pipelined frames
//
// Evaluator.Pipeline streams frames through a mapping on the sim kernel:
// units work on different frames at once, and all shared-memory traffic
// (compute phases' DRAM bytes, transfers) contends in one sim.Channel.
// Every unit and the channel serve work in the fixed order of the periodic
// plan at the highest operating points, so the run is a max-plus system:
// a faster clock or more bandwidth never makes a frame later (serving
// whatever is ready instead showed Graham's anomalies: with the default
// profile about 1 % of EMC steps made random mappings up to 6 % slower). With
// one frame the run equals Eq. 6-7 exactly; throughput never exceeds
// 1 / (the busiest unit's time per frame).
//
// # Co-running networks
//
// SoC.CoRun runs several networks at once, each looping back to back as a
// benchmark harness does (gnnsim soc corun), until every run's mean
// latency is steady, and reports each against its latency alone. The
// runs meet on the units and on the one memory, through Pipeline's
// channel path refined by four mechanisms, none fitted:
//
//   - units are held kernel by kernel, so two networks' kernels on one
//     GPU, or a DLA network's GPU fallback kernels among a GPU network's,
//     interleave (ViG-S on the DLA slows ResNet-50 on the GPU 1.46x,
//     mostly through its GELU, k-NN and top-k fallbacks);
//   - each kernel's DRAM bytes go through the channel in 64 KiB chunks
//     spread over the kernel's time (its demand over time), so a large
//     stream no longer holds the memory whole and the channel's first come,
//     first served order acts as the controller's arbitration;
//   - a stream waiting behind another unit's interleaves with it and
//     loses a DRAM row switch per page: MemorySpec.MixedEfficiency, 87 % of
//     the peak at 2133 MHz from JEDEC LPDDR4 timing (tRPpb + tRCD = 36 ns
//     against a 2 KB page at 8.5 GB/s a channel);
//   - the interleaved stream's own accesses find rows the other stream
//     opened and wait that row switch on top of the memory's latency
//     (36 over 100 ns) for the part that overlaps the other stream: a
//     batch-1 kernel moves its bytes at its requests in flight over the
//     latency (Little's law), so its memory time stretches up to 1.36x
//     and it loses what outlasts its time alone (MixedLatencyPS). PCCS
//     (Xu et al., MICRO 2021) characterises Xavier's GPU and DLA
//     slowdowns against the external bandwidth; this is one mechanism
//     under such a curve, from JEDEC timing, not a fit to it.
//
// Units shared by two runs are taken in turns of 20 us while both want
// them (round robin), not kernel by kernel: a GPU's block scheduler
// starts another stream's blocks as a kernel's retire. The memory's rule,
// SendShared (first come, first served, with the mixed-stream stall), is
// also package sched's for its shared problems (gnnsim schedule
// --job-models), which keep their phase-level steps, without chunks or
// turns, for speed. StaticScheduler (gnnsim schedule --static) chooses a
// transition point per network by co-running candidates: GPU only,
// GPU&DLA, H2H-like and Herald-like baselines and a contention-aware
// coordinate descent (heuristic).
//
// Alone, a run's latency is EvaluateAt's exactly; co-running is never
// faster; the channel moves every completed frame's bytes once; the
// estimate is monotone in the EMC clock and the L2 size to its resolution
// (TestCoRun*), and a GPU network never faster beside a DLA network
// asking more per second (TestCoRunMonotoneInOtherDemand). The CPU-side
// enqueue of each stream is not modelled (trtexec enqueues ahead).
//
// Measured (issue 35; slowdown of each, before / with the latency term):
//
//	googlenet gpu || googlenet dla      1.019 / 1.019    1.007 / 1.007   (Xavier, HaX-CoNN: 1.68, 1.28)
//	googlenet gpu || resnet101 dla      1.006 / 1.005    1.005 / 1.006
//	inception-v4 dla || resnet152 gpu   1.005 / 1.005    1.004 / 1.004
//	alexnet gpu || resnet101 dla        1.030 / 1.038    1.014 / 1.014
//	vgg19 dla || resnet152 gpu          1.018 / 1.024    1.011 / 1.013
//
// The slowdowns stay small where the networks ask little of the memory
// (GoogleNet on the GPU draws 20 GB/s, on the DLA 7 GB/s: 20 % of the
// peak together), and the HaX-CoNN measurements are a held-out check, not
// a target. No latency mechanism can close the gap on the model's
// per-kernel traffic: in GoogleNet on the GPU the bytes at the GPU's
// memory share take 25 % of the frame and hardly a kernel is within
// 1.36x of memory bound, so even every byte of every kernel waiting
// longer, all frame long, slows it only 1.0004x (latency x1.36), 1.035x (x2), 1.129x
// (x3), 1.273x (x4) (TestCoRunLatencyBound: each kernel max(time alone,
// r x bytes at its share)); GoogleNet on the DLA 1.003x to 1.071x,
// ResNet-152 on the GPU 1.006x to 1.604x, AlexNet on the GPU 1.249x to
// 3.22x. Reaching 1.68x for GoogleNet on the GPU would take its memory
// latency well above 4x at 20 % utilisation, where queueing adds little
// (an M/D/1 server at 20 % load waits an eighth of a service time).
// What the model lacks is demand: HaX-CoNN's single-layer
// characterisation on Xavier reports 24-89 % EMC utilisation for single
// GPU convolutions, where our GoogleNet kernels draw 15 % on average.
// Tile re-reads of implicit GEMM that miss the 512 KB L2, and the DLA's
// re-reads of what its 512 KiB buffer does not hold, could raise each
// kernel's bytes up to its time alone at its share (up to 4x for GoogleNet
// on the GPU) without changing its latency alone, at ~100 GB/s together,
// where bandwidth contention bites; that needs per-kernel traffic from
// single-unit measurements (Nsight's DRAM bytes per kernel) to source,
// which we do not have, so it is left open rather than assumed.
//
// # The default profile and its calibration
//
// xavier.yaml holds the Jetson AGX Xavier with the provenance of every
// constant: the CNN mechanisms (launch, tiles, Winograd, bandwidth,
// fusion, DLA buffer, support list) from datasheets, NVIDIA's
// documentation and published measurements; the power modes from
// nvpmodel_t194.conf. Only what no CNN resolves is fitted, to MaGNAS
// Table 2 (ViG-S with MRConv, EdgeConv, GIN and GraphSAGE) and Table 3
// (Ours-a3), GPU-only and DLA-only at MAXN, on MaGNAS(), by TestFitXavier
// (go test ./soc -run TestFitXavier -soc.fit -v), which prints each fitted
// value beside its range:
//
//	gpu fp32 tile efficiency       1.0      upper bound
//	gpu gather/max/spmm eff.       0.0281
//	gpu top-k efficiency           1.02e-3
//	dla tile efficiency            0.227
//	hand-off and fallback sides    45 us    upper bound (published 10-90 us per crossing)
//	dla loadable submission        50 us    upper bound
//	harness work per frame         1.266e7 cycles (5.6 ms at 2265.6 MHz)
//	gpu idle, dynamic (full act.)  2.52 W, 49.7 W
//	dla idle + dynamic             0.5 W    lower bound
//
// The harness's per-frame work (CPUSpec.MaGNASFrameCycles, applied by
// MaGNASSpec only: the default profile is trtexec's, whose enqueue-ahead
// hides it) is what Table 3 adds: Ours-a3 has 8 blocks (Table 3 maps 7
// Graphers; Table 1's depths allow no fewer than 8) where Table 2's ViG-S
// has 16, yet the paper's GPU time falls only from 22.49 to 13.42 ms, a
// per-frame intercept no per-block cost gives. Fitting Table 2 alone had
// parked ~8.8 ms in a GPU top-k efficiency of 1.05e-4 and put a3 59 %
// (GPU) and 53 % (DLA) over the paper; now the top-k carries 0.86 ms over
// ViG-S and a3's latencies are within 7 %. TestCalibrationTable2 asserts
// every Table 2 figure and a3's latencies within 15 % (worst: SAGE DLA
// -12 %, EdgeConv GPU energy +11 %), in the published order.
//
// The bounds are findings: Table 2's DLA-only runs want crossings at the
// top of the published range and draw no more than the CPU, memory and
// GPU fallback explain; the FP32 tiles run at the CUDA cores' peak. The
// per-frame work draws the platform's power and the idle power of the
// unit waiting for it (the GPU keeps its context and its clock between
// frames), while the paper's a3 draws as much as ViG-S on the GPU (20.4 vs
// 19.1 W): a3's GPU energy is 22 % low (25 % before the GPU drew its idle
// power there), the one published figure this profile misses by more
// than 15 % (not asserted). A costlier host cannot close it: a3's DLA-only
// run draws 4.76 W in all, little above our platform's 3.5 W; a3's GPU
// work being heavier than its reconstruction (its width and depth are not
// published) would. Nor can the fit's staging: fitting the latency and
// power constants together on all 20 figures (-soc.fit.joint, started
// from the staged values) lowers the summed loss from 0.153 to 0.145 but
// leaves a3's GPU energy at -20.1 % (a3's GPU latency +8.9 %, the
// per-frame work 1.51e7 cycles), so the staged values stay.
//
// On the default FP16 profile (unfitted CNN mechanisms) the GPU takes
// 1.67 ms for GoogleNet (issue 24's measurement: ~2 ms), 2.94 ms for
// ResNet-50, 5.20 ms for ResNet-101, 1.95 ms for AlexNet and 9.01 ms for
// VGG-16 (NVIDIA-AI-IOT torch2trt's Xavier FP16 batch-1 benchmarks:
// 3.21-3.48, 5.88-6.22, 1.72-1.93 and 7.19-7.46 ms); the DLA takes 3.9 ms
// for GoogleNet (~3.6 ms measured), with NVDLA's Winograd mode on its
// 3x3 convolutions (without it 5.6 ms: ViG-S's 1x1-dominated DLA runs fix
// the atomic efficiency lower than CNNs reach).
//
// Fig. 7's DVFS saving stays below the paper's (repro/seed000 --quick: the
// Eq. 13 pick saves 13.8 % energy at +7.9 % latency; the least energy
// within +10 % of MaxN saves 9.5 %, median over the models, whose searched
// mappings now hold more DLA work; paper 30.5 % at +4.3 %). On a fixed
// mapping every Table 1 step costs latency in proportion (GPU-only ViG-S
// GIN): GPU 522.75 MHz +76 % latency, -22 % energy, 905.25 MHz +24 %,
// -18 % (the FP32 dense products are compute bound at the GPU clock, the
// reading of Table 2's slope, 2.17 ms per dense GMAC, that makes MaGNAS()
// FP32); CPU 1728 MHz +8 %, -1 % (the harness's work); EMC 1065.6 MHz
// +12 %, +0.3 % (FP32 tensors of 0.25-2.3 MB mostly miss the 512 KB L2:
// 13 % without it; reuse beyond the previous kernel, issue 35, changes
// none of Fig. 7's figures, and Xavier has no GPU-visible system cache to
// take the rest); DLA 1050 MHz nothing. The paper's -30 % at +4.3 %
// needs a frame whose time hardly depends on the lowered clock while that
// clock's domain draws a third of the energy. A grounded voltage curve
// would widen the gap, not close it: the one public Xavier-SoC GPU table
// (DRIVE 5.0 guide's nafll_gpu swlut example, ~0.50-0.67 V over the GPU's
// range; the GPU's volts source in xavier.yaml) halves the GPU's saving
// at 905.25 MHz (9 % instead of 18 %). Two replacements of the top-k by
// physical mechanisms (-soc.fit.glue, studied for issue 24 before Table 3
// entered the fit) fitted Table 2 worse and saved less:
//
//   - top-k as a selection (one comparison per candidate) at the irregular
//     kernels' efficiency, the glue ops as launches and memory-bound
//     copies: latency loss 0.078 (0.040 then), FP32 tiles 0.57, EdgeConv
//     GPU +19 %;
//   - and each glue op dispatched by the CPU (CPUSpec.GlueCycles, fitted
//     to 34,400 cycles, 15 us at 2265.6 MHz, inside 8,000-250,000): loss
//     0.073, EdgeConv GPU +17 %, SAGE DLA -13 %; Fig. 7's best within
//     +10 % -2.1 % energy.
//
// # The Jetson TX2 profile
//
// tx2.yaml (TX2Spec, TX2) is HADAS's Table III platform: the 256-core
// Pascal GPU in FP32, 128-bit LPDDR4, the Denver CPU, and the GPU, CPU and
// EMC DVFS tables (13, 12, 11 points). Two constants are fitted on Table
// III's a0 and a6 static energies (nas/hadas TestTX2StaticEnergyTableIII
// -tx2.fit): the GPU's launch cost on their ratio and its power level on
// their mean. The fitted peak power is three times the module's 15 W, a
// documented warning sign (tx2.yaml, dynamic_w).
//
// # Measured tables
//
// ReadTable reads per-block latency and energy measured on a board (CSV or
// Parquet; columns in TableRow), and SoC.UseTable swaps the units it names
// for Measured units, as MaGNAS's lookup tables do.
//
// # What it leaves out
//
// Caches other than the DLA's convolution buffer and the GPU's L2 (whose
// state starts empty with each plan, so nothing hits across the segments
// of a mapping or across frames; a fused product's output is one tensor
// even when its readers take parts of it; Eq. 6-7 adds the feature-map
// transfers on unit changes, as MaGNAS does), fusion across block
// boundaries and across the caller-made segments of NewSegmentEvaluator,
// TensorRT's
// per-layer tactic timing beyond the tile choice, reformat kernels at
// precision or layout changes, the second DLA, power gating of idle units
// (an idle unit draws nothing: only units holding work draw power),
// thermal limits, concurrent kernels on one unit, and the residual operand
// a block keeps from its start when its layers are mapped apart. The glue
// counts of ViG's graph ops are read off its reference code, not measured.
// The DSA unit is package soc/maestro's.
package soc
