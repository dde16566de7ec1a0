package gcos

import (
	"math"
	"sort"
)

// rows describes the row lengths of a sparse kernel's adjacency: the real
// ones of a graph or of a degree profile (its row pointers), scaled by the
// neighbour sampling rate and plus one for a self-loop, or, for sizes-only
// work, their average.
type rows struct {
	n     int64
	ptr   []int32 // row pointers; nil: every row has the average length
	col   []int32 // column indices of ptr's entries when known (a graph's), else nil
	scale float64 // sampling: the fraction of each row's entries kept
	self  float64 // 1 when the kernel adds the identity (A+I)
	avg   float64 // sizes-only row length
	loops bool    // g stores self-loops, which are not adjacency entries
	inNNZ int64   // the work's (sampled) adjacency entries
}

// length returns the length of row i.
func (r *rows) length(i int64) float64 {
	if r.ptr == nil {
		return r.avg
	}
	d := float64(r.ptr[i+1] - r.ptr[i])
	if r.loops {
		d--
	}
	return r.scale*d + r.self
}

// prefix returns the total length of rows [0, i).
func (r *rows) prefix(i int64) float64 {
	if r.ptr == nil {
		return r.avg * float64(i)
	}
	e := float64(r.ptr[i])
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
	if r.ptr == nil {
		return r.avg * float64((hi-lo+g-1)/g)
	}
	// Scaling and the self-loop are monotone: take the maximum of the raw
	// row lengths (integers) and convert once per group.
	ptr := r.ptr
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

// intervalSources returns, for destination intervals of size rows each
// over [lo, hi), the sum over intervals of the distinct source rows their
// entries touch (the identity's source row counted for every row when the
// kernel adds it), and true; false when the column indices are not known.
// It is what an aggregation that loads, per interval, only the source rows
// with an edge into it reads: HyGCN's interval-shard partition with ideal
// sparsity elimination (window sliding and shrinking, Yan et al., HPCA
// 2020, Sec. 4.3.2). It allocates a marker per node: only HyGCN-like
// designs (Sub.Disperse) call it.
func (r *rows) intervalSources(lo, hi, size int64) (float64, bool) {
	if r.ptr == nil || r.col == nil || size < 1 || hi <= lo {
		return 0, false
	}
	mark := make([]int32, len(r.ptr)-1)
	var total int64
	stamp := int32(0)
	for a := lo; a < hi; a += size {
		b := min(a+size, hi)
		stamp++
		for _, c := range r.col[r.ptr[a]:r.ptr[b]] {
			if mark[c] != stamp {
				mark[c] = stamp
				total++
			}
		}
		if r.self > 0 && !r.loops {
			for i := a; i < b; i++ {
				if mark[i] != stamp {
					mark[i] = stamp
					total++
				}
			}
		}
	}
	return float64(total), true
}

// longest returns the longest row of [lo, hi).
func (r *rows) longest(lo, hi int64) float64 {
	if hi <= lo {
		return 0
	}
	if r.ptr == nil {
		return r.avg
	}
	ptr := r.ptr
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

// roundRobinMax returns the largest load of p PEs that are dealt the rows
// of [lo, hi) round robin (row lo+i to PE i mod p), each working through
// its own rows: the static mapping's time per output column.
func (r *rows) roundRobinMax(lo, hi, p int64) float64 {
	if hi <= lo || p < 1 {
		return 0
	}
	if r.ptr == nil {
		return r.avg * float64(ceilDiv(hi-lo, p))
	}
	if hi-lo <= p {
		return r.longest(lo, hi)
	}
	loads := make([]float64, p)
	for i := lo; i < hi; i++ {
		loads[(i-lo)%p] += r.length(i)
	}
	m := 0.0
	for _, l := range loads {
		m = max(m, l)
	}
	return m
}

// RoundRobinBalance returns the PE utilisation of p PEs dealt the rows of
// an adjacency (its row pointers) round robin, before any rebalancing: the
// mean PE load over the largest. 1 for no rows.
func RoundRobinBalance(ptr []int32, p int) float64 {
	if len(ptr) < 2 || p < 1 {
		return 1
	}
	r := rows{n: int64(len(ptr) - 1), ptr: ptr, scale: 1}
	m := r.roundRobinMax(0, r.n, int64(p))
	if m == 0 {
		return 1
	}
	return r.prefix(r.n) / float64(p) / m
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
