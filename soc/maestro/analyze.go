package maestro

import (
	"errors"
	"fmt"
)

// Energy constants of MAESTRO's activity-count model, in units of one MAC
// (cost-model/include/base/BASE_constants.hpp: l1_energy_multiplier,
// l2_energy_multiplier) and the MAC energy it converts them with
// (DSE_cost-database.hpp: mac_energy = 0.00023 nJ, "from external source").
const (
	L1AccessEnergy = 1.68  // one L1 read or write, in MACs
	L2AccessEnergy = 18.61 // one L2 read or write, in MACs
	MACEnergyPJ    = 0.23  // one MAC, in pJ
)

// Counts holds an access count per tensor.
type Counts struct {
	Input, Weight, Output int64
}

// Total is the sum over the three tensors.
func (c Counts) Total() int64 { return c.Input + c.Weight + c.Output }

func countsOf(a *[numTensors]int64) Counts {
	return Counts{Input: a[tIn], Weight: a[tW], Output: a[tOut]}
}

// Result is MAESTRO's cost of one layer on one dataflow and hardware,
// taken at the top cluster level as MAESTRO prints it. Access counts are in
// elements.
type Result struct {
	Cycles int64 // runtime at the accelerator clock
	// MACs as MAESTRO counts them over its iteration cases. They differ
	// from Layer.MACs where MAESTRO's model miscounts: on strided
	// convolutions it takes a tile's output rows (columns) as input rows
	// - R + 1 ignoring the stride, which is right only for tiles of one
	// output (kcp_ws, ykp_os, dpt, ...), not for yxp_os.
	MACs int64

	// L2 reads are the data sent down the NoC (input tensors) and the final
	// outputs read back once; L2 writes are the tensors' initial fill
	// (inputs) and the output tiles sent up, every iteration. L1 writes of
	// the input tensors equal their L2 reads; L1 reads of every tensor and
	// L1 writes of the output equal the MACs.
	L2Reads, L2Writes Counts
	L1Reads, L1Writes Counts

	// Buffer requirements in elements, double buffered: L1 per PE (the
	// innermost sub-cluster's tiles) and L2 (the top level's per-step
	// traffic). MAESTRO does not bound them.
	L1Words, L2Words Counts

	AvgActivePEs float64 // time-averaged active PEs

	// Energy in MACs: MACs + 1.68 x L1 accesses + 18.61 x L2 accesses;
	// EnergyPJ is the same times 0.23 pJ.
	EnergyMACs, EnergyPJ float64
}

// Utilization is the share of PE-cycles doing MACs.
func (r Result) Utilization(pes int) float64 {
	if r.Cycles <= 0 || pes <= 0 {
		return 0
	}
	return float64(r.MACs) / (float64(r.Cycles) * float64(pes))
}

// ErrCapacity marks a mapping whose double-buffered tiles exceed the
// hardware's L1 or L2 capacity.
var ErrCapacity = errors.New("buffer capacity exceeded")

// levelOut is the outcome of analysing one cluster level for one
// dimension table.
type levelOut struct {
	runtime, macs          int64
	l2rd, l2wr, l1rd, l1wr [numTensors]int64
	l2size                 [numTensors]int64
	active                 float64
}

// memo caches the runtime of a sub-cluster level per dimension table: the
// parent's iteration cases ask for few distinct tiles.
type memo struct {
	n int
	e [24]struct {
		dims    [numDims]int32
		runtime int64
		active  float64
	}
}

// analyzer holds everything one Analyze call needs by value, so that the
// recursion over cluster levels passes only its own pointer and nothing
// escapes to the heap.
type analyzer struct {
	pl   plan
	hw   Hardware
	memo [maxLevels]memo
}

// Analyze returns MAESTRO's cost of layer l on dataflow df and hardware hw:
// it binds the dataflow to the layer (resolving Sz(), completing each
// cluster level) and runs MAESTRO's case-based analysis from the top
// cluster level down. It does not allocate unless it fails.
//
// Errors: invalid layers or hardware, dataflows that cannot be applied
// (errors.Is(err, ErrMapping)), and, when hw bounds L1 or L2, tiles that do
// not fit (errors.Is(err, ErrCapacity); the Result is then filled in).
func Analyze(l Layer, df Dataflow, hw Hardware) (Result, error) {
	if err := l.Validate(); err != nil {
		return Result{}, err
	}
	if err := hw.Validate(); err != nil {
		return Result{}, err
	}
	if len(df.Directives) == 0 {
		return Result{}, fmt.Errorf("maestro: empty dataflow %q", df.Name)
	}
	var a analyzer
	a.hw = hw
	if err := bind(&df, &l, &hw, &a.pl); err != nil {
		return Result{}, fmt.Errorf("maestro: %s on %s: %w", df.Name, l, err)
	}
	pl := &a.pl
	top, err := a.run(0, pl.p.dims)
	if err != nil {
		return Result{}, fmt.Errorf("maestro: %s on %s: %w", df.Name, l, err)
	}
	r := Result{
		Cycles:   top.runtime,
		MACs:     top.macs,
		L2Reads:  countsOf(&top.l2rd),
		L2Writes: countsOf(&top.l2wr),
		L1Reads:  countsOf(&top.l1rd),
		L1Writes: countsOf(&top.l1wr),
		L2Words:  countsOf(&top.l2size),
	}
	r.AvgActivePEs = top.active
	in := &pl.lv[pl.levels-1]
	r.L1Words = Counts{
		Input:  2 * in.mappedVolume(&pl.p.tensors[tIn]),
		Weight: 2 * in.mappedVolume(&pl.p.tensors[tW]),
		Output: 2 * in.mappedVolume(&pl.p.tensors[tOut]),
	}
	r.EnergyMACs = float64(r.MACs) +
		L1AccessEnergy*float64(r.L1Reads.Total()+r.L1Writes.Total()) +
		L2AccessEnergy*float64(r.L2Reads.Total()+r.L2Writes.Total())
	r.EnergyPJ = r.EnergyMACs * MACEnergyPJ
	if r.MACs <= 0 || r.Cycles <= 0 {
		return Result{}, fmt.Errorf("maestro: %s on %s: %w: no valid iteration case", df.Name, l, ErrMapping)
	}
	wb := hw.wordBytes()
	if l1 := r.L1Words.Total() * wb; hw.L1Bytes > 0 && l1 > hw.L1Bytes {
		return r, fmt.Errorf("maestro: %s on %s: %w: %d B of L1 per PE needed, the hardware has %d", df.Name, l, ErrCapacity, l1, hw.L1Bytes)
	}
	if l2 := r.L2Words.Total() * wb; hw.L2Bytes > 0 && l2 > hw.L2Bytes {
		return r, fmt.Errorf("maestro: %s on %s: %w: %d B of L2 needed, the hardware has %d", df.Name, l, ErrCapacity, l2, hw.L2Bytes)
	}
	return r, nil
}

// inner returns the runtime and average active PEs of cluster level li
// over the dimension table dims, memoised.
func (a *analyzer) inner(li int, dims [numDims]int) (int64, float64, error) {
	var key [numDims]int32
	for i, v := range dims {
		key[i] = int32(v)
	}
	m := &a.memo[li]
	for i := 0; i < m.n; i++ {
		if m.e[i].dims == key {
			return m.e[i].runtime, m.e[i].active, nil
		}
	}
	o, err := a.run(li, dims)
	if err != nil {
		return 0, 0, err
	}
	if m.n < len(m.e) {
		e := &m.e[m.n]
		e.dims, e.runtime, e.active = key, o.runtime, o.active
		m.n++
	}
	return o.runtime, o.active, nil
}

// run analyses cluster level li over the dimension table dims (the whole
// layer at the top, a tile of the level above below it): it enumerates
// the iteration cases of the level's directives and sums, per case times
// its occurrences, the delay max(ingress, compute, egress) (compute +
// ingress for the all-Init case, which has nothing to overlap with) and
// the access counts.
func (a *analyzer) run(li int, dims [numDims]int) (levelOut, error) {
	pl, hw := &a.pl, &a.hw
	L := &pl.lv[li]
	var out levelOut
	o := &out
	innermost := li == pl.levels-1
	var ss [numDims][3]state
	var ns [numDims]int
	var freq [numDims]int64
	total := int64(1)
	for i := L.n - 1; i >= 0; i-- {
		ns[i] = states(L.d[i], dims[L.d[i].dim], L.cs, &ss[i])
		freq[i] = total
		total *= int64(ns[i])
	}
	c := caseCtx{L: L, p: &pl.p}
	ts := &pl.p.tensors
	first := true // no valid case yet: MAESTRO sizes the buffers on it
	var occSum int64
	var activeSum float64
	for k := int64(0); k < total; k++ {
		// MAESTRO's enumeration order: directive i advances after cases
		// 0, f, 2f, ... (f the product of the state counts inside it).
		occ := int64(1)
		c.chg = -1
		for i := 0; i < L.n; i++ {
			c.st[i] = ss[i][((k+freq[i]-1)/freq[i])%int64(ns[i])]
			occ *= c.st[i].occ
			if c.st[i].pos != posInit {
				c.chg = i
			}
		}
		if first {
			for t := tIn; t <= tW; t++ {
				o.l2size[t] += 2 * c.ingress(&ts[t])
				o.l2wr[t] = tensorSize(&ts[t], &dims)
			}
			o.l2size[tOut] = 2 * c.egress()
			o.l2rd[tOut] = outputSize(&pl.p, &dims)
		}
		egress := c.egress()
		macs := c.macs()
		o.l2wr[tOut] += occ * egress
		o.l1wr[tOut] += occ * macs
		o.l1rd[tOut] += occ * macs
		crit := c.critical()
		if crit <= 0 {
			continue // an invalid case (an empty edge tile): MAESTRO skips it after counting its outputs
		}
		first = false
		var ingress int64
		for t := tIn; t <= tW; t++ {
			g := c.ingress(&ts[t])
			ingress += g
			o.l2rd[t] += occ * g
			o.l1rd[t] += occ * macs
		}
		if c.stuck {
			return out, mappingErr("cluster level %d: a changing map of %s brings no new data", li, c.stuckDim)
		}
		sp := &c.st[L.sp]
		var compute int64
		var active float64
		if innermost {
			compute = (crit + hw.lanes() - 1) / hw.lanes()
		} else {
			var sub [numDims]int
			n := int64(L.cs)
			if sp.isEdge() {
				n = int64(L.ec)
			}
			if sp.isEdge() && sp.spEE {
				c.subDims(true, &sub)
				r, act, err := a.inner(li+1, sub)
				if err != nil {
					return out, err
				}
				compute, active = r, act
				n--
			}
			if n > 0 {
				c.subDims(false, &sub)
				r, act, err := a.inner(li+1, sub)
				if err != nil {
					return out, err
				}
				compute = max(compute, r)
				active += act * float64(n)
			}
		}
		if active == 0 {
			active = float64(L.cs)
			if sp.isEdge() {
				active = float64(L.ec)
			}
		}
		in, eg := hw.nocDelay(ingress), hw.nocDelay(egress)
		var d int64
		if c.chg < 0 {
			d = compute + in // the all-Init case: nothing to overlap the first load with
		} else {
			d = max(in, compute, eg) // double buffering
		}
		if li == 0 && hw.OffChipBW > 0 {
			bw := int64(hw.OffChipBW)
			d = max(d, (o.l2size[tIn]+o.l2size[tW])/bw/2, o.l2size[tOut]/bw/2)
		}
		o.runtime += occ * d
		o.macs += occ * macs
		occSum += occ
		activeSum += active * float64(occ)
	}
	o.l1wr[tIn], o.l1wr[tW] = o.l2rd[tIn], o.l2rd[tW]
	if occSum > 0 {
		o.active = activeSum / float64(occSum)
	}
	return out, nil
}

func tensorSize(t *tensor, dims *[numDims]int) int64 {
	ret := int64(1)
	for _, v := range t.vars[:t.n] {
		ret *= int64(dims[v])
	}
	return ret
}

// outputSize is the output tensor over dims, with Y' and X' for Y and X.
func outputSize(p *problem, dims *[numDims]int) int64 {
	t := &p.tensors[tOut]
	ret := int64(1)
	for _, v := range t.vars[:t.n] {
		if f, ok := p.slidingOf(v); ok {
			ret *= int64(dims[v] - dims[f] + 1)
		} else {
			ret *= int64(dims[v])
		}
	}
	return ret
}
