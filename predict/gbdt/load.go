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
	hdr, hdrEnd, err := readModelHeader(&tl)
	if err != nil {
		return info, err
	}
	maxFeat, sizes, err := checkModelHeader(hdr, hdrEnd, &info)
	if err != nil {
		return info, err
	}
	return info, checkTreeBlocks(&tl, hdrEnd, sizes, maxFeat)
}

// readModelHeader reads the header block of a model file (the "tree" line,
// then key=value lines up to the first empty line) into a map, and checks
// its version. It returns the map and the 1-based number of the header's
// closing empty line, where errors about header values point. It is
// separate from checkModelHeader so that the line framing and the meaning
// of the values are checked in one place each.
func readModelHeader(tl *textLines) (map[string]string, int, error) {
	nl := len(tl.start)
	if nl == 0 {
		return nil, 0, errors.New("1: empty file")
	}
	if l := tl.line(0); l != "tree" {
		return nil, 0, fmt.Errorf("1: first line is %q, want \"tree\" (not a LightGBM text model)", trunc(l))
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
			return nil, 0, fmt.Errorf("%d: header line %q is not key=value", i+1, trunc(l))
		}
		hdr[k] = v
	}
	hdrEnd := i + 1
	if i == nl {
		return nil, 0, fmt.Errorf("%d: truncated: header does not end with an empty line", nl)
	}
	switch v, ok := hdr["version"]; {
	case !ok:
		return nil, 0, errors.New("1: header has no version")
	case v != "v2" && v != "v3":
		return nil, 0, fmt.Errorf("1: model version %q is not supported (leaves reads v2 and v3 only)", v)
	}
	return hdr, hdrEnd, nil
}

// checkModelHeader checks the header values leaves relies on (a single
// output, a regression objective, feature names and ranges, tree_sizes)
// and fills info's feature names and ranges and tree count as it goes. It
// returns max_feature_idx and the byte size of each tree, which the tree
// blocks are then checked against. Errors point at the header's closing
// line hdrEnd, as the header has no line per value once read into a map.
func checkModelHeader(hdr map[string]string, hdrEnd int, info *modelInfo) (int, []int, error) {
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
		return 0, nil, err
	}
	ntpi, err := hint("num_tree_per_iteration")
	if err != nil {
		return 0, nil, err
	}
	if nc != 1 || ntpi != 1 {
		return 0, nil, fmt.Errorf("%d: num_class=%d num_tree_per_iteration=%d: only single-output regression models are supported", hdrEnd, nc, ntpi)
	}
	maxFeat, err := hint("max_feature_idx")
	if err != nil {
		return 0, nil, err
	}
	if maxFeat < 0 || maxFeat > 1<<20 {
		return 0, nil, fmt.Errorf("%d: max_feature_idx=%d out of range", hdrEnd, maxFeat)
	}
	if obj, ok := hdr["objective"]; ok {
		tok := strings.Fields(obj)
		if len(tok) == 0 || !slices.Contains(identityObjectives, tok[0]) || slices.Contains(tok, "sqrt") {
			return 0, nil, fmt.Errorf("%d: objective %q transforms its output; only regression objectives are supported", hdrEnd, obj)
		}
	}
	names, ok := hdr["feature_names"]
	if !ok {
		return 0, nil, fmt.Errorf("%d: header has no feature_names", hdrEnd)
	}
	info.featureNames = strings.Split(names, " ")
	if len(info.featureNames) != maxFeat+1 {
		return 0, nil, fmt.Errorf("%d: %d feature_names for max_feature_idx=%d", hdrEnd, len(info.featureNames), maxFeat)
	}
	if info.ranges, err = parseFeatureInfos(hdr["feature_infos"], len(info.featureNames)); err != nil {
		return 0, nil, fmt.Errorf("%d: %w", hdrEnd, err)
	}
	sizesText, ok := hdr["tree_sizes"]
	if !ok {
		return 0, nil, fmt.Errorf("%d: header has no tree_sizes", hdrEnd)
	}
	var sizes []int
	for _, s := range strings.Split(sizesText, " ") {
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			return 0, nil, fmt.Errorf("%d: tree_sizes entry %q is not a positive integer", hdrEnd, trunc(s))
		}
		sizes = append(sizes, n)
	}
	info.numTrees = len(sizes)
	return maxFeat, sizes, nil
}

// checkTreeBlocks checks the trees that follow the header (whose closing
// empty line is hdrEnd, 1-based) against tree_sizes, then the "end of
// trees" line. leaves reads the trees as blocks separated by blank lines
// and copes with at most two blank lines before each; LightGBM locates
// them by tree_sizes. Requiring both readings to agree is what this pass
// adds over checking each tree alone.
func checkTreeBlocks(tl *textLines, hdrEnd int, sizes []int, maxFeat int) error {
	nl, data := len(tl.start), tl.data
	first := hdrEnd
	if first < nl && tl.line(first) == "" {
		first++
	}
	if first >= nl {
		return fmt.Errorf("%d: truncated: no trees after the header", nl)
	}
	off := tl.start[first]
	for t, size := range sizes {
		li, ok := tl.lineAt(off)
		if !ok || off+size > len(data) {
			return fmt.Errorf("%d: truncated: tree %d needs %d bytes from offset %d, file has %d", nl, t, size, off, len(data))
		}
		end, ok := tl.lineAt(off + size)
		if !ok && off+size != len(data) {
			return fmt.Errorf("%d: tree_sizes entry %d (%d bytes) does not end on a line boundary", li+1, t, size)
		}
		if !ok {
			end = nl
		}
		if err := checkTree(tl, li, end, t, maxFeat); err != nil {
			return err
		}
		off += size
	}
	li, ok := tl.lineAt(off)
	if !ok || tl.line(li) != "end of trees" {
		return fmt.Errorf("%d: truncated or malformed: no \"end of trees\" after tree %d", min(li+1, nl), len(sizes)-1)
	}
	return nil
}

// checkTree checks the tree block in lines [first, end): its framing, its
// leaves, its split nodes, and that the nodes form one binary tree.
func checkTree(tl *textLines, first, end, t, maxFeat int) error {
	b, err := readTreeBlock(tl, first, end, t)
	if err != nil {
		return err
	}
	numLeaves, numCat, err := b.checkLeaves()
	if err != nil || numLeaves == 1 {
		return err
	}
	nodes, err := b.readNodes(numLeaves-1, numCat)
	if err != nil {
		return err
	}
	if err := b.checkSplits(nodes, maxFeat, numCat); err != nil {
		return err
	}
	return b.checkShape(nodes, numLeaves)
}

// treeBlock is one tree of a model file read into its key=value fields.
type treeBlock struct {
	t, first  int               // tree index; line index of its "Tree=" line
	fields    map[string]string // value of each key
	fieldLine map[string]int    // 1-based line of each key
}

// treeNodes are a tree's split-node arrays, one entry per internal node.
type treeNodes struct {
	feature, decision, left, right []int64
	threshold                      []float64
}

// readTreeBlock reads the tree block in lines [first, end) into its fields
// and checks its framing: a "Tree=t" line, key=value lines, then one or two
// empty lines and nothing else. It is separate from the field checks,
// which look fields up by name and report the line each came from.
func readTreeBlock(tl *textLines, first, end, t int) (*treeBlock, error) {
	if got, want := tl.line(first), "Tree="+strconv.Itoa(t); got != want {
		return nil, fmt.Errorf("%d: found %q, want %q", first+1, trunc(got), want)
	}
	b := &treeBlock{t: t, first: first, fields: map[string]string{}, fieldLine: map[string]int{}}
	i := first + 1
	for ; i < end && tl.line(i) != ""; i++ {
		k, v, ok := keyValue(tl.line(i))
		if !ok {
			return nil, fmt.Errorf("%d: tree %d: line %q is not key=value", i+1, t, trunc(tl.line(i)))
		}
		b.fields[k], b.fieldLine[k] = v, i+1
	}
	blank := end - i
	for ; i < end; i++ {
		if tl.line(i) != "" {
			return nil, fmt.Errorf("%d: tree %d: unexpected line %q after the tree's empty line", i+1, t, trunc(tl.line(i)))
		}
	}
	if blank < 1 || blank > 2 {
		return nil, fmt.Errorf("%d: tree %d: block ends with %d empty lines, want 1 or 2", end, t, blank)
	}
	return b, nil
}

// at returns the 1-based line of field k, or the line after "Tree=" for a
// missing field.
func (b *treeBlock) at(k string) int {
	if l, ok := b.fieldLine[k]; ok {
		return l
	}
	return b.first + 1
}

// ints parses field k as space-separated int32 values; want >= 0 requires
// exactly that many.
func (b *treeBlock) ints(k string, want int) ([]int64, error) {
	return parseField(b, k, want, "an int32", func(s string) (int64, bool) {
		n, err := strconv.ParseInt(s, 10, 32)
		return n, err == nil
	})
}

// floats parses field k as exactly want space-separated numbers (no NaN).
func (b *treeBlock) floats(k string, want int) ([]float64, error) {
	return parseField(b, k, want, "a number", func(s string) (float64, bool) {
		x, err := strconv.ParseFloat(s, 64)
		return x, err == nil && !math.IsNaN(x)
	})
}

// parseField parses field k of b as space-separated values with parse,
// naming what a value must be in the error; want >= 0 requires exactly
// that many values. It is ints' and floats' one loop.
func parseField[T int64 | float64](b *treeBlock, k string, want int, what string, parse func(string) (T, bool)) ([]T, error) {
	v, ok := b.fields[k]
	if !ok {
		return nil, fmt.Errorf("%d: tree %d has no %s", b.first+1, b.t, k)
	}
	var out []T
	if v != "" {
		for _, s := range strings.Split(v, " ") {
			x, ok := parse(s)
			if !ok {
				return nil, fmt.Errorf("%d: tree %d: %s entry %q is not %s", b.at(k), b.t, k, trunc(s), what)
			}
			out = append(out, x)
		}
	}
	if want >= 0 && len(out) != want {
		return nil, fmt.Errorf("%d: tree %d: %s has %d entries, want %d", b.at(k), b.t, k, len(out), want)
	}
	return out, nil
}

// checkLeaves checks the fields every tree has, split or not (num_leaves,
// num_cat, is_linear, leaf_value), and returns the leaf and category
// counts the split nodes are checked against. A one-leaf tree needs
// nothing more.
func (b *treeBlock) checkLeaves() (numLeaves, numCat int, err error) {
	t := b.t
	nlv, err := b.ints("num_leaves", 1)
	if err != nil {
		return 0, 0, err
	}
	numLeaves = int(nlv[0])
	if numLeaves < 1 {
		return 0, 0, fmt.Errorf("%d: tree %d: num_leaves=%d < 1", b.at("num_leaves"), t, numLeaves)
	}
	ncat, err := b.ints("num_cat", 1)
	if err != nil {
		return 0, 0, err
	}
	numCat = int(ncat[0])
	if numCat < 0 {
		return 0, 0, fmt.Errorf("%d: tree %d: num_cat=%d < 0", b.at("num_cat"), t, numCat)
	}
	if v, ok := b.fields["is_linear"]; ok && v != "0" {
		return 0, 0, fmt.Errorf("%d: tree %d: linear trees (is_linear=%s) are not supported by leaves", b.at("is_linear"), t, v)
	}
	leafValue, err := b.floats("leaf_value", numLeaves)
	if err != nil {
		return 0, 0, err
	}
	for _, v := range leafValue {
		if math.IsInf(v, 0) {
			return 0, 0, fmt.Errorf("%d: tree %d: infinite leaf_value", b.at("leaf_value"), t)
		}
	}
	return numLeaves, numCat, nil
}

// readNodes reads the arrays of the tree's nn split nodes, each of nn
// entries, and the categorical split table when numCat > 0, checking that
// cat_boundaries rise from 0 to the end of cat_threshold. All arrays are
// read before any node is checked, so that checkSplits and checkShape can
// index them freely.
func (b *treeBlock) readNodes(nn, numCat int) (treeNodes, error) {
	var n treeNodes
	var err error
	if n.feature, err = b.ints("split_feature", nn); err != nil {
		return n, err
	}
	if n.decision, err = b.ints("decision_type", nn); err != nil {
		return n, err
	}
	if n.left, err = b.ints("left_child", nn); err != nil {
		return n, err
	}
	if n.right, err = b.ints("right_child", nn); err != nil {
		return n, err
	}
	if n.threshold, err = b.floats("threshold", nn); err != nil {
		return n, err
	}
	if numCat == 0 {
		return n, nil
	}
	catBound, err := b.ints("cat_boundaries", numCat+1)
	if err != nil {
		return n, err
	}
	catThr, err := b.ints("cat_threshold", -1)
	if err != nil {
		return n, err
	}
	if catBound[0] != 0 || catBound[numCat] != int64(len(catThr)) {
		return n, fmt.Errorf("%d: tree %d: cat_boundaries do not span cat_threshold", b.at("cat_boundaries"), b.t)
	}
	for c := range numCat {
		if catBound[c+1] < catBound[c] {
			return n, fmt.Errorf("%d: tree %d: cat_boundaries decrease", b.at("cat_boundaries"), b.t)
		}
	}
	return n, nil
}

// checkSplits checks each split node alone: its feature exists, its
// decision type is one leaves knows, and its threshold is finite or, for a
// categorical split, indexes cat_boundaries. Node by node, apart from
// checkShape, which checks the nodes together.
func (b *treeBlock) checkSplits(n treeNodes, maxFeat, numCat int) error {
	t, sf, dt, thr := b.t, n.feature, n.decision, n.threshold
	for k := range sf {
		if sf[k] < 0 || sf[k] > int64(maxFeat) {
			return fmt.Errorf("%d: tree %d: split_feature %d outside [0, %d]", b.at("split_feature"), t, sf[k], maxFeat)
		}
		if dt[k] < 0 || dt[k] > 15 || (dt[k]>>2)&3 == 3 {
			return fmt.Errorf("%d: tree %d: decision_type %d is not valid", b.at("decision_type"), t, dt[k])
		}
		if dt[k]&1 != 0 { // categorical: threshold indexes cat_boundaries
			c := thr[k]
			if c != math.Trunc(c) || c < 0 || c >= float64(numCat) {
				return fmt.Errorf("%d: tree %d: categorical threshold %v outside [0, num_cat=%d)", b.at("threshold"), t, c, numCat)
			}
		} else if math.IsInf(thr[k], 0) {
			return fmt.Errorf("%d: tree %d: infinite threshold", b.at("threshold"), t)
		}
	}
	return nil
}

// checkShape checks the nodes form a proper binary tree: from the root,
// every other node and every leaf is reached exactly once. leaves walks
// the children without bounds checks, so this is what keeps it in range.
func (b *treeBlock) checkShape(n treeNodes, numLeaves int) error {
	nn, lc, rc := len(n.left), n.left, n.right
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
				return fmt.Errorf("%d: tree %d: node %d has invalid or repeated child %d", b.at("left_child"), b.t, k, c)
			}
		}
	}
	if slices.Contains(seenNode, false) || slices.Contains(seenLeaf, false) {
		return fmt.Errorf("%d: tree %d: some nodes or leaves are unreachable from the root", b.at("left_child"), b.t)
	}
	return nil
}

func trunc(s string) string {
	if len(s) > 60 {
		return s[:60] + "..."
	}
	return s
}
