package gcos

import (
	"fmt"

	"gnnsim/hw"
	"gnnsim/sim"
	"gnnsim/workload"
)

// Template is a design of the G-CoS multi-sub-accelerator template: an
// hw.Unit, hw.Budgeted and hw.Clocked. It is immutable and safe for
// concurrent use.
type Template struct {
	cfg      Config
	subs     [MaxSubs]Sub
	n        int
	totalPEs int64
	bufBytes int64       // all buffers of all sub-accelerators
	hbm      sim.Channel // idle: each phase runs on a copy
}

var (
	_ hw.Unit     = (*Template)(nil)
	_ hw.Budgeted = (*Template)(nil)
	_ hw.Clocked  = (*Template)(nil)
)

// New returns the design cfg after filling in the VCU128 defaults and
// validating it.
func New(cfg Config) (*Template, error) {
	cfg.defaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg.Subs = append([]Sub(nil), cfg.Subs...)
	hbm, err := sim.NewChannel(cfg.HBMBytesPerSec/cfg.ClockHz, cfg.HBMLatency, BurstBytes)
	if err != nil {
		return nil, fmt.Errorf("gcos: HBM: %w", err)
	}
	t := &Template{cfg: cfg, n: len(cfg.Subs), hbm: hbm}
	copy(t.subs[:], cfg.Subs)
	for _, s := range cfg.Subs {
		t.totalPEs += int64(s.PEs)
		t.bufBytes += s.BufferBytes()
	}
	return t, nil
}

// Config returns the design (defaults filled in).
func (t *Template) Config() Config {
	c := t.cfg
	c.Subs = append([]Sub(nil), c.Subs...)
	return c
}

// Name returns the design's name.
func (t *Template) Name() string { return t.cfg.Name }

// ClockHz returns the clock of every sub-accelerator.
func (t *Template) ClockHz() float64 { return t.cfg.ClockHz }

// Usage returns the DSPs (one per PE) and on-chip bytes (the buffers) the
// design uses.
func (t *Template) Usage() hw.Resources {
	return hw.Resources{DSP: t.totalPEs, OnChipBytes: t.bufBytes}
}

// Budget returns the design's budget (VCU128 unless configured).
func (t *Template) Budget() hw.Resources { return t.cfg.Budget }

// SubTrace is one sub-accelerator's share of one kernel.
type SubTrace struct {
	Rows, Cols int64 // the slice of the output it computed
	Compute    int64 // cycles of computation
	Bytes      int64 // off-chip bytes
	Finish     int64 // cycle it finished, from the kernel's start
}

// KernelTrace is one phase of a run: one kernel, or on a Hybrid design an
// aggregation and the combination pipelined with it.
type KernelTrace struct {
	Kernel string
	Class  workload.KernelClass
	// Aggregation: the phase walks the adjacency (an aggregation or
	// attention kernel, with the combination pipelined after it on a
	// Hybrid design).
	Aggregation bool
	Cycles      int64
	Subs        []SubTrace
}

// Run returns the cost of w: kernels run one after another (a Hybrid
// design overlaps an aggregation with the combination after it), each split
// among the sub-accelerators, whose HBM requests share one FIFO channel.
// Energy is not modelled (0).
func (t *Template) Run(w hw.Work) (hw.Cost, error) { return t.run(w, nil) }

// Explain runs w like Run and also returns every phase's per
// sub-accelerator breakdown.
func (t *Template) Explain(w hw.Work) (hw.Cost, []KernelTrace, error) {
	var tr []KernelTrace
	c, err := t.run(w, &tr)
	return c, tr, err
}

func (t *Template) run(w hw.Work, tr *[]KernelTrace) (hw.Cost, error) {
	if w.Empty() {
		if err := w.Block.In.Validate(); err != nil {
			return hw.Cost{}, fmt.Errorf("gcos: %w", err)
		}
		return hw.Cost{}, nil
	}
	var kbuf [16]workload.Kernel
	ks, err := w.Block.AppendKernels(kbuf[:0])
	if err != nil {
		return hw.Cost{}, fmt.Errorf("gcos: %w", err)
	}
	base, err := t.rowsOf(w)
	if err != nil {
		return hw.Cost{}, err
	}
	var cost hw.Cost
	var cycles int64
	inOnChip := false
	for i := 0; i < len(ks); i++ {
		k := &ks[i]
		if err := supported(k); err != nil {
			if l, ok := kernelLayer(w.Block, i); ok {
				if l.Name == "" {
					return hw.Cost{}, fmt.Errorf("gcos: a %s layer needs a %w", l.Kind, err)
				}
				return hw.Cost{}, fmt.Errorf("gcos: %s layer %q needs a %w", l.Kind, l.Name, err)
			}
			return hw.Cost{}, fmt.Errorf("gcos: the work needs a %w", err)
		}
		cost.MACs = hw.SatAdd(cost.MACs, k.MACs)
		var jobs [MaxSubs]job
		var p phase
		last := i == len(ks)-1
		if t.cfg.Scheme == Hybrid && aggregation(k) && !last && ks[i+1].Class == workload.GEMM {
			// Inter-engine pipeline: the aggregated rows pass on chip.
			next := &ks[i+1]
			cost.MACs = hw.SatAdd(cost.MACs, next.MACs)
			i++
			outOn := t.keepsOutput(next, i == len(ks)-1)
			a, _, _ := t.share(&jobs[0], &t.subs[0], k, &base, span{0, k.M, 0, width(k)}, inOnChip, true)
			b, _, _ := t.share(&jobs[1], &t.subs[1], next, &base, span{0, next.M, 0, next.N}, true, outOn)
			if jobs[0].chunks > 0 && jobs[1].chunks > 0 {
				jobs[1].chunks = jobs[0].chunks
				jobs[1].dep = &jobs[0]
			}
			p.add(a, b)
			inOnChip = outOn
		} else {
			outOn := t.keepsOutput(k, last)
			p = t.split(&jobs, k, &base, inOnChip, outOn)
			inOnChip = outOn
		}
		mem := t.hbm // every kernel starts on an idle channel (the one before has finished)
		end := runPhase(0, jobs[:t.n], &mem)
		cycles = hw.SatAdd(cycles, end)
		for j := range t.n {
			cost.DRAMBytes = hw.SatAdd(cost.DRAMBytes, jobs[j].bytes)
		}
		if tr != nil {
			kt := KernelTrace{Kernel: k.Name, Class: k.Class, Aggregation: aggregation(k), Cycles: end}
			for j := range t.n {
				st := p.subs[j]
				st.Bytes = jobs[j].bytes
				if jobs[j].chunks > 0 {
					st.Finish = jobs[j].end[jobs[j].chunks-1]
				}
				kt.Subs = append(kt.Subs, st)
			}
			*tr = append(*tr, kt)
		}
	}
	cost.Cycles = cycles
	cost.TimePS = hw.PS(cycles, t.cfg.ClockHz)
	if err := cost.CheckRange("gcos", rescale); err != nil {
		return hw.Cost{}, err
	}
	return cost, nil
}

// rescale says what to change when a cost does not fit in 64 bits.
const rescale = "fewer or narrower layers, or a smaller graph"

// keepsOutput reports whether k's output stays on chip for the next kernel:
// buffers are re-purposed and the output fits in all of them.
func (t *Template) keepsOutput(k *workload.Kernel, last bool) bool {
	return t.cfg.Repurpose && !last && k.OutElems*WordBytes <= t.bufBytes
}

// supported reports kernels the template cannot run.
func supported(k *workload.Kernel) error {
	switch k.Class {
	case workload.SpMM, workload.EdgeWise, workload.Max, workload.GEMM, workload.ElementWise:
		return nil
	}
	return fmt.Errorf("%s kernel %q, not supported by the template: its sub-accelerators run sparse and dense products, edge-wise and element-wise work and max aggregation", k.Class, k.Name)
}

// kernelLayer returns the layer of b that b's kernel i comes from, for
// errors that name the layer a user wrote rather than a kernel (it
// recomputes the kernels layer by layer: the error path only).
func kernelLayer(b workload.Block, i int) (workload.Layer, bool) {
	sizes := b.Sizes()
	n := 0
	for j, l := range b.Layers {
		ks, err := l.Kernels(sizes[j])
		if err != nil {
			return workload.Layer{}, false
		}
		if n += len(ks); i < n {
			return l, true
		}
	}
	return workload.Layer{}, false
}

func sparse(c workload.KernelClass) bool {
	return c == workload.SpMM || c == workload.EdgeWise || c == workload.Max
}

// sparseInput reports whether k is the product X x W of a sparse input
// (workload's SpMM with K = F): its sparse A operand is the input
// features, not the square adjacency. An adjacency SpMM is N x N, so a
// kernel is taken for one only when K = M (an input as wide as the graph
// has nodes would pass for one only if its non-zeros also equalled the
// adjacency's entries).
func sparseInput(k *workload.Kernel) bool {
	return k.Class == workload.SpMM && k.K != k.M
}

// aggregation reports whether k walks the adjacency: an aggregation or
// attention kernel, the aggregation engine's work on a Hybrid design.
func aggregation(k *workload.Kernel) bool { return sparse(k.Class) && !sparseInput(k) }

// width returns the columns of k's output (1 for the attention scores).
func width(k *workload.Kernel) int64 {
	if k.Class == workload.EdgeWise {
		return 1
	}
	return k.N
}

// nnzOf returns the adjacency entries a sparse kernel walks.
func nnzOf(k *workload.Kernel) int64 {
	if k.Class == workload.Max {
		if k.N == 0 {
			return 0
		}
		return k.Ops / k.N
	}
	return k.NNZ
}

// rowsOf returns the row profile of w's input adjacency (sampling scale
// and self-loops are set per kernel): its graph's rows, or its degree
// profile (hw.Work.Rows) when it has no graph.
func (t *Template) rowsOf(w hw.Work) (rows, error) {
	in := w.Block.In
	r := rows{n: in.Nodes, scale: 1, inNNZ: in.NNZ}
	var ptr []int32
	var entries int64
	switch {
	case w.Graph != nil:
		ptr, entries, r.loops = w.Graph.RowPtr, hw.SizeOf(w.Graph).NNZ, w.Graph.SelfLoops
		r.col = w.Graph.Col
	case w.Rows != nil:
		ptr = w.Rows
		if len(ptr) < 1 || ptr[0] != 0 {
			return r, fmt.Errorf("gcos: work's row profile does not start at 0")
		}
		entries = int64(ptr[len(ptr)-1])
	default:
		return r, nil
	}
	switch {
	case int64(len(ptr))-1 != in.Nodes:
		return r, fmt.Errorf("gcos: work on %d nodes, its graph has %d", in.Nodes, len(ptr)-1)
	case in.NNZ > entries:
		return r, fmt.Errorf("gcos: work with %d adjacency entries, its graph has %d", in.NNZ, entries)
	}
	r.ptr = ptr
	if entries > 0 {
		r.scale = float64(in.NNZ) / float64(entries)
	}
	return r, nil
}

// kernelRows returns the row profile of sparse kernel k: the graph's rows
// when k walks the input adjacency (plus the identity), the average row
// otherwise.
func kernelRows(base *rows, k *workload.Kernel) rows {
	r := *base
	inNNZ := base.inNNZ
	nnz := nnzOf(k)
	r.n = k.M
	switch {
	case sparseInput(k):
		r.ptr, r.col = nil, nil // a sparse input's rows: their average (a Size has no feature rows)
	case r.ptr != nil && k.M == int64(len(r.ptr)-1) && nnz == inNNZ:
		r.self = 0
	case r.ptr != nil && k.M == int64(len(r.ptr)-1) && nnz == inNNZ+k.M:
		r.self = 1
	default:
		r.ptr, r.col = nil, nil
	}
	if k.M > 0 {
		r.avg = float64(nnz) / float64(k.M)
	}
	return r
}
