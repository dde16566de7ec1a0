package soc

import (
	"fmt"
	"math"
	"slices"

	"gnnsim/hw"
	"gnnsim/workload"
)

// Planned is one kernel of a run as the unit executes it.
type Planned struct {
	// Unit runs the kernel: the unit itself or its fallback.
	Unit string
	// Cost is the kernel's cost on Unit, the crossing into Unit before it
	// (when the previous kernel ran elsewhere) and the crossing out of
	// Unit after it (when the next runs elsewhere) included. A fused
	// kernel costs nothing.
	Cost hw.Cost
	// FusedInto is the index of the kernel that absorbed this one, or -1.
	FusedInto int
}

// epilogueNames are the element-wise kernels a dense product's epilogue
// absorbs: batch normalisation (a per-channel scale and shift), the
// activation and a residual addition (TensorRT's conv + scale + activation
// (+ eltwise) fusion).
var epilogueNames = [...]string{"bn", "act", "add"}

// epilogueKernel reports whether k is of a kind a product's epilogue
// absorbs (the kernel's half of epilogue).
func epilogueKernel(k workload.Kernel) bool {
	return k.Class == workload.ElementWise && slices.Contains(epilogueNames[:], k.Name)
}

// epilogue reports whether k can run in the epilogue of head: k is an
// element-wise kernel of epilogueNames, head a dense product (gemm, knn)
// whose output covers k's. Where the two run and who else reads head's
// output are the planner's to check (fuseEpilogue).
func epilogue(head, k workload.Kernel) bool {
	return epilogueKernel(k) && (head.Class == workload.GEMM || head.Class == workload.KNNDist) && k.OutElems <= head.OutElems
}

// pointwise reports whether k is a 1x1 product: a GEMM reading exactly its
// M x K operand (no im2col expansion) and doing M x K x N MACs.
func pointwise(k workload.Kernel) bool {
	return k.Class == workload.GEMM && k.InElems == k.M*k.K && k.MACs == k.M*k.K*k.N
}

// Plan appends to dst what running ks in order costs kernel by kernel:
// which engine runs each (the unit, or its fallback for what the unit
// cannot run), fusion (when the engine fuses), intermediates kept in the
// on-chip buffer, and the crossings between the engines, each attributed
// to the kernel next to it. Without producers every kernel reads the one
// before it: element-wise epilogues fuse into the product right before.
func (r *Roofline) Plan(ks []workload.Kernel, dst []Planned) ([]Planned, error) {
	return r.PlanDAG(ks, nil, dst)
}

// PlanDAG is Plan with the data flow given: prod[i] lists the kernels of ks
// whose outputs kernel i reads (empty: it reads the input of ks). A
// negative entry names an output written before ks (by kernels another
// segment ran: -1 the last of them, -2 the one before, ...): it comes
// from memory, and equal entries are the same tensor. On a fusing engine
//
//   - 1x1 products (InElems = M x K) reading the same producers run as one
//     product (TensorRT's horizontal fusion of an Inception module's 1x1
//     convolutions), on the first one's turn;
//   - an element-wise epilogue (bn, act, add) whose producer is a product
//     read by nothing else runs in that product's epilogue;
//   - a concat whose producers all ran on the engine costs nothing: they
//     wrote into its output in place.
//
// The plan is built in passes, each reading what the ones before decided:
// engines (who runs each kernel), countReaders (the data flow checked and
// counted), fuse (which kernels join another), price (bytes, buffer and
// cache per surviving kernel) and cross (the hand-offs between engines).
func (r *Roofline) PlanDAG(ks []workload.Kernel, prod [][]int, dst []Planned) ([]Planned, error) {
	if prod != nil && len(prod) != len(ks) {
		return dst, fmt.Errorf("soc: %s: %d producer lists for %d kernels", r.spec.Name, len(prod), len(ks))
	}
	// The passes fill slices made here: a plan that does not outlive the
	// call keeps them on the stack when they are small.
	n := len(ks)
	p := &plan{ks: ks, prod: prod, engs: make([]*Roofline, n), readers: make([]int, n), fused: make([]int, n), merged: slices.Clone(ks)}
	if err := r.engines(ks, p.engs); err != nil {
		return dst, err
	}
	if err := p.countReaders(r.spec.Name); err != nil {
		return dst, err
	}
	p.fuse()
	base := len(dst)
	dst = slices.Grow(dst, n)[:base+n]
	p.price(dst[base:])
	p.cross(r, dst[base:])
	return dst, nil
}

// plan is the state PlanDAG's passes share: the kernels and their data
// flow as given, and what each pass decided about them.
type plan struct {
	ks   []workload.Kernel
	prod [][]int // nil: each kernel reads the one before
	engs []*Roofline
	// readers counts the kernels reading each kernel's output.
	readers []int
	// fused is the kernel each kernel joined, or -1; merged the kernels
	// with what joined them added to their heads.
	fused  []int
	merged []workload.Kernel
}

// engines sets engs[i] to the engine of kernel i: r, or its fallback for
// a kernel r cannot run. It is a pass of its own because every later pass
// compares engines (fusion and buffering stay on one engine, crossings
// are between two), and because it is where bad kernels are refused
// before anything is priced.
func (r *Roofline) engines(ks []workload.Kernel, engs []*Roofline) error {
	for i, k := range ks {
		if k.MACs < 0 || k.Ops < 0 || k.InElems < 0 || k.WeightElems < 0 || k.OutElems < 0 {
			return fmt.Errorf("soc: %s: kernel %s has negative counts", r.spec.Name, k.Name)
		}
		engs[i] = r
		if !r.runs(k) {
			if r.fallback == nil {
				return fmt.Errorf("soc: %s cannot run %s kernels (%s) and has no fallback", r.spec.Name, k.Class, k.Name)
			}
			if !r.fallback.runs(k) {
				return fmt.Errorf("soc: neither %s nor its fallback %s runs %s kernels (%s)", r.spec.Name, r.fallback.spec.Name, k.Class, k.Name)
			}
			engs[i] = r.fallback
		}
	}
	return nil
}

// src returns the producers of kernel i.
func (p *plan) src(i int) []int {
	if p.prod != nil {
		return p.prod[i]
	}
	if i == 0 {
		return nil
	}
	return []int{i - 1}
}

// root returns the kernel that ran kernel i: i, or the head it joined
// (through joins of joins).
func (p *plan) root(i int) int {
	for p.fused[i] >= 0 {
		i = p.fused[i]
	}
	return i
}

// countReaders checks that every kernel reads only earlier ones and counts
// the readers of each output in readers. It runs before fusion as a pass of its own
// because an epilogue may fuse only into a product nobody else reads,
// which a later reader would otherwise reveal too late.
func (p *plan) countReaders(unit string) error {
	for i := range p.ks {
		for _, q := range p.src(i) {
			if q >= i {
				return fmt.Errorf("soc: %s: kernel %d (%s) reads kernel %d, not an earlier one", unit, i, p.ks[i].Name, q)
			}
			if q >= 0 {
				p.readers[q]++
			}
		}
	}
	return nil
}

// fuse decides, in kernel order, which kernels a fusing engine runs as
// part of another (the three rules of PlanDAG), filling fused and merged
// (a copy of the kernels).
// It is separate from pricing because a head's cost depends on everything
// that joins it, including kernels after it.
func (p *plan) fuse() {
	for i, k := range p.ks {
		p.fused[i] = -1
		if !p.engs[i].spec.Fuse {
			continue
		}
		ps := p.src(i)
		switch {
		case pointwise(k) && (len(ps) > 0 || p.prod != nil):
			// With the data flow known, an empty list is the segment's
			// input, which such products share too.
			p.joinProduct(i, ps)
		case len(ps) == 1 && ps[0] >= 0 && epilogueKernel(k):
			p.fuseEpilogue(i, ps[0])
		case k.Name == "concat" && len(ps) > 0:
			p.fuseConcat(i, ps)
		}
	}
}

// joinProduct joins 1x1 product i (producers ps) to the first earlier
// one on its engine, not itself joined, with the same M and K and the
// same producers: the head's N, MACs, weights and output grow by i's.
func (p *plan) joinProduct(i int, ps []int) {
	k, e := p.ks[i], p.engs[i]
	for j := range i {
		q := p.ks[j]
		if p.fused[j] < 0 && p.engs[j] == e && pointwise(q) && q.M == k.M && q.K == k.K && slices.Equal(p.src(j), ps) {
			p.fused[i] = j
			h := &p.merged[j]
			h.N += k.N
			h.MACs += k.MACs
			h.WeightElems += k.WeightElems
			h.OutElems += k.OutElems
			return
		}
	}
}

// fuseEpilogue runs element-wise kernel i, reading only kernel q, in the
// epilogue of the product that ran q, when q's output is read by i alone
// and the product runs on i's engine.
func (p *plan) fuseEpilogue(i, q int) {
	k := p.ks[i]
	h := p.root(q)
	if p.engs[h] != p.engs[i] || p.readers[q] != 1 || !epilogue(p.merged[h], k) {
		return
	}
	p.fused[i] = h
	// The epilogue's own operand (a residual's second input) is still
	// read; its output is the product's.
	p.merged[h].InElems += max(k.InElems-k.OutElems, 0)
	p.merged[h].Ops += k.Ops
}

// fuseConcat makes concat i free when every producer ran on its engine
// (they wrote into its output in place); an output written before the
// plan reached memory and is copied.
func (p *plan) fuseConcat(i int, ps []int) {
	for _, q := range ps {
		if q < 0 || p.engs[p.root(q)] != p.engs[i] {
			return
		}
	}
	p.fused[i] = p.root(ps[len(ps)-1])
}

// price sets dst[i] (one entry per kernel) to kernel i's cost on its
// engine, from the bytes it moves through memory: an output is kept on
// chip when the next kernel that runs is on the same engine and it fits
// the engine's buffer, and an engine with a cache (the GPU's L2) reads
// the tensors still there. Fused kernels cost nothing. Crossings are left
// to cross, which needs every kernel's engine and cost first.
func (p *plan) price(dst []Planned) {
	n := len(p.ks)
	prevKept, prev := false, -1
	var l2 lru // the cache of the engine that has one (the GPU's L2)
	for i := range p.ks {
		e := p.engs[i]
		if p.fused[i] >= 0 {
			dst[i] = Planned{Unit: e.spec.Name, FusedInto: p.root(i)}
			continue
		}
		k := p.merged[i]
		in, out := k.InElems, k.OutElems
		var hit int64
		cached := e.spec.CacheBytes > 0
		switch {
		case prevKept && p.engs[prev] == e:
			in = max(in-p.merged[prev].OutElems, 0)
		case cached:
			// Tensors still in the cache are read there: checked against
			// the cache as the kernel starts, then touched (reads,
			// weights, output) in that order.
			for _, t := range p.sources(i) {
				if in > 0 && (t.key < 0 || p.engs[t.key] == e) && l2.fits(t.key, t.elems*e.elem, e.spec.CacheBytes) {
					b := min(in, t.elems)
					hit += b
					in -= b
				}
			}
		}
		if cached {
			for _, t := range p.sources(i) {
				if t.key < 0 || p.engs[t.key] == e {
					l2.touch(t.key, true, t.elems*e.elem, e.spec.CacheBytes)
				}
			}
			l2.touch(0, false, in*e.elem, e.spec.CacheBytes)
			l2.touch(0, false, k.WeightElems*e.elem, e.spec.CacheBytes)
			l2.touch(i, true, k.OutElems*e.elem, e.spec.CacheBytes)
		}
		next := i + 1
		for next < n && p.fused[next] >= 0 {
			next++
		}
		prevKept = false
		if buf := e.spec.BufferBytes; buf > 0 && next < n && p.engs[next] == e && out*e.elem <= buf {
			out, prevKept = 0, true
		}
		dst[i] = Planned{Unit: e.spec.Name, Cost: e.kernelCost(k, (in+k.WeightElems+out)*e.elem, hit*e.elem), FusedInto: -1}
		prev = i
	}
}

// cross adds the crossings between r and its fallback to the priced plan
// dst: the leaving side on the last kernel before, the arriving side on
// the first kernel after (fused kernels run where their heads do and
// cross nothing). It is the last pass because it adds to the costs price
// set, on kernels on both sides of a change of engine.
func (p *plan) cross(r *Roofline, dst []Planned) {
	last := -1
	for i := range p.ks {
		if p.fused[i] >= 0 {
			continue
		}
		if last >= 0 && p.engs[i] != p.engs[last] {
			b := p.ks[i-1].OutElems * r.env.ElementBytes
			var leave, arrive hw.Cost
			if p.engs[last] == r { // to the fallback
				o, _ := r.fallbackPS()
				leave = r.move(o, b)
				arrive = p.engs[i].TransferIn(b)
			} else { // back from the fallback
				_, back := r.fallbackPS()
				leave = p.engs[last].TransferOut(b)
				arrive = r.move(back, b)
			}
			dst[last].Cost = dst[last].Cost.Add(leave)
			dst[i].Cost = dst[i].Cost.Add(arrive)
		}
		last = i
	}
}

// inputKey names a plan's input (a kernel with no producers reads it).
const inputKey = math.MinInt

// tensor is one tensor a kernel reads: a kernel's output (key >= 0, the
// root of its fusion), an output written before the plan (key < 0, as
// PlanDAG's producers) or the plan's input (inputKey).
type tensor struct {
	key   int
	elems int64
}

// sources returns the tensors kernel i (merged) reads. The size of a
// tensor written before the plan is the part of i's input its producers
// in the plan do not account for, split evenly.
func (p *plan) sources(i int) []tensor {
	ps, k := p.src(i), p.merged[i]
	if len(ps) == 0 {
		return []tensor{{inputKey, k.InElems}}
	}
	ts := make([]tensor, 0, len(ps))
	rest, unknown := k.InElems, int64(0)
	for _, q := range ps {
		if q >= 0 {
			h := p.root(q)
			ts = append(ts, tensor{h, p.merged[h].OutElems})
			rest -= p.merged[h].OutElems
		} else {
			unknown++
		}
	}
	for _, q := range ps {
		if q < 0 {
			ts = append(ts, tensor{q, max(rest, 0) / unknown})
		}
	}
	return ts
}

// lru is a fully associative least-recently-used cache of whole tensors,
// newest last (named by tensor keys; data no later kernel names, missed
// operands and weights, is anonymous). A tensor is still there when it and
// the distinct data touched after it fit the cache (LRU's stack-distance
// rule), so a bigger cache never hits less. Entries that can no longer
// fit are dropped, which keeps the list short.
type lru struct {
	ents []lruEnt
}

type lruEnt struct {
	key   int
	named bool
	bytes int64
}

// fits reports whether the tensor key of size bytes is still in a cache of
// capacity bytes.
func (c *lru) fits(key int, bytes, capacity int64) bool {
	d := bytes
	for j := len(c.ents) - 1; j >= 0; j-- {
		if c.ents[j].named && c.ents[j].key == key {
			return d <= capacity
		}
		d += c.ents[j].bytes
		if d > capacity {
			return false
		}
	}
	return false
}

// touch makes a tensor (named: key) of size bytes the most recently used.
func (c *lru) touch(key int, named bool, bytes, capacity int64) {
	if bytes <= 0 {
		return
	}
	if named {
		for j, x := range c.ents {
			if x.named && x.key == key {
				c.ents = slices.Delete(c.ents, j, j+1)
				break
			}
		}
	}
	c.ents = append(c.ents, lruEnt{key, named, bytes})
	var d int64
	for j := len(c.ents) - 1; j >= 0; j-- {
		d += c.ents[j].bytes
		if d > capacity {
			c.ents = slices.Delete(c.ents, 0, j+1)
			return
		}
	}
}

// Phases appends what each unit does to run ks in order: runs of kernels
// on this unit, runs on the fallback unit, with the crossings between them
// folded into their phases.
func (r *Roofline) Phases(ks []workload.Kernel, dst []Phase) ([]Phase, error) {
	return r.PhasesDAG(ks, nil, dst)
}

// PhasesDAG is Phases with the data flow of PlanDAG.
func (r *Roofline) PhasesDAG(ks []workload.Kernel, prod [][]int, dst []Phase) ([]Phase, error) {
	return phasesDAG(r, ks, prod, dst)
}

// phasesDAG appends the phases of p's plan of ks (with producers prod):
// its kernels grouped into runs on one unit, fused kernels left out. The
// evaluator prices every DAGPlanner through it, so a planner's phases
// always agree with its plan (Evaluator.Layers reads the plan itself).
func phasesDAG(p DAGPlanner, ks []workload.Kernel, prod [][]int, dst []Phase) ([]Phase, error) {
	plan, err := p.PlanDAG(ks, prod, nil)
	if err != nil {
		return dst, err
	}
	for _, k := range plan {
		if k.FusedInto >= 0 {
			continue // a fused kernel runs where its head runs, for nothing
		}
		if n := len(dst); n > 0 && dst[n-1].Unit == k.Unit {
			dst[n-1].Cost = dst[n-1].Cost.Add(k.Cost)
			dst[n-1].Kernels = append(dst[n-1].Kernels, k.Cost)
			continue
		}
		dst = append(dst, Phase{Unit: k.Unit, Cost: k.Cost, Kernels: []hw.Cost{k.Cost}})
	}
	return dst, nil
}
