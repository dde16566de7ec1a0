package magnas

import (
	"fmt"

	"gnnsim/workload"
)

// pvigM are Pyramid ViG-M's stage widths (pyramid_vig.py, pvig_m_224_gelu).
var pvigM = [4]int{96, 192, 384, 768}

// pvigReduce are its k-NN candidate pooling ratios per stage.
var pvigReduce = [4]int{4, 2, 1, 1}

// PyramidModel returns the pyramid supernet of Section 5.7 on Pyramid
// ViG-M's widths (96, 192, 384, 768 channels on 3136, 784, 196, 49 nodes):
// the pyramid stem, superblock i as stage i (Depth Graphers with the
// superblock's op, fc1 and k = 9, each followed by an FFN when FFN is on,
// of hidden width 4C as in the reference model: the supernet's widths are
// ViG-S's), strided downsampling between stages, and the head. MaGNAS
// "fixed four blocks within each superblock" (Section 5.1.5).
func PyramidModel(arch Arch) (workload.Model, error) {
	if len(arch) != 4 {
		return workload.Model{}, fmt.Errorf("magnas: pyramid model needs 4 superblocks, got %d", len(arch))
	}
	stem := workload.PyramidStemBlock(workload.ViGImage, pvigM[0])
	n := stem.Out().Nodes
	blocks := []workload.Block{stem}
	for s, sb := range arch {
		if sb.Depth < 1 || sb.Depth > 64 {
			return workload.Model{}, fmt.Errorf("magnas: pyramid stage %d: depth %d", s, sb.Depth)
		}
		c := pvigM[s]
		if s > 0 {
			d := workload.DownsampleBlock(n, pvigM[s-1], c)
			d.Name = fmt.Sprintf("down%d", s)
			blocks = append(blocks, d)
			n = d.Out().Nodes
		}
		for j := range sb.Depth {
			g := workload.GrapherBlock(n, c, 9, sb.Op, pvigReduce[s], sb.PreFC)
			g.Name = fmt.Sprintf("sb%d.grapher%d", s, j)
			blocks = append(blocks, g)
			if sb.FFN {
				f := workload.FFNBlock(n, c, 4*c)
				f.Name = fmt.Sprintf("sb%d.ffn%d", s, j)
				blocks = append(blocks, f)
			}
		}
	}
	blocks = append(blocks, workload.HeadBlock(n, pvigM[3], workload.Classes))
	return workload.Model{Name: "magnas-pvig-m", Blocks: blocks}, nil
}
