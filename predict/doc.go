// Package predict holds gnnsim's latency predictors (seed 002, section 3):
// Table 1's feature vectors, the 24-model Predictor (one gradient-boosted
// model per dataflow configuration, trained and read by package
// predict/gbdt, stored as LightGBM v3 text files with a manifest), and the
// evaluation metrics of seed 002's Table 3. The seed's own tables (its
// published figures, the Table 4 ablation) live in repro/seed002.
//
// # Metrics
//
// Evaluate takes true and predicted latencies, graphs x configurations, and
// reports in percent, over G graphs and C configurations, with ĉ(g) the
// configuration of smallest predicted latency (ArgMin, first on ties), l the
// true latency and p the predicted one:
//
//   - MAPE = 100/(G·C) Σ_g Σ_c |p(g,c) - l(g,c)| / l(g,c): the regression
//     error of every model on every graph.
//   - Top-k = 100/G · #{g : fewer than k configurations are strictly faster
//     than ĉ(g)}, i.e. ĉ(g) is among the k truly fastest, counting a
//     configuration tied with the k-th as inside.
//   - Improvement over random = 100 (R - P) / R, where P = Σ_g l(g, ĉ(g)) is
//     the total latency of the model-guided flexible accelerator and
//     R = Σ_g (1/C) Σ_c l(g,c) the expected total latency of a uniformly
//     random choice per graph.
//   - Improvement over best fixed = 100 (F - P) / F, F = Σ_g l(g, f) for the
//     fixed configuration f; BestFixed picks f as the configuration with the
//     smallest total latency (on the training split, so the test figure is
//     honest).
//   - Degradation over optimal = 100 (P - O) / O, O = Σ_g min_c l(g,c).
//
// Seed 002 names these metrics without formulas; the comparisons are of
// total latency over the data set (what a flexible accelerator running the
// whole set would spend), not means of per-graph ratios.
//
// # Predictors
//
// Fit trains one model per configuration (ConfigNames order) on the
// training part of a 70/15/15 split by graph (AssignSplits: per data set
// label, sorted graph ids shuffled with PCG(seed, FNV-1a of the label)),
// with early stopping on the validation part, FitOptions.Workers models at
// a time (one goroutine each; the result does not depend on it). With
// Log the target is log(cycles). With the LogLinear baseline (the default),
// a per-configuration ridge regression of log(cycles) on log V, E, F, G and
// S1..S6, fitted on the training split, is subtracted first: the trees (the
// LightGBM file) learn the residual, and the coefficients live in the
// manifest, added back as LightGBM's init_score is. This reaches the
// accuracy of about 2,000 mean-started trees with 30, at about 0.8 us per
// model through leaves. NoBaseline (--baseline none) is seed 002's method:
// the mean folded into the first tree, and the model files alone predict.
// A model directory holds 24 v3 files and manifest.json (feature set, log
// flag, baseline, hardware, split seed, best fixed configurations,
// parameters, gnnsim version). Evaluate scores sets the models were trained
// on, and Graphlaxy sets, on their test split, and other sets on all their
// graphs.
//
// # Models trained elsewhere
//
// LoadPredictor also reads a directory of LightGBM v2/v3 text models trained
// outside gnnsim, one per configuration, when it has no manifest.json but a
// sidecar.json (Sidecar) saying which file is which configuration, the
// feature columns in order (those of the base or full feature set,
// FeatureSet.Names, which gnnsim computes), whether the models predict
// log(cycles), and the best fixed configuration that 'eval' compares with.
// The models are taken whole (no baseline is added). Hardware defaults to
// the built-in 512-PE array and label modes to "extended". For example:
//
//	{
//	  "format": "gnnsim-lightgbm-sidecar/1",
//	  "feature_names": ["V", "E", "T_Va", "T_Fa", "T_N", "T_Vc", "T_Gc", "T_Fc",
//	    "density", "clustering", "deg_q1", "deg_q2", "deg_q3", "deg_q4", "deg_q5",
//	    "deg_q6", "deg_q7", "F", "G"],
//	  "log": true,
//	  "best_fixed": "sp-c",
//	  "hardware": [{"pes": 512, "pp_agg_pes": 256}],
//	  "models": [
//	    {"config": "seq-a", "file": "lgbm_seq_a.txt"},
//	    ... one entry for each of the 24 configurations, seq-a .. pp-h ...
//	    {"config": "pp-h", "file": "lgbm_pp_h.txt"}
//	  ]
//	}
//
// 'gnnsim predict eval' and 'predict graph' then take the directory as
// --models like one gnnsim trained.
//
// Left out: see package predict/gbdt for what the trainer leaves out; here,
// predictors for layer kinds other than GCN and for hardware other than the
// Omega-style PE arrays the models were trained on.
package predict
