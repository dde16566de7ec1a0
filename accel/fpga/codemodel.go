package fpga

import (
	"fmt"

	"gnnsim/workload"
)

// The FGNAS authors' cost model (Model FGNASCode): what their repository's
// fpga/architecture.py and fpga/operator.py compute for a design, restated
// from its formulas (see doc.go for how it differs from ours). The names
// below are ours; the arithmetic is theirs, including where it looks
// accidental (the quadratic activation, the adder-tree widths, the caps),
// because this mode's purpose is to give their numbers.

// codeFmt is a fixed-point format as their model carries it between
// operators: Int integer and Frac fraction bits, no sign bit; 0.0 is
// floating point.
type codeFmt struct{ i, f int }

func (b codeFmt) float() bool { return b.i == 0 }

// codeUse is an LUT / FF / DSP total.
type codeUse struct{ lut, ff, dsp int64 }

func (u *codeUse) op(o codeOp, n int64) {
	u.lut += o.lut * n
	u.ff += o.ff * n
	u.dsp += o.dsp * n
}

func (u *codeUse) plus(v codeUse, n int64) {
	u.lut += v.lut * n
	u.ff += v.ff * n
	u.dsp += v.dsp * n
}

func (u codeUse) resources() (lut, ff, dsp int64) { return u.lut, u.ff, u.dsp }

// An adder of format b: a float adder when b is float, else one indexed
// by int + frac; its sum has one more integer bit.
func codeAdderOp(b codeFmt) (codeOp, codeFmt) {
	if b.float() {
		return codeAdder.at(0), codeFmt{}
	}
	return codeAdder.at(b.i + b.f), codeFmt{b.i + 1, b.f}
}

// A multiplier of an a-format by a b-format operand, indexed by their
// total bits (a float operand counts 0).
func codeMultOp(a, b codeFmt) codeOp {
	bits := func(x codeFmt) int {
		if x.float() {
			return 0
		}
		return x.i + x.f
	}
	return codeMult.at(bits(a), bits(b))
}

// codeTree is an adder tree over n inputs of format b: floor(n/2) adders
// per level, the format growing by an integer bit per level.
func codeTree(n int64, b codeFmt) (u codeUse, cyc int64) {
	for n > 1 {
		op, _ := codeAdderOp(b)
		u.op(op, n/2)
		cyc += op.cyc
		if !b.float() {
			b.i++
		}
		n = (n + 1) / 2
	}
	return u, cyc
}

// codeAccumulator is an adder, a register of its sum's width and (for
// fixed point) a truncator.
func codeAccumulator(b codeFmt) (u codeUse, cyc int64, out codeFmt) {
	op, out := codeAdderOp(b)
	u.op(op, 1)
	u.ff += int64(out.i + out.f)
	if out.i > 0 {
		u.op(codeTrunc.at(out.i+out.f), 1)
	}
	return u, op.cyc, out
}

// codeLinear is an in -> out linear unit with tin x tout multipliers: tout
// columns, each tin multipliers and an adder tree, plus (when tin < in) an
// accumulator adder, a truncator and a register.
func codeLinear(in, out, tin, tout int64, a, w codeFmt) (u codeUse, cyc int64, res codeFmt) {
	tin = min(tin, in)
	m := codeMultOp(a, w)
	var col codeUse
	col.op(m, tin)
	tu, tc := codeTree(tin, a)
	col.plus(tu, 1)
	c := m.cyc + tc
	res = a
	if tin < in {
		op, _ := codeAdderOp(a)
		col.op(op, 1)
		c += op.cyc
		res = codeFmt{}
		if !a.float() {
			if a.i+a.f > 0 {
				col.op(codeTrunc.at(a.i+a.f), 1)
			}
			res = codeFmt{a.i + 1, a.f}
			col.ff += int64(res.i + res.f)
		}
	}
	u.plus(col, tout)
	cyc = ((c+1)*ceilDiv(in, tin) + 1) * ceilDiv(out, tout)
	return u, cyc, res
}

// codeGraph is what their model reads of the graph: N nodes and E edges
// as PyTorch Geometric counts them (both directions). Every pass over the
// edges costs 2E + N steps of its operator.
type codeGraph struct{ n, e int64 }

func (g codeGraph) walk(steps int64) int64 { return steps*2*g.e + g.n }

// codeStages is one layer priced by their model: per stage (in the order
// of Stage) its cycles and its resources, heads included; the averaging of
// a multi-head last layer is in the activation stage.
type codeStages struct {
	cyc [NumStages]int64
	use [NumStages]codeUse
	out codeFmt
}

// codeLayer prices layer l (input width in, output width per head out) on
// g; last says the layer averages its heads instead of concatenating them.
func codeLayer(l LayerDesign, in, out int64, last bool, g codeGraph) codeStages {
	var r codeStages
	a := codeFmt{l.Bits.A.Int, l.Bits.A.Frac}
	w := codeFmt{l.Bits.W.Int, l.Bits.W.Frac}
	// Group sizes: t_in and t_out are clamped to the layer's widths
	// (their utils.build_gnn_graph); the others are used as drawn.
	tin, tout := min(int64(l.T.In), in), min(int64(l.T.Out), out)
	tattn, taggr, tact := int64(l.T.Attn), int64(l.T.Aggr), int64(l.T.Act)

	var b codeFmt
	r.use[Linear], r.cyc[Linear], b = codeLinear(in, out, tin, tout, a, w)

	switch l.Attn {
	case workload.AttGAT:
		// Two out -> 1 projections, an adder for their sum, then a
		// multiplier weighting each message feature group.
		lu, lc, lo := codeLinear(out, 1, tattn, 1, b, w)
		u := &r.use[Attend]
		u.plus(lu, 2)
		ad, ao := codeAdderOp(lo)
		u.op(ad, 1)
		c := g.walk(lc + ad.cyc + 1)
		m := codeMultOp(ao, b)
		u.op(m, 1)
		c += g.walk((m.cyc+1)*ceilDiv(out, tattn) + 1)
		r.cyc[Attend] = c
	case workload.AttConstant:
		// A divider per attention lane (the 1/degree coefficient).
		d := codeDivider.at(b.i, b.f)
		r.use[Attend].op(d, tattn)
		r.cyc[Attend] = g.walk((d.cyc+1)*ceilDiv(out, tattn) + 1)
	}
	// GCN attention costs nothing in their model.

	{
		var lane codeUse
		var steps int64
		switch l.Aggr {
		case workload.AggAdd, workload.AggMean:
			u, c, o := codeAccumulator(b)
			lane, steps = u, g.walk(c+1)
			if l.Aggr == workload.AggMean {
				d := codeDivider.at(o.i, o.f)
				lane.op(d, 1)
				steps += d.cyc * g.n // (div+1) N in all, walk counted N once
			}
			b = o
		case workload.AggMax:
			if b.float() {
				b = codeFmt{}
			}
			mx := codeMax2.at(b.i + b.f)
			lane.op(mx, 1)
			lane.ff += int64(b.i + b.f)
			steps = g.walk(mx.cyc + 1)
		}
		r.use[Aggregate].plus(lane, taggr)
		r.cyc[Aggregate] = (steps + 1) * ceilDiv(out, taggr)
	}

	{
		var op codeOp
		switch l.Act {
		case workload.ActReLU:
			op = codeReLU.at(b.i + b.f)
		case workload.ActTanh:
			op = codeTanh.at(b.i, b.f)
		case workload.ActSigmoid:
			op = codeSigmoid.at(b.i, b.f)
		case workload.ActELU:
			op = codeELU.at(b.i, b.f)
		}
		r.use[Activate].op(op, tact)
		// ceil(G/t_act) twice: their activation stage counts its feature
		// groups once in the operator and again in the layer.
		k := ceilDiv(out, tact)
		r.cyc[Activate] = (((op.cyc+1)*k+1)*k + 1) * g.n
	}

	// Heads are parallel copies of the whole layer: resources x heads,
	// cycles unchanged.
	h := heads(l.Heads)
	for s := range r.use {
		r.use[s] = codeUse{r.use[s].lut * h, r.use[s].ff * h, r.use[s].dsp * h}
	}
	if last && h > 1 {
		// Averaging the heads: an accumulator, then a divider (its input
		// capped at 3 integer bits) over the output groups.
		u, _, o := codeAccumulator(b)
		r.use[Activate].plus(u, 1)
		o.i = min(o.i, codeCapInt)
		d := codeDivider.at(o.i, o.f)
		r.use[Activate].op(d, 1)
		r.cyc[Activate] += d.cyc * ceilDiv(out, tact)
		b = o
	}
	r.out = b
	return r
}

// codeValidate reports why the authors' model cannot price d: it reads a
// layer either in floating point (every bit gene 0) or in fixed point with
// at least one integer bit in both formats (their multiplier requires it,
// and their tables have no other entries there).
func codeValidate(d Design) error {
	for i, l := range d.Layers {
		if l.Attn == workload.AttSAGE {
			return fmt.Errorf("fpga: layer %d: the fgnas-code model (the FGNAS authors') has no sage layer; price it with the gnnsim model", i)
		}
		if l.Act == workload.ActLinear {
			return fmt.Errorf("fpga: layer %d: the fgnas-code model (the FGNAS authors') has no linear (absent) activation; price it with the gnnsim model", i)
		}
		a, w := l.Bits.A, l.Bits.W
		float := a == (Fixed{}) && w == (Fixed{})
		if !float && (a.Int < 1 || w.Int < 1) {
			return fmt.Errorf("fpga: layer %d: formats %s (weights) and %s (activations): the fgnas-code model needs both 0.0 (float) or both with at least 1 integer bit", i, w, a)
		}
	}
	return nil
}
