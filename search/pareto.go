package search

import (
	"fmt"
	"math"
	"slices"
)

// Dominates reports whether a Pareto-dominates b under minimisation: a is
// no worse in every objective and better in at least one. Equal vectors do
// not dominate each other.
func Dominates(a, b []float64) bool {
	better := false
	for j := range a {
		if a[j] > b[j] {
			return false
		}
		if a[j] < b[j] {
			better = true
		}
	}
	return better
}

// NonDominatedSort splits points into Pareto fronts: front 0 holds the
// non-dominated points, front 1 those dominated only by front 0, and so on.
// Each front lists point indices in increasing order.
func NonDominatedSort(points [][]float64) ([][]int, error) {
	var r ranker
	if err := r.load(points); err != nil {
		return nil, err
	}
	nf := r.sort()
	fronts := make([][]int, nf)
	for k := range nf {
		fronts[k] = toInts(r.fronts[k])
	}
	return fronts, nil
}

// toInts converts the ranker's point indices for callers.
func toInts(xs []int32) []int {
	out := make([]int, len(xs))
	for i, x := range xs {
		out[i] = int(x)
	}
	return out
}

// NonDominated returns the indices, in increasing order, of the points that
// no other point dominates.
func NonDominated(points [][]float64) ([]int, error) {
	var r ranker
	if err := r.load(points); err != nil {
		return nil, err
	}
	return toInts(r.firstFront()), nil
}

// CrowdingDistance returns NSGA-II's crowding distance of each point of a
// set taken as one front, as pymoo computes it: per objective, the gap
// between the two neighbours normalised by the objective's range, summed
// and divided by the number of objectives. The extreme points of an
// objective get +Inf (unless the objective is constant over the set, which
// then contributes nothing); sets of one or two points are all +Inf.
func CrowdingDistance(points [][]float64) ([]float64, error) {
	var r ranker
	if err := r.load(points); err != nil {
		return nil, err
	}
	for i, v := range r.obj {
		if math.IsInf(v, 0) {
			return nil, fmt.Errorf("point %d objective %d is infinite", i/r.m, i%r.m)
		}
	}
	front := make([]int32, r.n)
	for i := range front {
		front[i] = int32(i)
	}
	r.crowding(front)
	return slices.Clone(r.crowd[:r.n]), nil
}

// RatioOfDominance is the fraction of the points of a that dominate at
// least one point of b (HADAS's RoD, seed 003: "the percentage of solutions
// found by HADAS that dominate the optimized baselines"). It is 0 when a is
// empty.
func RatioOfDominance(a, b [][]float64) (float64, error) {
	if len(a) == 0 {
		return 0, nil
	}
	m, err := dims(a)
	if err != nil {
		return 0, fmt.Errorf("ratio of dominance: first set: %w", err)
	}
	if len(b) > 0 {
		mb, err := dims(b)
		if err != nil {
			return 0, fmt.Errorf("ratio of dominance: second set: %w", err)
		}
		if mb != m {
			return 0, fmt.Errorf("ratio of dominance: sets have %d and %d objectives", m, mb)
		}
	}
	n := 0
	for _, p := range a {
		for _, q := range b {
			if Dominates(p, q) {
				n++
				break
			}
		}
	}
	return float64(n) / float64(len(a)), nil
}

// ParetoFront returns the feasible candidates that no other feasible
// candidate dominates, in the order of inds. When no candidate is feasible
// it returns nil. All candidates must have the same number of objectives.
func ParetoFront[G any](inds []Individual[G]) []Individual[G] {
	var r ranker
	idx := loadFeasible(&r, inds)
	var out []Individual[G]
	for _, p := range r.firstFront() {
		out = append(out, inds[idx[p]])
	}
	return out
}

// dims checks that points is a non-empty rectangular set of NaN-free
// vectors and returns their dimension.
func dims(points [][]float64) (int, error) {
	m := len(points[0])
	if m == 0 {
		return 0, fmt.Errorf("point 0 has no objectives")
	}
	for i, p := range points {
		if len(p) != m {
			return 0, fmt.Errorf("point %d has %d objectives, point 0 has %d", i, len(p), m)
		}
		for j, v := range p {
			if math.IsNaN(v) {
				return 0, fmt.Errorf("point %d objective %d is NaN", i, j)
			}
		}
	}
	return m, nil
}

// ranker does non-dominated sorting and crowding over n points of m
// objectives held row-major in obj. Its buffers are reused between calls so
// that NSGA-II's per-generation bookkeeping does not allocate.
type ranker struct {
	n, m   int
	obj    []float64
	order  []int32
	rank   []int32
	fronts [][]int32
	crowd  []float64
	tmp    []int32
	stairs []stair3 // per front, three objectives only
}

// stair3 indexes a front of three-objective points added in lexicographic
// order by the staircase of their (f2, f3) projections: f2 increasing, f3
// strictly decreasing, each entry the point that first reached it.
type stair3 struct {
	f2, f3 []float64
	id     []int32
}

func (s *stair3) reset() { s.f2, s.f3, s.id = s.f2[:0], s.f3[:0], s.id[:0] }

// dominates reports whether a point of the front dominates p = (f1, f2,
// f3), given that every member precedes p lexicographically (so has f1 no
// larger). The member with the largest f2 <= p's has the smallest f3 among
// those with f2 <= p's, so it alone decides; on a tie in both f2 and f3
// only a smaller f1 makes it dominate.
func (s *stair3) dominates(obj []float64, p []float64) bool {
	j := upperBound(s.f2, p[1]) - 1 // last entry with f2 <= p[1]
	if j < 0 {
		return false
	}
	switch {
	case s.f3[j] < p[2]:
		return true
	case s.f3[j] > p[2]:
		return false
	case s.f2[j] < p[1]:
		return true
	}
	return obj[int(s.id[j])*3] < p[0]
}

// add inserts point id with projection (f2, f3) unless an entry already
// covers it, dropping the entries it covers.
func (s *stair3) add(id int32, f2, f3 float64) {
	i, _ := slices.BinarySearch(s.f2, f2) // first f2 >= new
	if i > 0 && s.f3[i-1] <= f3 {
		return
	}
	if i < len(s.f2) && s.f2[i] == f2 && s.f3[i] <= f3 {
		return
	}
	j := i
	for j < len(s.f2) && s.f3[j] >= f3 {
		j++
	}
	if j == i {
		s.f2 = slices.Insert(s.f2, i, f2)
		s.f3 = slices.Insert(s.f3, i, f3)
		s.id = slices.Insert(s.id, i, id)
		return
	}
	s.f2[i], s.f3[i], s.id[i] = f2, f3, id
	s.f2 = slices.Delete(s.f2, i+1, j)
	s.f3 = slices.Delete(s.f3, i+1, j)
	s.id = slices.Delete(s.id, i+1, j)
}

// reset prepares the buffers for n points of m objectives; the caller then
// fills obj.
func (r *ranker) reset(n, m int) {
	r.n, r.m = n, m
	r.obj = grow(r.obj, n*m)
	r.order = grow(r.order, n)
	r.rank = grow(r.rank, n)
	r.crowd = grow(r.crowd, n)
}

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n, n+n/4)
	}
	return s[:n]
}

func (r *ranker) load(points [][]float64) error {
	if len(points) == 0 {
		r.reset(0, 0)
		return nil
	}
	m, err := dims(points)
	if err != nil {
		return err
	}
	r.reset(len(points), m)
	for i, p := range points {
		copy(r.obj[i*m:], p)
	}
	return nil
}

// loadFeasible loads the objectives of the feasible individuals and returns
// their positions in inds.
func loadFeasible[G any](r *ranker, inds []Individual[G]) []int {
	var idx []int
	m := 0
	for i := range inds {
		if inds[i].Feasible() {
			idx = append(idx, i)
			m = len(inds[i].Objectives)
		}
	}
	r.reset(len(idx), m)
	for k, i := range idx {
		copy(r.obj[k*m:(k+1)*m], inds[i].Objectives)
	}
	return idx
}

func (r *ranker) row(i int32) []float64 { return r.obj[int(i)*r.m : int(i+1)*r.m] }

// lexSort orders the points lexicographically by objectives, ties by index.
// Only a point earlier in this order can dominate a later one.
// Objectives hold no NaN (callers check), so plain comparisons suffice.
func (r *ranker) lexSort() {
	for i := range r.order {
		r.order[i] = int32(i)
	}
	o, m := r.obj, r.m
	if m == 2 {
		slices.SortFunc(r.order, func(a, b int32) int {
			switch x, y := o[2*a], o[2*b]; {
			case x < y:
				return -1
			case x > y:
				return 1
			}
			switch x, y := o[2*a+1], o[2*b+1]; {
			case x < y:
				return -1
			case x > y:
				return 1
			}
			return int(a - b)
		})
		return
	}
	slices.SortFunc(r.order, func(a, b int32) int {
		ra, rb := o[int(a)*m:int(a+1)*m], o[int(b)*m:int(b+1)*m]
		for j := range ra {
			switch {
			case ra[j] < rb[j]:
				return -1
			case ra[j] > rb[j]:
				return 1
			}
		}
		return int(a - b)
	})
}

// dominatedBy reports whether some member of front dominates point p,
// where all members precede p in lexicographic order. With two objectives
// the last member added has the smallest second objective of its front, so
// it alone decides (the ENS-BS observation of Zhang et al. 2015); with
// three, a staircase per front answers in logarithmic time.
func (r *ranker) dominatedBy(k int, p int32) bool {
	front := r.fronts[k]
	if r.m <= 2 {
		return Dominates(r.row(front[len(front)-1]), r.row(p))
	}
	if r.m == 3 {
		return r.stairs[k].dominates(r.obj, r.row(p))
	}
	rp := r.row(p)
	for k := len(front) - 1; k >= 0; k-- {
		if Dominates(r.row(front[k]), rp) {
			return true
		}
	}
	return false
}

// sort assigns every point its front (efficient non-dominated sort with
// binary search over fronts: if a front dominates p, so do all earlier
// fronts) and returns the number of fronts. Fronts list indices in
// increasing order.
func (r *ranker) sort() int {
	if r.n == 0 {
		return 0
	}
	r.lexSort()
	nf := 0
	for _, p := range r.order {
		lo, hi := 0, nf
		for lo < hi {
			mid := int(uint(lo+hi) >> 1)
			if r.dominatedBy(mid, p) {
				lo = mid + 1
			} else {
				hi = mid
			}
		}
		if lo == nf {
			r.newFront(nf)
			nf++
		}
		r.addTo(lo, p)
		r.rank[p] = int32(lo)
	}
	for k := range nf {
		slices.Sort(r.fronts[k])
	}
	return nf
}

// firstFront returns the non-dominated points in increasing index order.
// The slice is owned by the ranker.
func (r *ranker) firstFront() []int32 {
	if r.n == 0 {
		return nil
	}
	r.lexSort()
	r.newFront(0)
	for _, p := range r.order {
		if len(r.fronts[0]) == 0 || !r.dominatedBy(0, p) {
			r.addTo(0, p)
		}
	}
	slices.Sort(r.fronts[0])
	return r.fronts[0]
}

// newFront empties front k, allocating it on first use.
func (r *ranker) newFront(k int) {
	for len(r.fronts) <= k {
		r.fronts = append(r.fronts, nil)
	}
	r.fronts[k] = r.fronts[k][:0]
	if r.m == 3 {
		for len(r.stairs) <= k {
			r.stairs = append(r.stairs, stair3{})
		}
		r.stairs[k].reset()
	}
}

func (r *ranker) addTo(k int, p int32) {
	r.fronts[k] = append(r.fronts[k], p)
	if r.m == 3 {
		row := r.row(p)
		r.stairs[k].add(p, row[1], row[2])
	}
}

// crowding sets r.crowd[p] for the members p of front (in increasing index
// order) following pymoo's calc_crowding_distance.
func (r *ranker) crowding(front []int32) {
	n := len(front)
	if n <= 2 {
		for _, p := range front {
			r.crowd[p] = math.Inf(1)
		}
		return
	}
	for _, p := range front {
		r.crowd[p] = 0
	}
	r.tmp = append(r.tmp[:0], front...)
	s := r.tmp
	m := r.m
	for j := range m {
		// Stable by position, as pymoo's mergesort; front is in index order.
		slices.SortFunc(s, func(a, b int32) int {
			switch x, y := r.obj[int(a)*m+j], r.obj[int(b)*m+j]; {
			case x < y:
				return -1
			case x > y:
				return 1
			}
			return int(a - b)
		})
		lo, hi := r.obj[int(s[0])*m+j], r.obj[int(s[n-1])*m+j]
		norm := hi - lo
		if norm == 0 {
			continue // pymoo: 0/0 and inf/0 become 0
		}
		r.crowd[s[0]] = math.Inf(1)
		r.crowd[s[n-1]] = math.Inf(1)
		for k := 1; k < n-1; k++ {
			r.crowd[s[k]] += (r.obj[int(s[k+1])*m+j] - r.obj[int(s[k-1])*m+j]) / norm
		}
	}
	fm := float64(m)
	for _, p := range front {
		r.crowd[p] /= fm
	}
}

// upperBound returns the number of leading elements of the sorted s that
// are <= x.
func upperBound(s []float64, x float64) int {
	lo, hi := 0, len(s)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if s[mid] <= x {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}
