package graphs

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gnnsim/internal/boundedio"
)

// LoadTU reads a data set in the TUDataset raw text format (Morris et al.,
// "TUDataset: A collection of benchmark datasets for learning with graphs").
// dirOrPrefix is either the directory holding the files, which must contain
// exactly one DS_A.txt, or the path prefix ".../ENZYMES/ENZYMES" to which
// the suffixes below are appended. The data set name DS is the base name of
// the prefix.
//
//	DS_A.txt                  required: one edge per line, "i, j" (1-based
//	                          global node ids; spacing varies: "8,1", "8, 1")
//	DS_graph_indicator.txt    required: line i holds the graph id of node i
//	DS_graph_labels.txt       optional: line k holds the label of graph k
//	DS_node_attributes.txt    optional: line i holds node i's attributes,
//	                          comma-separated floats, same count on every line
//
// Graph ids must run from 1 to the number of graphs without gaps. Each graph
// keeps its nodes in their global order, renumbered from 0, so node i of the
// file becomes node "number of earlier nodes in the same graph". Edges are
// symmetrized, duplicates merged and self-loops dropped (the files list both
// directions; FromEdges makes that harmless either way); an edge joining
// two graphs is an error. Graph k (1-based) is named DS_g<k> with Source
// "TU:DS graph_id=<k>". Node and edge labels are not read: a Graph carries
// neither.
func LoadTU(dirOrPrefix string) ([]*Graph, error) {
	prefix, err := tuPrefix(dirOrPrefix)
	if err != nil {
		return nil, err
	}
	open := func(suffix string, required bool) (io.ReadCloser, error) {
		f, err := boundedio.Open(prefix+suffix, boundedio.Graph)
		if err != nil && !required && errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
		if err != nil {
			return nil, fmt.Errorf("graphs: TU data set %s: %w", prefix, err)
		}
		return f, nil
	}
	var files [4]io.ReadCloser
	defer func() {
		for _, f := range files {
			if f != nil {
				f.Close()
			}
		}
	}()
	for k, s := range []struct {
		suffix   string
		required bool
	}{{tuSuffixA, true}, {tuSuffixIndicator, true}, {tuSuffixLabels, false}, {tuSuffixAttrs, false}} {
		if files[k], err = open(s.suffix, s.required); err != nil {
			return nil, err
		}
	}
	// Pass absent optional files as nil interfaces, not typed nil pointers.
	var labels, attrs io.Reader
	if files[2] != nil {
		labels = files[2]
	}
	if files[3] != nil {
		attrs = files[3]
	}
	return readTU(prefix, files[0], files[1], labels, attrs)
}

const (
	tuSuffixA         = "_A.txt"
	tuSuffixIndicator = "_graph_indicator.txt"
	tuSuffixLabels    = "_graph_labels.txt"
	tuSuffixAttrs     = "_node_attributes.txt"
)

// tuPrefix turns LoadTU's argument into the path prefix of the file set.
func tuPrefix(dirOrPrefix string) (string, error) {
	p := strings.TrimSuffix(dirOrPrefix, tuSuffixA)
	st, err := os.Stat(p)
	if err != nil || !st.IsDir() {
		return p, nil // a prefix; opening P_A.txt reports a missing set
	}
	ents, err := os.ReadDir(p)
	if err != nil {
		return "", fmt.Errorf("graphs: TU data set: %w", err)
	}
	var found []string
	for _, e := range ents {
		if name := e.Name(); !e.IsDir() && strings.HasSuffix(name, tuSuffixA) {
			found = append(found, name)
		}
	}
	switch len(found) {
	case 0:
		return "", fmt.Errorf("graphs: TU data set: no *%s file in directory %s", tuSuffixA, p)
	case 1:
		return filepath.Join(p, strings.TrimSuffix(found[0], tuSuffixA)), nil
	default:
		return "", fmt.Errorf("graphs: TU data set: directory %s holds several data sets (%s); pass the path prefix",
			p, strings.Join(found, ", "))
	}
}

// readTU parses a TUDataset file set. prefix names the files in errors
// (prefix+"_A.txt", ...) and its base name is the data set name. labels and
// attrs may be nil when the files are absent.
func readTU(prefix string, a, indicator, labels, attrs io.Reader) ([]*Graph, error) {
	ds := filepath.Base(prefix)
	gid, err := readTUIndicator(indicator, prefix+tuSuffixIndicator)
	if err != nil {
		return nil, err
	}
	numGraphs := int(slices.Max(gid)) + 1
	count := make([]int32, numGraphs) // nodes per graph
	local := make([]int32, len(gid))  // node id within its graph
	for i, g := range gid {
		local[i] = count[g]
		count[g]++
	}
	if g := slices.Index(count, 0); g >= 0 {
		return nil, &ParseError{File: prefix + tuSuffixIndicator,
			Err: fmt.Errorf("graph id %d has no nodes (ids must run from 1 to %d without gaps)", g+1, numGraphs)}
	}

	eu, ev, err := readTUEdges(a, prefix+tuSuffixA, gid)
	if err != nil {
		return nil, err
	}
	// Counting sort of the edges by graph, translated to local ids, so each
	// graph's edges form one contiguous run for FromEdges.
	off := make([]int, numGraphs+1)
	for _, x := range eu {
		off[gid[x]+1]++
	}
	for g := range numGraphs {
		off[g+1] += off[g]
	}
	next := slices.Clone(off[:numGraphs])
	lu := make([]int32, len(eu))
	lv := make([]int32, len(eu))
	for k, x := range eu {
		g := gid[x]
		lu[next[g]], lv[next[g]] = local[x], local[ev[k]]
		next[g]++
	}

	graphs := make([]*Graph, numGraphs)
	for g := range graphs {
		h, err := FromEdges(int(count[g]), lu[off[g]:off[g+1]], lv[off[g]:off[g+1]])
		if err != nil {
			return nil, fmt.Errorf("graphs: %s%s: graph %d: %w", prefix, tuSuffixA, g+1, err)
		}
		id := strconv.Itoa(g + 1)
		h.Name = ds + "_g" + id
		h.Source = "TU:" + ds + " graph_id=" + id
		graphs[g] = h
	}
	if labels != nil {
		if err := readTULabels(labels, prefix+tuSuffixLabels, graphs); err != nil {
			return nil, err
		}
	}
	if attrs != nil {
		if err := readTUAttrs(attrs, prefix+tuSuffixAttrs, gid, local, count, graphs); err != nil {
			return nil, err
		}
	}
	return graphs, nil
}

// readTUIndicator returns the 0-based graph index of every node. It checks
// that ids are at least 1 and at most the node count (a larger id would
// leave some graph without nodes), so the caller may allocate per graph.
func readTUIndicator(r io.Reader, file string) ([]int32, error) {
	s := newLineScanner(r, file)
	var gid []int32
	maxLine, maxID := 0, int64(0)
	for {
		t, ok, err := s.record()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		id, ok := parseDecInt(t)
		if !ok {
			return nil, s.errorf("bad graph id %s", quoteToken(t))
		}
		if id < 1 || id > math.MaxInt32 {
			return nil, s.errorf("graph id %d out of range [1, %d]", id, math.MaxInt32)
		}
		if len(gid) == math.MaxInt32 {
			return nil, s.errorf("more than %d nodes", math.MaxInt32)
		}
		if id > maxID {
			maxID, maxLine = id, s.line
		}
		gid = append(gid, int32(id-1))
	}
	if len(gid) == 0 {
		return nil, s.fileErrorf("empty file: no nodes")
	}
	if maxID > int64(len(gid)) {
		return nil, &ParseError{File: file, Line: maxLine,
			Err: fmt.Errorf("graph id %d exceeds the node count %d (every graph needs a node)", maxID, len(gid))}
	}
	return gid, nil
}

// readTUEdges returns the edges of the A file as 0-based global node ids,
// checking them against the node count and graph membership from gid.
func readTUEdges(r io.Reader, file string, gid []int32) (eu, ev []int32, err error) {
	s := newLineScanner(r, file)
	n := int64(len(gid))
	var fs [][]byte
	for s.scan() {
		t := s.text()
		if len(t) == 0 {
			continue
		}
		fs = splitComma(fs[:0], t)
		if len(fs) != 2 {
			return nil, nil, s.errorf("want \"i, j\", got %d comma-separated fields", len(fs))
		}
		var ij [2]int64
		for k, f := range fs {
			x, ok := parseDecInt(f)
			if !ok {
				return nil, nil, s.errorf("bad node id %s", quoteToken(f))
			}
			if x < 1 || x > n {
				return nil, nil, s.errorf("node id %d out of range [1, %d] (the node count of the graph indicator)", x, n)
			}
			ij[k] = x - 1
		}
		i, j := int32(ij[0]), int32(ij[1])
		if gid[i] != gid[j] {
			return nil, nil, s.errorf("edge (%d, %d) joins graph %d and graph %d", i+1, j+1, gid[i]+1, gid[j]+1)
		}
		eu = append(eu, i)
		ev = append(ev, j)
	}
	if err := s.err(); err != nil {
		return nil, nil, err
	}
	return eu, ev, nil
}

// readTULabels sets Label on every graph; the file must hold one integer
// per graph.
func readTULabels(r io.Reader, file string, graphs []*Graph) error {
	s := newLineScanner(r, file)
	k := 0
	for {
		t, ok, err := s.record()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		if k == len(graphs) {
			return s.errorf("more labels than the %d graphs of the graph indicator", len(graphs))
		}
		x, ok := parseDecInt(t)
		if !ok {
			return s.errorf("bad graph label %s", quoteToken(t))
		}
		graphs[k].Label, graphs[k].HasLabel = x, true
		k++
	}
	if k != len(graphs) {
		return s.fileErrorf("%d labels for %d graphs", k, len(graphs))
	}
	return nil
}

// readTUAttrs sets NodeAttr and AttrDim on every graph. The attributes of
// all graphs share one backing array, each graph's rows contiguous.
func readTUAttrs(r io.Reader, file string, gid, local, count []int32, graphs []*Graph) error {
	s := newLineScanner(r, file)
	n := len(gid)
	dim := 0
	var vals []float64
	var fs [][]byte
	nodes := 0
	for {
		t, ok, err := s.record()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		if nodes == n {
			return s.errorf("more attribute lines than the %d nodes of the graph indicator", n)
		}
		fs = splitComma(fs[:0], t)
		if dim == 0 {
			dim = len(fs)
			// The line count is checked only at the end, so cap the
			// up-front reservation rather than trust n*dim.
			vals = make([]float64, 0, min(n*dim, 1<<20))
		} else if len(fs) != dim {
			return s.errorf("%d attributes, line 1 has %d", len(fs), dim)
		}
		for _, f := range fs {
			x, err := parseFiniteFloat(f)
			if err != nil {
				return s.errorf("attribute: %v", err)
			}
			vals = append(vals, x)
		}
		nodes++
	}
	if nodes != n {
		return s.fileErrorf("%d attribute lines for %d nodes", nodes, n)
	}
	// Row i goes to position start[graph]+local[i] in graph order; when the
	// file lists graphs contiguously in id order (the usual case) that is i
	// and no copy is needed.
	start := make([]int, len(graphs)+1)
	for g, c := range count {
		start[g+1] = start[g] + int(c)
	}
	inOrder := true
	for i := range gid {
		if start[gid[i]]+int(local[i]) != i {
			inOrder = false
			break
		}
	}
	if !inOrder {
		sorted := make([]float64, len(vals))
		for i := range gid {
			p := start[gid[i]] + int(local[i])
			copy(sorted[p*dim:(p+1)*dim], vals[i*dim:(i+1)*dim])
		}
		vals = sorted
	}
	for g, h := range graphs {
		lo, hi := start[g]*dim, start[g+1]*dim
		h.NodeAttr, h.AttrDim = vals[lo:hi:hi], dim
	}
	return nil
}
