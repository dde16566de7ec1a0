package workload

import (
	"fmt"
	"slices"
)

// Node is one layer of a Model seen as a graph: where it sits, the layers
// it reads and that read it, and the Sizes it runs on and produces.
type Node struct {
	Block, Index int   // the layer is Model.Blocks[Block].Layers[Index]
	Layer        Layer // a copy of that layer
	// Name is Layer.Name, or "<block name>/<index>:<kind>" for an unnamed
	// layer (the GNN and ViG builders name none).
	Name    string
	In, Out Size
	// Inputs are the indices (into Model.Graph's result) of the nodes this
	// one reads, in the order of Layer.Inputs; empty for the model's first
	// layer, which reads the model's input. Readers are the nodes that read
	// this one, in model order.
	Inputs, Readers []int
	// InWidth is the channels the node reads: its one input's output
	// width, the sum of a Concat's inputs, an Add's common width.
	InWidth int
}

// Graph returns the layers of m as a DAG, in model order (every input
// precedes its readers), and checks it:
//
//   - names are unique among named layers, and every name in an Inputs list
//     is an earlier layer's (a layer that names no inputs reads its
//     predecessor, the previous block's last layer for a block's first;
//     an Add that names none also reads its block's input, the residual);
//   - an input named outside the layer's block produces exactly the block's
//     input Size, so that Block methods (which read Block.In there) and
//     Graph agree;
//   - widths chain: a layer's F is its input's output width (F/N_in times
//     it for a flattening FC); a Concat's F and G are the sum of its
//     inputs' widths; an Add's and a Concat's inputs share one Size;
//   - every layer has kernels on its Size (Layer.Kernels succeeds).
//
// Consumers read fusion and sharing opportunities off it: the Readers of
// one node that are all 1x1 convolutions read the same input (TensorRT
// fuses them into one kernel); a BN or activation whose only input is a
// convolution with that one reader can fuse into it; a Concat's Inputs are
// the producers that can write into its output in place.
func (m Model) Graph() ([]Node, error) {
	var nodes []Node
	byName := map[string]int{}
	fail := func(n *Node, format string, args ...any) error {
		return fmt.Errorf("workload: model %s: layer %s: %s", m.Name, n.Name, fmt.Sprintf(format, args...))
	}
	var ks []Kernel
	for bi, b := range m.Blocks {
		blockIn := len(nodes) - 1 // the node producing the block's input (-1: the model's)
		sizes := b.Sizes()
		for li, l := range b.Layers {
			n := Node{Block: bi, Index: li, Layer: l, Name: l.Name, In: sizes[li]}
			if n.Name == "" {
				n.Name = fmt.Sprintf("%s/%d:%s", b.Name, li, l.Kind)
			} else if _, dup := byName[n.Name]; dup {
				return nil, fail(&n, "name used twice")
			}
			if err := l.Validate(); err != nil {
				return nil, fail(&n, "%v", err)
			}
			switch {
			case len(l.Inputs) > 0:
				for _, in := range l.Inputs {
					j, ok := byName[in]
					if !ok {
						return nil, fail(&n, "input %q is no earlier layer", in)
					}
					if nodes[j].Block != bi && !sameGrid(nodes[j].Out, b.In) {
						return nil, fail(&n, "input %q outside block %s produces %+v, not the block's input %+v", in, b.Name, nodes[j].Out, b.In)
					}
					n.Inputs = append(n.Inputs, j)
				}
			case len(nodes) > 0:
				if li == 0 && !sameGrid(nodes[len(nodes)-1].Out, b.In) {
					return nil, fail(&n, "the previous block produces %+v, not the block's input %+v", nodes[len(nodes)-1].Out, b.In)
				}
				n.Inputs = []int{len(nodes) - 1}
				if l.Kind == Add && blockIn >= 0 && blockIn != len(nodes)-1 {
					n.Inputs = append(n.Inputs, blockIn)
				}
			}
			if err := n.checkWidths(nodes); err != nil {
				return nil, fail(&n, "%v", err)
			}
			out, err := l.OutSize(n.In)
			if err != nil {
				return nil, fail(&n, "%v", err)
			}
			n.Out = out
			if ks, err = l.AppendKernels(ks[:0], n.In); err != nil {
				return nil, fail(&n, "%v", err)
			}
			for _, j := range n.Inputs {
				nodes[j].Readers = append(nodes[j].Readers, len(nodes))
			}
			if l.Name != "" {
				byName[l.Name] = len(nodes)
			}
			nodes = append(nodes, n)
		}
	}
	return nodes, nil
}

// checkWidths sets n.InWidth from its inputs among nodes and checks the
// layer's F against it, and that joined inputs share one Size.
func (n *Node) checkWidths(nodes []Node) error {
	l := n.Layer
	if len(n.Inputs) == 0 {
		n.InWidth = l.F
		return nil
	}
	first := nodes[n.Inputs[0]]
	n.InWidth = first.Layer.OutWidth()
	if l.Kind == Concat || (l.Kind == Add && len(n.Inputs) > 1) {
		sum := 0
		for _, j := range n.Inputs {
			in := nodes[j]
			if !sameGrid(in.Out, first.Out) {
				return fmt.Errorf("inputs %s (%+v) and %s (%+v) differ in size", first.Name, first.Out, in.Name, in.Out)
			}
			w := in.Layer.OutWidth()
			if l.Kind == Add && w != l.F {
				return fmt.Errorf("input %s has %d channels, the add %d", in.Name, w, l.F)
			}
			sum += w
		}
		if l.Kind == Concat {
			n.InWidth = sum
		}
	}
	want := n.InWidth
	if l.Kind == FC && l.Flatten {
		want = int(min(int64(n.InWidth)*n.In.Nodes, MaxFeatures+1))
	}
	if l.F != want {
		return fmt.Errorf("F = %d, but its input gives %d channels", l.F, want)
	}
	return nil
}

// Lookup returns the node called name in nodes (a Graph), or false.
func Lookup(nodes []Node, name string) (Node, bool) {
	i := slices.IndexFunc(nodes, func(n Node) bool { return n.Name == name })
	if i < 0 {
		return Node{}, false
	}
	return nodes[i], true
}

// sameGrid reports whether a and b are the same nodes (and the same grid
// when both have one); the adjacency a k-NN layer adds is not compared.
func sameGrid(a, b Size) bool {
	if a.H > 0 && b.H > 0 && (a.H != b.H || a.W != b.W) {
		return false
	}
	return a.Nodes == b.Nodes
}
