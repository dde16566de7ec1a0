package train

import (
	"math"

	"gnnsim/workload"
)

// layer is one Layer at work: its shape, views of its parameters and
// gradients inside the model's flat vectors, and every buffer a training
// step needs, allocated once. Matrices are row-major, node-major: row i of
// z holds node i's Heads x out features, head h at columns [h*out, (h+1)*out).
// Per-edge arrays follow the A+I CSR order of Data, heads innermost.
type layer struct {
	Layer
	n, in, out int // nodes, input width, features per head
	width      int // Heads*out: the width of z, except in a SAGE layer
	zw         int // the width of z: width, or 2*out in a SAGE layer ([self | neighbour] transforms)
	outW       int // width of o and y: width (heads concatenated) or out (averaged)
	concat     bool
	first      bool // input is the sparse feature matrix

	w, attL, attR, b     []float64 // parameters (attL, attR: Heads x out, GAT only)
	gw, gattL, gattR, gb []float64 // their gradients

	inScale  []float64 // input dropout scales: per feature entry (first layer) or n x in
	xin      []float64 // input after dropout: feature values (first layer) or n x in
	keptCol  []int32   // first layer: per row from xPtr[i], the columns of its non-zero xin,
	keptVal  []float64 // ... and their values
	nKept    []int32   // first layer: n, how many entries each row keeps
	z        []float64 // n x zw: linear transform
	el, er   []float64 // n x Heads: a_l . z_i and a_r . z_i (GAT)
	score    []float64 // edges x Heads: LeakyReLU(el_i + er_j), positive iff its argument is (GAT)
	alpha    []float64 // edges x Heads: softmax of the scores over each row (GAT)
	aScale   []float64 // edges x Heads: coefficient dropout scales (GAT)
	coef     []float64 // edges x Heads: alpha after dropout, the weights used (GAT)
	qcoef    []float64 // edges: quantised GCN or constant weights (quantised evaluation only)
	arg      []int32   // n x width: the edge that won each maximum (Max)
	o, y     []float64 // n x outW: before and after the activation
	dz       []float64 // n x zw
	dAlpha   []float64 // edges x Heads (GAT)
	dEl, dEr []float64 // n x Heads (GAT)
	dx       []float64 // n x in: gradient of the input (not for the first layer)
	wT       []float64 // zw x in: matMulTN's and matMulNT's scratch (not for the first layer)
	colIdx   []int32   // in: matMulNT's scratch (not for the first layer)
	touched  []bool    // n: the rows of dz backwardAggregate has set (dzSet)
	acc      []float64 // width: every head's aggregate (or its gradient) when heads are averaged
	hmax     []float64 // Heads: per-head scratch of the softmax (GAT)
	hsum     []float64 // Heads: per-head scratch of the softmax (GAT)
}

// newLayer allocates a layer's buffers; parameters are attached by the model.
func newLayer(spec Layer, d *Data, in, out int, concat, first bool) *layer {
	n, nnz := d.NumNodes, len(d.aCol)
	l := &layer{Layer: spec, n: n, in: in, out: out, width: spec.Heads * out, concat: concat, first: first}
	l.zw = l.width
	if spec.Attention == workload.AttSAGE {
		l.zw = 2 * out
	}
	l.outW = out
	if concat {
		l.outW = l.width
	}
	if first {
		l.inScale = ones(len(d.xVal))
		l.xin = make([]float64, len(d.xVal))
		l.keptCol, l.keptVal = make([]int32, len(d.xVal)), make([]float64, len(d.xVal))
		l.nKept = make([]int32, n)
	} else {
		l.inScale = ones(n * in)
		l.xin = make([]float64, n*in)
		l.dx = make([]float64, n*in)
		l.wT = make([]float64, in*l.zw)
		l.colIdx = make([]int32, in)
	}
	l.z = make([]float64, n*l.zw)
	l.dz = make([]float64, n*l.zw)
	if l.dzSet() {
		l.touched = make([]bool, n)
	}
	l.o = make([]float64, n*l.outW)
	l.y = make([]float64, n*l.outW)
	l.acc = make([]float64, l.width)
	l.hmax, l.hsum = make([]float64, spec.Heads), make([]float64, spec.Heads)
	if spec.Attention == workload.AttGAT {
		h := spec.Heads
		l.el, l.er = make([]float64, n*h), make([]float64, n*h)
		l.dEl, l.dEr = make([]float64, n*h), make([]float64, n*h)
		l.score, l.alpha = make([]float64, nnz*h), make([]float64, nnz*h)
		l.coef, l.dAlpha = make([]float64, nnz*h), make([]float64, nnz*h)
		l.aScale = ones(nnz * h)
	}
	if spec.Aggregation == workload.AggMax {
		l.arg = make([]int32, n*l.width)
	}
	return l
}

// kept is the first layer's input as forward left it: the non-zero
// entries of each row after dropout.
func (l *layer) kept(d *Data) sparseRows {
	return sparseRows{ptr: d.xPtr, n: l.nKept, v: l.keptVal, c: l.keptCol}
}

// dropTraining releases the buffers only training uses (dropout scales,
// gradients): a trained layer keeps what Evaluate's forward pass needs.
func (l *layer) dropTraining() {
	l.gw, l.gattL, l.gattR, l.gb = nil, nil, nil, nil
	l.inScale, l.aScale, l.dz, l.dx = nil, nil, nil, nil
	l.dAlpha, l.dEl, l.dEr = nil, nil, nil
	l.wT, l.colIdx, l.touched = nil, nil, nil
}

// bytes is the memory of the layer's buffers (parameters excluded).
func (l *layer) bytes() int64 {
	n := 0
	for _, s := range [][]float64{l.inScale, l.xin, l.z, l.el, l.er, l.score, l.alpha, l.aScale, l.coef, l.qcoef,
		l.o, l.y, l.dz, l.dAlpha, l.dEl, l.dEr, l.dx, l.wT, l.acc, l.hmax, l.hsum} {
		n += 8 * cap(s)
	}
	return int64(n + 4*(cap(l.arg)+cap(l.keptCol)+cap(l.nKept)+cap(l.colIdx)) + 8*cap(l.keptVal) + cap(l.touched))
}

func ones(n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = 1
	}
	return s
}

// forward computes y from the input x (the previous layer's y; unused by
// the first layer, which reads the features of d) on the rows of rs: the
// linear transform on rs.lin, everything after it on rs.agg. x need only
// hold the rows of rs.lin. In training the dropout scales apply; q, when
// not nil, quantises every value the layer passes on to the activation
// format (weights are quantised by the caller).
func (l *layer) forward(d *Data, x []float64, train bool, q *Bits, rs rowSet) {
	W, in, oW := l.zw, l.in, l.outW
	if l.first {
		xv := l.xin
		for _, i := range rs.lin {
			a, b := d.xPtr[i], d.xPtr[i+1]
			xr := xv[a:b]
			copy(xr, d.xVal[a:b])
			if train {
				mulInPlace(xr, l.inScale[a:b])
			}
			if q != nil {
				q.A.quantizeAll(xr)
			}
			// The non-zero entries (dropout zeroes half at random) are
			// listed first, without a branch: a branch on them
			// mispredicts half the time. backward reuses the list.
			kc, kv, nk := l.keptCol[a:b], l.keptVal[a:b], 0
			for k, v := range xr {
				kc[nk], kv[nk] = d.xCol[int(a)+k], v
				if v != 0 {
					nk++
				}
			}
			l.nKept[i] = int32(nk)
		}
		sparseMul(l.z, l.kept(d), rs.lin, l.w, W)
	} else {
		src := x
		if train || q != nil {
			for _, i := range rs.lin {
				xr := l.xin[int(i)*in : int(i+1)*in]
				copy(xr, x[int(i)*in:])
				if train {
					mulInPlace(xr, l.inScale[int(i)*in:])
				}
				if q != nil {
					q.A.quantizeAll(xr)
				}
			}
			src = l.xin
		}
		matMul(l.z, src, l.w, rs.lin, in, W)
	}
	if q != nil {
		for _, i := range rs.lin {
			q.A.quantizeAll(l.z[int(i)*W : int(i+1)*W])
		}
	}
	switch l.Attention {
	case workload.AttSAGE:
		l.aggregateSAGE(d, rs.agg)
	case workload.AttGAT:
		l.attend(d, train, rs)
		fallthrough
	default:
		cf, es, hs := l.coefficients(d, q)
		l.aggregate(d, cf, es, hs, rs.agg)
	}
	for _, i := range rs.agg {
		o, y := l.o[int(i)*oW:int(i+1)*oW], l.y[int(i)*oW:int(i+1)*oW]
		if q != nil {
			q.A.quantizeAll(o)
		}
		activate(l.Activation, o, y)
		if q != nil {
			q.A.quantizeAll(y)
		}
	}
}

// coefficients returns the edge weights the aggregation uses: weight of
// edge e in head h is cf[e*es+h*hs], or 1 when cf is nil.
func (l *layer) coefficients(d *Data, q *Bits) (cf []float64, es, hs int) {
	if l.Attention == workload.AttGAT {
		if q != nil {
			q.A.quantizeAll(l.coef)
		}
		return l.coef, l.Heads, 1
	}
	if q == nil {
		if l.Attention == workload.AttGCN {
			return d.gcnNorm, 1, 0
		}
		return nil, 0, 0
	}
	if l.qcoef == nil {
		l.qcoef = make([]float64, len(d.aCol))
	}
	if l.Attention == workload.AttGCN {
		copy(l.qcoef, d.gcnNorm)
		q.A.quantizeAll(l.qcoef)
	} else {
		for i := range l.qcoef {
			l.qcoef[i] = q.A.Quantize(1)
		}
	}
	return l.qcoef, 1, 0
}

// attend computes GAT's coefficients: per head, softmax over the edges of
// row i of LeakyReLU_0.2(a_l . z_i + a_r . z_j), then dropout in training;
// the projections on the rows of rs.lin, the coefficients of the rows of
// rs.agg. The edge loops handle all heads at once (heads are innermost in
// the per-edge arrays).
func (l *layer) attend(d *Data, train bool, rs rowSet) {
	H, out, W := l.Heads, l.out, l.width
	for _, i := range rs.lin {
		i := int(i)
		zr := l.z[i*W : (i+1)*W]
		for h := range H {
			l.el[i*H+h] = dot(l.attL[h*out:(h+1)*out], zr[h*out:])
			l.er[i*H+h] = dot(l.attR[h*out:(h+1)*out], zr[h*out:])
		}
	}
	mx, sum := l.hmax, l.hsum
	for _, i := range rs.agg {
		i := int(i)
		a, b := int(d.aPtr[i]), int(d.aPtr[i+1])
		el := l.el[i*H : (i+1)*H]
		for h := range mx {
			mx[h], sum[h] = math.Inf(-1), 0
		}
		for e := a; e < b; e++ {
			er, sc := l.er[int(d.aCol[e])*H:][:H], l.score[e*H:][:H]
			for h := range sc {
				s := leaky(el[h] + er[h])
				sc[h] = s
				mx[h] = max(mx[h], s)
			}
		}
		for e := a; e < b; e++ {
			sc, al := l.score[e*H:][:H], l.alpha[e*H:][:H]
			for h := range al {
				al[h] = sc[h] - mx[h]
			}
		}
		expVec(l.alpha[a*H:b*H], l.alpha[a*H:b*H])
		for e := a; e < b; e++ {
			for h, x := range l.alpha[e*H:][:H] {
				sum[h] += x
			}
		}
		for h := range sum {
			sum[h] = 1 / sum[h]
		}
		for e := a; e < b; e++ {
			al, cf := l.alpha[e*H:][:H], l.coef[e*H:][:H]
			for h := range al {
				al[h] *= sum[h]
				cf[h] = al[h]
			}
			if train {
				mulInPlace(cf, l.aScale[e*H:][:H])
			}
		}
	}
}

func leaky(s float64) float64 { return sel(s > 0, s, gatSlope*s) }

// aggregate computes o: per head the weighted sum, mean or maximum of the
// neighbours' z, heads concatenated or averaged, plus the bias. The
// aggregate of all heads is formed in one row (o itself when heads are
// concatenated) with the per-head loops written inline: a head is often
// only 8 features wide, too short for a call per edge and head. Only the
// rows of rows are computed.
func (l *layer) aggregate(d *Data, cf []float64, es, hs int, rows []int32) {
	H, out, W, oW := l.Heads, l.out, l.width, l.outW
	for _, i := range rows {
		i := int(i)
		a, b := int(d.aPtr[i]), int(d.aPtr[i+1])
		orow := l.o[i*oW : (i+1)*oW]
		m := l.acc
		if l.concat {
			m = orow
		}
		switch l.Aggregation {
		case workload.AggAdd, workload.AggMean:
			// The first edge sets the row (every row has its self-loop),
			// without a pass to clear it: 0 + c*z, the bits of a sum
			// begun at +0; the sum stays in registers (gatherAxpy).
			nbr := d.aCol[a:b]
			switch {
			case a == b:
				clear(m)
			case hs == 0 && cf == nil: // 1 for every edge and head
				gatherAxpy(m, one[:], 0, nbr, l.z, W)
			case hs == 0: // one weight for every head
				gatherAxpy(m, cf[a*es:], es, nbr, l.z, W)
			default:
				for h := range H {
					gatherAxpy(m[h*out:(h+1)*out], cf[a*es+h:], es, nbr, l.z[h*out:], W)
				}
			}
			if l.Aggregation == workload.AggMean {
				scale(m, d.invDeg[i])
			}
		case workload.AggMax:
			arg := l.arg[i*W : (i+1)*W]
			for t := range m {
				m[t] = math.Inf(-1)
			}
			for e := a; e < b; e++ {
				zj := l.z[int(d.aCol[e])*W:][:W]
				if useAVX2 {
					if hs == 0 { // one weight for every head (1 without weights)
						c := 1.0
						if cf != nil {
							c = cf[e*es]
						}
						maxRowAVX2(m, arg, zj, c, int32(e))
						continue
					}
					for h := range H {
						lo, hi := h*out, (h+1)*out
						maxRowAVX2(m[lo:hi], arg[lo:hi], zj[lo:hi], cf[e*es+h], int32(e))
					}
					continue
				}
				for h := range H {
					c := 1.0
					if cf != nil {
						c = cf[e*es+h*hs]
					}
					lo, hi := h*out, (h+1)*out
					maxRowGo(m[lo:hi], arg[lo:hi], zj[lo:hi], c, int32(e))
				}
			}
		}
		if !l.concat {
			clear(orow)
			for h := range H {
				axpy(orow, 1/float64(H), m[h*out:(h+1)*out])
			}
		}
		axpy(orow, 1, l.b)
	}
}

// aggregateSAGE computes o on rows: the self transform (the first out
// columns of z), plus the sum, mean or maximum of the neighbours'
// transforms (the last out columns) over the edges of A, the self-loop
// left out, plus the bias. A node without neighbours aggregates 0 (PyG's
// scatter fills empty groups with 0); its Max arguments are -1.
func (l *layer) aggregateSAGE(d *Data, rows []int32) {
	out, W := l.out, l.zw
	m := l.acc
	for _, i := range rows {
		i := int(i)
		a, b := int(d.aPtr[i]), int(d.aPtr[i+1])
		orow := l.o[i*out : (i+1)*out]
		switch l.Aggregation {
		case workload.AggAdd, workload.AggMean:
			clear(m)
			for e := a; e < b; e++ {
				if j := int(d.aCol[e]); j != i {
					axpy(m, 1, l.z[j*W+out:][:out])
				}
			}
			if l.Aggregation == workload.AggMean {
				scale(m, d.invNbr[i])
			}
		case workload.AggMax:
			arg := l.arg[i*out : (i+1)*out]
			for t := range m {
				m[t], arg[t] = math.Inf(-1), -1
			}
			for e := a; e < b; e++ {
				if j := int(d.aCol[e]); j != i {
					maxRow(m, arg, l.z[j*W+out:][:out], 1, int32(e))
				}
			}
			if d.invNbr[i] == 0 {
				clear(m)
			}
		}
		copy(orow, l.z[i*W:][:out])
		axpy(orow, 1, m)
		axpy(orow, 1, l.b)
	}
}

// backward takes dy, the loss gradient of y (overwritten), and accumulates
// the parameter gradients; for all but the first layer it also sets dx,
// the gradient of the layer's input. It must follow a training forward on
// the same rows: dy is read on rs.agg (the loss has no gradient
// elsewhere), dx is written on rs.lin.
func (l *layer) backward(d *Data, dy []float64, rs rowSet) {
	H, W, oW := l.Heads, l.zw, l.outW
	gat := l.Attention == workload.AttGAT
	for _, i := range rs.agg {
		i := int(i)
		r := dy[i*oW : (i+1)*oW]
		activateGrad(l.Activation, l.o[i*oW:(i+1)*oW], l.y[i*oW:(i+1)*oW], r) // dL/do
		axpy(l.gb, 1, r)
		if gat {
			clear(l.dAlpha[int(d.aPtr[i])*H : int(d.aPtr[i+1])*H])
		}
	}
	if l.dzSet() {
		// backwardAggregate sets each row of dz at its first term.
		for _, j := range rs.lin {
			l.touched[j] = false
		}
	} else {
		for _, j := range rs.lin {
			clear(l.dz[int(j)*W : int(j+1)*W])
		}
	}
	if l.Attention == workload.AttSAGE {
		l.backwardSAGE(d, dy, rs.agg)
	} else {
		l.backwardAggregate(d, dy, rs)
	}
	if l.first {
		// gw = X^T dz over the (dropped) feature entries, the non-zero
		// ones as forward listed them.
		scatterMul(l.gw, l.kept(d), rs.lin, l.dz, W)
		return
	}
	matMulTN(l.gw, l.xin, l.dz, rs.lin, l.in, W, l.wT) // wT is scratch to both
	matMulNT(l.dx, l.dz, l.w, l.inScale, rs.lin, W, l.in, l.wT, l.colIdx)
}

// backwardSAGE adds to dz the gradient of aggregateSAGE's rows, given
// dL/do in dy: to the self transform of each row and to its neighbours'
// transforms (each 1 or 1/deg for Add and Mean, the winner of each
// maximum for Max).
func (l *layer) backwardSAGE(d *Data, dy []float64, rows []int32) {
	out, W := l.out, l.zw
	for _, i := range rows {
		i := int(i)
		r := dy[i*out : (i+1)*out]
		axpy(l.dz[i*W:][:out], 1, r)
		switch l.Aggregation {
		case workload.AggAdd, workload.AggMean:
			f := 1.0
			if l.Aggregation == workload.AggMean {
				f = d.invNbr[i]
			}
			for e := int(d.aPtr[i]); e < int(d.aPtr[i+1]); e++ {
				if j := int(d.aCol[e]); j != i {
					axpy(l.dz[j*W+out:][:out], f, r)
				}
			}
		case workload.AggMax:
			for t, e := range l.arg[i*out : (i+1)*out] {
				if e >= 0 {
					l.dz[int(d.aCol[e])*W+out+t] += r[t]
				}
			}
		}
	}
}

// backwardAggregate adds to dz (and, for GAT, to the attention vectors'
// gradients) the gradient of aggregate's rows of rs.agg, given dL/do in dy.
func (l *layer) backwardAggregate(d *Data, dy []float64, rs rowSet) {
	H, out, W, oW := l.Heads, l.out, l.zw, l.outW
	gat := l.Attention == workload.AttGAT
	cf, es, hs := l.coefficients(d, nil)
	set := l.dzSet()
	for _, i := range rs.agg {
		i := int(i)
		a, b := int(d.aPtr[i]), int(d.aPtr[i+1])
		// dm is the gradient of every head's aggregate: the row of dL/do,
		// or, for averaged heads, that row over H for each head.
		dm := dy[i*oW : (i+1)*oW]
		if !l.concat {
			for h := range H {
				copy(l.acc[h*out:(h+1)*out], dm)
				scale(l.acc[h*out:(h+1)*out], 1/float64(H))
			}
			dm = l.acc
		}
		switch l.Aggregation {
		case workload.AggAdd, workload.AggMean:
			f := 1.0
			if l.Aggregation == workload.AggMean {
				f = d.invDeg[i]
			}
			for e := a; e < b; e++ {
				j := int(d.aCol[e])
				zj, dzj := l.z[j*W:][:W], l.dz[j*W:][:W]
				switch {
				case hs == 0: // one weight for every head (1 without weights)
					c := f
					if cf != nil {
						c = f * cf[e*es]
					}
					if set && !l.touched[j] {
						axpySet(dzj, c, dm)
						l.touched[j] = true
					} else {
						axpy(dzj, c, dm)
					}
				default:
					for h := range H {
						c := f * cf[e*es+h]
						ds, dms, zs := dzj[h*out:(h+1)*out], dm[h*out:(h+1)*out], zj[h*out:(h+1)*out]
						g := 0.0
						for t := range ds {
							ds[t] += c * dms[t]
							g += dms[t] * zs[t]
						}
						if gat {
							l.dAlpha[e*H+h] += f * g
						}
					}
				}
			}
		case workload.AggMax:
			for t, e := range l.arg[i*W : (i+1)*W] {
				h := t / out
				j := int(d.aCol[e])
				c := 1.0
				if cf != nil {
					c = cf[int(e)*es+h*hs]
				}
				l.dz[j*W+t] += c * dm[t]
				if gat {
					l.dAlpha[int(e)*H+h] += dm[t] * l.z[j*W+t]
				}
			}
		}
	}
	if set {
		// Rows of rs.lin no edge reached (none when rs.lin holds the
		// neighbours of rs.agg only) have a zero gradient.
		for _, j := range rs.lin {
			if !l.touched[j] {
				clear(l.dz[int(j)*W : int(j+1)*W])
			}
		}
	}
	if gat {
		l.attendBackward(d, rs)
	}
}

// dzSet says whether backwardAggregate sets each row of dz at its first
// term (0 + c*dm, the bits of a sum begun at +0) instead of adding to a
// row backward cleared: a weighted sum or mean with one weight for every
// head (constant or GCN), whose dz has no other term. It saves a pass
// over dz, as wide as the layer, every epoch.
func (l *layer) dzSet() bool {
	return (l.Attention == workload.AttConstant || l.Attention == workload.AttGCN) && l.Aggregation != workload.AggMax
}

// attendBackward turns dAlpha (gradient of the dropped coefficients of the
// rows of rs.agg) into gradients of the attention vectors and of z (on
// rs.lin).
func (l *layer) attendBackward(d *Data, rs rowSet) {
	H, out, W := l.Heads, l.out, l.width
	clear(l.dEl)
	clear(l.dEr)
	dot := l.hsum
	for _, i := range rs.agg {
		i := int(i)
		a, b := int(d.aPtr[i]), int(d.aPtr[i+1])
		clear(dot)
		for e := a; e < b; e++ {
			da, al := l.dAlpha[e*H:][:H], l.alpha[e*H:][:H]
			mulInPlace(da, l.aScale[e*H:][:H]) // through the dropout
			for h := range da {
				dot[h] += al[h] * da[h]
			}
		}
		el := l.dEl[i*H : (i+1)*H]
		for e := a; e < b; e++ {
			da, al, sc := l.dAlpha[e*H:][:H], l.alpha[e*H:][:H], l.score[e*H:][:H]
			er := l.dEr[int(d.aCol[e])*H:][:H]
			for h := range da {
				ds := al[h] * (da[h] - dot[h]) // through the softmax
				// Through the LeakyReLU (same sign as its argument).
				ds = sel(sc[h] <= 0, ds*gatSlope, ds)
				el[h] += ds
				er[h] += ds
			}
		}
	}
	for _, i := range rs.lin {
		i := int(i)
		zr, dzr := l.z[i*W:(i+1)*W], l.dz[i*W:(i+1)*W]
		for h := range H {
			lo, hi := h*out, (h+1)*out
			gl, gr := l.dEl[i*H+h], l.dEr[i*H+h]
			axpy(l.gattL[lo:hi], gl, zr[lo:hi])
			axpy(l.gattR[lo:hi], gr, zr[lo:hi])
			axpy(dzr[lo:hi], gl, l.attL[lo:hi])
			axpy(dzr[lo:hi], gr, l.attR[lo:hi])
		}
	}
}
