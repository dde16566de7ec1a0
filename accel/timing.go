package accel

// This file holds the per-row and per-tile timing of STONNE-Omega's two
// phases (see the package doc, "Timing model"): when the controllers send
// their data, from which the output path (rnet.go) says when each result is
// written. The engines only add up and schedule what these return.

func ceilDiv(a, b int64) int64 { return (a + b - 1) / b }

// pipeDepth is the cycles from the controller's send of a multiplier's last
// operand to its product entering the reduction network (distribution,
// multiplier) plus the hop from the reduction network's output onto a bus
// line: the arrival of a result on its line is pipeDepth plus the
// reduction latency after the send.
const pipeDepth = 2

// rowTime is the timing of one aggregation row: its start-to-start
// duration and when, from its start, the result of its last feature column
// is written (what STONNE-Omega records as the row's timestamp).
type rowTime struct{ dur, stamp int64 }

// aggTiming is the aggregation model of one configuration, after STONNE's
// sparse-dense controller. A row with d nonzeros runs iK = ceil(d/T_N)
// neighbour steps: one cycle of configuration, iK cycles multicasting the A
// values, then iN = ceil(F/T_Fa) passes over the feature columns of iK
// cycles each, streaming H. Each pass ends with T_Fa sums (VNs of T_N
// leaves) that the output path writes; the next row configures the cycle
// after the row's last result is written. Rows with the same iK take the
// same time, so the timing is computed once per iK (and kept between runs
// with the same tiles).
type aggTiming struct {
	tn, fa, f, iN int64
	// dn and rn are the distribution and reduction bandwidths (words per
	// cycle) with NoC limits, 0 without.
	dn, rn int64
	// extraSteps is added per neighbour step for layers with per-edge work
	// beyond the SpMM (GAT's attention weighting).
	extraSteps int64
	depth      int64 // pipeDepth (a parameter for the hold-out test)
	key        aggKey
	scr        *timingScratch
	memo       []rowTime // by iK up to the longest row's; dur 0 = not yet computed
}

// work returns the cycles a row with iK neighbour steps spends sending.
func (t *aggTiming) work(iK int64) int64 { return 1 + iK*(1+t.extraSteps) + t.iN*iK }

// row returns the timing of a row with 1 <= iK <= maxIK neighbour steps.
func (t *aggTiming) row(iK int64) rowTime {
	if r := t.memo[iK]; r.dur > 0 {
		return r
	}
	out := &t.scr.aggOut
	if !t.scr.aggOutSet || t.scr.aggOutKey != t.key {
		out.setup(int(t.tn), int(t.fa), int(t.key.leaves))
		t.scr.aggOutKey, t.scr.aggOutSet = t.key, true
	}
	// Cycle 1 configures, cycles 2..1+iK(1+extra) multicast; pass p's last
	// step is at 1 + iK(1+extra) + (p+1)iK.
	base := 1 + iK*(1+t.extraSteps) + iK + t.depth
	dur := out.run(base, iK, t.iN)
	r := rowTime{dur: dur, stamp: out.popT[(t.f-1)%t.fa]}
	t.memo[iK] = r
	return r
}

// netBound returns the cycles a group of rows lock-stepped together needs
// at least when the networks limit it (0 without NoC limits): sumIK and
// maxIK are the sum and maximum of its rows' neighbour steps. The group
// runs its configure cycle, maxIK multicast steps, then iN passes of maxIK
// streaming steps, then drains as its slowest row does; every phase lasts
// at least as long as the network takes to move the words of the rows
// still stepping (sumIK*T_N A values; sumIK*T_N*T_Fa H values per pass)
// and, per pass, to collect rows*T_Fa results. The networks are
// pipelined, so a phase's words flow at the network's rate across its
// steps; a row whose neighbours are exhausted takes no more words, so
// grouping rows differently changes no phase's traffic.
func (t *aggTiming) netBound(sumIK, maxIK, rows int64) int64 {
	if t.dn == 0 {
		return 0
	}
	drain := t.row(maxIK).dur - t.work(maxIK)
	sta := max(maxIK, ceilDiv(sumIK*t.tn, t.dn))
	str := max(maxIK, ceilDiv(sumIK*t.tn*t.fa, t.dn), ceilDiv(rows*t.fa, t.rn))
	return 1 + sta + maxIK*t.extraSteps + t.iN*str + drain
}

// combTiming is the combination model of one GEMM (K x N weights) under
// tiles (vc, gc, fc), after STONNE's dense controller with the intermediate
// stationary. A tile of T_Vc rows loads its stationary block in S =
// ceil(K/T_Fc) cycles (one fold each), then streams the ceil(N/T_Gc) weight
// column groups, S cycles each; each column group ends with T_Vc*T_Gc sums
// (VNs of T_Fc leaves) that the output path writes. The next tile starts
// the cycle after the tile's last result is written.
type combTiming struct {
	vc, s, cols int64
	per         int64 // cycles per tile (the period: tiles run back to back)
	load        int64 // cycles of stationary loads per tile (S folds)
	// stamps[j] is when, from its tile's start, row j's last result is
	// written.
	stamps []int64
}

// cacheSlots is how many timings of each phase a Prepared keeps: enough for
// the eight tilings of RunAll, whose seq and sp runs share them.
const cacheSlots = 16

// timingScratch holds the timing models' scratch space and their results,
// kept between the runs of a Prepared (the results depend only on the
// tiles, the layer and the hardware, not on the run).
type timingScratch struct {
	aggOut, combOut collector
	aggOutKey       aggKey // what aggOut is set up for
	aggOutSet       bool
	aggs            [cacheSlots]aggEntry
	aggNext         int
	combs           [cacheSlots]combEntry
	combNext        int
}

type aggKey struct{ fa, tn, f, leaves, extra, depth, maxIK int64 }

type aggEntry struct {
	key   aggKey
	valid bool
	memo  []rowTime
}

type combKey struct{ vc, gc, fc, k, n, leaves, depth int64 }

type combEntry struct {
	key    combKey
	valid  bool
	per    int64
	pairs  bool
	stamps []int64
}

// aggTiming returns the aggregation timing for tiles (fa, tn) over feature
// width f on a reduction network of leaves leaves with pipeline depth
// depth, for rows of at most maxRow entries. dn and rn are the
// distribution and reduction bandwidths (words/cycle) the phase has, or 0
// for none of the NoC limits.
func (scr *timingScratch) aggTiming(fa, tn, f, maxRow, leaves, dn, rn, extraSteps, depth int64) aggTiming {
	t := aggTiming{tn: tn, fa: fa, f: f, iN: ceilDiv(f, fa), dn: dn, rn: rn, extraSteps: extraSteps, depth: depth, scr: scr}
	if dn == 0 {
		t.rn = 0
	}
	t.key = aggKey{fa, tn, f, leaves, extraSteps, depth, max(ceilDiv(maxRow, tn), 1)}
	var e *aggEntry
	for i := range scr.aggs {
		if scr.aggs[i].valid && scr.aggs[i].key == t.key {
			e = &scr.aggs[i]
			break
		}
	}
	if e == nil {
		e = &scr.aggs[scr.aggNext]
		scr.aggNext = (scr.aggNext + 1) % cacheSlots
		e.key, e.valid = t.key, true
		e.memo = resize(e.memo, int(t.key.maxIK)+1)
		clear(e.memo)
	}
	t.memo = e.memo
	return t
}

// combEntry returns the cache slot of key: its own (valid) or a free one
// (not valid) to fill.
func (scr *timingScratch) combEntry(key combKey) *combEntry {
	for i := range scr.combs {
		if scr.combs[i].valid && scr.combs[i].key == key {
			return &scr.combs[i]
		}
	}
	e := &scr.combs[scr.combNext]
	scr.combNext = (scr.combNext + 1) % cacheSlots
	e.key, e.valid = key, false
	return e
}

// combTiming returns the timing of a K x N GEMM under tiles (vc, gc, fc)
// on a reduction network of leaves leaves with pipeline depth depth. dn and
// rn are the network bandwidths with NoC limits (0 without).
func (scr *timingScratch) combTiming(vc, gc, fc, k, n, leaves, dn, rn, depth int64) combTiming {
	s := ceilDiv(k, fc)
	cols := ceilDiv(n, gc)
	t := combTiming{vc: vc, s: s, cols: cols, load: s}
	key := combKey{vc, gc, fc, k, n, leaves, depth}
	e := scr.combEntry(key)
	if !e.valid {
		out := &scr.combOut
		out.setup(int(fc), int(vc*gc), int(leaves))
		// Cycles 1..S load; column group c's last fold is at S(c+2).
		e.per = out.run(2*s+depth, s, cols)
		e.pairs = out.pairs()
		e.stamps = resize(e.stamps, int(vc))
		last := (n - 1) % gc // the last column's position in its group
		for j := range vc {
			e.stamps[j] = out.popT[j*gc+last]
		}
		e.valid = true
	}
	t.per, t.stamps = e.per, e.stamps
	if dn > 0 {
		// NoC limits: loads, weight streaming and result collection that
		// need more than the networks' bandwidth take proportionally
		// longer. A column group's rate without them is S cycles, or 2 when
		// a bus line carries two VNs.
		loadStep := ceilDiv(vc*gc*fc, dn)
		streamStep := ceilDiv(fc*gc, dn)
		outStep := ceilDiv(vc*gc, rn)
		rate := s
		if e.pairs {
			rate = max(rate, 2)
		}
		t.load = s * loadStep
		t.per += t.load - s + cols*max(0, max(s*streamStep, outStep)-rate)
	}
	return t
}
