// Package predict holds gnnsim's latency predictors (seed 002, section 3):
// a gradient-boosted regression tree trainer, the LightGBM text model format
// it writes, inference through github.com/dmitryikh/leaves, and the metrics
// of seed 002's Table 3.
//
// # Trainer
//
// Train is a histogram-based GBDT in the manner of LightGBM, since LightGBM
// itself cannot be installed here (MISSION.md section 6): every feature is
// cut into at most MaxBin bins from the training rows (one bin per distinct
// value when there are few enough, otherwise bins of roughly equal row
// counts cut between distinct values, at the midpoint of the neighbouring
// values); trees grow leaf-wise (always splitting the leaf with the largest
// gain) up to NumLeaves leaves and MaxDepth, subject to MinDataInLeaf,
// MinSumHessianInLeaf and MinGainToSplit; the gain and leaf values use the
// L2 loss with LambdaL2 regularisation (gradient = score - target, hessian
// = 1; gain = GL²/(NL+λ) + GR²/(NR+λ) - G²/(N+λ); leaf value = -G/(N+λ)
// times LearningRate). The smaller child's histogram is built from its rows
// and the larger one's is the parent's minus it. FeatureFraction picks the
// features of each tree, BaggingFraction/BaggingFreq the rows, both from a
// PCG generator seeded with Params.Seed. Training starts from the mean
// target, which is then folded into the first tree (LightGBM's
// boost_from_average). With a validation set and EarlyStoppingRound > 0,
// training stops when the validation L2 has not improved for that many
// rounds and the model keeps the best round. As in LightGBM, training also
// stops when a tree cannot be split at all (a constant model if that
// happens in the first round).
//
// Training is deterministic. Histograms are built in parallel over
// features: each feature's bins are summed by one goroutine in row order,
// and the best split is reduced over features in index order (ties go to
// the lower feature, then the lower bin), so the model is the same byte
// for byte for any Params.Workers.
//
// # Model files
//
// Model.WriteText writes LightGBM's text format, version v3: the header
// (tree, version, num_class=1, num_tree_per_iteration=1, label_index,
// max_feature_idx, objective=regression, feature_names, feature_infos,
// tree_sizes), one block per tree (num_leaves, num_cat=0, split_feature,
// split_gain, threshold, decision_type, left_child, right_child, leaf_value,
// leaf_weight, leaf_count, internal_value, internal_weight, internal_count,
// is_linear=0, shrinkage), "end of trees", the split-count feature
// importances and the parameters block. A split sends a row left when
// x <= threshold; decision_type 2 marks a numerical split with no missing
// value handling. Numbers are written in the shortest form that parses back
// to the same float64, so leaves reproduces Model.Predict exactly (the sum
// of leaf values in tree order). A one-leaf tree is written as LightGBM
// does: num_leaves=1, its leaf_value, and empty split arrays.
//
// LoadModel checks a file completely before leaves reads it: version v2 or
// v3 (leaves reads nothing newer; a v4 file is refused), a single-output
// model with an identity-output objective, every tree's arrays of the right
// lengths with in-range features and children forming a proper binary tree,
// tree blocks where tree_sizes puts them, and "end of trees" after the last
// one, so a truncated file is an error, never a partial model or a leaves
// panic. Models from real LightGBM (v2/v3 text, including categorical
// splits) load too. Ensemble.Predict goes through leaves' Predict and does
// not allocate.
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
// Left out: missing values (NaN features or targets are errors, not a
// "missing" branch), categorical features and linear trees in the trainer,
// losses other than L2, L1 regularisation, and LightGBM's exact bin-boundary
// algorithm (bins here are quantile-like but not identical to LightGBM's, so
// the same data and parameters give a similar, not an identical, model).
package predict
