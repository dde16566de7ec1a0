package graphs

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
)

// ParseRange parses a count range: "" (both defaults), "N", "A:B", "A:" or
// ":B". Zero in the result means "generator default".
func ParseRange(s string) (lo, hi int, err error) {
	if s == "" {
		return 0, 0, nil
	}
	num := func(part string) (int, error) {
		if part == "" {
			return 0, nil
		}
		v, err := strconv.Atoi(part)
		if err != nil || v < 1 {
			return 0, fmt.Errorf("%q is not a positive integer (want A:B, A:, :B or N)", part)
		}
		return v, nil
	}
	a, b, ok := strings.Cut(strings.TrimSpace(s), ":")
	if !ok {
		if a == "" {
			return 0, 0, errors.New("empty range")
		}
		v, err := num(a)
		return v, v, err
	}
	if a == "" && b == "" {
		return 0, 0, errors.New(`":" names no bound (want A:B, A:, :B or N)`)
	}
	if lo, err = num(strings.TrimSpace(a)); err != nil {
		return 0, 0, err
	}
	if hi, err = num(strings.TrimSpace(b)); err != nil {
		return 0, 0, err
	}
	if lo != 0 && hi != 0 && lo > hi {
		return 0, 0, fmt.Errorf("range %s is empty: %d > %d", s, lo, hi)
	}
	return lo, hi, nil
}

// ParseParams turns KEY=VALUE strings into a map; a key given twice is an
// error rather than a silent override.
func ParseParams(kvs []string) (map[string]float64, error) {
	if len(kvs) == 0 {
		return nil, nil
	}
	m := make(map[string]float64, len(kvs))
	for _, kv := range kvs {
		k, v, ok := strings.Cut(kv, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			return nil, fmt.Errorf("%q: want KEY=VALUE", kv)
		}
		x, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("%q: value is not a finite number", kv)
		}
		if _, dup := m[k]; dup {
			return nil, fmt.Errorf("parameter %s given twice", k)
		}
		m[k] = x
	}
	return m, nil
}

// SetInfo summarises a graph-set file as 'gnnsim graphs info' prints it
// (its JSON as is): the file's metadata, each feature's range and the
// graphs' occupancy of Graphlaxy's plane.
type SetInfo struct {
	File      string            `json:"file"`
	Graphs    int               `json:"graphs"`
	Meta      map[string]string `json:"meta"`
	Features  []FeatureRange    `json:"features"`
	Occupancy *Occupancy        `json:"occupancy"`
}

// FeatureRange is one feature's minimum, mean and maximum over a set.
type FeatureRange struct {
	Name string  `json:"name"`
	Min  float64 `json:"min"`
	Mean float64 `json:"mean"`
	Max  float64 `json:"max"`
}

// Occupancy counts graphs over Graphlaxy's plane: Counts[i][j] is row i of
// clustering (bin i of [0, 1]) and column j of log10 density.
type Occupancy struct {
	ClusteringBins int     `json:"clustering_bins"`
	LogDensityMin  float64 `json:"log_density_min"`
	LogDensityMax  float64 `json:"log_density_max"`
	LogDensityBins int     `json:"log_density_bins"`
	Counts         [][]int `json:"counts"`
	Outside        int     `json:"outside"`
}

// NewSetInfo summarises the entries of the set file path.
func NewSetInfo(path string, es []SetEntry, meta map[string]string) *SetInfo {
	info := &SetInfo{File: path, Graphs: len(es), Meta: meta, Features: []FeatureRange{}}
	if info.Meta == nil {
		info.Meta = map[string]string{}
	}
	if len(es) == 0 {
		return info
	}
	names := FeatureNames()
	lo := make([]float64, len(names))
	hi := make([]float64, len(names))
	sum := make([]float64, len(names))
	for i := range names {
		lo[i], hi[i] = math.Inf(1), math.Inf(-1)
	}
	vec := make([]float64, 0, len(names))
	spread := NewSpread(10, -5, 0, 10)
	for i := range es {
		vec = es[i].AppendVector(vec[:0])
		for j, x := range vec {
			lo[j], hi[j] = min(lo[j], x), max(hi[j], x)
			sum[j] += x
		}
		spread.Add(&es[i].Features)
	}
	for j, n := range names {
		info.Features = append(info.Features, FeatureRange{n, lo[j], sum[j] / float64(len(es)), hi[j]})
	}
	oc := &Occupancy{ClusteringBins: spread.ClusteringBins, LogDensityMin: spread.LogDensityMin,
		LogDensityMax: spread.LogDensityMax, LogDensityBins: spread.LogDensityBins, Outside: spread.Outside}
	for i := range spread.ClusteringBins {
		oc.Counts = append(oc.Counts, slices.Clone(spread.Counts[i][:]))
	}
	info.Occupancy = oc
	return info
}

// WriteSetInfo prints the summary as text.
func WriteSetInfo(w io.Writer, info *SetInfo) {
	fmt.Fprintf(w, "%s: %d graphs\n", info.File, info.Graphs)
	for _, k := range slices.Sorted(maps.Keys(info.Meta)) {
		fmt.Fprintf(w, "  %s = %s\n", k, info.Meta[k])
	}
	if info.Occupancy == nil {
		return
	}
	fmt.Fprintf(w, "\n%-12s %14s %14s %14s\n", "feature", "min", "mean", "max")
	for _, f := range info.Features {
		fmt.Fprintf(w, "%-12s %14.6g %14.6g %14.6g\n", f.Name, f.Min, f.Mean, f.Max)
	}
	oc := info.Occupancy
	fmt.Fprintf(w, "\noccupancy: clustering (rows) x log10 nx_density (columns, left bin edges)\n")
	fmt.Fprintf(w, "%-9s", "")
	step := (oc.LogDensityMax - oc.LogDensityMin) / float64(oc.LogDensityBins)
	for j := range oc.LogDensityBins {
		fmt.Fprintf(w, " %5.1f", oc.LogDensityMin+float64(j)*step)
	}
	fmt.Fprintln(w)
	for i := oc.ClusteringBins - 1; i >= 0; i-- {
		c0 := float64(i) / float64(oc.ClusteringBins)
		fmt.Fprintf(w, "%.1f-%.1f  ", c0, c0+1/float64(oc.ClusteringBins))
		for _, c := range oc.Counts[i] {
			if c == 0 {
				fmt.Fprintf(w, " %5s", ".")
			} else {
				fmt.Fprintf(w, " %5d", c)
			}
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "off the density axis (density 0 or below 1e-5): %d\n", oc.Outside)
}

// WritePlanetoidInfo prints a summary of a node-classification data set:
// sizes, feature sparsity, classes, split, missing files.
func WritePlanetoidInfo(w io.Writer, p *Planetoid) {
	n, f := p.NumNodes(), p.NumFeatures()
	fmt.Fprintf(w, "%s (%s)\n", p.Name, p.Source)
	fmt.Fprintf(w, "  nodes     %d\n  edges     %d (undirected, no self-loops)\n", n, p.Graph.NumEdges())
	zeros := 100.0
	if n > 0 && f > 0 {
		zeros = 100 * (1 - float64(p.Features.NNZ())/(float64(n)*float64(f)))
	}
	fmt.Fprintf(w, "  features  %d (%d non-zeros, %.2f %% zeros)\n", f, p.Features.NNZ(), zeros)
	sizes := make([]int, p.NumClasses)
	unlabelled := 0
	for _, l := range p.Labels {
		if l < 0 {
			unlabelled++
		} else {
			sizes[l]++
		}
	}
	fmt.Fprintf(w, "  classes   %d, sizes %v, unlabelled %d\n", p.NumClasses, sizes, unlabelled)
	if p.Train == nil {
		fmt.Fprintf(w, "  split     none in the file (gnn-benchmark: draw one per class)\n")
	} else {
		fmt.Fprintf(w, "  split     train %d, validation %d, test %d\n", len(p.Train), len(p.Val), len(p.Test))
	}
	for _, m := range p.Missing {
		fmt.Fprintf(w, "  missing   %s\n", m)
	}
}
