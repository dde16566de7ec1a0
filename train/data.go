package train

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"gnnsim/graphs"
)

// Data is a node-classification problem prepared for training: features
// row-normalised, the adjacency with self-loops, the split. It is
// read-only once built, so any number of trainings may share it.
type Data struct {
	Name                  string
	NumNodes, NumFeatures int
	NumClasses            int
	Labels                []int32 // class per node, -1 unlabelled
	Train, Val, Test      []int32 // node ids
	xPtr, xCol            []int32 // features, CSR, rows summing to 1 (or empty)
	xVal                  []float64
	aPtr, aCol            []int32   // A+I, CSR, rows ascending
	gcnNorm               []float64 // per A+I entry (i,j): 1/sqrt(deg(i) deg(j))
	invDeg                []float64 // per node: 1/deg(i) of A+I
	invNbr                []float64 // per node: 1/deg(i) of A (the SAGE mean), 0 without neighbours
}

// NewData prepares a data set. Features are row-normalised (each row
// divided by its sum, empty rows kept empty), as Kipf and Welling's and
// Velickovic et al.'s preprocessing does. It fails when features are
// missing (PubMed without allx), the split is empty, or a split node has
// no label.
func NewData(p *graphs.Planetoid) (*Data, error) {
	if p == nil || p.Graph == nil || p.Features == nil {
		return nil, errors.New("train: no data set")
	}
	n := p.Graph.NumNodes()
	if p.FeatureRows != nil {
		missing := 0
		for _, ok := range p.FeatureRows {
			if !ok {
				missing++
			}
		}
		if missing > 0 {
			return nil, fmt.Errorf("train: %s: %d of %d nodes have no features (%s); cannot train", p.Name, missing, n, strings.Join(p.Missing, "; "))
		}
	}
	if p.Features.Rows != n || len(p.Labels) != n {
		return nil, fmt.Errorf("train: %s: %d feature rows and %d labels for %d nodes", p.Name, p.Features.Rows, len(p.Labels), n)
	}
	// A malformed matrix or graph is an error here, not a panic in
	// training.
	if err := p.Features.Validate(); err != nil {
		return nil, fmt.Errorf("train: %s: %w", p.Name, err)
	}
	if err := p.Graph.Validate(); err != nil {
		return nil, fmt.Errorf("train: %s: %w", p.Name, err)
	}
	if p.NumClasses < 2 {
		return nil, fmt.Errorf("train: %s: the labels name %d classes, want at least 2 (a label of -1 marks an unlabelled node)", p.Name, p.NumClasses)
	}
	if len(p.Train) == 0 || len(p.Val) == 0 || len(p.Test) == 0 {
		return nil, fmt.Errorf("train: %s: split %d/%d/%d has an empty part (an .npz data set is split per class: give --split-train and --split-val)",
			p.Name, len(p.Train), len(p.Val), len(p.Test))
	}
	d := &Data{
		Name: p.Name, NumNodes: n, NumFeatures: p.Features.Cols, NumClasses: p.NumClasses,
		Labels: p.Labels, Train: p.Train, Val: p.Val, Test: p.Test,
	}
	for _, s := range []struct {
		ids  []int32
		what string
	}{{p.Train, "training"}, {p.Val, "validation"}, {p.Test, "test"}} {
		if err := checkSplit(p, s.ids, s.what); err != nil {
			return nil, err
		}
	}

	f := p.Features
	d.xPtr, d.xCol = f.RowPtr, f.Col
	d.xVal = make([]float64, len(f.Val))
	for r := range n {
		a, b := f.RowPtr[r], f.RowPtr[r+1]
		sum := 0.0
		for _, v := range f.Val[a:b] {
			sum += float64(v)
		}
		inv := 0.0 // an all-zero row stays zero, as r_inv[isinf] = 0 does
		if sum != 0 {
			inv = 1 / sum
		}
		for k := a; k < b; k++ {
			d.xVal[k] = float64(f.Val[k]) * inv
		}
	}

	g := p.Graph.WithSelfLoops()
	d.aPtr, d.aCol = g.RowPtr, g.Col
	d.invDeg = make([]float64, n)
	isq := make([]float64, n)
	for i := range n {
		deg := float64(g.Degree(i))
		d.invDeg[i] = 1 / deg
		isq[i] = 1 / math.Sqrt(deg)
	}
	d.invNbr = make([]float64, n)
	for i := range n {
		nbr := 0
		for e := d.aPtr[i]; e < d.aPtr[i+1]; e++ {
			if int(d.aCol[e]) != i {
				nbr++
			}
		}
		if nbr > 0 {
			d.invNbr[i] = 1 / float64(nbr)
		}
	}
	d.gcnNorm = make([]float64, len(d.aCol))
	for i := range n {
		for e := d.aPtr[i]; e < d.aPtr[i+1]; e++ {
			d.gcnNorm[e] = isq[i] * isq[d.aCol[e]]
		}
	}
	return d, nil
}

// checkSplit checks that every node of one part of the split exists and
// has a label.
func checkSplit(p *graphs.Planetoid, ids []int32, what string) error {
	for _, v := range ids {
		if v < 0 || int(v) >= len(p.Labels) {
			return fmt.Errorf("train: %s: %s node %d out of range", p.Name, what, v)
		}
		if p.Labels[v] < 0 || int(p.Labels[v]) >= p.NumClasses {
			return fmt.Errorf("train: %s: %s node %d has no label", p.Name, what, v)
		}
	}
	return nil
}

// NumEdges is the number of stored A+I entries (both directions and the
// self-loops), the edge count the aggregation loops run over.
func (d *Data) NumEdges() int { return len(d.aCol) }

// FeatureNNZ is the number of non-zero features.
func (d *Data) FeatureNNZ() int { return len(d.xCol) }
