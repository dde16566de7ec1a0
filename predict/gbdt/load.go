package gbdt

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/dmitryikh/leaves"

	"gnnsim/internal/boundedio"
)

// MaxModelBytes bounds the size of a model file LoadModel and ReadModel
// accept; models of a few hundred trees take well under a megabyte.
const MaxModelBytes = 1 << 30

// Ensemble is a LightGBM text model loaded for inference through leaves.
// It is safe for concurrent use.
type Ensemble struct {
	lv           *leaves.Ensemble
	featureNames []string
	ranges       []FeatureRange
	numTrees     int
}

// FeatureRange is the range of a feature's training values, from the
// model's feature_infos ("[min:max]"); Known is false where the file gives
// none ("none", a feature never split on, or no feature_infos line).
type FeatureRange struct {
	Min, Max float64
	Known    bool
}

// FeatureRanges returns the training range of every feature (a copy):
// rows outside them are extrapolations, where tree models answer with
// their edge leaves.
func (e *Ensemble) FeatureRanges() []FeatureRange { return slices.Clone(e.ranges) }

// NumFeatures returns the width of the rows the model takes.
func (e *Ensemble) NumFeatures() int { return len(e.featureNames) }

// NumTrees returns the number of trees.
func (e *Ensemble) NumTrees() int { return e.numTrees }

// FeatureNames returns the feature names of the file (a copy).
func (e *Ensemble) FeatureNames() []string { return slices.Clone(e.featureNames) }

// outPool recycles leaves' one-element output slices: leaves writes
// through an interface, so a local array would escape to the heap on every
// prediction.
var outPool = sync.Pool{New: func() any { return new([1]float64) }}

// Predict returns the model's prediction for one row (raw score: no output
// transform is applied). It does not allocate.
func (e *Ensemble) Predict(x []float64) (float64, error) {
	if err := checkRow(x, len(e.featureNames)); err != nil {
		return 0, err
	}
	out := outPool.Get().(*[1]float64)
	err := e.lv.Predict(x, 0, out[:])
	v := out[0]
	outPool.Put(out)
	if err != nil {
		return 0, fmt.Errorf("gbdt: leaves: %w", err)
	}
	return v, nil
}

// PredictBatch writes the prediction of each row of X into out[:len(X)].
func (e *Ensemble) PredictBatch(X [][]float64, out []float64) error {
	if len(out) < len(X) {
		return fmt.Errorf("gbdt: output has room for %d predictions, need %d", len(out), len(X))
	}
	for i, x := range X {
		if err := checkRow(x, len(e.featureNames)); err != nil {
			return fmt.Errorf("row %d: %w", i, err)
		}
		if err := e.lv.Predict(x, 0, out[i:i+1]); err != nil {
			return fmt.Errorf("gbdt: leaves: row %d: %w", i, err)
		}
	}
	return nil
}

// LoadModel reads a LightGBM text model (version v2 or v3, single-output
// regression) and prepares it for inference through leaves. The file is
// checked in full first, so a truncated, newer (v4) or malformed file is
// refused with an error naming the file and line instead of being
// half-read or crashing leaves.
func LoadModel(path string) (*Ensemble, error) {
	f, err := boundedio.Open(path, boundedio.Model)
	if err != nil {
		return nil, fmt.Errorf("gbdt: %w", err)
	}
	defer f.Close()
	return readModel(f, path)
}

// ReadModel is LoadModel for a model held in r.
func ReadModel(r io.Reader) (*Ensemble, error) { return readModel(r, "model") }

func readModel(r io.Reader, name string) (e *Ensemble, err error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxModelBytes+1))
	if err != nil {
		return nil, fmt.Errorf("gbdt: reading %s: %w", name, err)
	}
	if len(data) > MaxModelBytes {
		return nil, fmt.Errorf("gbdt: %s is larger than %d bytes", name, MaxModelBytes)
	}
	info, err := checkModelText(data)
	if err != nil {
		return nil, fmt.Errorf("gbdt: %s:%w", name, err)
	}
	// checkModelText covers everything leaves indexes, so a panic here
	// would be a gap in it; report it rather than crash the caller.
	defer func() {
		if p := recover(); p != nil {
			e, err = nil, fmt.Errorf("gbdt: %s: leaves failed on the model: %v", name, p)
		}
	}()
	lv, err := leaves.LGEnsembleFromReader(bufio.NewReader(bytes.NewReader(data)), false)
	if err != nil {
		return nil, fmt.Errorf("gbdt: %s: leaves: %w", name, err)
	}
	if lv.NEstimators() != info.numTrees || lv.NRawOutputGroups() != 1 {
		return nil, fmt.Errorf("gbdt: %s: leaves read %d trees x %d outputs, file has %d x 1",
			name, lv.NEstimators(), lv.NRawOutputGroups(), info.numTrees)
	}
	return &Ensemble{lv: lv, featureNames: info.featureNames, ranges: info.ranges, numTrees: info.numTrees}, nil
}

type modelInfo struct {
	featureNames []string
	ranges       []FeatureRange
	numTrees     int
}

// parseFeatureInfos reads LightGBM's feature_infos header: one token per
// feature, "[min:max]" for numeric features, "none" for unused ones.
// Tokens it cannot read give unknown ranges, as LightGBM's categorical
// lists ("1:2:3") do.
func parseFeatureInfos(v string, n int) ([]FeatureRange, error) {
	out := make([]FeatureRange, n)
	tok := strings.Fields(v)
	if len(tok) != n {
		return out, nil
	}
	for i, t := range tok {
		inner, ok := strings.CutPrefix(t, "[")
		if inner, ok = strings.CutSuffix(inner, "]"); !ok {
			continue
		}
		a, b, ok := strings.Cut(inner, ":")
		if !ok {
			continue
		}
		lo, err1 := strconv.ParseFloat(a, 64)
		hi, err2 := strconv.ParseFloat(b, 64)
		if err1 == nil && err2 == nil {
			// Numbers that are no range (NaN, Inf, min above max) mean a
			// damaged file, not an unknown range.
			if !(lo <= hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
				return nil, fmt.Errorf("feature_infos: feature %d has range %s, not a finite [min:max]", i, cutText(t))
			}
			out[i] = FeatureRange{Min: lo, Max: hi, Known: true}
		}
	}
	return out, nil
}

// cutText shortens a token quoted in an error to 80 characters.
func cutText(s string) string {
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}

// textLines splits a model file into lines, remembering where each starts.
type textLines struct {
	data  []byte
	start []int // byte offset of each line
}

func splitLines(data []byte) textLines {
	tl := textLines{data: data}
	for off := 0; off < len(data); {
		tl.start = append(tl.start, off)
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			break
		}
		off += i + 1
	}
	return tl
}

// line returns line i without its newline (and without a trailing '\r').
func (tl *textLines) line(i int) string {
	end := len(tl.data)
	if i+1 < len(tl.start) {
		end = tl.start[i+1]
	}
	s := string(tl.data[tl.start[i]:end])
	s = strings.TrimSuffix(s, "\n")
	return strings.TrimSuffix(s, "\r")
}

// lineAt returns the index of the line starting at byte offset off, if any.
func (tl *textLines) lineAt(off int) (int, bool) {
	return slices.BinarySearch(tl.start, off)
}

// keyValue splits "key=value" the way leaves does: exactly one '='.
func keyValue(s string) (string, string, bool) {
	k, v, ok := strings.Cut(s, "=")
	if !ok || strings.Contains(v, "=") {
		return "", "", false
	}
	return k, v, true
}

// identityObjectives are the LightGBM objectives whose prediction is the raw
// score, so leaves without an output transform returns the model's value.
var identityObjectives = []string{"regression", "regression_l2", "regression_l1", "huber", "fair", "quantile", "mape"}

// checkModelText verifies a LightGBM text model before leaves reads it:
// every field leaves uses is present and in range, every tree is a proper
// binary tree, and the trees end with "end of trees" where tree_sizes says.
// Errors start with the line number.
func checkModelText(data []byte) (modelInfo, error) {
	var info modelInfo
	tl := splitLines(data)
	nl := len(tl.start)
	if nl == 0 {
		return info, errors.New("1: empty file")
	}
	if l := tl.line(0); l != "tree" {
		return info, fmt.Errorf("1: first line is %q, want \"tree\" (not a LightGBM text model)", trunc(l))
	}
	hdr := map[string]string{}
	i := 1
	for ; i < nl && tl.line(i) != ""; i++ {
		l := tl.line(i)
		k, v, ok := keyValue(l)
		if !ok {
			if l == "average_output" {
				hdr[l] = ""
				continue
			}
			return info, fmt.Errorf("%d: header line %q is not key=value", i+1, trunc(l))
		}
		hdr[k] = v
	}
	hdrEnd := i + 1
	if i == nl {
		return info, fmt.Errorf("%d: truncated: header does not end with an empty line", nl)
	}
	switch v, ok := hdr["version"]; {
	case !ok:
		return info, errors.New("1: header has no version")
	case v != "v2" && v != "v3":
		return info, fmt.Errorf("1: model version %q is not supported (leaves reads v2 and v3 only)", v)
	}
	hint := func(key string) (int, error) {
		v, ok := hdr[key]
		if !ok {
			return 0, fmt.Errorf("%d: header has no %s", hdrEnd, key)
		}
		n, err := strconv.Atoi(v)
		if err != nil {
			return 0, fmt.Errorf("%d: header %s=%q is not an integer", hdrEnd, key, v)
		}
		return n, nil
	}
	nc, err := hint("num_class")
	if err != nil {
		return info, err
	}
	ntpi, err := hint("num_tree_per_iteration")
	if err != nil {
		return info, err
	}
	if nc != 1 || ntpi != 1 {
		return info, fmt.Errorf("%d: num_class=%d num_tree_per_iteration=%d: only single-output regression models are supported", hdrEnd, nc, ntpi)
	}
	maxFeat, err := hint("max_feature_idx")
	if err != nil {
		return info, err
	}
	if maxFeat < 0 || maxFeat > 1<<20 {
		return info, fmt.Errorf("%d: max_feature_idx=%d out of range", hdrEnd, maxFeat)
	}
	if obj, ok := hdr["objective"]; ok {
		tok := strings.Fields(obj)
		if len(tok) == 0 || !slices.Contains(identityObjectives, tok[0]) || slices.Contains(tok, "sqrt") {
			return info, fmt.Errorf("%d: objective %q transforms its output; only regression objectives are supported", hdrEnd, obj)
		}
	}
	names, ok := hdr["feature_names"]
	if !ok {
		return info, fmt.Errorf("%d: header has no feature_names", hdrEnd)
	}
	info.featureNames = strings.Split(names, " ")
	if len(info.featureNames) != maxFeat+1 {
		return info, fmt.Errorf("%d: %d feature_names for max_feature_idx=%d", hdrEnd, len(info.featureNames), maxFeat)
	}
	if info.ranges, err = parseFeatureInfos(hdr["feature_infos"], len(info.featureNames)); err != nil {
		return info, fmt.Errorf("%d: %w", hdrEnd, err)
	}
	sizesText, ok := hdr["tree_sizes"]
	if !ok {
		return info, fmt.Errorf("%d: header has no tree_sizes", hdrEnd)
	}
	var sizes []int
	for _, s := range strings.Split(sizesText, " ") {
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			return info, fmt.Errorf("%d: tree_sizes entry %q is not a positive integer", hdrEnd, trunc(s))
		}
		sizes = append(sizes, n)
	}
	info.numTrees = len(sizes)

	// leaves reads the trees as blocks separated by blank lines and copes
	// with at most two blank lines before each; LightGBM locates them by
	// tree_sizes. Require both readings to agree.
	first := hdrEnd
	if first < nl && tl.line(first) == "" {
		first++
	}
	if first >= nl {
		return info, fmt.Errorf("%d: truncated: no trees after the header", nl)
	}
	off := tl.start[first]
	for t, size := range sizes {
		li, ok := tl.lineAt(off)
		if !ok || off+size > len(data) {
			return info, fmt.Errorf("%d: truncated: tree %d needs %d bytes from offset %d, file has %d", nl, t, size, off, len(data))
		}
		end, ok := tl.lineAt(off + size)
		if !ok && off+size != len(data) {
			return info, fmt.Errorf("%d: tree_sizes entry %d (%d bytes) does not end on a line boundary", li+1, t, size)
		}
		if !ok {
			end = nl
		}
		if err := checkTree(&tl, li, end, t, maxFeat); err != nil {
			return info, err
		}
		off += size
	}
	li, ok := tl.lineAt(off)
	if !ok || tl.line(li) != "end of trees" {
		return info, fmt.Errorf("%d: truncated or malformed: no \"end of trees\" after tree %d", min(li+1, nl), len(sizes)-1)
	}
	return info, nil
}

// checkTree checks the tree block in lines [first, end).
func checkTree(tl *textLines, first, end, t, maxFeat int) error {
	if got, want := tl.line(first), "Tree="+strconv.Itoa(t); got != want {
		return fmt.Errorf("%d: found %q, want %q", first+1, trunc(got), want)
	}
	fields := map[string]string{}
	fieldLine := map[string]int{}
	i := first + 1
	for ; i < end && tl.line(i) != ""; i++ {
		k, v, ok := keyValue(tl.line(i))
		if !ok {
			return fmt.Errorf("%d: tree %d: line %q is not key=value", i+1, t, trunc(tl.line(i)))
		}
		fields[k], fieldLine[k] = v, i+1
	}
	blank := end - i
	for ; i < end; i++ {
		if tl.line(i) != "" {
			return fmt.Errorf("%d: tree %d: unexpected line %q after the tree's empty line", i+1, t, trunc(tl.line(i)))
		}
	}
	if blank < 1 || blank > 2 {
		return fmt.Errorf("%d: tree %d: block ends with %d empty lines, want 1 or 2", end, t, blank)
	}
	at := func(k string) int {
		if l, ok := fieldLine[k]; ok {
			return l
		}
		return first + 1
	}
	ints := func(k string, want int) ([]int64, error) {
		v, ok := fields[k]
		if !ok {
			return nil, fmt.Errorf("%d: tree %d has no %s", first+1, t, k)
		}
		var out []int64
		if v != "" {
			for _, s := range strings.Split(v, " ") {
				n, err := strconv.ParseInt(s, 10, 32)
				if err != nil {
					return nil, fmt.Errorf("%d: tree %d: %s entry %q is not an int32", at(k), t, k, trunc(s))
				}
				out = append(out, n)
			}
		}
		if want >= 0 && len(out) != want {
			return nil, fmt.Errorf("%d: tree %d: %s has %d entries, want %d", at(k), t, k, len(out), want)
		}
		return out, nil
	}
	floats := func(k string, want int) ([]float64, error) {
		v, ok := fields[k]
		if !ok {
			return nil, fmt.Errorf("%d: tree %d has no %s", first+1, t, k)
		}
		var out []float64
		if v != "" {
			for _, s := range strings.Split(v, " ") {
				x, err := strconv.ParseFloat(s, 64)
				if err != nil || math.IsNaN(x) {
					return nil, fmt.Errorf("%d: tree %d: %s entry %q is not a number", at(k), t, k, trunc(s))
				}
				out = append(out, x)
			}
		}
		if len(out) != want {
			return nil, fmt.Errorf("%d: tree %d: %s has %d entries, want %d", at(k), t, k, len(out), want)
		}
		return out, nil
	}

	nlv, err := ints("num_leaves", 1)
	if err != nil {
		return err
	}
	numLeaves := int(nlv[0])
	if numLeaves < 1 {
		return fmt.Errorf("%d: tree %d: num_leaves=%d < 1", at("num_leaves"), t, numLeaves)
	}
	ncat, err := ints("num_cat", 1)
	if err != nil {
		return err
	}
	numCat := int(ncat[0])
	if numCat < 0 {
		return fmt.Errorf("%d: tree %d: num_cat=%d < 0", at("num_cat"), t, numCat)
	}
	if v, ok := fields["is_linear"]; ok && v != "0" {
		return fmt.Errorf("%d: tree %d: linear trees (is_linear=%s) are not supported by leaves", at("is_linear"), t, v)
	}
	leafValue, err := floats("leaf_value", numLeaves)
	if err != nil {
		return err
	}
	for _, v := range leafValue {
		if math.IsInf(v, 0) {
			return fmt.Errorf("%d: tree %d: infinite leaf_value", at("leaf_value"), t)
		}
	}
	if numLeaves == 1 {
		return nil
	}
	nn := numLeaves - 1
	sf, err := ints("split_feature", nn)
	if err != nil {
		return err
	}
	dt, err := ints("decision_type", nn)
	if err != nil {
		return err
	}
	lc, err := ints("left_child", nn)
	if err != nil {
		return err
	}
	rc, err := ints("right_child", nn)
	if err != nil {
		return err
	}
	thr, err := floats("threshold", nn)
	if err != nil {
		return err
	}
	var catBound, catThr []int64
	if numCat > 0 {
		if catBound, err = ints("cat_boundaries", numCat+1); err != nil {
			return err
		}
		if catThr, err = ints("cat_threshold", -1); err != nil {
			return err
		}
		if catBound[0] != 0 || catBound[numCat] != int64(len(catThr)) {
			return fmt.Errorf("%d: tree %d: cat_boundaries do not span cat_threshold", at("cat_boundaries"), t)
		}
		for c := range numCat {
			if catBound[c+1] < catBound[c] {
				return fmt.Errorf("%d: tree %d: cat_boundaries decrease", at("cat_boundaries"), t)
			}
		}
	}
	for k := range nn {
		if sf[k] < 0 || sf[k] > int64(maxFeat) {
			return fmt.Errorf("%d: tree %d: split_feature %d outside [0, %d]", at("split_feature"), t, sf[k], maxFeat)
		}
		if dt[k] < 0 || dt[k] > 15 || (dt[k]>>2)&3 == 3 {
			return fmt.Errorf("%d: tree %d: decision_type %d is not valid", at("decision_type"), t, dt[k])
		}
		if dt[k]&1 != 0 { // categorical: threshold indexes cat_boundaries
			c := thr[k]
			if c != math.Trunc(c) || c < 0 || c >= float64(numCat) {
				return fmt.Errorf("%d: tree %d: categorical threshold %v outside [0, num_cat=%d)", at("threshold"), t, c, numCat)
			}
		} else if math.IsInf(thr[k], 0) {
			return fmt.Errorf("%d: tree %d: infinite threshold", at("threshold"), t)
		}
	}
	// A proper binary tree: from the root, every other node and every leaf
	// is reached exactly once.
	seenNode := make([]bool, nn)
	seenLeaf := make([]bool, numLeaves)
	seenNode[0] = true
	stack := []int{0}
	for len(stack) > 0 {
		k := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, c := range [2]int64{lc[k], rc[k]} {
			switch {
			case c >= 0 && c < int64(nn) && !seenNode[c]:
				seenNode[c] = true
				stack = append(stack, int(c))
			case c < 0 && ^c < int64(numLeaves) && !seenLeaf[^c]:
				seenLeaf[^c] = true
			default:
				return fmt.Errorf("%d: tree %d: node %d has invalid or repeated child %d", at("left_child"), t, k, c)
			}
		}
	}
	if slices.Contains(seenNode, false) || slices.Contains(seenLeaf, false) {
		return fmt.Errorf("%d: tree %d: some nodes or leaves are unreachable from the root", at("left_child"), t)
	}
	return nil
}

func trunc(s string) string {
	if len(s) > 60 {
		return s[:60] + "..."
	}
	return s
}
