package graphs

// LargestComponent returns the largest connected component of g, its nodes
// renumbered densely in their original relative order (so row order, which
// the accelerator models care about, is preserved). Ties go to the
// component holding the lowest node id. Node attributes and the label are
// carried over. A connected g is returned as is. O(V + E).
func LargestComponent(g *Graph) *Graph {
	n := g.NumNodes()
	if n == 0 {
		return g
	}
	comp := make([]int32, n)
	for i := range comp {
		comp[i] = -1
	}
	queue := make([]int32, 0, n)
	best, bestSize := int32(-1), 0
	for s := range n {
		if comp[s] >= 0 {
			continue
		}
		id := int32(s) // label a component by its lowest node
		comp[s] = id
		queue = append(queue[:0], int32(s))
		for h := 0; h < len(queue); h++ {
			for _, w := range g.Neighbors(int(queue[h])) {
				if comp[w] < 0 {
					comp[w] = id
					queue = append(queue, w)
				}
			}
		}
		if len(queue) > bestSize {
			best, bestSize = id, len(queue)
		}
	}
	if bestSize == n {
		return g
	}
	// newID[v] is v's id in the component; reuse the queue's storage.
	newID := queue[:n]
	k := int32(0)
	for v := range n {
		if comp[v] == best {
			newID[v] = k
			k++
		}
	}
	h := *g
	h.RowPtr = make([]int32, bestSize+1)
	h.Col = make([]int32, 0, countEntries(g, comp, best))
	if g.NodeAttr != nil {
		h.NodeAttr = make([]float64, 0, bestSize*g.AttrDim)
	}
	r := 0
	for v := range n {
		if comp[v] != best {
			continue
		}
		// Neighbours share v's component and the renumbering is monotone,
		// so the row stays sorted.
		for _, w := range g.Neighbors(v) {
			h.Col = append(h.Col, newID[w])
		}
		r++
		h.RowPtr[r] = int32(len(h.Col))
		if g.NodeAttr != nil {
			h.NodeAttr = append(h.NodeAttr, g.NodeAttr[v*g.AttrDim:(v+1)*g.AttrDim]...)
		}
	}
	return &h
}

func countEntries(g *Graph, comp []int32, c int32) int {
	s := 0
	for v, cv := range comp {
		if cv == c {
			s += g.Degree(v)
		}
	}
	return s
}
