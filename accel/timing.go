package accel

import "math/bits"

// This file holds the per-row and per-tile timing of STONNE-Omega's two
// phases (see the package doc, "Timing model"). Everything here is integer
// arithmetic on tile sizes and row lengths; the engines only add up and
// schedule what these functions return.

// clog2 returns ceil(log2(x)) for x >= 1 (0 for x <= 1).
func clog2(x int64) int64 {
	if x <= 1 {
		return 0
	}
	return int64(bits.Len64(uint64(x - 1)))
}

// flog2 returns floor(log2(x)) for x >= 1 (0 for x <= 1).
func flog2(x int64) int64 {
	if x <= 1 {
		return 0
	}
	return int64(bits.Len64(uint64(x))) - 1
}

func ceilDiv(a, b int64) int64 { return (a + b - 1) / b }

// aggTiming is the aggregation model of one configuration. A row of
// length d (its nonzeros) runs iK = ceil(d/T_N) neighbour steps: one cycle
// of configuration, iK cycles multicasting the A values (STA) and iK cycles
// per pass streaming H for each of the iN = ceil(F/T_Fa) passes over the
// feature columns (STR). Its outputs leave the reduction network lf cycles
// after streaming ends for the last valid feature column and ld cycles for
// the whole row, when the next row may start.
type aggTiming struct {
	tn, fa, iN int64
	// dn and rn are the distribution and reduction bandwidths (words per
	// cycle) with NoC limits, 0 without.
	dn, rn int64
	lf, ld int64
	// backlog is added to ld for rows with iK = 1 (see newAggTiming).
	backlog int64
	// extraSteps is added per neighbour step for layers with per-edge work
	// beyond the SpMM (GAT's attention weighting).
	extraSteps int64
}

// newAggTiming derives the aggregation timing for tiles (fa, tn) over
// feature width f. dn and rn are the distribution and reduction bandwidths
// (words/cycle) the phase has, or 0 for none of the NoC limits.
func newAggTiming(fa, tn, f, dn, rn int64, extraSteps int64) aggTiming {
	t := aggTiming{tn: tn, fa: fa, iN: ceilDiv(f, fa), dn: dn, rn: rn, extraSteps: extraSteps}
	if dn == 0 {
		t.rn = 0
	}
	// ld: the reduction tree is clog2(T_N) adders deep; the roots of the
	// T_Fa virtual neighbourhoods reach the collection bus through
	// flog2(T_Fa) more levels; 3 cycles of multiplier, accumulator and
	// write-back.
	t.ld = 3 + clog2(tn) + flog2(fa)
	// lf: the last valid feature column is (F-1) mod T_Fa. With a temporal
	// reduction (T_N = 1) its latency grows with its position; with an
	// adder tree it leaves one level below the tree.
	vn := (f - 1) % fa
	switch {
	case tn == 1:
		t.lf = min(3+clog2(vn+1), t.ld)
	case fa == 1:
		t.lf = 3 + clog2(tn)
	default:
		t.lf = 4 + clog2(tn)
	}
	// Collection-bus backlog: reduction-tree roots 1 and 2 (and 3 and 4,
	// ...) share one bus line that delivers one result per cycle. When a
	// row has a single neighbour step, a new pass enters every cycle and
	// each pass needs two cycles to drain, so the row's last results come
	// iN-1 cycles late. With T_Fa <= 2 there is no pair, and with a
	// temporal reduction (T_N = 1) no tree.
	if tn > 1 && fa >= 3 {
		t.backlog = t.iN - 1
	}
	return t
}

// work returns the streaming work W of a row with iK neighbour steps and
// its done latency.
func (t *aggTiming) work(iK int64) (w, ld int64) {
	w = 1 + iK*(1+t.extraSteps) + t.iN*iK
	ld = t.ld
	if iK == 1 {
		ld += t.backlog
	}
	return w, ld
}

// netBound returns the cycles a group of rows lock-stepped together needs
// at least when the networks limit it (0 without NoC limits): sumIK and
// maxIK are the sum and maximum of its rows' neighbour steps. The group
// runs its configure cycle, maxIK multicast steps, then iN passes of maxIK
// streaming steps, then drains; every phase lasts at least as long as the
// network takes to move the words of the rows still stepping (sumIK*T_N A
// values; sumIK*T_N*T_Fa H values per pass) and, per pass, to collect
// rows*T_Fa results. The networks are pipelined, so a phase's words flow
// at the network's rate across its steps; a row whose neighbours are
// exhausted takes no more words, so grouping rows differently changes no
// phase's traffic.
func (t *aggTiming) netBound(sumIK, maxIK, rows int64) int64 {
	if t.dn == 0 {
		return 0
	}
	sta := max(maxIK, ceilDiv(sumIK*t.tn, t.dn))
	str := max(maxIK, ceilDiv(sumIK*t.tn*t.fa, t.dn), ceilDiv(rows*t.fa, t.rn))
	return 1 + sta + maxIK*t.extraSteps + t.iN*str + t.ld
}

// combTiming is the combination model of one GEMM (K x N weights) under
// tiles (vc, gc, fc). A tile of T_Vc rows loads its stationary block in S =
// ceil(K/T_Fc) folds and streams the N/T_Gc weight columns, each fold taking
// a cycle per column; pairs of reduction roots sharing a bus line make a
// column cost at least 2 cycles once three or more roots are active.
type combTiming struct {
	vc, s, cols int64
	per         int64 // cycles per tile (the period: tiles run back to back)
	load        int64 // cycles of stationary loads per tile (S folds)
	// For the per-row timestamps of omega's pp bookkeeping.
	single bool  // S == 1: no folding
	lvl    int64 // clog2(T_Vc) - 1
}

func newCombTiming(vc, gc, fc, k, n, dn, rn int64) combTiming {
	s := ceilDiv(k, fc)
	cols := ceilDiv(n, gc)
	roots := vc * gc
	loadStep, streamStep, outStep := int64(1), int64(1), int64(1)
	if dn > 0 {
		loadStep = ceilDiv(vc*gc*fc, dn)
		streamStep = ceilDiv(fc*gc, dn)
		outStep = ceilDiv(roots, rn)
	}
	col := s * streamStep
	if roots >= 3 {
		col = max(col, 2)
	}
	col = max(col, outStep)
	drain := 3 + clog2(vc*gc*fc)
	if s == 1 {
		drain--
	}
	t := combTiming{vc: vc, s: s, cols: cols, load: s * loadStep, single: s == 1}
	t.per = cols*col + t.load + drain
	t.lvl = max(clog2(vc)-1, 0)
	return t
}

// rowStamp returns the cycle, relative to its tile's start, that STONNE
// records as row j's last combination result, for a tile of the GEMM with
// T_Gc = 1 (see the package doc's quirk list). Rows whose reduction root
// shares a bus line alternate with their partner and finish near the end of
// the tile; unpaired roots (row 0, and the last row of a tile when it is odd
// and no partner follows) deliver one result per cycle and finish early.
func (t *combTiming) rowStamp(j int64) int64 {
	if t.vc < 3 {
		return t.per - 1
	}
	base := t.per - t.lvl
	if t.single && (j == 0 || (j == t.vc-1 && j%2 == 1)) {
		return base - (t.cols - 1)
	}
	if j%2 == 0 && j >= 2 {
		lastEven := t.vc - 2
		if t.vc%2 == 1 {
			lastEven = t.vc - 1
		}
		k := (lastEven-j)/2 + 1
		return base + max(1, t.lvl-flog2(k))
	}
	return base
}
