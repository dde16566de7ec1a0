package soc

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"gnnsim/workload"
)

// LayerDescription is one layer of a ModelDescription.
type LayerDescription struct {
	Name   string `json:"name"`
	Kind   string `json:"kind"`
	F      int    `json:"f"`
	G      int    `json:"g"`
	Nodes  int64  `json:"out_nodes"`
	Grid   string `json:"out_grid,omitempty"`
	Inputs string `json:"inputs,omitempty"`
}

// BlockDescription is one block of a ModelDescription.
type BlockDescription struct {
	Name   string             `json:"name"`
	Kind   string             `json:"kind"`
	Nodes  int64              `json:"in_nodes"`
	Layers []LayerDescription `json:"layers"`
}

// ModelDescription is a model's blocks, layers and the segments a
// mapping refers to at one granularity ('gnnsim models show').
type ModelDescription struct {
	Name        string             `json:"name"`
	Granularity string             `json:"granularity"`
	Blocks      []BlockDescription `json:"blocks"`
	Segments    []string           `json:"segments"`
}

// DescribeModel describes m and its segments at granularity g.
func DescribeModel(m workload.Model, g Granularity) (ModelDescription, error) {
	nodes, err := m.Graph()
	if err != nil {
		return ModelDescription{}, err
	}
	segs, err := Segments(m, g)
	if err != nil {
		return ModelDescription{}, err
	}
	out := ModelDescription{Name: m.Name, Granularity: g.String()}
	for _, n := range nodes {
		if n.Index == 0 {
			b := m.Blocks[n.Block]
			out.Blocks = append(out.Blocks, BlockDescription{Name: b.Name, Kind: b.Kind.String(), Nodes: b.In.Nodes})
		}
		l := LayerDescription{Name: n.Name, Kind: n.Layer.Kind.String(), F: n.Layer.F, G: n.Layer.OutWidth(), Nodes: n.Out.Nodes}
		if n.Out.H > 0 {
			l.Grid = fmt.Sprintf("%dx%d", n.Out.H, n.Out.W)
		}
		if len(n.Layer.Inputs) > 0 {
			l.Inputs = strings.Join(n.Layer.Inputs, ",")
		}
		blk := &out.Blocks[len(out.Blocks)-1]
		blk.Layers = append(blk.Layers, l)
	}
	for _, s := range segs {
		out.Segments = append(out.Segments, s.Name)
	}
	return out, nil
}

// WriteText prints the description as text.
func (out *ModelDescription) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "model %s: %d blocks, %d layers\n", out.Name, len(out.Blocks), out.numLayers())
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for i, b := range out.Blocks {
		fmt.Fprintf(tw, "block %d\t%s\t%s\tin %d nodes\t\n", i, b.Name, b.Kind, b.Nodes)
		for _, l := range b.Layers {
			size := fmt.Sprint(l.Nodes)
			if l.Grid != "" {
				size = l.Grid
			}
			fmt.Fprintf(tw, "  %s\t%s\t%d -> %d\tout %s\t%s\n", l.Name, l.Kind, l.F, l.G, size, l.Inputs)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "%d %s segments (the order of a --mapping list):\n  %s\n", len(out.Segments), out.Granularity, strings.Join(out.Segments, ","))
	return nil
}

func (out *ModelDescription) numLayers() int {
	n := 0
	for _, b := range out.Blocks {
		n += len(b.Layers)
	}
	return n
}

// DescribeRef describes a zoo model or model file (ref) as DescribeModel
// does, a GNN stack built on a graph of in's size with features input
// width (when its file gives none), at the named granularity. Errors
// name 'gnnsim models show's flags.
func DescribeRef(ref string, in workload.Size, features int, granularity string) (ModelDescription, error) {
	spec, err := workload.ResolveModelSpec(ref)
	if err != nil {
		return ModelDescription{}, err
	}
	m, err := spec.Build(in, features)
	if err != nil {
		return ModelDescription{}, fmt.Errorf("%s (--nodes, --nnz, --features): %w", ref, err)
	}
	g, err := ParseGranularity(granularity)
	if err != nil {
		return ModelDescription{}, fmt.Errorf("--granularity: %w", err)
	}
	return DescribeModel(m, g)
}
