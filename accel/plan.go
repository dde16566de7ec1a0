package accel

import (
	"math/bits"
	"slices"

	"gnnsim/dataflow"
)

// unit is one step of work at row-group or tile granularity.
type unit struct {
	dur   int64 // compute cycles (may be negative only for omega's pp stamps)
	load  int64 // DRAM bytes that must arrive before compute starts
	store int64 // DRAM bytes written once compute ends
	gbw   int64 // global-buffer words the step moves (shared ports in pp)

	spill, refetch int64 // parts of load+store: inter-phase spill, H re-fetch
}

// phaseCtx holds what a run derives from the configuration.
type phaseCtx struct {
	cfg dataflow.Config
	hw  HW
	eff Effect

	va, tvp   int64
	agg       aggTiming
	combs     []combTiming // one per GEMM (slices of the arrays below)
	ks, ns    []int64      // GEMM shapes
	combP     int64
	fcs       []int64
	combsA    [maxGemms]combTiming
	ksA, nsA  [maxGemms]int64
	fcsA      [maxGemms]int64
	aggF      int64
	wordB     int64
	spillFrac float64 // share of the inter-phase buffer's rows that go to DRAM
	hMissFrac float64 // share of neighbour H rows re-fetched from DRAM
	weightB   int64   // bytes of all weights
	scr       *timingScratch
}

func (p *Prepared) run(cfg dataflow.Config, hw HW, opts Options) Result {
	eff := opts.Effects()
	c := &p.ctx
	p.context(c, cfg, hw, eff)
	r := Result{Config: cfg, Mode: opts.Mode, Effect: eff}

	// Build the units the engines run. The aggregation groups over the
	// whole graph give the phase's own time (omega's agg cycles).
	r.CombCycles = ceilDiv(int64(p.v), int64(cfg.Tiles.Vc)) * c.period()
	switch cfg.Inter {
	case dataflow.Seq, dataflow.SP:
		p.buildSeq(c)
		r.AggCycles = sum(p.groups)
	case dataflow.PP:
		if eff&FixPPTiles != 0 {
			cur := p.cursor(c, 0)
			r.AggCycles = p.aggGroups(c, &cur, 0, p.v, eff&FixLastGroup != 0, false)
		}
		p.buildPP(c)
		if eff&FixPPTiles == 0 {
			r.AggCycles = sum(p.groups)
		}
	}
	p.traffic(c, &r)

	fast := opts.Engine == Fast && eff&FiniteBuffer == 0
	switch cfg.Inter {
	case dataflow.Seq, dataflow.SP:
		if fast {
			for k := range p.seq.n {
				r.Cycles += p.seq.dur(k)
			}
		} else {
			r.Cycles, r.Stalls.Memory, r.Events = p.seqE.run(&p.seq, hw)
			if eff&FiniteBuffer != 0 {
				p.seqE.traffic.result(&r, c.wordB) // each unit made once
			}
		}
	case dataflow.PP:
		gbBW := int64(0)
		if eff&SharedPorts != 0 {
			gbBW = int64(hw.GlobalBufferBW)
		}
		if fast {
			r.Cycles, r.Stalls = ppClosed(p.aggT, p.combT, gbBW)
		} else {
			r.Cycles, r.Stalls, r.Events = p.ppE.run(p.aggT, p.combT, gbBW, hw)
		}
	}
	r.StallCycles = r.Stalls.Pipeline + r.Stalls.Memory + r.Stalls.Ports
	if r.Cycles > 0 {
		r.Utilization = float64(r.MACs) / (float64(hw.PEs) * float64(r.Cycles))
	}
	if eff&Energy != 0 {
		e := hw.Energy
		r.Energy = EnergyBreakdown{
			MAC:  float64(r.MACs) * e.MAC,
			RF:   3 * float64(r.MACs) * e.RF,
			NoC:  float64(r.NoC.Accesses()) * e.NoC,
			GB:   float64(r.GB.Accesses()) * e.GB,
			DRAM: float64(r.DRAM.Accesses()) * e.DRAM,
		}
	}
	return r
}

// context derives the timing models and the buffer policy.
func (p *Prepared) context(c *phaseCtx, cfg dataflow.Config, hw HW, eff Effect) {
	t := cfg.Tiles
	w := p.work
	*c = phaseCtx{cfg: cfg, hw: hw, eff: eff, va: int64(t.Va), aggF: w.aggF, wordB: hw.WordBytes, combP: int64(cfg.CombPEs)}
	c.tvp = int64(max(t.Va, t.Vc))
	var aggDN, aggRN, combDN, combRN int64
	if eff&NoCLimits != 0 {
		share := func(bw, pes int) int64 { return max(1, int64(bw)*int64(pes)/int64(hw.PEs)) }
		aggDN, aggRN = share(hw.DistributionBW, cfg.AggPEs), share(hw.ReductionBW, cfg.AggPEs)
		combDN, combRN = share(hw.DistributionBW, cfg.CombPEs), share(hw.ReductionBW, cfg.CombPEs)
		if cfg.Inter != dataflow.PP {
			aggDN, aggRN = int64(hw.DistributionBW), int64(hw.ReductionBW)
			combDN, combRN = aggDN, aggRN
		}
	}
	fa := min(int64(t.Fa), w.aggF)
	// The reduction networks span the phase's PEs, rounded up to a power of
	// two as STONNE's trees are.
	aggLeaves := int64(nextPow2(max(cfg.AggPEs, int(fa)*t.N)))
	c.scr = &p.scr
	c.agg = c.scr.aggTiming(fa, int64(t.N), w.aggF, int64(p.maxRow), aggLeaves, aggDN, aggRN, w.extraSteps, pipeDepth)
	n := len(w.gemms)
	c.combs, c.ks, c.ns, c.fcs = c.combsA[:n], c.ksA[:n], c.nsA[:n], c.fcsA[:n]
	for i, g := range w.gemms {
		fc := min(int64(t.Fc), g.k)
		gc := min(int64(t.Gc), g.n)
		leaves := int64(nextPow2(max(cfg.CombPEs, t.Vc*int(gc*fc))))
		c.combs[i] = c.scr.combTiming(int64(t.Vc), gc, fc, g.k, g.n, leaves, combDN, combRN, pipeDepth)
		c.ks[i], c.ns[i], c.fcs[i] = g.k, g.n, fc
		c.weightB += g.k * g.n * hw.WordBytes
	}
	if eff&FiniteBuffer != 0 {
		p.bufferPolicy(c)
	}
}

// bufferPolicy decides what spills (package doc, "Extended mode"): the
// weights stay resident; then the inter-phase buffer (the whole
// intermediate for seq, the partial-sum tile for sp, the ping-pong pair for
// pp) takes what it needs, the part that does not fit going to DRAM and
// back; H gets the rest, and the share of H that does not fit is re-fetched
// for every neighbour that needs it.
func (p *Prepared) bufferPolicy(c *phaseCtx) {
	capB := c.hw.GlobalBufferBytes - c.weightB
	if capB < 0 {
		capB = 0
	}
	V := int64(p.v)
	var need int64
	switch c.cfg.Inter {
	case dataflow.Seq:
		need = V * c.aggF * c.wordB
	case dataflow.SP:
		// Folding F (T_Fc < F) accumulates a T_Vc x G partial-sum tile in
		// place over the S folds; without folding there are no partial
		// sums and the intermediate never leaves the PEs.
		if c.ks[0] != c.fcs[0] {
			need = c.ns[0] * int64(c.cfg.Tiles.Vc) * c.wordB
		}
	case dataflow.PP:
		need = 2 * c.tvp * c.aggF * c.wordB
	}
	resident := min(need, capB)
	if need > 0 {
		c.spillFrac = float64(need-resident) / float64(need)
	}
	hBytes := V * c.aggF * c.wordB
	hBudget := capB - resident
	if hBytes > hBudget {
		c.hMissFrac = float64(hBytes-max(hBudget, 0)) / float64(hBytes)
	}
}

// aggGroups walks rows [lo, hi) with cursor cur (which must stand at row
// lo) in groups of T_Va and returns the sum of the group durations. With
// fillUnits the groups are stored in p.groups (their first rows in
// p.gstart). lastFix selects whether a partial final group costs its
// slowest row (true) or, as in omega, its last row.
func (p *Prepared) aggGroups(c *phaseCtx, cur *rowCursor, lo, hi int, lastFix, fillUnits bool) int64 {
	if fillUnits {
		n := (hi - lo + int(c.va) - 1) / int(c.va)
		p.groups = slices.Grow(p.groups[:0], n)
		p.gstart = slices.Grow(p.gstart[:0], n)
	}
	var total int64
	va := int(c.va)
	for g0 := lo; g0 < hi; g0 += va {
		g1 := min(g0+va, hi)
		var d, sumIK, maxIK int64
		if g1-g0 < va && !lastFix {
			for cur.v < g1 {
				d = cur.next() // omega: the final row's time, not the slowest
				sumIK += cur.iK
				maxIK = max(maxIK, cur.iK)
			}
		} else {
			for cur.v < g1 {
				d = max(d, cur.next())
				sumIK += cur.iK
				maxIK = max(maxIK, cur.iK)
			}
		}
		if c.agg.dn > 0 {
			d = max(d, c.agg.netBound(sumIK, maxIK, int64(g1-g0)))
		}
		total += d
		if fillUnits {
			p.groups = append(p.groups, d)
			p.gstart = append(p.gstart, int32(g0))
		}
	}
	return total
}

func (p *Prepared) cursor(c *phaseCtx, v int) rowCursor {
	r := rowCursor{p: p, c: c, v: v, fix: c.eff&FixRowTimes != 0, tn: uint32(c.agg.tn), shift: -1}
	if tn := c.agg.tn; tn&(tn-1) == 0 {
		r.shift = bits.TrailingZeros64(uint64(tn))
	}
	return r
}

func sum(xs []int64) int64 {
	var s int64
	for _, x := range xs {
		s += x
	}
	return s
}

// rowCursor yields the time each row adds to the aggregation, in order.
type rowCursor struct {
	p     *Prepared
	c     *phaseCtx
	v     int
	fix   bool
	s, ts int64 // next row's start; previous row's output stamp
	iK    int64 // neighbour steps of the row next returned last
	// T_N, and its log2 when it is a power of two (else -1): a row's
	// steps are a shift then, else a 32-bit division (a row has < 2^31
	// entries and T_N <= MaxPEs = 2^24, so their sum fits; the 64-bit
	// division was 9 % of simulate's runs).
	tn    uint32
	shift int
}

// next returns the time of row v and advances. Omega's time is the
// difference of consecutive output stamps (row 0: its absolute stamp); the
// fixed time is the row's start-to-start time.
func (r *rowCursor) next() int64 {
	d := uint32(r.p.row(r.v)) // >= 0 (Prepare)
	var iK int64
	if r.shift >= 0 {
		iK = int64((d + r.tn - 1) >> r.shift)
	} else {
		iK = int64((d + r.tn - 1) / r.tn)
	}
	iK = max(iK, 1) // an empty row still writes its zeros
	r.iK = iK
	rt := r.c.agg.row(iK)
	r.v++
	if r.fix {
		return rt.dur
	}
	ts := r.s + rt.stamp
	delta := ts - r.ts
	r.ts = ts
	r.s += rt.dur
	return delta
}

// combStamp returns omega's recorded combination timestamp of row j (its
// last result), for the pp bookkeeping.
func (c *phaseCtx) combStamp(j int64) int64 {
	vc := int64(c.cfg.Tiles.Vc)
	tile := j / vc
	if len(c.combs) != 1 || c.eff&FixPPStamps != 0 {
		return (tile + 1) * c.period()
	}
	cm := &c.combs[0]
	return tile*cm.per + cm.stamps[j-tile*vc]
}

// period returns the cycles of one combination tile over all the layer's
// GEMMs.
func (c *phaseCtx) period() int64 {
	var per int64
	for i := range c.combs {
		per += c.combs[i].per
	}
	return per
}

// buildSeq readies p.seq: the aggregation groups, then the combination
// tiles, for seq and sp.
func (p *Prepared) buildSeq(c *phaseCtx) {
	cur := p.cursor(c, 0)
	p.aggGroups(c, &cur, 0, p.v, c.eff&FixLastGroup != 0, true)
	V := int64(p.v)
	sp := c.cfg.Inter == dataflow.SP
	vc := int64(c.cfg.Tiles.Vc)
	var per int64
	for i := range c.combs {
		cm := &c.combs[i]
		per += cm.per
		if sp {
			per -= cm.load
			if c.ks[i] != c.fcs[i] {
				per += ceilDiv(c.ns[i]*vc*cm.s, c.combP)
			}
		}
	}
	p.seq = seqUnits{p: p, c: c, per: per, groups: len(p.groups), n: len(p.groups) + int(ceilDiv(V, vc))}
}

// seqUnits are the units of a seq or sp run, made on demand (see
// unitSource): unit k < groups is aggregation group k (rows gstart[k] on,
// c.va of them), the rest are the combination tiles of Vc rows, each
// taking per cycles.
type seqUnits struct {
	p         *Prepared
	c         *phaseCtx
	per       int64
	groups, n int
}

func (s *seqUnits) len() int { return s.n }

// dur is unit k's compute time alone.
func (s *seqUnits) dur(k int) int64 {
	if k < s.groups {
		return s.p.groups[k]
	}
	return s.per
}

func (s *seqUnits) at(k int) unit {
	p, c := s.p, s.c
	V := int64(p.v)
	if k < s.groups {
		lo := int64(p.gstart[k])
		hi := min(lo+c.va, V)
		u := unit{dur: p.groups[k]}
		p.aggBytes(c, lo, hi, &u)
		return u
	}
	vc := int64(c.cfg.Tiles.Vc)
	lo := int64(k-s.groups) * vc
	hi := min(lo+vc, V)
	u := unit{dur: s.per}
	p.combBytes(c, lo, hi, lo == 0, &u)
	return u
}

// buildPP fills p.aggT and p.combT with the per-tile phase times of the
// parallel pipeline (tiles of T_Vp = max(T_Va, T_Vc) rows).
func (p *Prepared) buildPP(c *phaseCtx) {
	V := int64(p.v)
	tvp := c.tvp
	T := ceilDiv(V, tvp)
	p.aggT = slices.Grow(p.aggT[:0], int(T))
	p.combT = slices.Grow(p.combT[:0], int(T))
	fixTiles := c.eff&FixPPTiles != 0
	cur := p.cursor(c, 0)
	if !fixTiles {
		p.aggGroups(c, &cur, 0, p.v, c.eff&FixLastGroup != 0, true)
	}
	ng := int64(len(p.groups))
	gEnd := int64(0) // groups consumed so far (omega bookkeeping)
	var prevStamp int64
	for k := int64(1); k <= T; k++ {
		lo := (k - 1) * tvp
		hi := min(k*tvp, V)
		var a unit
		if fixTiles {
			a.dur = p.aggGroups(c, &cur, int(lo), int(hi), true, false)
		} else {
			// Omega: tile k ends after floor(k*T_Vp/T_Va) groups; the last
			// tile takes every group when it is partial or the only one, and
			// stops at the last whole group when T_Vp divides V.
			var end int64
			switch {
			case k*tvp > V || T == 1:
				end = ng
			default:
				end = k * tvp / c.va
			}
			for g := gEnd; g < end; g++ {
				a.dur += p.groups[g]
			}
			gEnd = max(gEnd, end)
		}
		p.aggBytes(c, lo, hi, &a)
		var cu unit
		if c.eff&FixPPStamps != 0 || fixTiles {
			cu.dur = ceilDiv(hi-lo, int64(c.cfg.Tiles.Vc)) * c.period()
		} else {
			stamp := c.combStamp(hi - 1)
			cu.dur = stamp - prevStamp
			prevStamp = stamp
		}
		p.combBytes(c, lo, hi, k == 1, &cu)
		p.aggT = append(p.aggT, a)
		p.combT = append(p.combT, cu)
	}
}

// aggBytes sets the DRAM bytes and global-buffer words of aggregating rows
// [lo, hi).
func (p *Prepared) aggBytes(c *phaseCtx, lo, hi int64, u *unit) {
	nnz := p.rowsNNZ(lo, hi)
	rows := hi - lo
	// Omega's global-buffer accesses: A values and H rows read, the
	// intermediate written (not for sp, which keeps it in the PEs).
	u.gbw = nnz + nnz*c.aggF
	if c.cfg.Inter != dataflow.SP {
		u.gbw += rows * c.aggF
	}
	if c.eff&FiniteBuffer == 0 {
		return
	}
	wb := c.wordB
	u.load = rows*4 + nnz*(4+wb) + rows*c.aggF*wb
	if c.hMissFrac > 0 {
		b := int64(c.hMissFrac * float64(max(nnz-rows, 0)*c.aggF*wb))
		u.load += b
		u.refetch += b
	}
	if c.cfg.Inter != dataflow.SP && c.spillFrac > 0 {
		u.store = int64(c.spillFrac * float64(rows*c.aggF*wb))
		u.spill += u.store
	}
}

// combBytes sets the DRAM bytes and global-buffer words of combining rows
// [lo, hi); first marks the first tile, which loads the weights.
func (p *Prepared) combBytes(c *phaseCtx, lo, hi int64, first bool, u *unit) {
	rows := hi - lo
	vc := int64(c.cfg.Tiles.Vc)
	tiles := ceilDiv(rows, vc)
	sp := c.cfg.Inter == dataflow.SP
	for i := range c.combs {
		k, n := c.ks[i], c.ns[i]
		u.gbw += rows*k + tiles*k*n + rows*n
		if sp && i == 0 {
			u.gbw -= rows * k
			if k != c.fcs[i] {
				u.gbw += 2 * n * rows * c.combs[i].s
			}
		}
	}
	if c.eff&FiniteBuffer == 0 {
		return
	}
	wb := c.wordB
	if first {
		u.load += c.weightB
	}
	if c.spillFrac > 0 {
		var b int64
		switch c.cfg.Inter {
		case dataflow.SP:
			// The partial sums out and back: the share that does not fit
			// of the 2*G*S accesses per row the global buffer counts.
			b = 2 * c.ns[0] * rows * c.combs[0].s * wb
		default:
			b = rows * c.ks[0] * wb
		}
		b = int64(c.spillFrac * float64(b))
		u.load += b
		u.spill += b
	}
	u.store += rows * c.ns[len(c.ns)-1] * wb
}

// traffic fills the layer-wide MAC, global-buffer, NoC and DRAM counts.
func (p *Prepared) traffic(c *phaseCtx, r *Result) {
	V := int64(p.v)
	t := c.cfg.Tiles
	r.MACs = p.nnz * c.aggF
	if p.work.extraSteps > 0 {
		r.MACs += p.nnz // per-edge attention weights
	}
	for i := range c.combs {
		r.MACs += V * c.ks[i] * c.ns[i]
	}
	sp := c.cfg.Inter == dataflow.SP
	wb := c.wordB

	// Global buffer, omega's formulas.
	r.GB.Reads = p.nnz + p.nnz*c.aggF
	if !sp {
		r.GB.Writes = V * c.aggF
	}
	nt := ceilDiv(V, int64(t.Vc))
	for i := range c.combs {
		k, n := c.ks[i], c.ns[i]
		r.GB.Reads += V*k + nt*k*n
		r.GB.Writes += V * n
		if sp && i == 0 {
			r.GB.Reads -= V * k
			if k != c.fcs[i] {
				r.GB.Reads += n * V * c.combs[i].s
				r.GB.Writes += n * V * c.combs[i].s
			}
		}
	}
	r.GB.Bytes = r.GB.Accesses() * wb

	// NoC: words injected into the distribution network (padding
	// included) and results collected by the reduction network.
	ag := &c.agg
	tn := ag.tn
	fa := min(int64(t.Fa), c.aggF)
	// Per row iK*T_N A values and iK*iN*T_N*T_Fa H values: summed over
	// the rows, that is the sum of iK times a constant.
	r.NoC.Reads = p.sumIK(tn) * (tn + ag.iN*tn*fa)
	r.NoC.Writes = V * ag.iN * fa
	for i := range c.combs {
		cm := &c.combs[i]
		vc, gc, fc := int64(t.Vc), min(int64(t.Gc), c.ns[i]), c.fcs[i]
		r.NoC.Reads += nt * (cm.s*vc*gc*fc + cm.cols*cm.s*fc*gc)
		r.NoC.Writes += nt * cm.cols * vc * gc
	}
	r.NoC.Bytes = r.NoC.Accesses() * wb

	// DRAM bytes are those of the units the engine runs: pp's listed
	// here, seq's and sp's summed by the engine as it makes them (with
	// FiniteBuffer the event engine always runs).
	if c.eff&FiniteBuffer != 0 && c.cfg.Inter == dataflow.PP {
		var t unitTraffic
		for i := range p.aggT {
			t.add(&p.aggT[i])
			t.add(&p.combT[i])
		}
		t.result(r, wb)
	}
}

// unitTraffic sums the DRAM bytes of units.
type unitTraffic struct{ ld, st, spill, refetch int64 }

func (t *unitTraffic) add(u *unit) {
	t.ld += u.load
	t.st += u.store
	t.spill += u.spill
	t.refetch += u.refetch
}

// result sets r's DRAM counts (words of wb bytes) and its spill and
// re-fetch bytes.
func (t *unitTraffic) result(r *Result, wb int64) {
	r.SpillBytes += t.spill
	r.RefetchBytes += t.refetch
	r.DRAM = Traffic{Reads: ceilDiv(t.ld, wb), Writes: ceilDiv(t.st, wb), Bytes: t.ld + t.st}
}
