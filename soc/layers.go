package soc

import (
	"fmt"

	"gnnsim/hw"
	"gnnsim/workload"
)

// LayerCost is one layer's share of a mapped frame: the compute of its
// kernels on the unit that ran them, with the crossings to and from a
// fallback unit next to them. Hand-offs between segments and the CPU and
// memory power over the frame are not in any layer (see Result).
type LayerCost struct {
	Name  string // the layer's name, or block/index:kind
	Kind  string
	Block string
	// Unit ran the layer: the mapped unit, its fallback, or both joined by
	// "+" (a layer whose kernels ran on two units).
	Unit     string
	TimePS   int64
	EnergyPJ float64
	// FusedInto names the layer whose kernel absorbed this one (an
	// element-wise epilogue fused into a convolution): its cost is zero.
	FusedInto string
}

// Layers returns, layer by layer in model order, what running one frame
// under m at set costs. For a kernel-group mapping each group is one row.
// A unit that is not a DAGPlanner is priced layer by layer with Run.
func (e *Evaluator) Layers(m Mapping, set Setting) ([]LayerCost, error) {
	if err := e.checkMapping(m); err != nil {
		return nil, err
	}
	units, _, err := e.soc.Bind(set)
	if err != nil {
		return nil, err
	}
	var out []LayerCost
	var plan []Planned
	for i := 0; i < len(e.segs); i++ {
		sg := e.segs[i]
		unit := units[m.Units[i]]
		if r, ok := unit.(DAGPlanner); ok && e.runs {
			// Consecutive segments of one block on one DAGPlanner run
			// as one plan, as EvaluateAt prices them.
			to := i
			for to+1 < len(e.segs) && m.Units[to+1] == m.Units[i] && e.segs[to+1].Block == sg.Block {
				to++
			}
			rows, err := e.runLayers(r, i, to)
			if err != nil {
				return nil, err
			}
			out = append(out, rows...)
			i = to
			continue
		}
		b := sg.Work.Block
		if len(b.Layers) == 0 { // a kernel group
			c, err := runSegment(unit, sg)
			if err != nil {
				return nil, err
			}
			out = append(out, LayerCost{Name: sg.Name, Kind: "kernels", Block: blockName(e, sg), Unit: unit.Name(), TimePS: c.TimePS, EnergyPJ: c.EnergyPJ})
			continue
		}
		sizes := b.Sizes()
		first := len(out)
		names := make([]string, len(b.Layers))
		for li, l := range b.Layers {
			names[li] = layerName(sg, b, li, l)
		}
		r, isPlanner := unit.(DAGPlanner)
		if !isPlanner {
			for li, l := range b.Layers {
				w := hw.BlockWork(workload.Block{Name: names[li], Kind: b.Kind, In: sizes[li], Layers: []workload.Layer{l}})
				c, err := unit.Run(w)
				if err != nil {
					return nil, fmt.Errorf("soc: layer %s on %s: %w", names[li], unit.Name(), err)
				}
				out = append(out, LayerCost{Name: names[li], Kind: l.Kind.String(), Block: blockName(e, sg), Unit: unit.Name(), TimePS: c.TimePS, EnergyPJ: c.EnergyPJ})
			}
			continue
		}
		// Which layer each kernel belongs to.
		var owner []int
		for li, l := range b.Layers {
			ks, err := l.Kernels(sizes[li])
			if err != nil {
				return nil, fmt.Errorf("soc: layer %s: %w", names[li], err)
			}
			for range ks {
				owner = append(owner, li)
			}
		}
		if len(owner) != len(sg.Kernels) {
			return nil, fmt.Errorf("soc: segment %s: %d kernels, its layers give %d", sg.Name, len(sg.Kernels), len(owner))
		}
		plan, err = r.PlanDAG(sg.Kernels, sg.Producers, plan[:0])
		if err != nil {
			return nil, fmt.Errorf("soc: segment %s on %s: %w", sg.Name, r.Name(), err)
		}
		for li, l := range b.Layers {
			out = append(out, LayerCost{Name: names[li], Kind: l.Kind.String(), Block: blockName(e, sg)})
		}
		attribute(out[first:], plan, owner, r.Name())
	}
	return out, nil
}

// runLayers returns one row per segment of segments from..to (one block's,
// finer than blocks) run on r as one plan: a layer segment's row is its
// layer, a kernel group's row the group.
func (e *Evaluator) runLayers(r DAGPlanner, from, to int) ([]LayerCost, error) {
	ks, prod := e.runKernels(from, to)
	plan, err := r.PlanDAG(ks, prod, nil)
	if err != nil {
		return nil, fmt.Errorf("soc: segments %s..%s on %s: %w", e.segs[from].Name, e.segs[to].Name, r.Name(), err)
	}
	rows := make([]LayerCost, to-from+1)
	owner := make([]int, 0, len(ks)) // the row of each kernel
	for q := from; q <= to; q++ {
		sg := e.segs[q]
		row := &rows[q-from]
		row.Block = blockName(e, sg)
		row.Name, row.Kind = sg.Name, "kernels"
		if b := sg.Work.Block; len(b.Layers) == 1 {
			row.Name, row.Kind = layerName(sg, b, 0, b.Layers[0]), b.Layers[0].Kind.String()
		}
		for range sg.Kernels {
			owner = append(owner, q-from)
		}
	}
	attribute(rows, plan, owner, r.Name())
	return rows, nil
}

// attribute adds each planned kernel to its row (owner[k]): its cost, the
// unit that ran it, and, for a row all of whose kernels were fused, the
// row whose kernel absorbed them. A row without kernels ran on unit.
func attribute(rows []LayerCost, plan []Planned, owner []int, unit string) {
	fusedAll := make([]bool, len(rows))
	for q := range fusedAll {
		fusedAll[q] = true
	}
	for ki, p := range plan {
		row := &rows[owner[ki]]
		switch {
		case row.Unit == "":
			row.Unit = p.Unit
		case row.Unit != p.Unit && p.FusedInto < 0:
			row.Unit += "+" + p.Unit
		}
		if p.FusedInto < 0 {
			fusedAll[owner[ki]] = false
			row.FusedInto = ""
		} else if fusedAll[owner[ki]] {
			row.FusedInto = rows[owner[p.FusedInto]].Name
		}
		row.TimePS = hw.SatAdd(row.TimePS, p.Cost.TimePS)
		row.EnergyPJ += p.Cost.EnergyPJ
	}
	for q := range rows {
		if rows[q].Unit == "" {
			rows[q].Unit = unit
		}
	}
}

// runSegment prices a segment on a unit as the evaluator does.
func runSegment(unit hw.Unit, sg Segment) (hw.Cost, error) {
	if k, ok := unit.(KernelCoster); ok {
		return k.RunKernels(sg.Kernels)
	}
	return unit.Run(sg.Work)
}

// blockName is the name of the model block a segment belongs to.
func blockName(e *Evaluator, sg Segment) string {
	if sg.BlockName != "" {
		return sg.BlockName
	}
	for _, s := range e.segs {
		if s.Block == sg.Block {
			name, _, _ := cutLayer(s.Name)
			return name
		}
	}
	return sg.Name
}

// cutLayer splits a layer segment's name "block/i:kind" at its slash.
func cutLayer(name string) (string, string, bool) {
	for i := 0; i < len(name); i++ {
		if name[i] == '/' {
			return name[:i], name[i+1:], true
		}
	}
	return name, "", false
}

// layerName names layer li of block b in segment sg: "block/i:kind".
func layerName(sg Segment, b workload.Block, li int, l workload.Layer) string {
	if l.Name != "" {
		return l.Name
	}
	blk, _, _ := cutLayer(sg.Name)
	if len(b.Layers) == 1 && sg.Name != blk {
		return sg.Name // a layer segment is named after its layer
	}
	return fmt.Sprintf("%s/%d:%s", blk, li, l.Kind)
}
