package search

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// Hypervolume returns the volume of the region that the points dominate
// and that the reference point bounds, for minimisation: the Lebesgue
// measure of the union of the boxes [p, ref]. Points that are not strictly
// better than ref in every objective add nothing (so +Inf coordinates are
// allowed; NaN and -Inf are errors). It is exact: a sweep for
// two and three objectives, WFG with dimension slicing (While, Bradstreet
// and Barone 2012) above.
func Hypervolume(points [][]float64, ref []float64) (float64, error) {
	m := len(ref)
	if m == 0 {
		return 0, fmt.Errorf("hypervolume: empty reference point")
	}
	for j, r := range ref {
		if math.IsNaN(r) || math.IsInf(r, 0) {
			return 0, fmt.Errorf("hypervolume: reference coordinate %d is %v", j, r)
		}
	}
	v := make([]float64, 0, len(points)*m)
	for i, p := range points {
		if len(p) != m {
			return 0, fmt.Errorf("hypervolume: point %d has %d objectives, reference has %d", i, len(p), m)
		}
		inside := true
		for j, x := range p {
			if math.IsNaN(x) || math.IsInf(x, -1) {
				return 0, fmt.Errorf("hypervolume: point %d objective %d is %v", i, j, x)
			}
			if !(x < ref[j]) {
				inside = false
			}
		}
		if inside {
			v = append(v, p...)
		}
	}
	return hv(v, ref), nil
}

// hv dispatches on the dimension; v holds the points row-major, all
// strictly inside the reference box.
func hv(v, ref []float64) float64 {
	m := len(ref)
	n := len(v) / m
	switch {
	case n == 0:
		return 0
	case m == 1:
		lo := v[0]
		for _, x := range v[1:] {
			lo = min(lo, x)
		}
		return ref[0] - lo
	case m == 2:
		return hv2(v, ref[0], ref[1])
	case m == 3:
		return hv3(v, ref)
	default:
		return wfg(v, ref)
	}
}

// hv2 sweeps the points in increasing first objective; each point that
// lowers the staircase adds the strip between its height and the previous.
func hv2(v []float64, rx, ry float64) float64 {
	n := len(v) / 2
	idx := make([]int32, n)
	for i := range idx {
		idx[i] = int32(i)
	}
	slices.SortFunc(idx, func(a, b int32) int {
		if c := cmp.Compare(v[2*a], v[2*b]); c != 0 {
			return c
		}
		return cmp.Compare(v[2*a+1], v[2*b+1])
	})
	area, top := 0.0, ry
	for _, i := range idx {
		x, y := v[2*i], v[2*i+1]
		if y < top {
			area += (rx - x) * (top - y)
			top = y
		}
	}
	return area
}

// staircase is the non-dominated set of 2-D points (x increasing, y
// strictly decreasing) and the area it dominates up to (rx, ry).
type staircase struct {
	xs, ys []float64
	rx, ry float64
	area   float64
}

// insert adds (px, py), drops the points it dominates and updates the area
// by integrating the newly covered height max(0, h(u) - py) over u >= px,
// where h is the staircase's height.
func (s *staircase) insert(px, py float64) {
	i0, _ := slices.BinarySearch(s.xs, px) // first x >= px
	h := s.ry
	if i0 > 0 {
		h = s.ys[i0-1]
		if h <= py {
			return // dominated by a point to the left
		}
	}
	if i0 < len(s.xs) && s.xs[i0] == px && s.ys[i0] <= py {
		return // dominated (or equalled) at the same x
	}
	u := px
	j := i0
	for j < len(s.xs) && s.ys[j] >= py {
		s.area += (s.xs[j] - u) * (h - py)
		u, h = s.xs[j], s.ys[j]
		j++
	}
	next := s.rx
	if j < len(s.xs) {
		next = s.xs[j]
	}
	s.area += (next - u) * (h - py)
	// Replace xs[i0:j] by the new point.
	if j == i0 {
		s.xs = slices.Insert(s.xs, i0, px)
		s.ys = slices.Insert(s.ys, i0, py)
	} else {
		s.xs[i0], s.ys[i0] = px, py
		s.xs = slices.Delete(s.xs, i0+1, j)
		s.ys = slices.Delete(s.ys, i0+1, j)
	}
}

// hv3 sweeps the points in increasing third objective, keeping the 2-D
// staircase of the points seen so far: the volume is the sum of its area
// times the gap to the next point's third objective (or the reference).
func hv3(v, ref []float64) float64 {
	n := len(v) / 3
	idx := make([]int32, n)
	for i := range idx {
		idx[i] = int32(i)
	}
	slices.SortFunc(idx, func(a, b int32) int { return cmp.Compare(v[3*a+2], v[3*b+2]) })
	s := staircase{rx: ref[0], ry: ref[1], xs: make([]float64, 0, 16), ys: make([]float64, 0, 16)}
	vol := 0.0
	for k, i := range idx {
		s.insert(v[3*i], v[3*i+1])
		zNext := ref[2]
		if k+1 < n {
			zNext = v[3*idx[k+1]+2]
		}
		vol += s.area * (zNext - v[3*i+2])
	}
	return vol
}

// wfg computes the hypervolume of m >= 4 objectives. With the points in
// decreasing order of the last objective, the part of point q_i's box not
// covered by the later points is (ref_m - q_i,m) times the (m-1)-D volume
// of q_i's box minus the later points' boxes (their last coordinates are no
// larger, so they do not restrict it). That (m-1)-D exclusive volume is
// q_i's box volume minus the hypervolume of the later points limited to
// q_i's box, which recurses one dimension down.
func wfg(v, ref []float64) float64 {
	m := len(ref)
	n := len(v) / m
	d := m - 1
	idx := make([]int32, n)
	for i := range idx {
		idx[i] = int32(i)
	}
	slices.SortFunc(idx, func(a, b int32) int { return cmp.Compare(v[int(b)*m+d], v[int(a)*m+d]) })
	limit := make([]float64, 0, (n-1)*d)
	var r ranker
	vol := 0.0
	for k, i := range idx {
		q := v[int(i)*m : int(i+1)*m]
		incl := 1.0
		for j := range d {
			incl *= ref[j] - q[j]
		}
		limit = limit[:0]
		for _, l := range idx[k+1:] {
			p := v[int(l)*m : int(l+1)*m]
			for j := range d {
				limit = append(limit, max(p[j], q[j]))
			}
		}
		excl := incl
		if len(limit) > 0 {
			// Keep only the non-dominated limited points: dominated
			// boxes add nothing and slow the recursion.
			r.reset(len(limit)/d, d)
			copy(r.obj, limit)
			nd := r.firstFront()
			sub := make([]float64, 0, len(nd)*d)
			for _, p := range nd {
				sub = append(sub, r.row(p)...)
			}
			excl -= hv(sub, ref[:d])
		}
		vol += (ref[d] - q[d]) * excl
	}
	return vol
}
