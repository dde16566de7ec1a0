package workload

import "fmt"

// BlockKind names the role of a block in a model: the granularity at which
// MaGNAS maps a ViG onto SoC units.
type BlockKind uint8

// The block kinds of ViG-style models, plus plain GNN layers.
const (
	Stem       BlockKind = iota + 1 // convolutional patch embedding
	Grapher                         // fc1, k-NN graph, graph convolution, fc2, residual
	FFN                             // 1x1 conv C -> hC, activation, hC -> C, residual
	Downsample                      // strided convolution between pyramid stages
	Head                            // pooling and classifier (MaGNAS's "Cls")
	GNNLayer                        // one layer of a node-classification GNN
	Module                          // a CNN module: an Inception module, a residual or inverted-residual block, a VGG stage
)

var blockNames = [...]string{Stem: "stem", Grapher: "grapher", FFN: "ffn", Downsample: "downsample", Head: "cls", GNNLayer: "layer", Module: "module"}

func (k BlockKind) String() string {
	if k >= Stem && k <= Module {
		return blockNames[k]
	}
	return fmt.Sprintf("BlockKind(%d)", uint8(k))
}

// Block is a named sequence of layers applied to an input Size; each layer
// runs on the Size its predecessor produced (Layer.Out), or, when it names
// its Inputs, on the Size of its first input (a name outside the block
// meaning the block's input In). Blocks are what a block-wise mapping
// assigns to units; a layer-wise mapping assigns their layers (or kernels)
// one by one.
type Block struct {
	Name   string
	Kind   BlockKind
	In     Size
	Layers []Layer
}

// dag reports whether any layer of b names its inputs.
func (b Block) dag() bool {
	for _, l := range b.Layers {
		if len(l.Inputs) > 0 {
			return true
		}
	}
	return false
}

// Sizes returns the Size every layer of b runs on.
func (b Block) Sizes() []Size {
	s := make([]Size, len(b.Layers))
	b.sizes(s)
	return s
}

// sizes fills in (len(b.Layers)) with the Size every layer runs on and
// returns the block's output Size.
func (b Block) sizes(in []Size) Size {
	cur := b.In
	for i, l := range b.Layers {
		if len(l.Inputs) > 0 {
			cur = b.In
			for j := i - 1; j >= 0; j-- {
				if b.Layers[j].Name == l.Inputs[0] {
					cur = b.Layers[j].Out(in[j])
					break
				}
			}
		}
		in[i] = cur
		cur = l.Out(cur)
	}
	return cur
}

// Out returns the Size of the block's output: its last layer's.
func (b Block) Out() Size {
	if !b.dag() {
		cur := b.In
		for _, l := range b.Layers {
			cur = l.Out(cur)
		}
		return cur
	}
	return b.sizes(make([]Size, len(b.Layers)))
}

// InElems and OutElems are the elements of the block's input and output
// feature maps: what moves through shared memory when consecutive blocks
// run on different units.
func (b Block) InElems() int64 {
	if len(b.Layers) == 0 {
		return 0
	}
	return b.In.Nodes * int64(b.Layers[0].F)
}

// OutElems: see InElems.
func (b Block) OutElems() int64 {
	if len(b.Layers) == 0 {
		return 0
	}
	return b.Out().Nodes * int64(b.Layers[len(b.Layers)-1].OutWidth())
}

// Kernels returns the kernels of every layer of b in order.
func (b Block) Kernels() ([]Kernel, error) {
	return b.AppendKernels(nil)
}

// AppendKernels appends b's kernels to dst.
func (b Block) AppendKernels(dst []Kernel) ([]Kernel, error) {
	var err error
	if b.dag() {
		var buf [32]Size // the Inception modules' 14 layers fit: no allocation
		sizes := buf[:0]
		if len(b.Layers) > len(buf) {
			sizes = make([]Size, 0, len(b.Layers))
		}
		sizes = sizes[:len(b.Layers)]
		b.sizes(sizes)
		for i, in := range sizes {
			if dst, err = b.Layers[i].AppendKernels(dst, in); err != nil {
				return dst, fmt.Errorf("block %s, layer %d (%s): %w", b.Name, i, b.Layers[i].Name, err)
			}
		}
		return dst, nil
	}
	cur := b.In
	for i, l := range b.Layers {
		if dst, err = l.AppendKernels(dst, cur); err != nil {
			return dst, fmt.Errorf("block %s, layer %d: %w", b.Name, i, err)
		}
		cur = l.Out(cur)
	}
	return dst, nil
}

// Model is a network: blocks applied in order.
type Model struct {
	Name   string
	Blocks []Block
}

// Kernels returns every kernel of the model in order.
func (m Model) Kernels() ([]Kernel, error) {
	var ks []Kernel
	var err error
	for _, b := range m.Blocks {
		if ks, err = b.AppendKernels(ks); err != nil {
			return nil, fmt.Errorf("workload: model %s: %w", m.Name, err)
		}
	}
	return ks, nil
}

// MACs returns the model's multiply-accumulates.
func (m Model) MACs() (int64, error) {
	ks, err := m.Kernels()
	if err != nil {
		return 0, err
	}
	macs, _, _ := Totals(ks)
	return macs, nil
}

// Params returns the model's learnt parameters (Layer.Params summed).
func (m Model) Params() int64 {
	var p int64
	for _, b := range m.Blocks {
		for _, l := range b.Layers {
			p += l.Params()
		}
	}
	return p
}
