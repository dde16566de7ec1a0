package train

import "slices"

// rowSet is what one layer computes in a pass: the rows whose aggregate,
// activation and output a later layer (or the loss) reads, and the rows
// whose linear transform those aggregates read, their neighbours in A+I.
// Both are ascending node ids.
//
// A two-layer network's loss on Cora's 140 training nodes reads the
// output layer on those 140 rows, its linear transform on their 644
// neighbours, and the first layer's transform on 1,664 rows; validation
// (500 nodes) reads 1,484 and 2,335. Every row is computed exactly as in a
// pass over the whole graph (the same operations in the same order), and
// rows outside the sets have zero gradient, so restricting a pass to them
// changes no bit of a result: it only skips work.
type rowSet struct {
	agg, lin []int32
}

// rowPlan returns, layer by layer, the rows a pass of a layers-deep
// network must compute for the outputs of targets.
func (d *Data) rowPlan(targets []int32, layers int) []rowSet {
	n := d.NumNodes
	mark := make([]bool, n)
	cur := slices.Clone(targets)
	slices.Sort(cur)
	cur = slices.Compact(cur)
	plan := make([]rowSet, layers)
	for l := layers - 1; l >= 0; l-- {
		plan[l].agg = cur
		clear(mark)
		for _, i := range cur {
			for e := d.aPtr[i]; e < d.aPtr[i+1]; e++ {
				mark[d.aCol[e]] = true
			}
		}
		var lin []int32
		for i, ok := range mark {
			if ok {
				lin = append(lin, int32(i))
			}
		}
		plan[l].lin = lin
		cur = lin
	}
	return plan
}

// fullPlan returns the plan of a pass over every row.
func (d *Data) fullPlan(layers int) []rowSet {
	all := make([]int32, d.NumNodes)
	for i := range all {
		all[i] = int32(i)
	}
	plan := make([]rowSet, layers)
	for l := range plan {
		plan[l] = rowSet{agg: all, lin: all}
	}
	return plan
}
