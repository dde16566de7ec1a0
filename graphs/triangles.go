package graphs

// Triangles returns, for every node v, the number of triangles of the simple
// graph A (self-loops ignored) that contain v. Each triangle is counted once
// at each of its three corners, so the sum over all nodes is three times the
// triangle count.
//
// It orients every edge from the endpoint of lower (degree, id) rank to the
// higher one and, for each node u, intersects the out-lists of u's
// out-neighbours with a marker array. Every oriented out-list then has at
// most O(sqrt(E)) entries, so the run time is O(V + E*sqrt(E)) and the extra
// memory is one int32 array of E entries plus three of V, independent of
// the degree distribution (hub-heavy R-MAT graphs included).
func Triangles(g *Graph) []int64 {
	n := g.NumNodes()
	tri := make([]int64, n)
	if n == 0 {
		return tri
	}
	outPtr, outCol := orient(g)
	// mark[w] == u+1 while w is an out-neighbour of the current u; stamping
	// with u+1 avoids clearing the array between nodes.
	mark := make([]int32, n)
	for u := range n {
		ou := outCol[outPtr[u]:outPtr[u+1]]
		if len(ou) < 2 {
			continue // a triangle needs two out-edges at its lowest corner
		}
		stamp := int32(u + 1)
		for _, v := range ou {
			mark[v] = stamp
		}
		for _, v := range ou {
			for _, w := range outCol[outPtr[v]:outPtr[v+1]] {
				if mark[w] == stamp {
					tri[u]++
					tri[v]++
					tri[w]++
				}
			}
		}
	}
	return tri
}

// orient returns the CSR of the degree-ordered orientation of A: node u
// keeps neighbour v when (deg v, v) > (deg u, u). Self-loops are dropped.
// Rows stay sorted by id because they are filtered in order.
func orient(g *Graph) (ptr, col []int32) {
	n := g.NumNodes()
	loop := int32(0)
	if g.SelfLoops {
		loop = 1 // the diagonal entry does not count towards the degree of A
	}
	ptr = make([]int32, n+1)
	// append, not indexed writes: an asymmetric (invalid) graph may keep
	// more than NumEdges entries, and that must not panic.
	col = make([]int32, 0, g.NumEdges())
	for u := range n {
		du := g.RowPtr[u+1] - g.RowPtr[u] - loop
		for _, v := range g.Col[g.RowPtr[u]:g.RowPtr[u+1]] {
			dv := g.RowPtr[v+1] - g.RowPtr[v] - loop
			if dv > du || (dv == du && int(v) > u) {
				col = append(col, v)
			}
		}
		ptr[u+1] = int32(len(col))
	}
	return ptr, col
}

// Clustering returns the average local clustering coefficient of the simple
// graph A (self-loops ignored), as networkx.average_clustering computes it:
// node v of degree d >= 2 in t triangles has c_v = 2t / (d(d-1)), nodes of
// degree below 2 contribute 0, and the mean runs over all V nodes. It is 0
// for the empty graph (networkx raises an error there).
func Clustering(g *Graph) float64 {
	return clusteringFrom(g, Triangles(g))
}

// clusteringFrom averages the local coefficients given per-node triangle
// counts.
func clusteringFrom(g *Graph, tri []int64) float64 {
	n := g.NumNodes()
	if n == 0 {
		return 0
	}
	loop := 0
	if g.SelfLoops {
		loop = 1
	}
	sum := 0.0
	for v := range n {
		d := g.Degree(v) - loop
		if d < 2 || tri[v] == 0 {
			continue
		}
		sum += 2 * float64(tri[v]) / (float64(d) * float64(d-1))
	}
	return sum / float64(n)
}
