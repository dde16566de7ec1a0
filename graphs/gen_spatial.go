package graphs

import (
	"errors"
	"fmt"
	"math"
)

// Grid returns the patch graph of a rows x cols image grid, as vision GNNs
// (ViG) use for images cut into patches: node r*cols+c is the patch in row
// r, column c, joined to its 4 horizontal and vertical neighbours, and with
// diagonal set also to its 4 diagonal ones (8-neighbourhood). It has
// rows(cols-1) + cols(rows-1) edges, plus 2(rows-1)(cols-1) diagonals.
func Grid(rows, cols int, diagonal bool) (*Graph, error) {
	if rows <= 0 || cols <= 0 {
		return nil, fmt.Errorf("grid: %d x %d must have positive sides", rows, cols)
	}
	n := int64(rows) * int64(cols)
	if err := checkNodes(int(min(n, math.MaxInt32+1))); err != nil {
		return nil, fmt.Errorf("grid: %w", err)
	}
	m := int64(rows)*int64(cols-1) + int64(cols)*int64(rows-1)
	if diagonal {
		m += 2 * int64(rows-1) * int64(cols-1)
	}
	if err := checkExpectedEdges(float64(m)); err != nil {
		return nil, fmt.Errorf("grid: %w", err)
	}
	us, vs := make([]int32, 0, m), make([]int32, 0, m)
	add := func(r, c, r2, c2 int) {
		us = append(us, int32(r*cols+c))
		vs = append(vs, int32(r2*cols+c2))
	}
	for r := range rows {
		for c := range cols {
			if c+1 < cols {
				add(r, c, r, c+1)
			}
			if r+1 < rows {
				add(r, c, r+1, c)
				if diagonal && c+1 < cols {
					add(r, c, r+1, c+1)
				}
				if diagonal && c > 0 {
					add(r, c, r+1, c-1)
				}
			}
		}
	}
	return FromEdges(int(n), us, vs)
}

// KNN returns the k-nearest-neighbour graph of points (Euclidean distance),
// as ViG builds over patch features: every point is joined to the k points
// closest to it, and the directed k-NN relation is symmetrized, so every
// degree is at least k. Ties in distance go to the lower index, so the
// result depends on the points only. Brute force, O(n^2 dim) time: ViG
// graphs have at most a few thousand patches.
func KNN(points [][]float64, k int) (*Graph, error) {
	n := len(points)
	if err := checkNodes(n); err != nil {
		return nil, fmt.Errorf("knn: %w", err)
	}
	if k < 1 || k >= n {
		return nil, fmt.Errorf("knn: k = %d must lie in [1, n) = [1, %d)", k, n)
	}
	dim := len(points[0])
	if dim == 0 {
		return nil, errors.New("knn: points have no coordinates")
	}
	for i, p := range points {
		if len(p) != dim {
			return nil, fmt.Errorf("knn: point %d has %d coordinates, point 0 has %d", i, len(p), dim)
		}
		for j, x := range p {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return nil, fmt.Errorf("knn: point %d coordinate %d = %v is not finite", i, j, x)
			}
		}
	}
	if err := checkExpectedEdges(float64(n) * float64(k)); err != nil {
		return nil, fmt.Errorf("knn: %w", err)
	}
	us, vs := make([]int32, 0, n*k), make([]int32, 0, n*k)
	// best holds the k nearest candidates so far as a max-heap on
	// (distance, index), so the worst one is at the root.
	best := make([]knnCand, 0, k)
	for i, p := range points {
		best = best[:0]
		for j, q := range points {
			if j == i {
				continue
			}
			d := 0.0
			for t, x := range p {
				y := x - q[t]
				d += y * y
			}
			c := knnCand{d, int32(j)}
			if len(best) < k {
				best = append(best, c)
				knnUp(best, len(best)-1)
			} else if c.less(best[0]) {
				best[0] = c
				knnDown(best, 0)
			}
		}
		for _, c := range best {
			us = append(us, int32(i))
			vs = append(vs, c.j)
		}
	}
	return FromEdges(n, us, vs)
}

type knnCand struct {
	d float64
	j int32
}

func (a knnCand) less(b knnCand) bool { return a.d < b.d || (a.d == b.d && a.j < b.j) }

// knnUp and knnDown maintain a max-heap (the largest candidate at index 0)
// without the interface calls of container/heap: this is the inner loop.
func knnUp(h []knnCand, i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !h[p].less(h[i]) {
			return
		}
		h[p], h[i] = h[i], h[p]
		i = p
	}
}

func knnDown(h []knnCand, i int) {
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		c := l
		if r := l + 1; r < len(h) && h[l].less(h[r]) {
			c = r
		}
		if !h[i].less(h[c]) {
			return
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}
