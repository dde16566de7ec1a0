// Package gbdt is gnnsim's gradient-boosted regression tree library: a
// histogram GBDT trainer in the manner of LightGBM, the LightGBM text model
// format (version v3) it writes, a checked reader for LightGBM v2/v3 text
// models, and inference through github.com/dmitryikh/leaves. It knows
// nothing of graphs or hardware; package predict builds the latency
// predictors of seed 002 on it.
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
// Left out: missing values (NaN features or targets are errors, not a
// "missing" branch), categorical features and linear trees in the trainer,
// losses other than L2, L1 regularisation, and LightGBM's exact bin-boundary
// algorithm (bins here are quantile-like but not identical to LightGBM's, so
// the same data and parameters give a similar, not an identical, model).
package gbdt
