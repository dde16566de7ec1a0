package gbdt

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const handwritten = "testdata/handwritten_v3.txt"

// TestHandwrittenModel loads a LightGBM v3 file written by hand (three trees,
// the middle one a single leaf, thresholds hit exactly) and compares leaves'
// predictions with sums worked out by hand:
//
//	tree 0: nodes <= 1.5 ? 10 : (density <= 0.25 ? 20 : 30)
//	tree 1: 0.5
//	tree 2: density <= -1 ? -2 : 4
func TestHandwrittenModel(t *testing.T) {
	e, err := LoadModel(handwritten)
	if err != nil {
		t.Fatal(err)
	}
	if e.NumTrees() != 3 || e.NumFeatures() != 2 {
		t.Fatalf("got %d trees, %d features; want 3, 2", e.NumTrees(), e.NumFeatures())
	}
	if got := strings.Join(e.FeatureNames(), ","); got != "nodes,density" {
		t.Errorf("feature names %q", got)
	}
	cases := []struct {
		x    []float64
		want float64
	}{
		{[]float64{1, 0}, 10 + 0.5 + 4},
		{[]float64{1.5, -1}, 10 + 0.5 - 2}, // both thresholds hit exactly: left
		{[]float64{2, 0.25}, 20 + 0.5 + 4},
		{[]float64{2, 0.3}, 30 + 0.5 + 4},
		{[]float64{3, -2}, 20 + 0.5 - 2},
		{[]float64{-5, 5}, 10 + 0.5 + 4},
		{[]float64{math.Nextafter(1.5, 2), math.Nextafter(-1, 0)}, 20 + 0.5 + 4},
	}
	X := make([][]float64, len(cases))
	for i, c := range cases {
		got, err := e.Predict(c.x)
		if err != nil {
			t.Fatal(err)
		}
		if got != c.want {
			t.Errorf("Predict(%v) = %v, want %v", c.x, got, c.want)
		}
		X[i] = c.x
	}
	out := make([]float64, len(X))
	if err := e.PredictBatch(X, out); err != nil {
		t.Fatal(err)
	}
	for i, c := range cases {
		if out[i] != c.want {
			t.Errorf("PredictBatch row %d = %v, want %v", i, out[i], c.want)
		}
	}
}

func TestPredictRowErrors(t *testing.T) {
	e, err := LoadModel(handwritten)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range [][]float64{nil, {1}, {1, 2, 3}, {math.NaN(), 0}} {
		if _, err := e.Predict(x); err == nil {
			t.Errorf("Predict(%v) accepted", x)
		}
	}
	if err := e.PredictBatch([][]float64{{1, 2}}, nil); err == nil {
		t.Error("PredictBatch accepted a short output slice")
	}
}

func writeTemp(t *testing.T, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "model.txt")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestRefusedModels edits the hand-written file into broken variants; each
// must be refused with an error mentioning what is wrong. Edits inside a tree
// keep its byte length so that tree_sizes stays right and the check under
// test is the one that fires.
func TestRefusedModels(t *testing.T) {
	orig, err := os.ReadFile(handwritten)
	if err != nil {
		t.Fatal(err)
	}
	s := string(orig)
	cases := []struct {
		name, old, new, want string
	}{
		{"v4", "version=v3", "version=v4", `version "v4" is not supported`},
		{"no version", "version=v3\n", "", "no version"},
		{"not lightgbm", "tree\n", "xgboost\n", "not a LightGBM"},
		{"multiclass", "num_class=1", "num_class=3", "single-output"},
		{"binary", "objective=regression", "objective=binary sigmoid:1", "transforms its output"},
		{"sqrt", "objective=regression", "objective=regression sqrt", "transforms its output"},
		{"feature count", "feature_names=nodes density", "feature_names=nodes", "feature_names"},
		{"tree sizes", "tree_sizes=283 227 249", "tree_sizes=283 228 248", "line boundary"},
		{"tree count", "tree_sizes=283 227 249", "tree_sizes=283 227", `no "end of trees"`},
		{"tree order", "Tree=1\n", "Tree=7\n", `want "Tree=1"`},
		{"short leaf values", "leaf_value=10 20 30", "leaf_value=10 20\nx=", "leaf_value has 2 entries"},
		{"bad number", "leaf_value=10 20 30", "leaf_value=10 2x 30", "not a number"},
		{"feature range", "split_feature=0 1", "split_feature=0 2", "split_feature 2 outside"},
		{"child range", "right_child=1 -3", "right_child=1 -4", "invalid or repeated child"},
		{"cycle", "right_child=1 -3", "right_child=0 -3", "invalid or repeated child"},
		{"linear", "is_linear=0\nshrinkage=0.5", "is_linear=1\nshrinkage=0.5", "linear trees"},
		{"missing field", "decision_type=2\nleft_child=-1\n", "decision_tyqe=2\nleft_child=-1\n", "no decision_type"},
		{"no end", "end of trees", "end of tree", `no "end of trees"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if !strings.Contains(s, c.old) {
				t.Fatalf("%q not in the test file", c.old)
			}
			edited := strings.Replace(s, c.old, c.new, 1)
			_, err := LoadModel(writeTemp(t, []byte(edited)))
			if err == nil {
				t.Fatal("accepted")
			}
			if !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "model.txt:") {
				t.Errorf("error %q does not name the file and %q", err, c.want)
			}
		})
	}
}

// TestTruncatedModels cuts the file at every byte before "end of trees":
// all of them must be refused, none may panic.
func TestTruncatedModels(t *testing.T) {
	orig, err := os.ReadFile(handwritten)
	if err != nil {
		t.Fatal(err)
	}
	end := bytes.Index(orig, []byte("end of trees"))
	for n := 0; n < end+len("end of trees"); n++ {
		if _, err := ReadModel(bytes.NewReader(orig[:n])); err == nil {
			t.Fatalf("file cut to %d of %d bytes accepted", n, len(orig))
		}
	}
	// Cut after the trees: the parameters block is optional.
	if _, err := ReadModel(bytes.NewReader(orig[:end+len("end of trees\n")])); err != nil {
		t.Errorf("model without parameters refused: %v", err)
	}
	p := writeTemp(t, orig[:len(orig)/2])
	_, err = LoadModel(p)
	if err == nil || !strings.Contains(err.Error(), "truncated") {
		t.Errorf("half file: error %v does not say truncated", err)
	}
}

func FuzzReadModel(f *testing.F) {
	orig, err := os.ReadFile(handwritten)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(orig)
	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := ReadModel(bytes.NewReader(data))
		if err != nil {
			return
		}
		x := make([]float64, e.NumFeatures())
		if _, err := e.Predict(x); err != nil {
			t.Fatalf("accepted model cannot predict: %v", err)
		}
	})
}

// assemble builds a v3 model file around tree blocks, computing tree_sizes.
func assemble(header string, trees ...string) []byte {
	var sizes []string
	for _, t := range trees {
		sizes = append(sizes, strconv.Itoa(len(t)))
	}
	return []byte(header + "tree_sizes=" + strings.Join(sizes, " ") + "\n\n" +
		strings.Join(trees, "") + "end of trees\n")
}

// TestCategoricalSplit loads a categorical split as real LightGBM writes it
// (decision_type bit 0, threshold indexing cat_boundaries, a bitset of the
// categories going left): categories 1 and 3 (bitset 0b1010) go left.
func TestCategoricalSplit(t *testing.T) {
	data := assemble("tree\nversion=v3\nnum_class=1\nnum_tree_per_iteration=1\nlabel_index=0\n"+
		"max_feature_idx=0\nobjective=regression\nfeature_names=cat\nfeature_infos=0:1:2:3\n",
		"Tree=0\nnum_leaves=2\nnum_cat=1\nsplit_feature=0\nsplit_gain=1\nthreshold=0\ndecision_type=1\n"+
			"left_child=-1\nright_child=-2\nleaf_value=-1 1\nleaf_weight=2 2\nleaf_count=2 2\n"+
			"internal_value=0\ninternal_weight=4\ninternal_count=4\ncat_boundaries=0 1\ncat_threshold=10\n"+
			"is_linear=0\nshrinkage=1\n\n\n")
	e, err := ReadModel(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	for x, want := range []float64{1, -1, 1, -1, 1} {
		if got, err := e.Predict([]float64{float64(x)}); err != nil || got != want {
			t.Errorf("category %d: %v (%v), want %v", x, got, err, want)
		}
	}
	bad := strings.Replace(string(data), "threshold=0\n", "threshold=1\n", 1)
	if _, err := ReadModel(strings.NewReader(bad)); err == nil || !strings.Contains(err.Error(), "categorical threshold") {
		t.Errorf("categorical index out of range: error %v", err)
	}
}
