package gbdt

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"gnnsim/internal/atomicfile"
)

// tree is one regression tree in LightGBM's array layout: internal node k
// tests x[splitFeature[k]] <= threshold[k] and goes to leftChild[k] when it
// holds, else to rightChild[k]; a child c < 0 is the leaf ^c. Internal node k
// is the k-th split made while growing, and splitting leaf l keeps l as the
// left child and adds leaf numLeaves as the right one, as LightGBM numbers
// them. A tree of one leaf has no internal nodes.
type tree struct {
	splitFeature   []int
	splitGain      []float64
	threshold      []float64
	leftChild      []int32
	rightChild     []int32
	internalValue  []float64
	internalWeight []float64
	internalCount  []int
	leafValue      []float64 // shrinkage (and, in tree 0, the bias) applied
	leafWeight     []float64
	leafCount      []int
	shrinkage      float64
}

func (t *tree) numLeaves() int { return len(t.leafValue) }

// leaf returns the leaf x falls into.
func (t *tree) leaf(x []float64) int {
	if len(t.leftChild) == 0 {
		return 0
	}
	n := int32(0)
	for n >= 0 {
		if x[t.splitFeature[n]] <= t.threshold[n] {
			n = t.leftChild[n]
		} else {
			n = t.rightChild[n]
		}
	}
	return int(^n)
}

// addBias folds a constant into the tree, as LightGBM's AddBias does with
// the boost-from-average score of the first tree.
func (t *tree) addBias(b float64) {
	for i := range t.leafValue {
		t.leafValue[i] += b
	}
	for i := range t.internalValue {
		t.internalValue[i] += b
	}
}

// Model is a trained gradient-boosted regression ensemble. Its prediction is
// the sum of its trees' leaf values, added in tree order, exactly what
// leaves computes from the model file, so the two agree bit for bit.
type Model struct {
	trees        []tree
	featureNames []string
	featureInfos []string
	params       Params
	// Log records the training: losses per round and the best round.
	Log TrainLog
}

// TrainLog is the training history of a Model.
type TrainLog struct {
	// InitScore is the mean of the training targets, folded into tree 0.
	InitScore float64
	// TrainL2 and ValidL2 are the mean squared errors after each round on
	// the training rows and on the validation set (nil without one). They
	// cover every round trained, including those early stopping dropped.
	TrainL2, ValidL2 []float64
	// BestIteration is the number of rounds kept in the model.
	BestIteration int
	// StoppedEarly says whether early stopping ended training; NoMoreSplits
	// whether training ended because no tree could be split (LightGBM stops
	// training in that case too).
	StoppedEarly, NoMoreSplits bool
}

// NumTrees returns the number of trees.
func (m *Model) NumTrees() int { return len(m.trees) }

// NumFeatures returns the width of the rows the model takes.
func (m *Model) NumFeatures() int { return len(m.featureNames) }

// FeatureNames returns the feature names (a copy).
func (m *Model) FeatureNames() []string { return slices.Clone(m.featureNames) }

// Params returns the parameters the model was trained with.
func (m *Model) Params() Params { return m.params }

// Predict returns the model's prediction for one row.
func (m *Model) Predict(x []float64) (float64, error) {
	if err := checkRow(x, len(m.featureNames)); err != nil {
		return 0, err
	}
	return m.predict(x), nil
}

func (m *Model) predict(x []float64) float64 {
	s := 0.0
	for i := range m.trees {
		t := &m.trees[i]
		s += t.leafValue[t.leaf(x)]
	}
	return s
}

// PredictBatch writes the prediction of each row of X into out[:len(X)].
func (m *Model) PredictBatch(X [][]float64, out []float64) error {
	if len(out) < len(X) {
		return fmt.Errorf("gbdt: output has room for %d predictions, need %d", len(out), len(X))
	}
	for i, x := range X {
		if err := checkRow(x, len(m.featureNames)); err != nil {
			return fmt.Errorf("row %d: %w", i, err)
		}
		out[i] = m.predict(x)
	}
	return nil
}

func checkRow(x []float64, nf int) error {
	if len(x) != nf {
		return fmt.Errorf("gbdt: row has %d features, model takes %d", len(x), nf)
	}
	for j, v := range x {
		if math.IsNaN(v) {
			return fmt.Errorf("gbdt: feature %d is NaN (missing values are not supported)", j)
		}
	}
	return nil
}

// formatFloat writes the shortest decimal that parses back to exactly v,
// so thresholds and leaf values survive the text file bit for bit.
func formatFloat(v float64) string {
	return strconv.FormatFloat(v, 'g', -1, 64)
}

func joinFloats(b *strings.Builder, vs []float64) {
	for i, v := range vs {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(formatFloat(v))
	}
}

func joinInts[T int | int32](b *strings.Builder, vs []T) {
	for i, v := range vs {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.Itoa(int(v)))
	}
}

// decisionType is the decision_type of our numerical splits: bit 1
// (default_left) set and missing type None (bits 2-3 zero), as LightGBM
// writes for features without missing values.
const decisionType = 2

// text renders tree i as LightGBM's Tree::ToString does, including the
// "Tree=i" line and the blank lines that end the block.
func (t *tree) text(i int) string {
	var b strings.Builder
	nn := len(t.leftChild)
	fmt.Fprintf(&b, "Tree=%d\n", i)
	fmt.Fprintf(&b, "num_leaves=%d\n", t.numLeaves())
	b.WriteString("num_cat=0\n")
	b.WriteString("split_feature=")
	joinInts(&b, t.splitFeature)
	b.WriteString("\nsplit_gain=")
	joinFloats(&b, t.splitGain)
	b.WriteString("\nthreshold=")
	joinFloats(&b, t.threshold)
	b.WriteString("\ndecision_type=")
	for k := range nn {
		if k > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.Itoa(decisionType))
	}
	b.WriteString("\nleft_child=")
	joinInts(&b, t.leftChild)
	b.WriteString("\nright_child=")
	joinInts(&b, t.rightChild)
	b.WriteString("\nleaf_value=")
	joinFloats(&b, t.leafValue)
	b.WriteString("\nleaf_weight=")
	joinFloats(&b, t.leafWeight)
	b.WriteString("\nleaf_count=")
	joinInts(&b, t.leafCount)
	b.WriteString("\ninternal_value=")
	joinFloats(&b, t.internalValue)
	b.WriteString("\ninternal_weight=")
	joinFloats(&b, t.internalWeight)
	b.WriteString("\ninternal_count=")
	joinInts(&b, t.internalCount)
	b.WriteString("\nis_linear=0\nshrinkage=")
	b.WriteString(formatFloat(t.shrinkage))
	// Tree::ToString ends with an empty line and SaveModelToString adds
	// another one; tree_sizes count both.
	b.WriteString("\n\n\n")
	return b.String()
}

// WriteText writes the model in LightGBM's text format version v3: header,
// trees, "end of trees", feature importances and the parameters block.
func (m *Model) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	blocks := make([]string, len(m.trees))
	sizes := make([]int, len(m.trees))
	for i := range m.trees {
		blocks[i] = m.trees[i].text(i)
		sizes[i] = len(blocks[i])
	}
	var h strings.Builder
	h.WriteString("tree\nversion=v3\nnum_class=1\nnum_tree_per_iteration=1\nlabel_index=0\n")
	fmt.Fprintf(&h, "max_feature_idx=%d\n", len(m.featureNames)-1)
	h.WriteString("objective=regression\n")
	h.WriteString("feature_names=" + strings.Join(m.featureNames, " ") + "\n")
	h.WriteString("feature_infos=" + strings.Join(m.featureInfos, " ") + "\n")
	h.WriteString("tree_sizes=")
	joinInts(&h, sizes)
	h.WriteString("\n\n")
	bw.WriteString(h.String())
	for _, s := range blocks {
		bw.WriteString(s)
	}
	bw.WriteString("end of trees\n\nfeature importances:\n")
	for _, fi := range m.featureImportances() {
		fmt.Fprintf(bw, "%s=%d\n", m.featureNames[fi.feature], fi.splits)
	}
	bw.WriteString("\nparameters:\n")
	for _, l := range m.params.paramLines() {
		bw.WriteString(l + "\n")
	}
	bw.WriteString("\nend of parameters\n")
	return bw.Flush()
}

type importance struct{ feature, splits int }

// featureImportances counts the splits with positive gain per feature,
// most used first (ties by feature index), omitting unused features, as
// LightGBM's "split" importance.
func (m *Model) featureImportances() []importance {
	counts := make([]int, len(m.featureNames))
	for i := range m.trees {
		t := &m.trees[i]
		for k, f := range t.splitFeature {
			if t.splitGain[k] > 0 {
				counts[f]++
			}
		}
	}
	var imp []importance
	for f, c := range counts {
		if c > 0 {
			imp = append(imp, importance{f, c})
		}
	}
	slices.SortStableFunc(imp, func(a, b importance) int { return cmp.Compare(b.splits, a.splits) })
	return imp
}

// SaveFile writes the model to path atomically: it goes to a temporary file
// in the same directory, which is synced and renamed over path when complete.
func (m *Model) SaveFile(path string) error {
	if err := atomicfile.Write(path, m.WriteText); err != nil {
		return fmt.Errorf("gbdt: saving model: %w", err)
	}
	return nil
}
