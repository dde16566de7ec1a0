package maestro

import (
	"errors"
	"fmt"
)

// bdir is a directive bound to a layer: operands resolved to numbers.
type bdir struct {
	kind      Kind
	dim       Dim
	size, ofs int
}

// level is one cluster level of a bound dataflow, after MAESTRO's cluster
// analysis: its complete directive list (inherited and unrolled
// directives added, strides applied), its static dimension sizes, its
// number of sub-clusters and the per-dimension tile sizes that MAESTRO's
// reuse analysis derives from them.
type level struct {
	n    int
	d    [numDims]bdir
	at   [numDims]int8 // directive index of a dimension, -1 if unmapped
	dims [numDims]int  // static dimension sizes; 0 = absent at this level

	cs int // sub-clusters
	ec int // active sub-clusters in a spatial edge iteration
	sp int // index of the first SpatialMap

	// Tile sizes per dimension: mapped (m), mapped in an edge iteration
	// (me), new per step (u) and new per step at the edge (ue). Y' and X'
	// get entries derived from Y, X and the filter.
	m, me, u, ue [numDims]int64
}

// plan is a dataflow bound to a layer and a PE count.
type plan struct {
	p      problem
	lv     [maxLevels]level
	levels int
}

// ErrMapping marks a dataflow that cannot be applied to a layer or a PE
// count (a dimension the layer lacks, too few PEs for the clusters, ...);
// Analyze wraps it with the dataflow, the layer and the reason.
var ErrMapping = errors.New("impossible mapping")

func mappingErr(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrMapping, fmt.Sprintf(format, a...))
}

// bind performs MAESTRO's cluster analysis: it resolves Sz() operands,
// splits the directives into cluster levels, sizes each level, and
// completes each level's directive list the way MAESTRO does:
//
//   - output-centric maps (Y', X') become input-centric (Y, X) with the
//     filter size added;
//   - dimensions mapped in the level above but not in this one are
//     inherited as TemporalMaps with the same size and offset, inserted
//     at the front (so the last inherited ends up outermost);
//   - dimensions of the input tensors still unmapped are appended as full
//     TemporalMaps ("unrolled inside the PE"), in name order;
//   - a stride s on Y (X) turns a map of size >= R (S) into one covering
//     whole output rows (columns): size out*min(s,R)+max(R-s,0), offset
//     out*s (out*R below the top level when R < s), out = (size+s-R)/s.
//
// A level's static dimension sizes are the full layer at the top and, below,
// the tile of the level above: min(tile size, dimension size).
func bind(df *Dataflow, l *Layer, hw *Hardware, pl *plan) error {
	pl.p = l.problem()
	p := &pl.p

	// Resolve operands.
	var raw [64]bdir
	var lines [64]int
	n := len(df.Directives)
	if n > len(raw) {
		return fmt.Errorf("%d directives, at most %d", n, len(raw))
	}
	var clusters [maxLevels]int
	ncl := 0
	for i := range df.Directives {
		d := &df.Directives[i]
		if d.Kind > Cluster || d.Dim >= numDims || d.Size.Of >= numDims || d.Offset.Of >= numDims ||
			(!d.Size.SizeOf && (d.Size.N <= 0 || d.Size.N > maxOperand)) ||
			(d.Kind != Cluster && !d.Offset.SizeOf && (d.Offset.N <= 0 || d.Offset.N > maxOperand)) {
			return fmt.Errorf("%sinvalid directive %v (validate the dataflow)", atLine(d.Line), *d)
		}
		size, err := d.Size.resolve(&p.dims)
		if err != nil {
			return mappingErr("%s%v", atLine(d.Line), err)
		}
		b := bdir{kind: d.Kind, dim: d.Dim, size: size}
		if d.Kind != Cluster {
			if b.ofs, err = d.Offset.resolve(&p.dims); err != nil {
				return mappingErr("%s%v", atLine(d.Line), err)
			}
			// MAESTRO's parser accepts a TemporalMap of R or S only if it
			// covers the whole filter dimension.
			if d.Kind == TemporalMap && (d.Dim == DimR || d.Dim == DimS) && p.dims[d.Dim] > 0 &&
				(b.size != b.ofs || b.size != p.dims[d.Dim]) {
				return mappingErr("%sTemporalMap(%d,%d) %s: a filter dimension must be mapped whole (size = offset = %d)",
					atLine(d.Line), b.size, b.ofs, d.Dim, p.dims[d.Dim])
			}
		} else {
			if ncl >= maxLevels-1 {
				return fmt.Errorf("more than %d cluster levels", maxLevels)
			}
			clusters[ncl] = size
			ncl++
		}
		raw[i], lines[i] = b, d.Line
	}

	// PEs per top-level sub-cluster: the product of the Cluster sizes.
	unit := int64(1)
	for _, c := range clusters[:ncl] {
		unit *= int64(c)
		if unit > int64(hw.PEs) {
			return mappingErr("clusters of %d PEs, the hardware has %d", unit, hw.PEs)
		}
	}
	top := hw.PEs / int(unit) // sub-clusters of the top level

	pl.levels = ncl + 1
	start := 0
	for li := 0; li < pl.levels; li++ {
		end := start
		for end < n && raw[end].kind != Cluster {
			end++
		}
		L := &pl.lv[li]
		*L = level{}
		for i := range L.at {
			L.at[i] = -1
		}
		if li == 0 {
			L.dims = p.dims
			L.cs = top
		} else {
			up := &pl.lv[li-1]
			for d := Dim(0); d < numDims; d++ {
				if p.inVars&(1<<d) != 0 && up.at[d] >= 0 {
					L.dims[d] = min(up.d[up.at[d]].size, up.dims[d])
				}
			}
			L.cs = clusters[li-1]
		}
		if err := completeLevel(L, raw[start:end], lines[start:end], pl, li); err != nil {
			return err
		}
		start = end + 1
	}
	return nil
}

func atLine(line int) string {
	if line > 0 {
		return fmt.Sprintf("line %d: ", line)
	}
	return ""
}

func (L *level) add(b bdir, front bool) {
	if front {
		copy(L.d[1:L.n+1], L.d[:L.n])
		L.d[0] = b
	} else {
		L.d[L.n] = b
	}
	L.n++
	for i := 0; i < L.n; i++ {
		L.at[L.d[i].dim] = int8(i)
	}
}

func completeLevel(L *level, seg []bdir, lines []int, pl *plan, li int) error {
	p := &pl.p
	// Output-centric maps become input-centric.
	var filter [numDims]int // sizes of R and S maps in this segment
	var has [numDims]bool
	for _, b := range seg {
		has[b.dim] = true
		filter[b.dim] = b.size
	}
	for i, b := range seg {
		in, f := DimY, DimR
		switch b.dim {
		case DimYo:
		case DimXo:
			in, f = DimX, DimS
		default:
			continue
		}
		if has[in] {
			return mappingErr("%scluster level %d maps both %s and %s", atLine(lines[i]), li, b.dim, in)
		}
		fs := filter[f]
		if !has[f] {
			fs = p.dims[f]
		}
		b.dim, b.size = in, b.size+fs-1
		seg[i] = b
	}
	for i, b := range seg {
		if L.at[b.dim] >= 0 {
			return mappingErr("%scluster level %d maps %s twice", atLine(lines[i]), li, b.dim)
		}
		L.add(b, false)
	}
	// Inherit the upper level's maps of dimensions this level leaves out.
	if li > 0 {
		up := &pl.lv[li-1]
		for i := 0; i < up.n; i++ {
			if u := up.d[i]; L.at[u.dim] < 0 {
				L.add(bdir{kind: TemporalMap, dim: u.dim, size: u.size, ofs: u.ofs}, true)
			}
		}
	}
	// Unroll the remaining input dimensions inside the sub-cluster.
	for d := Dim(0); d < numDims; d++ {
		if p.inVars&(1<<d) != 0 && L.at[d] < 0 && L.dims[d] > 0 {
			L.add(bdir{kind: TemporalMap, dim: d, size: L.dims[d], ofs: L.dims[d]}, false)
		}
	}
	// Every mapped dimension must exist at this level.
	for i := 0; i < L.n; i++ {
		if d := L.d[i].dim; L.dims[d] <= 0 {
			if li == 0 {
				return mappingErr("the %s layer has no dimension %s (mapped by the dataflow)", p.layerType(), d)
			}
			return mappingErr("dimension %s not found at cluster level %d (a %s layer does not carry it into the clusters)", d, li, p.layerType())
		}
	}
	// Strides.
	for i := 0; i < L.n; i++ {
		b := &L.d[i]
		f, ok := p.slidingOf(b.dim)
		s := p.stride[b.dim]
		if !ok || s == 1 {
			continue
		}
		r := p.dims[f]
		if b.size >= r {
			out := (b.size + s - r) / s
			b.size = out*min(s, r) + max(r-s, 0)
			b.ofs = out * s
			if li > 0 && r < s {
				b.ofs = out * r
			}
		}
	}
	// Spatial maps.
	L.sp = -1
	spatial := 0
	for i := L.n - 1; i >= 0; i-- {
		if L.d[i].kind == SpatialMap {
			L.sp = i
			spatial++
		}
	}
	if spatial > 2 {
		return mappingErr("cluster level %d has %d SpatialMaps, at most two", li, spatial)
	}
	if L.sp < 0 {
		return mappingErr("cluster level %d has no SpatialMap", li)
	}
	if L.cs <= 0 {
		return mappingErr("cluster level %d has no sub-clusters", li)
	}
	L.ec = edgeClusters(L.d[L.sp], L.dims[L.d[L.sp].dim], L.cs)
	tileSizes(L, p)
	return nil
}

// edgeClusters is the number of sub-clusters active in the last spatial
// iteration of map b over a dimension of size dim (MAESTRO's
// ClusterUnit::AnalyzeSpatialEdgeCase, on the level's static sizes).
func edgeClusters(b bdir, dim, cs int) int {
	size, ofs := b.size, b.ofs
	if dim <= size {
		return 1
	}
	full := ofs*(cs-1) + size
	if dim > full {
		steady := ((dim-size)/ofs+1)/cs - 1
		rem := dim - (steady+1)*ofs*cs
		if rem < size {
			return 1
		}
		return (rem-size)/ofs + 1
	}
	ec := (dim-size)/ofs + 1
	if ofs*(ec-1)+size < dim {
		ec++
	}
	return ec
}

// tileSizes fills the level's per-dimension tile sizes (MAESTRO's
// ReuseAnalysis input and output mapping sizes).
func tileSizes(L *level, p *problem) {
	for i := 0; i < L.n; i++ {
		b := L.d[i]
		dim, size, ofs := L.dims[b.dim], b.size, b.ofs
		steady := max((dim-size)/ofs, 0)
		hasEdge := steady*ofs+size < dim || size > dim
		v := b.dim
		L.m[v] = int64(size)
		L.u[v] = int64(min(size, ofs))
		if b.kind == TemporalMap && dim <= size {
			L.u[v] = 0
		}
		edge := dim - (steady+1)*ofs
		if edge < 0 {
			edge = dim
		}
		L.me[v] = int64(size)
		if hasEdge {
			L.me[v] = int64(edge)
		}
		L.ue[v] = int64(max(ofs-(size-edge), 0))
	}
	for i := 0; i < L.n; i++ {
		b := L.d[i]
		f, ok := p.slidingOf(b.dim)
		if !ok {
			continue
		}
		o := DimYo
		if b.dim == DimX {
			o = DimXo
		}
		L.m[o] = L.m[b.dim] - L.m[f] + 1
		L.u[o] = int64(min(b.ofs, b.size))
		L.me[o] = L.me[b.dim] - L.me[f] + 1
		L.ue[o] = min(int64(b.ofs), L.me[o])
	}
}

func (p *problem) layerType() string {
	switch {
	case !p.overlap:
		return "GEMM"
	case p.tensors[tW].has(DimK):
		return "CONV"
	}
	return "DSCONV"
}
