package gcos

import (
	"math"

	"gnnsim/workload"
)

// span is a sub-accelerator's slice of a kernel's output: rows [r0, r1)
// and columns [c0, c1).
type span struct{ r0, r1, c0, c1 int64 }

// phase holds the per sub-accelerator traces of one phase.
type phase struct{ subs [MaxSubs]SubTrace }

func (p *phase) add(a, b SubTrace) { p.subs[0], p.subs[1] = a, b }

// split divides kernel k among the sub-accelerators in proportion to their
// PEs and fills one job per sub-accelerator (Parallel scheme), or gives it
// whole to its engine (Hybrid scheme).
func (t *Template) split(jobs *[MaxSubs]job, k *workload.Kernel, base *rows, inOn, outOn bool) phase {
	var p phase
	full := span{0, k.M, 0, width(k)}
	if t.cfg.Scheme == Hybrid {
		e := 1 // the combination engine: GEMMs, X x W of a sparse input, element-wise
		if aggregation(k) {
			e = 0
		}
		p.subs[e], _, _ = t.share(&jobs[e], &t.subs[e], k, base, full, inOn, outOn)
		return p
	}
	var kr rows
	byRows := t.cfg.Alloc == ByRows || k.Class == workload.EdgeWise
	var total float64
	if byRows && sparse(k.Class) {
		kr = kernelRows(base, k)
		total = kr.prefix(k.M)
	}
	var bBytes, bFull [MaxSubs]int64
	cum := int64(0)
	prev := int64(0)
	for i := range t.n {
		cum += int64(t.subs[i].PEs)
		var cut int64
		switch {
		case i == t.n-1 && byRows:
			cut = k.M
		case i == t.n-1:
			cut = full.c1
		case byRows && sparse(k.Class):
			cut = kr.cut(total * float64(cum) / float64(t.totalPEs))
		case byRows:
			cut = propCut(k.M, cum, t.totalPEs)
		default:
			cut = propCut(full.c1, cum, t.totalPEs)
		}
		sp := full
		if byRows {
			sp.r0, sp.r1 = prev, cut
		} else {
			sp.c0, sp.c1 = prev, cut
		}
		prev = cut
		p.subs[i], bBytes[i], bFull[i] = t.share(&jobs[i], &t.subs[i], k, base, sp, inOn, outOn)
	}
	if t.cfg.ShareWeights && byRows && t.n > 1 {
		// One broadcast serves every sub-accelerator: the shared operand
		// crosses the HBM once per pass of the most demanding one.
		var sum, most int64
		for i := range t.n {
			sum += bBytes[i]
			most = max(most, bFull[i])
		}
		if shared := min(sum, most); shared < sum {
			left := shared
			for i := range t.n {
				part := shared * int64(t.subs[i].PEs) / t.totalPEs
				if i == t.n-1 {
					part = left
				}
				left -= part
				j := &jobs[i]
				j.bytes += part - bBytes[i]
				if j.chunks == 0 && j.bytes > 0 {
					j.chunks = 1
				}
			}
		}
	}
	return p
}

// propCut returns round(total * cum / all).
func propCut(total, cum, all int64) int64 {
	return int64((float64(total)*float64(cum))/float64(all) + 0.5)
}

// share computes sub-accelerator s's part sp of kernel k and fills j. It
// returns the trace, the bytes of the B operand it moves, and the bytes of
// the whole B operand at its re-read factor (what a broadcast would move).
func (t *Template) share(j *job, s *Sub, k *workload.Kernel, base *rows, sp span, inOn, outOn bool) (SubTrace, int64, int64) {
	m, n := sp.r1-sp.r0, sp.c1-sp.c0
	st := SubTrace{Rows: m, Cols: n}
	*j = job{}
	if m <= 0 || n <= 0 {
		return st, 0, 0
	}
	lanes := float64(max(1, int64(s.PEs)/ewLanesPerPEs))
	isSparse := sparse(k.Class)
	var c shareCost
	switch {
	case isSparse:
		c = sparseCost(s, k, base, sp, lanes)
	case k.Class == workload.GEMM:
		c = gemmCost(s, k, m, n)
	default: // ElementWise
		frac := float64(m) * float64(n) / (float64(k.M) * float64(k.N))
		c.comp = float64(k.Ops) * frac / lanes
		c.kDim = 1
		c.aB = float64(k.InElems) * frac * WordBytes
		c.cB = float64(k.OutElems) * frac * WordBytes
	}
	fA, fB, fC := 1.0, 1.0, 1.0
	if k.Class != workload.ElementWise {
		fA, fB, fC = rereads(&c, s, k, base, sp, isSparse)
	}
	if inOn { // the input is the previous kernel's output, kept on chip
		if isSparse && !sparseInput(k) {
			c.bB, c.fullB = 0, 0 // an aggregation's input is its B operand
		} else {
			c.aB = 0
		}
	}
	if outOn {
		c.cB = 0
	}
	bMoved := ceilF(c.bB * fB)
	if isSparse && fB > 1 {
		// A row tile of a sparse A touches at most its entries' rows of B.
		bMoved = ceilF(min(c.bB*fB, c.nnz*float64(n)*WordBytes))
	}
	bytes := ceilF(c.aB*fA) + bMoved + ceilF(c.cB*fC)
	j.compute = ceilF(c.comp)
	j.bytes = bytes
	if j.compute > 0 || j.bytes > 0 {
		j.chunks = int(min(max(ceilDiv(m, int64(s.TileM))*ceilDiv(n, int64(s.TileN)), 1), maxChunks))
		if s.Disperse && isSparse {
			// An interval's source features stream through the 128 KB Input
			// and 2 MB Edge Buffers shard by shard (HyGCN, Sec. 4.3.2 and
			// Table 6) while the engine computes: many steps per output
			// tile, as many as a phase is split into here.
			j.chunks = maxChunks
		}
	}
	st.Compute = j.compute
	return st, bMoved, ceilF(c.fullB * fB)
}

// shareCost is a sub-accelerator's share of a kernel read once: its
// compute steps, the bytes of its A, B and C operands, the bytes of the
// whole B operand, the reduction depth it tiles and, for a sparse kernel,
// the entries of its rows. share scales the bytes by their re-read factors
// (rereads) afterwards, so each kernel class only states its own costs.
type shareCost struct {
	comp, aB, bB, cB, fullB float64
	kDim                    int64
	nnz                     float64
}

// sparseCost prices sub-accelerator s's part sp of a sparse kernel k
// (aggregation, sparse input, edge-wise attention): compute steps by
// kernel mode, rebalancing or HyGCN's vertex-disperse mode, and the bytes
// of its operands. It is apart from gemmCost because a sparse share's cost
// follows the measured lengths of its rows (base), a dense one's its shape
// alone.
func sparseCost(s *Sub, k *workload.Kernel, base *rows, sp span, lanes float64) shareCost {
	var c shareCost
	m, n := sp.r1-sp.r0, sp.c1-sp.c0
	P := int64(s.PEs)
	r := kernelRows(base, k)
	nnz := r.prefix(sp.r1) - r.prefix(sp.r0)
	c.nnz = nnz
	tc := min(int64(s.TileN), n, P)
	grp := max(1, P/tc)
	passes := float64(ceilDiv(n, tc))
	util := s.Utilization
	if util == 0 {
		util = 1
	}
	switch {
	case s.Disperse:
		// HyGCN's vertex-disperse mode (Sec. 4.3.1): a vertex's feature
		// elements go to all SIMD cores, 16 to a core, and "if a vertex
		// cannot occupy all cores, free cores can be assigned to other
		// vertices": every entry costs its row's ceil(n/16) core steps
		// spread over all lanes, with no pass left part idle (602
		// features on 512 lanes take 38/32 steps an entry, not 2).
		simd := int64(HyGCNSIMDLanes)
		c.comp = nnz * float64(ceilDiv(n, simd)*simd) / float64(P)
	case s.Rebalance && s.Kernel == ColumnWise:
		// Each PE owns the rows dealt to it round robin; rebalancing
		// reaches util of perfect balance unless the static mapping
		// already does better.
		c.comp = float64(n) * min(nnz/float64(P)/util, r.roundRobinMax(sp.r0, sp.r1, P))
	case s.Rebalance:
		c.comp = passes * nnz / float64(grp) / util
	case s.Kernel == InnerProduct:
		c.comp = passes * r.groupMax(sp.r0, sp.r1, grp)
	case s.Kernel == ColumnWise:
		c.comp = float64(n) * r.groupMax(sp.r0, sp.r1, P)
	case s.Kernel == RowWise:
		c.comp = passes * max(nnz/float64(grp), r.longest(sp.r0, sp.r1))
	default: // OuterProduct
		c.comp = passes * nnz / float64(grp)
	}
	if k.Class == workload.EdgeWise && k.NNZ > 0 {
		c.comp += float64(k.Ops) * nnz / float64(k.NNZ) / lanes // softmax steps
	}
	c.kDim = k.K
	c.aB = s.sparseBytes(nnz, k.K)
	c.bB = min(float64(k.K), nnz) * float64(n) * WordBytes
	c.fullB = float64(k.K) * float64(n) * WordBytes
	if k.Class == workload.EdgeWise {
		c.cB = nnz * WordBytes
	} else {
		c.cB = float64(m) * float64(n) * WordBytes
	}
	return c
}

// gemmCost prices sub-accelerator s's m x n part of dense product k:
// compute steps by kernel mode (scaled down for a grouped product's
// skipped blocks) and the bytes of its operands (see sparseCost for why
// the two classes are priced apart).
func gemmCost(s *Sub, k *workload.Kernel, m, n int64) shareCost {
	var c shareCost
	P := int64(s.PEs)
	tc := min(int64(s.TileN), n, P)
	grp := min(max(1, P/tc), m)
	switch s.Kernel {
	case OuterProduct: // K x N spatial, spare PEs take further rows
		kr := min(max(1, P/tc), k.K)
		rr := min(max(1, P/(kr*tc)), m)
		c.comp = float64(ceilDiv(m, rr)) * float64(ceilDiv(k.K, kr)) * float64(ceilDiv(n, tc))
	case ColumnWise:
		rr := min(P, m)
		c.comp = float64(ceilDiv(m, rr)) * float64(k.K) * float64(n)
	default: // InnerProduct, RowWise
		c.comp = float64(ceilDiv(m, grp)) * float64(ceilDiv(n, tc)) * float64(k.K)
	}
	if dense := float64(k.M) * float64(k.K) * float64(k.N); dense > 0 {
		c.comp *= float64(k.MACs) / dense // grouped products skip blocks
	}
	c.kDim = k.K
	c.aB = float64(m) * float64(k.K) * WordBytes
	c.bB = float64(k.WeightElems) * float64(n) / float64(k.N) * WordBytes
	c.fullB = c.bB
	c.cB = float64(m) * float64(n) * WordBytes
	return c
}

// rereads returns how many times the A, B and C operands of a sparse or
// dense product cross the HBM given s's buffers, tiling and kernel mode
// (partial sums spill and come back once per K tile that holds work). For
// HyGCN's interval-shard partition and a row-wise sparse gather it lowers
// or raises c.bB itself, as those move B by rows rather than by passes.
// The buffer rules are the same for both classes, hence one pass after
// sparseCost or gemmCost.
func rereads(c *shareCost, s *Sub, k *workload.Kernel, base *rows, sp span, isSparse bool) (fA, fB, fC float64) {
	fA, fB, fC = 1.0, 1.0, 1.0
	m, n, nnz := sp.r1-sp.r0, sp.c1-sp.c0, c.nnz
	tilesM := float64(ceilDiv(m, int64(s.TileM)))
	tilesN := float64(ceilDiv(n, int64(s.TileN)))
	// Partial sums spill once per K tile that holds work: every tile
	// for a dense A, at most a row's entries' worth for a sparse one.
	passesK := float64(ceilDiv(c.kDim, int64(s.TileK)))
	if isSparse && m > 0 {
		passesK = min(passesK, max(1, nnz/float64(m)))
	}
	spill := 2*passesK - 1
	aCap := float64(s.featureBytes())
	if isSparse {
		aCap += float64(s.indexBytes())
	}
	fitA := c.aB <= aCap
	fitB := c.bB <= float64(s.weightBytes())
	outCap := float64(s.outputBytes())
	fits := func(rows, cols int64) bool { return float64(rows)*float64(cols)*WordBytes <= outCap }
	switch {
	case s.Disperse && isSparse:
		// Interval-shard partition (HyGCN Sec. 4.3.2): destination
		// intervals as large as one half of the ping-pong output
		// buffer; each reads the source features once (at most one row
		// per edge) while its partial sums stay on chip.
		// With the graph's columns known, an interval loads only the
		// source rows with an edge into it (its sparsity elimination).
		intervals := math.Ceil(float64(m) * float64(n) * WordBytes / (outCap / 2))
		c.bB = min(intervals*c.bB, nnz*float64(n)*WordBytes)
		r := kernelRows(base, k)
		if src, ok := r.intervalSources(sp.r0, sp.r1, ceilDiv(m, int64(intervals))); ok {
			c.bB = min(c.bB, src*float64(n)*WordBytes)
		}
	case s.Kernel == InnerProduct:
		switch s.Tiling {
		case WeightReuse:
			if !fitA {
				fA = tilesN
			}
			if !fits(m, min(n, int64(s.TileN))) {
				fC = spill
			}
		case FeatureReuse:
			if !fitB {
				fB = tilesM
			}
			if !fits(min(m, int64(s.TileM)), n) {
				fC = spill
			}
		default: // OutputReuse
			if !fitA {
				fA = tilesN
			}
			if !fitB {
				fB = tilesM
			}
		}
	case s.Kernel == OuterProduct:
		if !fits(m, n) {
			fC = spill
		}
	case s.Kernel == RowWise:
		switch {
		case fitB:
		case isSparse: // one B row gathered per nonzero
			c.bB = max(c.bB, min(nnz*float64(n)*WordBytes, tilesM*c.fullB))
		default:
			fB = tilesM
		}
	case s.Kernel == ColumnWise:
		if !fitA {
			fA = tilesN
		}
	}
	return fA, fB, fC
}
