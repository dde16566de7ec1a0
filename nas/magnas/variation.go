package magnas

import (
	"math/rand/v2"
	"slices"

	"gnnsim/search"
)

// blockEncoding is the inner search's variation when a block has several
// mapping genes (layer-wise mapping): it searches at the block level as
// the block-wise search does and refines single layers, so that the
// layer-wise search contains the block-wise one.
//
//   - Sample: with probability 1/2 a block-uniform genome (each block's
//     segments on one unit drawn uniformly among the units that run all of
//     them: what the block-wise search samples), else every gene drawn
//     uniformly.
//   - Mutate: each block mutates with MutationProb, the probability the
//     block-wise search flips its gene; a mutating block either moves
//     wholly to another unit (the block-wise flip) or flips one of its
//     genes (a layer-level refinement), with probability 1/2 each. DVFS
//     genes flip with MutationProb each.
//   - Crossover: search.Discrete's block crossover over the blocks (the
//     MappingSpace groups a block's genes), which exchanges whole blocks
//     as the block-wise uniform crossover exchanges genes.
type blockEncoding struct {
	*search.Discrete
	ms *MappingSpace
	// genes are the mapping genes of each block; units the units that run
	// every segment of it (empty when none runs them all: the block then
	// never moves wholly).
	genes [][]int
	units [][]int
}

// newBlockEncoding returns the block-aware encoding of ms, or nil when
// every block has one gene (block-wise: search.Discrete is that search).
func newBlockEncoding(ms *MappingSpace, mutation, crossover float64) *blockEncoding {
	t := ms.Table
	var genes [][]int
	for i, sg := range t.Segments {
		if i == 0 || sg.Block != t.Segments[i-1].Block {
			genes = append(genes, nil)
		}
		genes[len(genes)-1] = append(genes[len(genes)-1], i)
	}
	if len(genes) == len(t.Segments) {
		return nil
	}
	e := &blockEncoding{ms: ms, genes: genes, units: make([][]int, len(genes)),
		Discrete: &search.Discrete{Space: ms.Space, MutationProb: mutation, CrossoverProb: crossover,
			Kind: search.BlockCrossover, SwapProb: 0.5}}
	for b, gs := range genes {
		common := slices.Clone(t.Allowed[gs[0]])
		for _, i := range gs[1:] {
			common = slices.DeleteFunc(common, func(u int) bool { return !slices.Contains(t.Allowed[i], u) })
		}
		e.units[b] = common
	}
	return e
}

// setBlock maps every gene of block b in g to unit u.
func (e *blockEncoding) setBlock(g []int, b, u int) {
	for _, i := range e.genes[b] {
		g[i] = slices.Index(e.ms.Table.Allowed[i], u)
	}
}

// uniformUnit returns the unit of block b when all its genes name one,
// else -1.
func (e *blockEncoding) uniformUnit(g []int, b int) int {
	al := e.ms.Table.Allowed
	gs := e.genes[b]
	u := al[gs[0]][g[gs[0]]]
	for _, i := range gs[1:] {
		if al[i][g[i]] != u {
			return -1
		}
	}
	return u
}

// Sample draws a block-uniform genome or a uniform one (see blockEncoding).
func (e *blockEncoding) Sample(r *rand.Rand) []int {
	g := e.Space.Sample(r)
	if r.IntN(2) == 0 {
		return g
	}
	for b, us := range e.units {
		if len(us) > 0 {
			e.setBlock(g, b, us[r.IntN(len(us))])
		}
	}
	return g
}

// Mutate applies block moves and layer flips (see blockEncoding).
func (e *blockEncoding) Mutate(r *rand.Rand, g []int) []int {
	var out []int
	clone := func() {
		if out == nil {
			out = slices.Clone(g)
		}
	}
	p := e.MutationProb
	for b, gs := range e.genes {
		if r.Float64() >= p {
			continue
		}
		us := e.units[b]
		if len(gs) > 1 && len(us) > 1 && r.IntN(2) == 0 {
			// Block move: to a unit other than the block's own when it has one.
			clone()
			cur := e.uniformUnit(out, b)
			cands := us
			if cur >= 0 {
				cands = slices.DeleteFunc(slices.Clone(us), func(u int) bool { return u == cur })
			}
			e.setBlock(out, b, cands[r.IntN(len(cands))])
			continue
		}
		i := gs[r.IntN(len(gs))]
		if n := e.Space.Var(i).Choices; n > 1 {
			clone()
			out[i] = flip(r, out[i], n)
		}
	}
	for i := e.ms.Table.Blocks(); i < e.Space.Len(); i++ { // DVFS genes
		if n := e.Space.Var(i).Choices; n > 1 && r.Float64() < p {
			clone()
			out[i] = flip(r, out[i], n)
		}
	}
	if out == nil {
		return g
	}
	return out
}

// flip returns a value of 0..n-1 other than x, uniformly.
func flip(r *rand.Rand, x, n int) int {
	v := r.IntN(n - 1)
	if v >= x {
		v++
	}
	return v
}
