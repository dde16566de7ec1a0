package gcos

import (
	"math"
	"sort"

	"gnnsim/graphs"
)

// rows describes the row lengths of a sparse kernel's adjacency: the real
// ones of a graph, scaled by the neighbour sampling rate and plus one for a
// self-loop, or, for sizes-only work, their average.
type rows struct {
	n     int64
	g     *graphs.Graph // nil: every row has the average length
	scale float64       // sampling: the fraction of each row's entries kept
	self  float64       // 1 when the kernel adds the identity (A+I)
	avg   float64       // sizes-only row length
	loops bool          // g stores self-loops, which are not adjacency entries
	inNNZ int64         // the work's (sampled) adjacency entries
}

// length returns the length of row i.
func (r *rows) length(i int64) float64 {
	if r.g == nil {
		return r.avg
	}
	d := float64(r.g.RowPtr[i+1] - r.g.RowPtr[i])
	if r.loops {
		d--
	}
	return r.scale*d + r.self
}

// prefix returns the total length of rows [0, i).
func (r *rows) prefix(i int64) float64 {
	if r.g == nil {
		return r.avg * float64(i)
	}
	e := float64(r.g.RowPtr[i])
	if r.loops {
		e -= float64(i)
	}
	return r.scale*e + r.self*float64(i)
}

// cut returns the first row i with prefix(i) >= target.
func (r *rows) cut(target float64) int64 {
	return int64(sort.Search(int(r.n), func(i int) bool { return r.prefix(int64(i)) >= target }))
}

// groupMax returns the sum over consecutive groups of g rows of [lo, hi)
// of their longest row: the steps of PE groups that each take one row of a
// group and wait for the slowest.
func (r *rows) groupMax(lo, hi, g int64) float64 {
	if hi <= lo {
		return 0
	}
	if r.g == nil {
		return r.avg * float64((hi-lo+g-1)/g)
	}
	// Scaling and the self-loop are monotone: take the maximum of the raw
	// row lengths (integers) and convert once per group.
	ptr := r.g.RowPtr
	var sum int64
	groups := int64(0)
	for s := lo; s < hi; s += g {
		e := min(s+g, hi)
		m := int32(0)
		prev := ptr[s]
		for _, p := range ptr[s+1 : e+1] {
			m = max(m, p-prev)
			prev = p
		}
		sum += int64(m)
		groups++
	}
	if r.loops {
		sum -= groups
	}
	return r.scale*float64(sum) + r.self*float64(groups)
}

// longest returns the longest row of [lo, hi).
func (r *rows) longest(lo, hi int64) float64 {
	if hi <= lo {
		return 0
	}
	if r.g == nil {
		return r.avg
	}
	ptr := r.g.RowPtr
	m := int32(0)
	prev := ptr[lo]
	for _, p := range ptr[lo+1 : hi+1] {
		m = max(m, p-prev)
		prev = p
	}
	d := float64(m)
	if r.loops {
		d--
	}
	return r.scale*d + r.self
}

func ceilDiv(a, b int64) int64 {
	if b <= 0 {
		return 0
	}
	return (a + b - 1) / b
}

func ceilF(x float64) int64 {
	if x <= 0 {
		return 0
	}
	if x >= math.MaxInt64/2 {
		return math.MaxInt64 / 2
	}
	return int64(math.Ceil(x - 1e-9))
}
