package magnas

import (
	"math/rand/v2"
	"testing"

	"gnnsim/workload"
)

// TestBlockEncoding checks the layer-wise variation's properties on the
// Figure 9 model: block-wise it is not used; samples are valid and about
// half block-uniform; a mutation changes each mutating block by a whole
// move to another unit or by one gene; crossover exchanges whole blocks.
func TestBlockEncoding(t *testing.T) {
	s := dsaSearcher(t)
	m, err := PyramidModel(Uniform(4, workload.Superblock{Depth: 2, Op: workload.GIN, PreFC: true, FFN: true, FFNHidden: 320}))
	if err != nil {
		t.Fatal(err)
	}
	bw, err := s.ModelEngine(m, BlockWise, DefaultInner())
	if err != nil {
		t.Fatal(err)
	}
	if newBlockEncoding(bw.MS, 0.4, 0.8) != nil {
		t.Error("block-wise: one gene per block needs no block encoding")
	}
	lw, err := s.ModelEngine(m, LayerWise, DefaultInner())
	if err != nil {
		t.Fatal(err)
	}
	e := newBlockEncoding(lw.MS, 1, 1)
	if e == nil || len(e.genes) != len(m.Blocks) {
		t.Fatalf("layer-wise encoding %v, want one gene group per block (%d)", e, len(m.Blocks))
	}
	r := rand.New(rand.NewPCG(3, 4))
	uniform := func(g []int) bool {
		for b := range e.genes {
			if e.uniformUnit(g, b) < 0 {
				return false
			}
		}
		return true
	}
	const n = 400
	nu := 0
	for range n {
		g := e.Sample(r)
		if err := e.CheckGenome(g); err != nil {
			t.Fatal(err)
		}
		if uniform(g) {
			nu++
		}
	}
	if nu < n/2-40 || nu > n/2+40 {
		t.Errorf("%d of %d samples block-uniform, want about half", nu, n)
	}
	al := lw.T.Allowed
	for range 50 {
		g := e.Sample(r)
		c := e.Mutate(r, g) // MutationProb 1: every block mutates
		for b, gs := range e.genes {
			changed := 0
			for _, i := range gs {
				if c[i] != g[i] {
					changed++
				}
			}
			u, cu := e.uniformUnit(g, b), e.uniformUnit(c, b)
			move := cu >= 0 && cu != u
			switch {
			case changed == 0:
				t.Errorf("block %d unchanged by a certain mutation", b)
			case changed > 1 && !move:
				t.Errorf("block %d: %d genes changed without moving the block to another unit (%d -> %d)", b, changed, u, cu)
			}
			for _, i := range gs {
				if c[i] < 0 || c[i] >= len(al[i]) {
					t.Fatalf("gene %d = %d out of range", i, c[i])
				}
			}
		}
	}
	a, b := e.Sample(r), e.Sample(r)
	for range 20 {
		c1, c2 := e.Crossover(r, a, b)
		for blk, gs := range e.genes {
			kept, swapped := false, false
			for _, i := range gs {
				switch {
				case c1[i] == a[i] && c2[i] == b[i]:
					kept = kept || a[i] != b[i]
				case c1[i] == b[i] && c2[i] == a[i]:
					swapped = true
				default:
					t.Errorf("crossover made gene %d from neither parent", i)
				}
			}
			if kept && swapped {
				t.Errorf("crossover split block %d", blk)
			}
		}
	}
}
