package maestro

// This file holds MAESTRO's iteration-case model: the states a directive
// can be in, and the per-case tile, traffic and partial-sum counts of its
// reuse analysis, re-implemented from a reading of MAESTRO's
// DFA_iteration-analysis.hpp and CA_reuse-analysis.hpp (MIT licence). The
// case distinctions are MAESTRO's, since the numbers must agree; where its
// choice looks accidental it is kept and named in a comment.

type pos uint8

const (
	posInit   pos = iota // first iteration
	posSteady            // full iterations after the first
	posEdge              // a last, ragged iteration
)

// state is one iteration state of one directive; a case picks one state
// per directive and occurs the product of their occurrence counts.
type state struct {
	pos      pos
	occ      int64
	unrolled bool // Init: the map covers the whole dimension at once
	initEdge bool // Init: the map overshoots the dimension
	spEE     bool // spatial: the last active sub-cluster gets a partial tile
}

func (s *state) isEdge() bool { return s.pos == posEdge || s.initEdge }

// states lists the iteration states of map b over a dimension of size dim
// with cs sub-clusters, and returns how many there are.
func states(b bdir, dim, cs int, out *[3]state) int {
	size, ofs := b.size, b.ofs
	if b.kind == TemporalMap {
		out[0] = state{pos: posInit, occ: 1, unrolled: dim <= size, initEdge: dim < size}
		n := 1
		steady := (dim - size) / ofs
		if size < dim && steady > 0 {
			out[n] = state{pos: posSteady, occ: int64(steady)}
			n++
		}
		if dim >= size && steady*ofs+size < dim {
			out[n] = state{pos: posEdge, occ: 1}
			n++
		}
		return n
	}
	cov := size + ofs*(cs-1)
	initEdge := dim < cov
	out[0] = state{pos: posInit, occ: 1, unrolled: dim <= cov, initEdge: initEdge, spEE: initEdge}
	n := 1
	steady := ((dim-size)/ofs+1)/cs - 1
	if cov < dim && steady > 0 {
		out[n] = state{pos: posSteady, occ: int64(steady)}
		n++
	}
	hasEdge := dim > cov && (steady+1)*ofs*cs+cov > dim && steady*ofs*cs+cov != dim
	rem := dim - (steady+1)*ofs*cs
	active := 1
	if rem >= size {
		active = (rem-size)/ofs + 1
	}
	if !initEdge && hasEdge {
		out[n] = state{pos: posEdge, occ: 1, spEE: (active-1)*ofs+size < rem}
		n++
	}
	return n
}

// caseCtx evaluates one iteration case of one cluster level.
type caseCtx struct {
	L   *level
	p   *problem
	st  [numDims]state // per directive index
	chg int            // innermost directive not in its Init state; -1 if none

	// stuck is set when a changing map brings no new data, a case MAESTRO
	// aborts on; stuckDim names the dimension. (A flag, not an error:
	// an interface field would make the escape analysis move the whole
	// analysis to the heap.)
	stuck    bool
	stuckDim Dim
}

// peMapped is the tile of tensor t one sub-cluster holds in this case.
func (c *caseCtx) peMapped(t *tensor, first, ee bool) int64 {
	L := c.L
	ret := int64(1)
	for i := 0; i < L.n; i++ {
		v := L.d[i].dim
		if !t.has(v) {
			continue
		}
		s := &c.st[i]
		switch {
		case L.d[i].kind == TemporalMap:
			ret *= pick(s.isEdge(), L.me[v], L.m[v])
		case !s.isEdge():
			ret *= L.m[v]
		case L.ec == 1 && (first || ee):
			ret *= L.me[v]
		case L.ec > 1:
			ret *= pick(ee, L.me[v], L.m[v])
		}
	}
	return ret
}

func pick(c bool, a, b int64) int64 {
	if c {
		return a
	}
	return b
}

// nz multiplies by x unless x is 0 (MAESTRO skips zero reuse counts).
func nz(x int64) int64 {
	if x == 0 {
		return 1
	}
	return x
}

// inited reports whether a dimension of t inside the changing one is in an
// Init state that does not cover it whole: t's tile is then refetched
// whole rather than shifted.
func (c *caseCtx) inited(t *tensor) bool {
	for i := c.chg + 1; i < c.L.n; i++ {
		if t.has(c.L.d[i].dim) && c.st[i].pos == posInit && !c.st[i].unrolled {
			return true
		}
	}
	return false
}

// peIngress is the data of input tensor t that one sub-cluster receives in
// this case: 0 when no dimension of t changes (stationary), the new
// elements of the changing dimension when t is shifted, the whole tile
// otherwise.
func (c *caseCtx) peIngress(t *tensor, first, ee bool) int64 {
	if c.chg < 0 {
		return c.peMapped(t, first, ee)
	}
	L := c.L
	init := c.inited(t)
	changing := false
	ret := int64(1)
	for i := 0; i < L.n; i++ {
		v := L.d[i].dim
		if !t.has(v) {
			continue
		}
		if i == c.chg {
			changing = true
		}
		s := &c.st[i]
		if L.d[i].kind == TemporalMap {
			switch {
			case s.pos == posInit:
				ret *= pick(s.isEdge(), L.me[v], L.m[v])
			case i == c.chg && !init:
				if L.u[v] == 0 && !c.stuck {
					c.stuck, c.stuckDim = true, v
				}
				ret *= max(L.u[v], 1)
			default:
				// MAESTRO uses the full tile here even in an edge iteration.
				ret *= L.m[v]
			}
			continue
		}
		mapped, unique := pick(ee, L.me[v], L.m[v]), pick(ee, L.ue[v], L.u[v])
		switch {
		case first:
			ret *= mapped
		case s.pos == posInit && i <= c.chg:
			ret *= mapped
		case s.pos == posInit:
			ret *= unique
		case !init && i == c.chg:
			ret *= unique
		default:
			ret *= mapped
		}
	}
	if !changing {
		return 0
	}
	return ret
}

// spatialOf finds how tensor t is mapped in space in this case: whether a
// dimension of t is spatially mapped, whether any such map is at its edge,
// and the state of the last one.
func (c *caseCtx) spatialOf(t *tensor) (mapped, edge bool, sp *state) {
	for _, v := range t.vars[:t.n] {
		i := c.L.at[v]
		if i < 0 || c.L.d[i].kind != SpatialMap {
			continue
		}
		mapped, sp = true, &c.st[i]
		if sp.isEdge() {
			edge = true
		}
	}
	return mapped, edge, sp
}

// ingress is the NoC traffic of input tensor t into the sub-clusters in
// this case: the first sub-cluster's data plus, for a spatially mapped
// tensor, what each further active sub-cluster adds; a tensor with no
// spatially mapped dimension is multicast and counted once.
func (c *caseCtx) ingress(t *tensor) int64 {
	mapped, edge, sp := c.spatialOf(t)
	L := c.L
	switch {
	case !mapped:
		return c.peIngress(t, true, false)
	case !edge:
		return c.peIngress(t, true, false) + int64(L.cs-1)*c.peIngress(t, false, false)
	}
	ret := c.peIngress(t, true, L.ec == 1 && sp.spEE)
	if L.ec > 1 {
		ee := b2i(sp.spEE)
		full := max(int64(L.ec)-ee-1, 0)
		ret += full*c.peIngress(t, false, false) + ee*c.peIngress(t, false, true)
	}
	return ret
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// peEgress is the output data one sub-cluster sends up in this case
// (every case: MAESTRO does not reuse outputs over time); with psum it is
// instead the sub-cluster's partial sums, i.e. its MACs, which also
// multiplies in the tiles of the dimensions the output does not carry.
func (c *caseCtx) peEgress(psum, first, ee, reuseEdge bool) int64 {
	L := c.L
	out := &c.p.tensors[tOut]
	ret := int64(1)
	if psum {
		for i := 0; i < L.n; i++ {
			v := L.d[i].dim
			if out.has(v) {
				continue
			}
			s := &c.st[i]
			if L.d[i].kind == TemporalMap {
				ret *= pick(s.isEdge(), L.me[v], L.m[v])
				continue
			}
			switch s.pos {
			case posInit:
				switch {
				case s.isEdge() && ee:
					ret *= L.me[v]
				case first:
					ret *= L.m[v]
				default:
					ret *= nz(L.u[v])
				}
			case posSteady:
				ret *= pick(first, L.m[v], nz(L.u[v]))
			case posEdge:
				switch {
				case L.ec == 1 && (first || ee):
					ret *= L.me[v]
				case L.ec == 1:
				case ee:
					ret *= L.ue[v]
				case first:
					ret *= L.m[v]
				default:
					ret *= nz(L.u[v])
				}
			}
		}
	}
	for _, v := range out.vars[:out.n] {
		i := L.at[v]
		if i < 0 {
			continue
		}
		s := &c.st[i]
		a := v // output rows and columns are Y' and X'
		if c.p.overlap {
			switch v {
			case DimY:
				a = DimYo
			case DimX:
				a = DimXo
			}
		}
		if L.d[i].kind == TemporalMap {
			switch s.pos {
			case posInit:
				ret *= pick(s.isEdge(), L.me[a], L.m[a])
			case posSteady:
				ret *= L.m[a]
			case posEdge:
				ret *= L.me[a]
			}
			continue
		}
		switch s.pos {
		case posInit:
			switch {
			case s.isEdge() && ee && L.ec == 1:
				ret *= L.me[a]
			case s.isEdge() && ee:
				ret *= pick(reuseEdge, L.ue[a], L.me[a])
			case first:
				ret *= L.m[a]
			default:
				ret *= nz(L.u[a])
			}
		case posSteady:
			ret *= pick(first, L.m[a], nz(L.u[a]))
		case posEdge:
			switch {
			case L.ec == 1 && (first || ee):
				// MAESTRO looks up the input dimension here, not Y'/X'.
				ret *= L.me[v]
			case L.ec == 1:
			case ee:
				ret *= L.ue[a]
			case first:
				ret *= L.m[a]
			default:
				ret *= nz(L.u[a])
			}
		}
	}
	return ret
}

// egress is the output traffic from the sub-clusters in this case.
func (c *caseCtx) egress() int64 {
	mapped, edge, sp := c.spatialOf(&c.p.tensors[tOut])
	L := c.L
	switch {
	case !mapped:
		return c.peEgress(false, true, false, true)
	case !edge:
		return c.peEgress(false, true, false, true) + int64(L.cs-1)*c.peEgress(false, false, false, true)
	}
	ret := c.peEgress(false, true, L.ec == 1 && sp.spEE, true)
	if L.ec > 1 {
		ee := b2i(sp.spEE)
		full := max(int64(L.ec)-ee-1, 0)
		ret += full*c.peEgress(false, false, false, true) + ee*c.peEgress(false, false, true, true)
	}
	return ret
}

// critical is the partial sums of the first sub-cluster: the compute
// delay of an innermost level in MACs.
func (c *caseCtx) critical() int64 {
	mapped, edge, sp := c.spatialOf(&c.p.tensors[tOut])
	if mapped && edge && c.L.ec == 1 && sp.spEE {
		return c.peEgress(true, true, true, true)
	}
	return c.peEgress(true, true, false, true)
}

// macs is the partial sums over all active sub-clusters in this case.
func (c *caseCtx) macs() int64 {
	L := c.L
	mapped, edge, sp := c.spatialOf(&c.p.tensors[tOut])
	for i := 0; i < L.n; i++ {
		if L.d[i].kind == SpatialMap {
			mapped, sp = true, &c.st[i]
			if sp.isEdge() {
				edge = true
			}
		}
	}
	if !mapped || !edge {
		return int64(L.cs) * c.peEgress(true, true, false, true)
	}
	ret := c.peEgress(true, true, L.ec == 1 && sp.spEE, true)
	if L.ec > 1 {
		ee := b2i(sp.spEE)
		full := max(int64(L.ec)-ee-1, 0)
		ret += full*c.peEgress(true, true, false, true) + ee*c.peEgress(true, false, true, false)
	}
	return ret
}

// subDims is the dimension table a sub-cluster sees in this case: the
// tile sizes of this level (ee: those of the last, partial sub-cluster).
func (c *caseCtx) subDims(ee bool, out *[numDims]int) {
	L := c.L
	*out = [numDims]int{}
	for i := 0; i < L.n; i++ {
		v := L.d[i].dim
		s := &c.st[i]
		var x int64
		switch {
		case L.d[i].kind == TemporalMap:
			x = pick(s.isEdge(), L.me[v], L.m[v])
		case s.pos == posSteady:
			x = L.m[v]
		case s.isEdge() && (L.ec == 1 || ee):
			x = L.me[v]
		default:
			x = L.m[v]
		}
		out[v] = int(x)
	}
	if c.p.overlap {
		if L.at[DimY] >= 0 {
			out[DimYo] = out[DimY] - out[DimR] + 1
		}
		if L.at[DimX] >= 0 {
			out[DimXo] = out[DimX] - out[DimS] + 1
		}
	}
}

// mappedVolume is the tile of t a sub-cluster holds in full (MAESTRO's
// buffer requirement before double buffering).
func (L *level) mappedVolume(t *tensor) int64 {
	ret := int64(1)
	for _, v := range t.vars[:t.n] {
		if L.at[v] >= 0 {
			ret *= L.m[v]
		}
	}
	return ret
}
