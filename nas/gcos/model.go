package gcos

import (
	"fmt"
	"math"

	"gnnsim/hw"
	"gnnsim/workload"
)

// This file prices a GNN of any depth on a fixed design: the model
// description of package workload (a model file's GNN stack, or a G-CoS
// Arch as a model), each block on the data set's adjacency.

// BuildModel returns the GNN stack spec describes, built on d: d's graph
// size and, unless the file gives features:, d's input width. A zoo model
// (ViG, CNNs) is no GNN on a graph and is refused.
func (d Dataset) BuildModel(spec *workload.ModelSpec) (workload.Model, error) {
	if spec.Zoo != "" {
		return workload.Model{}, fmt.Errorf("gcos: model %s is the zoo's %s, not a GNN stack on a graph: give a model file of gcn, gin, sage or gat layers", spec.Name, spec.Zoo)
	}
	if spec.Features > 0 && d.Features > 0 && spec.Features != d.Features {
		return workload.Model{}, fmt.Errorf("gcos: model %s takes %d input features, data set %s has %d", spec.Name, spec.Features, d.Name, d.Features)
	}
	return spec.Build(d.size(), d.Features)
}

// ModelCost is the cost of a model on a design: the total and each
// block's (a model file's layer with its activation).
type ModelCost struct {
	Total  hw.Cost
	Blocks []hw.Cost
}

// RunModel runs m's blocks one after another on u, each on d's adjacency
// (its graph's rows, its degree profile, or average rows; a block whose
// In.NNZ is below the graph's entries is neighbour-sampled), the first
// layer's input at d's feature density (hidden features are dense), and
// adds the costs. m's blocks must run on d's nodes (BuildModel).
func (d Dataset) RunModel(m workload.Model, u hw.Unit) (ModelCost, error) {
	if err := d.Validate(); err != nil {
		return ModelCost{}, err
	}
	if len(m.Blocks) == 0 {
		return ModelCost{}, fmt.Errorf("gcos: model %s has no layers", m.Name)
	}
	works, err := d.Works(m)
	if err != nil {
		return ModelCost{}, err
	}
	out := ModelCost{Blocks: make([]hw.Cost, 0, len(m.Blocks))}
	for _, w := range works {
		c, err := u.Run(w)
		if err != nil {
			return ModelCost{}, fmt.Errorf("gcos: model %s block %s on %s: %w", m.Name, w.Block.Name, d.Name, err)
		}
		out.Blocks = append(out.Blocks, c)
		out.Total = out.Total.Add(c)
	}
	// Each block fits (units check their own costs) but the sum may not.
	if err := out.Total.CheckRange("total", "fewer or narrower layers, or a smaller graph"); err != nil {
		return ModelCost{}, fmt.Errorf("gcos: model %s on %s: %w", m.Name, d.Name, err)
	}
	return out, nil
}

// Works returns the work of each of m's blocks on d, as RunModel runs
// them: on d's adjacency (its graph, or its degree profile), the first
// layer's input at d's feature density (hidden features are dense). m's
// blocks must run on d's nodes.
func (d Dataset) Works(m workload.Model) ([]hw.Work, error) {
	out := make([]hw.Work, 0, len(m.Blocks))
	for i, b := range m.Blocks {
		if b.In.Nodes != d.size().Nodes {
			return nil, fmt.Errorf("gcos: model %s block %s runs on %d nodes, data set %s has %d", m.Name, b.Name, b.In.Nodes, d.Name, d.size().Nodes)
		}
		if i == 0 && len(b.Layers) > 0 {
			b.Layers = append([]workload.Layer(nil), b.Layers...)
			b.Layers[0].InputDensity = d.FeatureDensity // the raw features
		}
		out = append(out, hw.Work{Graph: d.Graph, Rows: d.rows(), Block: b})
	}
	return out, nil
}

// Model returns a as a workload model on d: one block per layer, its
// adjacency sampled at the layer's rate.
func (a Arch) Model(d Dataset) (workload.Model, error) {
	if err := a.Validate(); err != nil {
		return workload.Model{}, err
	}
	in := d.size()
	f := d.Features
	m := workload.Model{Name: a.String()}
	for i := range a.Layers {
		ls, w, err := a.Workload(i, f)
		if err != nil {
			return workload.Model{}, err
		}
		for j := range ls {
			ls[j].CheapOrder = d.CheapOrder
		}
		sz := in
		sz.NNZ = int64(math.Round(float64(in.NNZ) * a.Layers[i].Sampling))
		m.Blocks = append(m.Blocks, workload.Block{Name: fmt.Sprintf("%s-layer%d", d.Name, i), Kind: workload.GNNLayer, In: sz, Layers: ls})
		f = w
	}
	return m, nil
}
