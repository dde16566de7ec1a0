package fpga

import (
	"gnnsim/hw"
	"gnnsim/workload"
)

// Stage is one of the four registered stages of a layer (FGNAS Figure 2).
type Stage uint8

// The stages, in pipeline order.
const (
	Linear Stage = iota
	Attend
	Aggregate
	Activate
	NumStages
)

var stageNames = [...]string{Linear: "linear", Attend: "attention", Aggregate: "aggregation", Activate: "activation"}

func (s Stage) String() string { return enumName(stageNames[:], uint8(s), "Stage") }

// StageReport is the cost of one stage of one layer.
type StageReport struct {
	// Work is the cycles the stage's lanes are busy (initiation interval
	// 1); Latency its pipeline depth, paid once. Cycles = Work + Latency,
	// or 0 for a stage with no work (constant attention).
	Work, Latency, Cycles int64
	Use                   hw.Resources
}

// LayerReport is the cost of one layer's segment.
type LayerReport struct {
	Stages [NumStages]StageReport
	// Cycles is the sum of the stage cycles (FGNAS's layer latency).
	Cycles int64
	// Use is the segment's resources: its stages plus its ping-pong
	// buffers (BRAM).
	Use hw.Resources
	// DRAMBytes are the bytes the layer reads and writes in memory.
	DRAMBytes int64
	// OutBits is the format of the layer's output as the FGNAS authors'
	// model derives it (FGNASCode only).
	OutBits Fixed
}

// layerShape is what the stage model needs of the workload of layer i.
type layerShape struct {
	n, edges int64 // nodes, adjacency entries with self-loops
	f        int64 // input width
	inNNZ    int64 // non-zeros streamed by the linear stage; 0 for dense
}

// stageModel prices layer l of a design on shape s. published selects
// FGNAS's linear-stage timing (no node count, dense input); serial runs
// the heads one after another on one copy of the stages instead of on
// parallel copies; last says the layer averages its heads.
func stageModel(l LayerDesign, outW int64, s layerShape, published, serial, last bool, blockNodes int64) LayerReport {
	var r LayerReport
	var d stageDims
	d.init(&l, s, serial)
	linearStage(&r.Stages[Linear], &d, published)
	attendStage(&r.Stages[Attend], &d)
	aggregateStage(&r.Stages[Aggregate], &d)
	// Activation: without one (linear) the stage is absent, unless it
	// averages a last layer's head copies.
	average := last && d.h > 1 && !serial
	if l.Act != workload.ActLinear || average {
		activateStage(&r.Stages[Activate], &d, average)
	}
	bufferBRAM(&r, l, d.tout, outW, s, d.hr, blockNodes)
	for i := range r.Stages {
		st := &r.Stages[i]
		if st.Work > 0 {
			st.Cycles = st.Work + st.Latency
		} else {
			st.Latency = 0
		}
		r.Cycles += st.Cycles
		r.Use = addRes(r.Use, st.Use)
	}

	// Memory traffic: input (dense, or non-zeros with a 32-bit column
	// index), weights once per head, the adjacency (32-bit column indices
	// and row pointers), output.
	in := s.n * s.f * int64(d.ab)
	if s.inNNZ > 0 {
		in = s.inNNZ * int64(d.ab+32)
	}
	weights := d.h * s.f * d.lg * int64(d.wb)
	adj := (s.edges + s.n + 1) * 32
	r.DRAMBytes = ceilDiv(in+weights+adj+s.n*outW*int64(d.ab), 8)
	return r
}

// stageDims are the sizes a layer's stages are built from, derived once
// from the layer and its shape so that each stage's pricing reads them
// instead of deriving them again.
type stageDims struct {
	s      layerShape
	attn   workload.Attention
	aggr   workload.Aggregation
	act    workload.Activation
	h      int64 // heads
	wk, hr int64 // work multiple and resource copies of a per-head stage
	g, lg  int64 // output width per head; the linear stage's output width
	sage   bool
	ab, wb int // activation and weight bits
	// Group sizes: a stage's lanes, at most the width they span.
	tin, tout, tattn, taggr, tact int64
	control                       Op // a stage's FSM and address counters
}

// init derives the stage sizes of layer l on shape s. Heads run on
// parallel copies of every per-head stage (resources x h, cycles once),
// or, serial, on one copy working h times as long. It runs once per layer
// so that the four stage functions read the same sizes rather than each
// deriving its own.
func (d *stageDims) init(l *LayerDesign, s layerShape, serial bool) {
	h := heads(l.Heads)
	*d = stageDims{s: s, attn: l.Attn, aggr: l.Aggr, act: l.Act,
		h: h, wk: 1, hr: h, g: int64(l.Embed), sage: l.Attn == workload.AttSAGE}
	if serial {
		d.wk, d.hr = h, 1
	}
	// lg is the linear stage's output width: a SAGE layer computes the
	// self and the neighbour transform of every node, [W_self | W_neigh].
	d.lg = d.g
	if d.sage {
		d.lg = 2 * d.g
	}
	d.ab, d.wb = l.Bits.A.Bits(), l.Bits.W.Bits()
	// Lanes beyond a width would have nothing to do: a group size is
	// built at most as wide as the features it spans.
	d.tin, d.tout = min(int64(l.T.In), max(s.f, 1)), min(int64(l.T.Out), d.lg)
	d.tattn, d.taggr, d.tact = min(int64(l.T.Attn), d.g), min(int64(l.T.Aggr), d.g), min(int64(l.T.Act), d.g)
	d.control = Op{LUT: stageControlLUT, FF: stageControlFF}
}

// scaleUse multiplies the logic of a stage by its n copies; BRAM is sized
// per copy separately (bufferBRAM) and the control, which drives all
// copies, is added after.
func scaleUse(u *hw.Resources, n int64) {
	u.LUT, u.FF, u.DSP = u.LUT*n, u.FF*n, u.DSP*n
}

// linearStage prices the linear transform: t_in x t_out multipliers, t_out
// adder trees and accumulators. published takes FGNAS's timing (no node
// count, dense input). Each of the four stages of FGNAS Figure 2 has its
// own function, so that a stage's units, work and latency read together.
func linearStage(st *StageReport, d *stageDims, published bool) {
	s, tin, tout, ab, wb := &d.s, d.tin, d.tout, d.ab, d.wb
	perRow := ceilDiv(s.f, tin) * ceilDiv(d.lg, tout)
	switch {
	case published:
		st.Work = d.wk * perRow
	case s.inNNZ > 0:
		st.Work = d.wk * ceilDiv(s.inNNZ, tin) * ceilDiv(d.lg, tout)
	default:
		st.Work = d.wk * s.n * perRow
	}
	mult := Mult(ab, wb)
	tree := AdderTree(int(tin), ab+wb)
	acc := Adder(ab + wb + accGuardBits)
	st.Latency = mult.Latency + tree.Latency + acc.Latency
	add(&st.Use, mult.times(tin*tout), tree.times(tout), acc.times(tout))
	st.Use.FF += tout * int64(ab) // output register
	// Weights stream from memory through two t_in x t_out register
	// tiles per copy.
	st.Use.FF += 2 * tin * tout * int64(wb)
	scaleUse(&st.Use, d.hr)
	add(&st.Use, d.control)
}

// attendStage prices the attention coefficients; only GCN and GAT attention
// layers have attention hardware. The second stage (see linearStage).
func attendStage(st *StageReport, d *stageDims) {
	s, ab, wb := &d.s, d.ab, d.wb
	switch d.attn {
	case workload.AttGCN:
		// One coefficient per entry of A+I from the precomputed
		// degree norms, shared by the heads: one multiplier.
		m := Mult(ab, ab)
		st.Work = s.edges
		st.Latency = m.Latency
		add(&st.Use, m, d.control)
		st.Use.FF += int64(ab)
	case workload.AttGAT:
		// Per head: the two projections a_s.Wh and a_d.Wh, t_attn
		// features per cycle; then per entry of A+I a sum, LeakyReLU
		// and exp, the softmax denominator per node (one divider for
		// its reciprocal) and a multiply to normalise.
		m := Mult(ab, wb)
		tree := AdderTree(int(d.tattn), ab+wb)
		acc := Adder(ab + wb + accGuardBits)
		em := Mult(ab, ab)
		st.Work = d.wk * (s.n*ceilDiv(d.g, d.tattn) + s.edges)
		st.Latency = m.Latency + tree.Latency + acc.Latency + 1 + 1 + eluLatency + dividerLatency + em.Latency
		add(&st.Use, m.times(2*d.tattn), tree.times(2), acc.times(2),
			Adder(ab+1), Act(workload.ActReLU), Exp(), Adder(2*ab+4), Divider(), em)
		st.Use.FF += int64(ab)
		scaleUse(&st.Use, d.hr)
		add(&st.Use, d.control)
	}
}

// aggregateStage prices the aggregation: t_aggr lanes, each weighting a
// message (unless the coefficients are constant) and adding (or comparing)
// it in. The third stage (see linearStage).
func aggregateStage(st *StageReport, d *stageDims) {
	s, ab, g, taggr := &d.s, d.ab, d.g, d.taggr
	st.Work = d.wk * s.edges * ceilDiv(g, taggr)
	if d.sage {
		// SAGE walks the entries of A (no self-loop), then adds each
		// node's self transform in one more pass (below).
		st.Work = (s.edges - s.n) * ceilDiv(g, taggr)
	}
	lane := Adder(2*ab + 4) // add, or compare for max
	if d.attn != workload.AttConstant && !d.sage {
		m := Mult(ab, ab)
		add(&st.Use, m.times(taggr))
		st.Latency += m.Latency
	}
	add(&st.Use, lane.times(taggr))
	st.Latency += lane.Latency
	if d.aggr == workload.AggMean {
		// One reciprocal of the degree per node, one scaling multiply
		// per lane: an extra pass over the node's features.
		m := Mult(ab, ab)
		st.Work += d.wk * s.n * ceilDiv(g, taggr)
		st.Latency += dividerLatency + m.Latency
		add(&st.Use, Divider(), m.times(taggr))
	}
	if d.sage {
		// The self term: per node one pass adding W_self h_i to the
		// aggregate (after the mean's scaling, which shares the pass).
		sa := Adder(2*ab + 4)
		if d.aggr != workload.AggMean {
			st.Work += s.n * ceilDiv(g, taggr)
		}
		st.Latency += sa.Latency
		add(&st.Use, sa.times(taggr))
	}
	st.Use.FF += taggr * int64(ab)
	scaleUse(&st.Use, d.hr)
	add(&st.Use, d.control)
}

// activateStage prices the activation on t_act units; average adds the
// averaging of a last layer's parallel head copies. The fourth stage (see
// linearStage).
func activateStage(st *StageReport, d *stageDims, average bool) {
	s, ab, h, tact := &d.s, d.ab, d.h, d.tact
	a := Act(d.act)
	st.Work = d.wk * s.n * ceilDiv(d.g, tact)
	st.Latency = a.Latency
	add(&st.Use, a.times(tact))
	st.Use.FF += tact * int64(ab)
	scaleUse(&st.Use, d.hr)
	if average {
		// The copies' outputs meet in t_act adder trees of h inputs;
		// the division by h is a shift when h is a power of two and
		// a constant multiply otherwise.
		tree := AdderTree(int(h), ab+ceilLog2int(h))
		add(&st.Use, tree.times(tact))
		st.Latency += tree.Latency
		if h&(h-1) != 0 {
			m := Mult(ab+ceilLog2int(h), ab)
			add(&st.Use, m.times(tact))
			st.Latency += m.Latency
		}
	}
	add(&st.Use, d.control)
}

func ceilLog2int(h int64) int { return int(ceilLog2(h)) }

// bufferBRAM sizes the on-chip buffers of a layer's stages in BRAM18
// blocks (each buffer rounded up to whole blocks; OnChipBytes counts the
// bits they hold):
//
//   - linear: its weights, double-buffered per copy: F x t_out words of
//     the next output group load while the current one is applied to every
//     node (so each weight is read from memory once per pass); and a
//     ping-pong pair of input blocks (B nodes x F words, or for a sparse
//     input B x nnz/N entries of a word and a 32-bit column index).
//   - attention (GAT): the two projections of every node per copy (2 N
//     words), read at random by the edge walk.
//   - aggregation: a ping-pong pair of blocks of its output per copy
//     (B x G words); the neighbours' transformed features are read from
//     memory (any node may be a neighbour).
//   - activation: a ping-pong pair of blocks of the layer's output
//     (B x the layer's output width), the buffers between the segment and
//     memory.
//
// B is Options.BlockNodes, words are the activation format's bits
// (weights: the weight format's).
func bufferBRAM(r *LayerReport, l LayerDesign, tout, outW int64, s layerShape, copies, blockNodes int64) {
	ab, wb := int64(l.Bits.A.Bits()), int64(l.Bits.W.Bits())
	g := int64(l.Embed)
	put := func(st Stage, n, bits int64) {
		r.Stages[st].Use.BRAM += n * ceilDiv(bits, bramBits)
		r.Stages[st].Use.OnChipBytes += ceilDiv(n*bits, 8)
	}
	put(Linear, 2*copies, s.f*tout*wb)
	if s.inNNZ > 0 {
		put(Linear, 2, ceilDiv(blockNodes*s.inNNZ, max(s.n, 1))*(ab+32))
	} else {
		put(Linear, 2, blockNodes*s.f*ab)
	}
	if l.Attn == workload.AttGAT {
		put(Attend, copies, 2*s.n*ab)
	}
	put(Aggregate, 2*copies, blockNodes*g*ab)
	put(Activate, 2, blockNodes*outW*ab)
}

func add(r *hw.Resources, ops ...Op) {
	for _, o := range ops {
		r.LUT += o.LUT
		r.FF += o.FF
		r.DSP += o.DSP
	}
}

func addRes(a, b hw.Resources) hw.Resources {
	return hw.Resources{LUT: a.LUT + b.LUT, FF: a.FF + b.FF, DSP: a.DSP + b.DSP, BRAM: a.BRAM + b.BRAM, OnChipBytes: a.OnChipBytes + b.OnChipBytes}
}

// shapes returns the stage-model shape of every layer of b and the MACs
// of b's kernels, checking that b is the work of d (the same widths and
// heads, layer by layer) and that its layers and sizes are valid.
func (d Design) shapes(b workload.Block, dst []layerShape) ([]layerShape, int64, error) {
	if len(b.Layers) != len(d.Layers) {
		return dst, 0, errLayers(len(b.Layers), len(d.Layers))
	}
	// One layer's kernels at a time (a GAT layer has three per head, so
	// 64 hold 21 heads without allocating): the report needs their MACs
	// only. Each layer runs on its predecessor's output Size, as in
	// Block.AppendKernels (the kinds matches admits keep their input's).
	var kbuf [64]workload.Kernel
	var macs int64
	sizes := b.In
	for i, wl := range b.Layers {
		// AppendKernels validates the layer and its input Size first.
		ks, err := wl.AppendKernels(kbuf[:0], sizes)
		if err != nil {
			return dst, 0, wrapLayer(i, err)
		}
		if err := d.matches(i, wl); err != nil {
			return dst, 0, err
		}
		for _, k := range ks {
			macs += k.MACs
		}
		s := layerShape{n: sizes.Nodes, edges: sizes.NNZ + sizes.Nodes, f: int64(wl.F)}
		if i == 0 && d.InputNNZ > 0 {
			if d.InputNNZ > sizes.Nodes*s.f {
				return dst, 0, errNNZ(d.InputNNZ, sizes.Nodes, s.f)
			}
			s.inNNZ = d.InputNNZ
		}
		dst = append(dst, s)
		sizes = wl.Out(sizes)
	}
	return dst, macs, nil
}
