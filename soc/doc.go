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
// target), Phaser (report the parts run on other units) and Transferer
// (price their side of a hand-off). Roofline units come from a Spec's
// units:, MAESTRO-like DSAs (DSA) from its dsas: (DSASpec: PEs, NoC, L1/L2,
// clock, a built-in or .m dataflow read relative to the spec file; one
// operating point) and follow the roofline units in SoC order; any other
// unit or a Measured table plugs in with SoC.Add or SoC.UseTable, with no
// change here. StandaloneDSA is the SoC of one DSA on DSAMemory.
//
// Roofline (the GPU and the DLA) prices a kernel of class c, W operations
// and B bytes moved through memory as
//
//	t = max(t_c(W), B / (share * 64 B * f_EMC)) + max(launch, CPU enqueue)
//	E = P_idle(V) * t + a C V(f)^2 f * (t - launch) + B * e_DRAM
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
// (1024 FP16 MACs as atomic-C 64 x atomic-K 16: K rounds to 64, N to 16).
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
// DRAM bytes. Latency is in ps throughout; Result reports ms, mJ and W.
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
// # The default profile and its calibration
//
// xavier.yaml holds the Jetson AGX Xavier with the provenance of every
// constant: the CNN mechanisms (launch, tiles, bandwidth, fusion, DLA
// buffer, support list) from datasheets, NVIDIA's documentation and
// published measurements; the power modes from nvpmodel_t194.conf. Only
// what no CNN resolves is fitted, to MaGNAS Table 2 (ViG-S with MRConv,
// EdgeConv, GIN and GraphSAGE, GPU-only and DLA-only at MAXN, on
// MaGNAS()) by TestFitXavier (go test ./soc -run TestFitXavier -soc.fit
// -v), which prints each fitted value beside its range:
//
//	gpu fp32 tile efficiency       1.0     upper bound
//	gpu gather/max/spmm eff.       0.042
//	gpu top-k efficiency           1.0e-4  near the lower bound
//	dla tile efficiency            0.24
//	hand-off and fallback sides    45 us   upper bound (published 10-90 us per crossing)
//	dla loadable submission        50 us   upper bound
//	gpu idle, dynamic (full act.)  1.6 W, 49 W
//	dla idle + dynamic             0.5 W   lower bound
//
// The result (TestCalibrationTable2) is within 13 % of every published
// figure, in the published order. The bounds are findings: Table 2's GPU
// latencies share a ~16 ms overhead across the four graph ops that only
// the op every block runs (k-NN + top-k) can carry, and its DLA-only runs
// want crossings at the top of the published range and draw no more than
// the CPU, memory and GPU fallback explain. Table 3's Ours-a3 (depth and
// width not published; repro/seed000's guess) comes out 59 % (GPU) and
// 53 % (DLA) slower than published: its 16 Graphers carry the same
// overhead, while the paper's a3 runs faster than Table 2's intercept.
// On the default FP16 profile GoogleNet takes 1.42 ms on the GPU and
// 5.3 ms on the DLA (issue 24's measurements: ~2 ms and ~3.6 ms).
//
// The parked top-k is compute bound at the GPU clock, so lowering the GPU
// clock stretches it (Fig. 7: 522.75 MHz costs +108 % latency on
// repro/seed000's mappings, and the best setting within +10 % of MaxN saves
// 4.7 % energy; the paper saves 30.5 % at +4.3 %). Two physical
// replacements were fitted and measured (-soc.fit.glue; issue 24) and are
// not the default, as both fit Table 2 worse and neither raises the saving:
//
//   - top-k as a selection (one comparison per candidate) at the irregular
//     kernels' efficiency, the glue ops as launches and memory-bound
//     copies: latency loss 0.078 (7 % RMS before: 0.040), FP32 tiles
//     fitted to 0.57, EdgeConv GPU +19 %;
//   - and each glue op dispatched by the CPU (CPUSpec.GlueCycles, fitted
//     to 34,400 cycles, 15 us at 2265.6 MHz, inside 8,000-250,000): loss
//     0.073, tiles 0.66, DLA atomic efficiency 0.18, EdgeConv GPU +17 %,
//     SAGE DLA -13 %; Table 3's a3 +40 % (GPU) and +43 % (DLA);
//     GoogleNet DLA 6.9 ms; Fig. 7's best within +10 % -2.1 % energy
//     (GPU at 522.75 MHz: +88 % latency, -12 % energy; CPU at 1728 MHz:
//     +6.7 % latency).
//
// Table 2's overhead is thus not host-side dispatch at any plausible rate:
// the fit prefers slower dense products, which scale with the GPU clock
// just the same. Table 2 alone cannot tell where ~1 ms per Grapher goes.
// Moving the whole parked cost onto the CPU clock (one host-side op per
// top-k, no other glue; a relabelling without a documented mechanism,
// measured, not kept) fits Table 2 better (loss 0.025, every figure within
// 12 %; the irregular efficiency on its upper bound 0.25; 1.66e6 cycles,
// 0.73 ms per top-k) and turns Table 3's pick mixed (1 transition, beating
// both standalones) and the 10 W / 30 W latency ratio to 1.72x (paper
// 1.71x), but Fig. 7 still fails: the best within +10 % of MaxN saves
// 0 % (median; -20.5 % at best), GPU at 522.75 MHz costs +48 % latency for
// -22 % energy, CPU at 1728 MHz +17 % latency. The paper's -30 % at +4.3 %
// needs a frame whose time hardly depends on the clock that was lowered
// while that clock's domain draws a third of the energy; here the GPU's
// energy is spent in FP32 dense products that are compute bound at its
// clock (the reading of Table 2's slope that makes MaGNAS() FP32).
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
// Caches other than the DLA's convolution buffer (every GPU kernel's
// operands count as DRAM traffic, while Eq. 6-7 adds the feature-map
// transfers on unit changes, as MaGNAS does), fusion across segment
// boundaries (a layer-wise mapping pays every layer's launch), TensorRT's
// per-layer tactic timing beyond the tile choice, reformat kernels at
// precision or layout changes, the second DLA, power gating of idle units
// (an idle unit draws nothing: only units holding work draw power),
// thermal limits, concurrent kernels on one unit, and the residual operand
// a block keeps from its start when its layers are mapped apart. The glue
// counts of ViG's graph ops are read off its reference code, not measured.
// The DSA unit is package soc/maestro's.
package soc
