// Package hadas is HADAS (seed 003: Bouzidi et al., "HADAS:
// Hardware-Aware Dynamic Neural Architecture Search for Edge Performance
// Scaling"): a nested evolutionary search of a backbone, its early exits
// and the DVFS setting it runs at.
//
// # What it models
//
//   - Backbones (Backbone): any network given by its per-block work (a
//     workload.Model and the blocks after which exits may sit). Two spaces
//     build them: the AttentiveNAS supernet of HADAS Table II
//     (AttentiveSpace: resolution, first conv, seven MBConv stages of
//     depth / width / kernel / expansion, last conv; MBConv as 1x1
//     expansion, depthwise k x k as a conv with Groups = channels, SE, 1x1
//     projection; a0-a6 within 2.5 % of their published MACs) and MaGNAS's
//     ViG-S supernet with exits after its ViG blocks (ViGBackbone).
//   - Exits: positions FirstExit (5) to M-1, each branch a 3x3 conv to 224
//     channels, BN, activation, pooling and the classifier.
//   - DVFS: the target platform's domains (magnas.Platform; NewTarget:
//     the Jetson TX2 of HADAS Table III, soc.TX2, GPU 13 x CPU 12 x EMC 11
//     = 1,716 settings, or the Xavier, GPU 14 x CPU 29 x EMC 9 = 3,654 of
//     MISSION section 9).
//   - Exit correctness (Overlap): the data give per-exit accuracies only;
//     which samples each exit gets right is a one-factor Gaussian copula
//     whose overlap rho between exits' errors is a parameter (rho = 1 is
//     nested correctness, FirstCorrect; rho < 1 lets a set of exits and
//     the backbone's classifier together beat the classifier alone, as
//     HADAS Table III reports). FitOverlap fits rho to a reported gain;
//     CurveRho derives a backbone's rho from its own exit curve (evidence
//     accumulating along the backbone), and CurveOverlap scales it so one
//     backbone's published gain sets the level and the curves set how
//     backbones differ (InnerConfig.PerBackbone).
//   - Eq. 5-7 (Score, Coverage, Expected, PathCosts): N_k the fraction
//     first classified correctly at exit k under the ideal mapping policy
//     (Section IV-C), dissim_k = 1 - max(N_1..N_{k-1}), D the mean of
//     N_k (E_k,f/E_b)(L_k,f/L_b) dissim_k^gamma, where a sample leaving at
//     exit k is charged the backbone up to it and the heads of exits 1..k
//     (a controller tries each head in turn), and a sample no exit
//     classifies the whole backbone plus every chosen head.
//   - The inner engine (Engine): NSGA-II over exit indicators and DVFS
//     genes (paper budget 50 x 70 = 3,500) on two objectives, Figure 5's
//     axes: the mean of N_k dissim_k^gamma (maximised) and the expected
//     energy per sample over the static backbone's at MaxN (minimised). D
//     is reported for every point. A front point whose exits run cheaper at
//     MaxN falls back to MaxN, so DVFS never loses to MaxN.
//   - The outer engine (Searcher.Search): search.Nested over the backbone
//     space (paper budget 30 x 15 = 450) on static top-1 error, static
//     energy at MaxN and the inner front's least expected energy.
//   - Accuracy (Accuracy): measured per-exit curves (ReadCurveCSV,
//     LoadCurve: AttentiveNAS a0-a5 on CIFAR-100 and Tiny-ImageNet from
//     the HADAS repository) or a documented Proxy fitted on them.
//
// # What it leaves out
//
// Exit training (Eq. 4): accuracies come from measured curves or the
// proxy, and which samples each exit gets right from the Overlap model,
// not from per-sample results: one shared difficulty factor, so exits
// near each other along the backbone agree no more than distant ones.
// The paper's CPU targets (Carmel, Denver) are not modelled: costs come
// from the platform's evaluator (soc's TX2 or Xavier GPU through
// magnas.SoCPlatform, where the CPU clock moves no cost). The pruning of
// the outer population before the inner searches (Section IV-A) is
// replaced by NSGA-II's ranking on the combined objectives.
//
// # The dissimilarity term does not spread exits by itself
//
// Eq. 7 weighs an exit by 1 - max(N_1..N_{k-1}), the share of samples its
// predecessors already classify, not by its distance from them. Measured
// under nested correctness (TestDissimilaritySpreadsExits): at a fixed
// number of exits gamma does not widen the gaps; a small gamma puts more
// two-exit points, the widest, on the front. Under overlapping errors an
// exit that errs on different samples adds N_k of its own, which is where
// gamma can change what the front is; repro/seed003's Figure 7 and its
// overlap sweep measure that in the space of dynamic top-1 and energy.
package hadas
