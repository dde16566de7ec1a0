package workload

import (
	"errors"
	"fmt"
	"slices"
)

// Superblock is the architecture of one superblock of MaGNAS's ViG supernet
// (MaGNAS, Section 4.1 and Table 1): Depth ViG blocks sharing one design.
type Superblock struct {
	Depth int       // ViG blocks (Grapher, optionally followed by an FFN)
	Op    LayerKind // graph op of every Grapher: MRConv, EdgeConv, SAGE or GIN
	PreFC bool      // the Graphers keep their pre-processing fc1
	FFN   bool      // every Grapher is followed by an FFN
	// FFNHidden is the FFN's hidden width. It is a gene even when FFN is
	// off (MaGNAS counts it in the 144 choices per superblock), where it
	// has no effect.
	FFNHidden int
}

// SupernetSpace is the choice set of each superblock gene of the MaGNAS
// supernet and the fixed parts of the network around it.
type SupernetSpace struct {
	Depths []int
	Ops    []LayerKind
	PreFC  []bool
	FFN    []bool
	Hidden []int
	// K is the k-NN neighbour count of each superblock; its length is the
	// number of superblocks.
	K        []int
	Channels int // ViG-S: 320
}

// MaGNASSpace returns the supernet of MaGNAS (Section 5.1.1 and Table 1):
// ViG-S (320 channels, 196 nodes) in 4 superblocks of depth {2, 3, 4},
// graph op {MRConv, EdgeConv, GraphSAGE, GIN}, fc1 on/off, FFN on/off, FFN
// hidden width {96, 192, 320}, k = 12, 16, 20, 24. 144 choices per
// superblock, 144^4 (about 2^29) architectures.
func MaGNASSpace() SupernetSpace {
	return SupernetSpace{
		Depths:   []int{2, 3, 4},
		Ops:      []LayerKind{MRConv, EdgeConv, SAGE, GIN},
		PreFC:    []bool{false, true},
		FFN:      []bool{false, true},
		Hidden:   []int{96, 192, 320},
		K:        []int{12, 16, 20, 24},
		Channels: vigSizes["s"].channels,
	}
}

// Choices returns the number of designs of one superblock: the product of
// its genes' choices.
func (s SupernetSpace) Choices() int64 {
	return int64(len(s.Depths)) * int64(len(s.Ops)) * int64(len(s.PreFC)) * int64(len(s.FFN)) * int64(len(s.Hidden))
}

// Size returns the number of architectures: Choices^superblocks (as a
// float: it may exceed int64 for larger spaces).
func (s SupernetSpace) Size() float64 {
	size := 1.0
	for range s.K {
		size *= float64(s.Choices())
	}
	return size
}

// validate reports a superblock outside the space.
func (s SupernetSpace) validate(i int, sb Superblock) error {
	bad := func(what string, v any) error {
		return fmt.Errorf("workload: supernet superblock %d: %s %v not in the space", i, what, v)
	}
	switch {
	case !slices.Contains(s.Depths, sb.Depth):
		return bad("depth", sb.Depth)
	case !slices.Contains(s.Ops, sb.Op):
		return bad("graph op", sb.Op)
	case !slices.Contains(s.PreFC, sb.PreFC):
		return bad("fc1 choice", sb.PreFC)
	case !slices.Contains(s.FFN, sb.FFN):
		return bad("FFN choice", sb.FFN)
	case !slices.Contains(s.Hidden, sb.FFNHidden):
		return bad("FFN hidden width", sb.FFNHidden)
	}
	return nil
}

// Model returns the subnet arch of the supernet: the ViG-S stem, for each
// superblock i its Depth Graphers (k = K[i]), each followed by an FFN when
// FFN is on, and the head. arch must give one Superblock per entry of K,
// each within the space.
func (s SupernetSpace) Model(arch []Superblock) (Model, error) {
	if len(s.K) == 0 {
		return Model{}, errors.New("workload: supernet with no superblocks")
	}
	if len(arch) != len(s.K) {
		return Model{}, fmt.Errorf("workload: supernet: %d superblocks given, the space has %d", len(arch), len(s.K))
	}
	c := s.Channels
	stem := ViGStemBlock(ViGImage, c)
	n := stem.Out().Nodes
	blocks := []Block{stem}
	for i, sb := range arch {
		if err := s.validate(i, sb); err != nil {
			return Model{}, err
		}
		for j := range sb.Depth {
			g := GrapherBlock(n, c, s.K[i], sb.Op, 1, sb.PreFC)
			g.Name = fmt.Sprintf("sb%d.grapher%d", i, j)
			blocks = append(blocks, g)
			if sb.FFN {
				f := FFNBlock(n, c, sb.FFNHidden)
				f.Name = fmt.Sprintf("sb%d.ffn%d", i, j)
				blocks = append(blocks, f)
			}
		}
	}
	blocks = append(blocks, HeadBlock(n, c, Classes))
	return Model{Name: "magnas-vig-s", Blocks: blocks}, nil
}

// SupernetViG returns the subnet arch of MaGNAS's ViG-S supernet:
// MaGNASSpace().Model(arch).
func SupernetViG(arch []Superblock) (Model, error) { return MaGNASSpace().Model(arch) }
