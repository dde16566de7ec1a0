package dataflow

import "gnnsim/graphs"

// NumComposite is the number of composite features, S1..S6.
const NumComposite = 6

// CompositeNames are the column names of Composite's values, in order.
var CompositeNames = [NumComposite]string{"S1", "S2", "S3", "S4", "S5", "S6"}

// Composite returns the tiling-dependent features S1..S6 of seed 002,
// Table 1, for graph g with F input and G output features under tiles t:
//
//	S1 = V*F*(G + meandeg)                    operations, dense aggregation
//	S2 = V*F*G / (T_Vc*T_Fc*T_Gc)             combination cycles
//	S3 = V*F*meandeg / (T_N*T_Fa)             aggregation cycles, dense
//	S4 = S1 + S3                              seq latency estimate
//	S5 = sum_v N_v*F / (min(N_v,T_N)*T_Fa)    aggregation cycles, CSR
//	S6 = S3 + S5/T_Va                         seq latency estimate, CSR
//
// N_v is the A+I row length of node v and meandeg their mean (NNZ(A+I)/V),
// whether or not g stores its self-loops; every N_v is at least 1, so S5 is
// always defined. (S4 = S1 + S3 is the table's formula as printed, even
// though S2 would be the natural combination term.) All values are 0 for
// an empty graph. It runs in O(V) time and allocates nothing.
func Composite(g *graphs.Graph, F, G int, t Tiles) [NumComposite]float64 {
	var s [NumComposite]float64
	n := g.NumNodes()
	if n == 0 {
		return s
	}
	loop := 1 // A+I adds one entry per row when g stores A
	if g.SelfLoops {
		loop = 0
	}
	V, f, gg := float64(n), float64(F), float64(G)
	nnz := float64(g.NNZ() + loop*n)
	meandeg := nnz / V
	tn := max(t.N, 1)
	s5 := 0.0
	for v := range n {
		d := g.Degree(v) + loop
		s5 += float64(d) * f / float64(min(d, tn)*max(t.Fa, 1))
	}
	s[0] = V * f * (gg + meandeg)
	s[1] = V * f * gg / float64(max(t.Vc*t.Fc*t.Gc, 1))
	s[2] = V * f * meandeg / float64(tn*max(t.Fa, 1))
	s[3] = s[0] + s[2]
	s[4] = s5
	s[5] = s[2] + s5/float64(max(t.Va, 1))
	return s
}
