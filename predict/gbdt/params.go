package gbdt

import (
	"fmt"
	"math"
	"runtime"
)

// Params are the training parameters of Train. Names and meanings follow
// LightGBM's parameters of the same (snake_case) name, which is also how they
// are written into the model file's parameters block. Start from
// DefaultParams: the zero Params is not valid.
type Params struct {
	// NumIterations is the maximum number of boosting rounds (trees).
	NumIterations int
	// LearningRate is the shrinkage applied to every tree's output.
	LearningRate float64
	// NumLeaves bounds the leaves of one tree (leaf-wise growth stops there).
	NumLeaves int
	// MaxDepth bounds the depth of a leaf (the root is at depth 0, so
	// MaxDepth 1 grows stumps); <= 0 means no limit.
	MaxDepth int
	// MinDataInLeaf is the smallest number of training rows in a leaf.
	MinDataInLeaf int
	// MinSumHessianInLeaf is the smallest sum of hessians in a leaf. The L2
	// loss has hessian 1 per row, so this is a second bound on the row count.
	MinSumHessianInLeaf float64
	// MinGainToSplit is the smallest gain a split needs (strictly more).
	MinGainToSplit float64
	// LambdaL2 is the L2 regularisation of leaf values.
	LambdaL2 float64
	// MaxBin bounds the histogram bins per feature, in [2, 256].
	MaxBin int
	// FeatureFraction is the fraction of features each tree may split on,
	// drawn without replacement per tree; 1 uses them all.
	FeatureFraction float64
	// BaggingFraction is the fraction of training rows each tree is grown
	// on, redrawn every BaggingFreq rounds; bagging is off unless
	// BaggingFraction < 1 and BaggingFreq > 0.
	BaggingFraction float64
	BaggingFreq     int
	// EarlyStoppingRound stops training when the validation L2 has not
	// improved for this many rounds; the model keeps the trees up to the
	// best round (also when training ends at NumIterations). 0 disables
	// early stopping, and a validation set is then only monitored.
	EarlyStoppingRound int
	// Seed drives every random choice (bagging, feature fraction).
	Seed uint64
	// Workers is the number of goroutines building histograms; <= 0 means
	// runtime.GOMAXPROCS(0). It never changes the result.
	Workers int
}

// DefaultParams returns LightGBM's defaults for the parameters above
// (num_iterations 100, learning_rate 0.1, num_leaves 31, no depth limit,
// min_data_in_leaf 20, min_sum_hessian_in_leaf 1e-3, max_bin 255, no
// feature or bagging subsampling, no early stopping) with seed 0 and one
// worker per available CPU.
func DefaultParams() Params {
	return Params{
		NumIterations:       100,
		LearningRate:        0.1,
		NumLeaves:           31,
		MaxDepth:            -1,
		MinDataInLeaf:       20,
		MinSumHessianInLeaf: 1e-3,
		MinGainToSplit:      0,
		LambdaL2:            0,
		MaxBin:              255,
		FeatureFraction:     1,
		BaggingFraction:     1,
		BaggingFreq:         0,
		EarlyStoppingRound:  0,
		Seed:                0,
		Workers:             0,
	}
}

// Validate reports the first invalid parameter.
func (p Params) Validate() error {
	switch {
	case p.NumIterations < 1:
		return fmt.Errorf("gbdt: num_iterations %d < 1", p.NumIterations)
	case !finite(p.LearningRate) || p.LearningRate <= 0:
		return fmt.Errorf("gbdt: learning_rate %v must be finite and > 0", p.LearningRate)
	case p.NumLeaves < 2 || p.NumLeaves > 131072:
		return fmt.Errorf("gbdt: num_leaves %d outside [2, 131072]", p.NumLeaves)
	case p.MinDataInLeaf < 1:
		return fmt.Errorf("gbdt: min_data_in_leaf %d < 1", p.MinDataInLeaf)
	case !finite(p.MinSumHessianInLeaf) || p.MinSumHessianInLeaf < 0:
		return fmt.Errorf("gbdt: min_sum_hessian_in_leaf %v must be finite and >= 0", p.MinSumHessianInLeaf)
	case !finite(p.MinGainToSplit) || p.MinGainToSplit < 0:
		return fmt.Errorf("gbdt: min_gain_to_split %v must be finite and >= 0", p.MinGainToSplit)
	case !finite(p.LambdaL2) || p.LambdaL2 < 0:
		return fmt.Errorf("gbdt: lambda_l2 %v must be finite and >= 0", p.LambdaL2)
	case p.MaxBin < 2 || p.MaxBin > 256:
		return fmt.Errorf("gbdt: max_bin %d outside [2, 256]", p.MaxBin)
	case !(p.FeatureFraction > 0 && p.FeatureFraction <= 1):
		return fmt.Errorf("gbdt: feature_fraction %v outside (0, 1]", p.FeatureFraction)
	case !(p.BaggingFraction > 0 && p.BaggingFraction <= 1):
		return fmt.Errorf("gbdt: bagging_fraction %v outside (0, 1]", p.BaggingFraction)
	case p.BaggingFreq < 0:
		return fmt.Errorf("gbdt: bagging_freq %d < 0", p.BaggingFreq)
	case p.EarlyStoppingRound < 0:
		return fmt.Errorf("gbdt: early_stopping_round %d < 0", p.EarlyStoppingRound)
	}
	return nil
}

// finite reports whether x is neither NaN nor infinite.
func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

func (p Params) workers() int {
	if p.Workers > 0 {
		return p.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// paramLines are the parameters block of the model file, in LightGBM's
// "[name: value]" form. Workers is left out on purpose: it does not change
// the model, and leaving it out keeps files byte-identical across machines.
func (p Params) paramLines() []string {
	f := formatFloat
	return []string{
		"[boosting: gbdt]",
		"[objective: regression]",
		"[metric: l2]",
		"[boost_from_average: 1]",
		fmt.Sprintf("[num_iterations: %d]", p.NumIterations),
		"[learning_rate: " + f(p.LearningRate) + "]",
		fmt.Sprintf("[num_leaves: %d]", p.NumLeaves),
		fmt.Sprintf("[max_depth: %d]", p.MaxDepth),
		fmt.Sprintf("[min_data_in_leaf: %d]", p.MinDataInLeaf),
		"[min_sum_hessian_in_leaf: " + f(p.MinSumHessianInLeaf) + "]",
		"[min_gain_to_split: " + f(p.MinGainToSplit) + "]",
		"[lambda_l2: " + f(p.LambdaL2) + "]",
		fmt.Sprintf("[max_bin: %d]", p.MaxBin),
		"[feature_fraction: " + f(p.FeatureFraction) + "]",
		"[bagging_fraction: " + f(p.BaggingFraction) + "]",
		fmt.Sprintf("[bagging_freq: %d]", p.BaggingFreq),
		fmt.Sprintf("[early_stopping_round: %d]", p.EarlyStoppingRound),
		fmt.Sprintf("[seed: %d]", p.Seed),
	}
}
