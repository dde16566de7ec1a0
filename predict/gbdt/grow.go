package gbdt

import (
	"math"

	"gnnsim/internal/par"
)

// histBin accumulates one histogram bin: the sum of gradients and the number
// of rows (the L2 loss has hessian 1, so the count is also the hessian sum).
type histBin struct {
	g float64
	n int32
}

// split is a leaf's best split: rows with bin <= bin of feature go left.
type split struct {
	gain    float64
	feature int // -1: no valid split
	bin     int
	leftG   float64
	leftN   int
}

type leafState struct {
	begin, end int // rows order[begin:end]
	sumG       float64
	depth      int
	hist       []histBin // nil unless the leaf is a split candidate
	best       split
}

func (s *leafState) count() int { return s.end - s.begin }

// parallelMinWork is the work (rows x features plus 4 x bins scanned, see
// splitWork) below which one goroutine is faster than several.
const parallelMinWork = 16 * 1024

// learner grows trees on binned training data. It is reused across rounds
// so its buffers are allocated once.
type learner struct {
	p          Params
	workers    int
	n          int
	mappers    []binMapper
	bins       [][]uint8 // bins[f][row]
	offset     []int     // start of feature f in a histogram
	totalBins  int
	splittable []int // features with at least two bins

	minN     int       // fewest rows in a leaf: min_data_in_leaf, and min_sum_hessian_in_leaf as hessians are 1
	inv      []float64 // inv[k] = 1/(k+lambda_l2): gains multiply instead of divide
	grad     []float64 // gradient of each training row
	order    []int32   // bag rows, grouped by leaf
	tmp      []int32
	leafGrad []float64 // gradients of the leaf being histogrammed, in row order
	histPool [][]histBin
	leaves   []leafState
	featA    []split // per-feature best splits of the two new leaves
	featB    []split
}

func newLearner(X [][]float64, p Params) *learner {
	n, nf := len(X), len(X[0])
	l := &learner{
		p:        p,
		workers:  p.workers(),
		n:        n,
		mappers:  make([]binMapper, nf),
		bins:     make([][]uint8, nf),
		offset:   make([]int, nf),
		inv:      make([]float64, n+1),
		grad:     make([]float64, n),
		order:    make([]int32, n),
		tmp:      make([]int32, n),
		leafGrad: make([]float64, n),
		leaves:   make([]leafState, 0, p.NumLeaves),
		featA:    make([]split, nf),
		featB:    make([]split, nf),
	}
	l.minN = max(p.MinDataInLeaf, int(math.Ceil(min(p.MinSumHessianInLeaf, float64(n+1)))))
	for k := range l.inv {
		l.inv[k] = 1 / (float64(k) + p.LambdaL2)
	}
	col := make([]float64, n)
	for f := range nf {
		for i, row := range X {
			col[i] = row[f]
		}
		bm := newBinMapper(col, p.MaxBin)
		l.mappers[f] = bm
		b := make([]uint8, n)
		for i, row := range X {
			b[i] = bm.bin(row[f])
		}
		l.bins[f] = b
		l.offset[f] = l.totalBins
		l.totalBins += bm.numBins()
		if bm.numBins() > 1 {
			l.splittable = append(l.splittable, f)
		}
	}
	return l
}

func (l *learner) getHist() []histBin {
	if k := len(l.histPool); k > 0 {
		h := l.histPool[k-1]
		l.histPool = l.histPool[:k-1]
		return h
	}
	return make([]histBin, l.totalBins)
}

func (l *learner) putHist(h []histBin) {
	if h != nil {
		l.histPool = append(l.histPool, h)
	}
}

// forFeatures runs fn(k) for every k in [0, nfeat), on several goroutines
// (par.For, the caller among them) when the work is large enough. Each k
// writes only its own data, so the result does not depend on the number of
// goroutines or on which one ran which k.
func (l *learner) forFeatures(nfeat, work int, fn func(k int)) {
	w := min(l.workers, nfeat)
	if w <= 1 || work < parallelMinWork {
		for k := range nfeat {
			fn(k)
		}
		return
	}
	par.For(nfeat, w, func(k int) error {
		fn(k)
		return nil
	})
}

// buildHist fills feature f of h from the rows of leaf s, whose gradients
// are already gathered in leafGrad[:s.count()].
func (l *learner) buildHist(h []histBin, f int, s *leafState) {
	hf := h[l.offset[f] : l.offset[f]+l.mappers[f].numBins()]
	clear(hf)
	col := l.bins[f]
	g := l.leafGrad[:s.count()]
	for k, r := range l.order[s.begin:s.end] {
		b := &hf[col[r]]
		b.g += g[k]
		b.n++
	}
}

// splitWork estimates the cost of histogramming rows rows and scanning the
// bins of feats for leaves leaves; a bin scan costs a few row additions.
func (l *learner) splitWork(rows int, feats []int, leaves int) int {
	bins := 0
	for _, f := range feats {
		bins += l.mappers[f].numBins()
	}
	return rows*len(feats) + 4*leaves*bins
}

func (l *learner) gather(s *leafState) {
	g := l.leafGrad[:s.count()]
	for k, r := range l.order[s.begin:s.end] {
		g[k] = l.grad[r]
	}
}

func (l *learner) canSplit(s *leafState) bool {
	return (l.p.MaxDepth <= 0 || s.depth < l.p.MaxDepth) && s.count()/2 >= l.minN
}

// bestSplit scans the bins of feature f in histogram h of a leaf with
// gradient sum G over N rows. Ties keep the lowest bin.
func (l *learner) bestSplit(h []histBin, f int, G float64, N int) split {
	best := split{gain: l.p.MinGainToSplit, feature: -1}
	hf := h[l.offset[f] : l.offset[f]+l.mappers[f].numBins()]
	inv := l.inv
	minN := l.minN
	parent := G * G * inv[N]
	// Compare sums of child scores against threshold = parent + best gain
	// so the loop does no subtraction.
	threshold := parent + best.gain
	gl, nl := 0.0, 0
	for b := 0; b < len(hf)-1; b++ {
		if hf[b].n == 0 {
			continue // same partition as the previous cut
		}
		gl += hf[b].g
		nl += int(hf[b].n)
		nr := N - nl
		if nl < minN {
			continue
		}
		if nr < minN {
			break
		}
		gr := G - gl
		if score := gl*gl*inv[nl] + gr*gr*inv[nr]; score > threshold {
			threshold = score
			best = split{feature: f, bin: b, leftG: gl, leftN: nl}
		}
	}
	if best.feature >= 0 {
		best.gain = threshold - parent
	}
	return best
}

// reduce picks the best of the per-feature splits, lowest feature first on
// ties, so the choice is independent of how features were spread over
// goroutines.
func reduce(feats []int, per []split) split {
	best := split{feature: -1}
	for _, f := range feats {
		s := per[f]
		if s.feature >= 0 && (best.feature < 0 || s.gain > best.gain) {
			best = s
		}
	}
	return best
}

func (l *learner) leafOutput(G float64, N int) float64 {
	return -G * l.inv[N]
}

// grow grows one tree leaf-wise on the rows in bag (sorted) using only the
// features in feats. It returns the tree (outputs not yet shrunk) and the
// bin threshold of each internal node for routing training rows.
func (l *learner) grow(bag []int32, feats []int) (tree, []uint8) {
	maxLeaves := l.p.NumLeaves
	tb := newTreeBuilder(maxLeaves)
	l.startRoot(bag, feats)
	for len(l.leaves) < maxLeaves {
		pi := l.bestLeaf()
		if pi < 0 {
			break
		}
		p := l.leaves[pi]
		bs := p.best
		ri := len(l.leaves)
		nl := l.partition(&p)
		l.addNode(&tb, pi, ri, &p)

		left := leafState{begin: p.begin, end: p.begin + nl, sumG: bs.leftG, depth: p.depth + 1}
		right := leafState{begin: p.begin + nl, end: p.end, sumG: p.sumG - bs.leftG, depth: p.depth + 1}
		left.best.feature, right.best.feature = -1, -1
		l.leaves[pi] = left
		l.leaves = append(l.leaves, right)
		if len(l.leaves) == maxLeaves {
			l.putHist(p.hist)
			break
		}
		l.splitChildren(pi, ri, p.hist, feats)
	}
	l.finishLeaves(&tb.t)
	return tb.t, tb.nodeBin
}

// treeBuilder is the tree grow is building, with the bookkeeping that does
// not go into the file: the bin threshold of each internal node and the
// node each current leaf hangs from.
type treeBuilder struct {
	t          tree
	nodeBin    []uint8
	leafParent []int32 // node above each current leaf, -1 for the root leaf
}

// newTreeBuilder returns an empty tree with room for the internal nodes of
// maxLeaves leaves, allocated once so that growing it does not reallocate.
// The tree's layout is set here and nowhere else.
func newTreeBuilder(maxLeaves int) treeBuilder {
	tb := treeBuilder{
		t: tree{
			splitFeature:   make([]int, 0, maxLeaves-1),
			splitGain:      make([]float64, 0, maxLeaves-1),
			threshold:      make([]float64, 0, maxLeaves-1),
			leftChild:      make([]int32, 0, maxLeaves-1),
			rightChild:     make([]int32, 0, maxLeaves-1),
			internalValue:  make([]float64, 0, maxLeaves-1),
			internalWeight: make([]float64, 0, maxLeaves-1),
			internalCount:  make([]int, 0, maxLeaves-1),
			shrinkage:      1,
		},
		nodeBin:    make([]uint8, 0, maxLeaves-1),
		leafParent: make([]int32, 1, maxLeaves),
	}
	tb.leafParent[0] = -1
	return tb
}

// startRoot makes the rows of bag the single leaf of a new tree and, if it
// may split, builds its histogram and finds its best split over feats. The
// root has no parent histogram to subtract from, hence its own pass.
func (l *learner) startRoot(bag []int32, feats []int) {
	copy(l.order, bag)
	root := leafState{begin: 0, end: len(bag)}
	for _, r := range bag {
		root.sumG += l.grad[r]
	}
	root.best.feature = -1
	l.leaves = append(l.leaves[:0], root)
	if len(feats) > 0 && l.canSplit(&l.leaves[0]) {
		s := &l.leaves[0]
		s.hist = l.getHist()
		l.gather(s)
		l.forFeatures(len(feats), l.splitWork(s.count(), feats, 1), func(k int) {
			f := feats[k]
			l.buildHist(s.hist, f, s)
			l.featA[f] = l.bestSplit(s.hist, f, s.sumG, s.count())
		})
		s.best = reduce(feats, l.featA)
	}
}

// bestLeaf returns the leaf to split next, the one with the largest gain
// (best-first growth, lowest index on ties), or -1 when none can split.
// The growth order is kept apart from how a split is applied.
func (l *learner) bestLeaf() int {
	pi := -1
	for i := range l.leaves {
		if b := l.leaves[i].best; b.feature >= 0 && (pi < 0 || b.gain > l.leaves[pi].best.gain) {
			pi = i
		}
	}
	return pi
}

// partition reorders the rows of leaf p stably, the rows its best split
// sends left first, and returns how many go left. It is the only pass that
// moves rows, with the check that they agree with the histogram.
func (l *learner) partition(p *leafState) int {
	bs := p.best
	col := l.bins[bs.feature]
	rows := l.order[p.begin:p.end]
	nl, nr := 0, 0
	for _, r := range rows {
		if int(col[r]) <= bs.bin {
			rows[nl] = r
			nl++
		} else {
			l.tmp[nr] = r
			nr++
		}
	}
	copy(rows[nl:], l.tmp[:nr])
	if nl != bs.leftN {
		panic("gbdt: histogram and partition disagree") // internal invariant
	}
	return nl
}

// addNode records the best split of leaf p (index pi) as a new internal
// node of tb, whose children are leaf pi (left) and the new leaf ri
// (right), and hangs the node from p's parent. The tree's node arrays are
// written here only.
func (l *learner) addNode(tb *treeBuilder, pi, ri int, p *leafState) {
	t, bs := &tb.t, p.best
	node := int32(len(t.leftChild))
	if q := tb.leafParent[pi]; q >= 0 {
		if t.leftChild[q] == ^int32(pi) {
			t.leftChild[q] = node
		} else {
			t.rightChild[q] = node
		}
	}
	t.splitFeature = append(t.splitFeature, bs.feature)
	t.splitGain = append(t.splitGain, bs.gain)
	t.threshold = append(t.threshold, l.mappers[bs.feature].upper[bs.bin])
	t.leftChild = append(t.leftChild, ^int32(pi))
	t.rightChild = append(t.rightChild, ^int32(ri))
	t.internalValue = append(t.internalValue, l.leafOutput(p.sumG, p.count()))
	t.internalWeight = append(t.internalWeight, float64(p.count()))
	t.internalCount = append(t.internalCount, p.count())
	tb.nodeBin = append(tb.nodeBin, uint8(bs.bin))
	tb.leafParent[pi] = node
	tb.leafParent = append(tb.leafParent, node)
}

// splitChildren finds the best splits of the two new leaves pi and ri by
// histogram subtraction: it builds the smaller child's histogram from its
// rows and derives the larger child's as the parent's (parentHist, which
// it takes over) minus the smaller. Children that cannot split get no
// histogram. It is the pass that builds histograms, over features on
// several goroutines, apart from the bookkeeping of the split itself.
func (l *learner) splitChildren(pi, ri int, parentHist []histBin, feats []int) {
	si, li := pi, ri
	if l.leaves[ri].count() < l.leaves[pi].count() {
		si, li = ri, pi
	}
	small, large := &l.leaves[si], &l.leaves[li]
	splitS, splitL := l.canSplit(small), l.canSplit(large)
	if !splitS && !splitL {
		l.putHist(parentHist)
		return
	}
	small.hist = l.getHist()
	large.hist = parentHist
	l.gather(small)
	l.forFeatures(len(feats), l.splitWork(small.count(), feats, 2), func(k int) {
		f := feats[k]
		l.buildHist(small.hist, f, small)
		lo, hi := l.offset[f], l.offset[f]+l.mappers[f].numBins()
		hs, hl := small.hist[lo:hi], large.hist[lo:hi]
		for b := range hl {
			hl[b].g -= hs[b].g
			hl[b].n -= hs[b].n
		}
		if splitS {
			l.featA[f] = l.bestSplit(small.hist, f, small.sumG, small.count())
		}
		if splitL {
			l.featB[f] = l.bestSplit(large.hist, f, large.sumG, large.count())
		}
	})
	if splitS {
		small.best = reduce(feats, l.featA)
	} else {
		l.putHist(small.hist)
		small.hist = nil
	}
	if splitL {
		large.best = reduce(feats, l.featB)
	} else {
		l.putHist(large.hist)
		large.hist = nil
	}
}

// finishLeaves writes the output, weight and count of every leaf of the
// grown tree into t and returns the leaves' histograms to the pool. Leaf
// arrays are written once the tree has stopped growing, here.
func (l *learner) finishLeaves(t *tree) {
	nLeaves := len(l.leaves)
	t.leafValue = make([]float64, nLeaves)
	t.leafWeight = make([]float64, nLeaves)
	t.leafCount = make([]int, nLeaves)
	for i := range l.leaves {
		s := &l.leaves[i]
		t.leafValue[i] = l.leafOutput(s.sumG, s.count())
		t.leafWeight[i] = float64(s.count())
		t.leafCount[i] = s.count()
		l.putHist(s.hist)
		s.hist = nil
	}
}

// addScores adds the leaf values of t, the tree grow just returned, to the
// scores of all training rows: rows of the bag through the leaf ranges grow
// left in order, the others (bag is sorted) by routing their bins.
func (l *learner) addScores(t *tree, nodeBin []uint8, bag []int32, scores []float64) {
	for i := range l.leaves {
		s := &l.leaves[i]
		v := t.leafValue[i]
		for _, r := range l.order[s.begin:s.end] {
			scores[r] += v
		}
	}
	if len(bag) == l.n {
		return
	}
	j := 0
	for r := range l.n {
		if j < len(bag) && int(bag[j]) == r {
			j++
			continue
		}
		scores[r] += t.leafValue[l.leafOfRow(t, nodeBin, r)]
	}
}

// leafOfRow routes training row r through t by bins, which agrees with
// routing its raw values by threshold.
func (l *learner) leafOfRow(t *tree, nodeBin []uint8, r int) int {
	if len(t.leftChild) == 0 {
		return 0
	}
	n := int32(0)
	for n >= 0 {
		if l.bins[t.splitFeature[n]][r] <= nodeBin[n] {
			n = t.leftChild[n]
		} else {
			n = t.rightChild[n]
		}
	}
	return int(^n)
}
