package hadas

import (
	"errors"
	"fmt"

	"gnnsim/workload"
)

// Backbone is a static network described by its per-block work: a
// workload.Model whose blocks run in order, and the candidate exit
// positions along it. Position p (1-based) is "after the p-th computing
// block" of the paper (an MBConv of AttentiveNAS, a Grapher+FFN of ViG);
// End[p-1] is the index of the last workload.Block of that computing
// block, so several workload blocks may form one computing block.
type Backbone struct {
	Name  string
	Model workload.Model
	// End[p-1] is the model block after which position p sits.
	End []int
	// Classes is the classifier width of the exit branches.
	Classes int
	// Arch names the architecture in its search space (empty for a
	// hand-built backbone).
	Arch string
}

// FirstExit is the first position an exit may take (HADAS Section V-A:
// "starting from the fifth (5th) layer").
const FirstExit = 5

// ExitWidth is the output width of an exit branch's convolution (gnnsim's
// reading of the HADAS exit: "a single sequential computing block of a
// convolutional, batch normalization and activation layers, followed by a
// final classifier layer"; 224 channels as the issue specifies).
const ExitWidth = 224

// Blocks returns M, the number of computing blocks.
func (b *Backbone) Blocks() int { return len(b.End) }

// Positions returns the exit positions the search may choose: FirstExit to
// M-1 (Table II: posX in [5, sum l_i), half-open: an exit after the last
// block would duplicate the backbone's own classifier). It is empty when
// the backbone has fewer than FirstExit+1 blocks.
func (b *Backbone) Positions() []int {
	var ps []int
	for p := FirstExit; p < b.Blocks(); p++ {
		ps = append(ps, p)
	}
	return ps
}

// Validate checks the backbone: blocks in range and increasing, a
// classifier width, and every block's layers valid.
func (b *Backbone) Validate() error {
	if len(b.Model.Blocks) == 0 {
		return fmt.Errorf("hadas: backbone %q has no blocks", b.Name)
	}
	if len(b.End) == 0 {
		return fmt.Errorf("hadas: backbone %q has no computing blocks", b.Name)
	}
	if b.Classes <= 0 {
		return fmt.Errorf("hadas: backbone %q: %d classes", b.Name, b.Classes)
	}
	for i, e := range b.End {
		if e < 0 || e >= len(b.Model.Blocks) || (i > 0 && e <= b.End[i-1]) {
			return fmt.Errorf("hadas: backbone %q: block end %d of %d out of order or range", b.Name, e, len(b.Model.Blocks))
		}
	}
	if _, err := b.Model.Kernels(); err != nil {
		return fmt.Errorf("hadas: backbone %q: %w", b.Name, err)
	}
	return nil
}

// ExitBranch returns the work of the exit at position p: a 3x3 convolution
// of the feature map to ExitWidth channels, BN, activation, global pooling
// and the classifier.
func (b *Backbone) ExitBranch(p int) (workload.Block, error) {
	if p < 1 || p > b.Blocks() {
		return workload.Block{}, fmt.Errorf("hadas: backbone %q: exit position %d of %d", b.Name, p, b.Blocks())
	}
	at := b.Model.Blocks[b.End[p-1]]
	if len(at.Layers) == 0 {
		return workload.Block{}, errors.New("hadas: exit after an empty block")
	}
	c := at.Layers[len(at.Layers)-1].OutWidth()
	return ExitBlock(fmt.Sprintf("exit%d", p), at.Out(), c, b.Classes), nil
}

// ExitBlock is the exit branch on a feature map of in.Nodes pixels and c
// channels.
func ExitBlock(name string, in workload.Size, c, classes int) workload.Block {
	return workload.Block{Name: name, Kind: workload.Head, In: workload.Size{Nodes: in.Nodes}, Layers: []workload.Layer{
		{Kind: workload.Conv, F: c, G: ExitWidth, Window: 3},
		{Kind: workload.BN, F: ExitWidth, G: ExitWidth},
		{Kind: workload.Act, F: ExitWidth, G: ExitWidth},
		{Kind: workload.Pool, F: ExitWidth, G: ExitWidth},
		{Kind: workload.FC, F: ExitWidth, G: classes},
	}}
}

// ViGBackbone returns a subnet of MaGNAS's ViG-S supernet as a backbone
// with exits after its ViG blocks (a Grapher and its FFN, when present):
// the GNN-native backbone. The exit branch runs on the 14 x 14 patch grid.
func ViGBackbone(arch []workload.Superblock, classes int) (*Backbone, error) {
	m, err := workload.SupernetViG(arch)
	if err != nil {
		return nil, fmt.Errorf("hadas: %w", err)
	}
	m.Blocks[len(m.Blocks)-1] = classifierWidth(m.Blocks[len(m.Blocks)-1], classes)
	b := &Backbone{Name: "vig", Model: m, Classes: classes}
	for i, blk := range m.Blocks {
		if blk.Kind != workload.Grapher && blk.Kind != workload.FFN {
			continue
		}
		if blk.Kind == workload.FFN && len(b.End) > 0 && b.End[len(b.End)-1] == i-1 && m.Blocks[i-1].Kind == workload.Grapher {
			b.End[len(b.End)-1] = i // the FFN completes its Grapher's block
			continue
		}
		b.End = append(b.End, i)
	}
	return b, b.Validate()
}

// classifierWidth sets the output width of a head's last FC layer.
func classifierWidth(h workload.Block, classes int) workload.Block {
	ls := append([]workload.Layer(nil), h.Layers...)
	for i := len(ls) - 1; i >= 0; i-- {
		if ls[i].Kind == workload.FC {
			ls[i].G = classes
			break
		}
	}
	h.Layers = ls
	return h
}
