package accel

import (
	"errors"
	"fmt"

	"gnnsim/dataflow"
	"gnnsim/graphs"
	"gnnsim/workload"
)

// Prepared is a graph and a layer made ready to run: the per-row work the
// aggregation streams (row lengths of A+I or A, whichever the layer
// aggregates over) is computed once and reused by every configuration, and
// the scratch space of a run is kept between runs. Preparing costs O(V);
// each run then costs O(V + V/T_Va + V/T_Vc) with no allocation
// proportional to E.
//
// A Prepared is not safe for concurrent use; give each goroutine its own
// (they may share the Graph, which is only read).
type Prepared struct {
	g      *graphs.Graph
	layer  workload.Layer
	work   work
	v      int
	nnz    int64   // stored entries of the aggregated matrix
	ptr    []int32 // the graph's row pointers: row v of the aggregated
	adj    int64   // matrix holds ptr[v+1]-ptr[v]+adj entries
	maxRow int32   // the longest row
	ikSums [ikSlots]ikSum

	// scratch, reused across runs
	groups []int64  // aggregation group durations
	gstart []int32  // first row of each group
	seq    seqUnits // the units of a seq or sp run, computed on demand
	aggT   []unit
	combT  []unit
	ctx    phaseCtx
	scr    timingScratch
	seqE   seqEngine
	ppE    ppEngine
}

// Prepare readies g for runs of layer, one of the graph layers GCN, GIN,
// SAGE or GAT (one head) aggregating over g; other layers are errors. The
// graph's row order is kept: consecutive rows form the row groups and tiles
// of the dataflow.
func Prepare(g *graphs.Graph, layer workload.Layer) (*Prepared, error) {
	if g == nil {
		return nil, errors.New("accel: nil graph")
	}
	w, err := layerWork(layer)
	if err != nil {
		return nil, err
	}
	n := g.NumNodes()
	if n == 0 {
		return nil, fmt.Errorf("accel: graph %q has no nodes", g.Name)
	}
	// Only the row lengths are used (the columns may have been released:
	// graphs.Graph.ReleaseCols), but they must agree with the entries.
	if g.NNZ() != int(g.RowPtr[n]) {
		return nil, fmt.Errorf("accel: graph %q: row pointers end at %d but there are %d column ids", g.Name, g.RowPtr[n], g.NNZ())
	}
	// Keep every count of a run (MACs, accesses, bytes) far inside int64.
	var gemmWork float64
	for _, gm := range w.gemms {
		gemmWork += float64(gm.k) * float64(gm.n)
	}
	if work := float64(n)*gemmWork + float64(g.NNZ()+n)*float64(w.aggF+1)*64; work > 1<<60 {
		return nil, fmt.Errorf("accel: graph %q with F = %d, G = %d is too large to count in int64 (about %.3g MACs)", g.Name, layer.F, layer.G, work)
	}
	p := &Prepared{g: g, layer: layer, work: w, v: n, ptr: g.RowPtr}
	// A+I adds a self-loop to every row of A; A drops it from every row
	// of A+I. Either way the row order is the graph's.
	adj := int32(0)
	switch {
	case w.selfLoops && !g.SelfLoops:
		adj = 1
	case !w.selfLoops && g.SelfLoops:
		adj = -1
	}
	for v := range n {
		d := g.RowPtr[v+1] - g.RowPtr[v]
		if d < 0 {
			return nil, fmt.Errorf("accel: graph %q: row pointer decreases at row %d", g.Name, v)
		}
		d += adj
		if d < 0 {
			return nil, fmt.Errorf("accel: graph %q claims self-loops but row %d is empty", g.Name, v)
		}
		p.nnz += int64(d)
		p.maxRow = max(p.maxRow, d)
	}
	p.adj = int64(adj)
	return p, nil
}

// row returns the length of row v of the aggregated matrix. The lengths
// are not listed (4 bytes a node per Prepared, one Prepared per core: 1 GB
// at 10^9 edges): the row pointers give them.
func (p *Prepared) row(v int) int64 { return int64(p.ptr[v+1]-p.ptr[v]) + p.adj }

// rowsNNZ returns the entries of rows [lo, hi) of the aggregated matrix.
func (p *Prepared) rowsNNZ(lo, hi int64) int64 {
	return int64(p.ptr[hi]-p.ptr[lo]) + p.adj*(hi-lo)
}

// ikSlots is how many sums of neighbour steps a Prepared keeps: one per
// T_N of the configurations run on it (five among the 24 named ones).
const ikSlots = 8

// ikSum is the sum over the rows of max(ceil(d/tn), 1), the neighbour
// steps of the aggregation with T_N = tn.
type ikSum struct{ tn, sum int64 }

// sumIK returns the neighbour steps of all rows with T_N = tn, computed
// once per tn (a pass over every row: 24 of them per graph otherwise).
func (p *Prepared) sumIK(tn int64) int64 {
	for _, e := range p.ikSums {
		if e.tn == tn {
			return e.sum
		}
	}
	var s int64
	for v := range p.v {
		s += max(ceilDiv(p.row(v), tn), 1)
	}
	for i := range p.ikSums {
		if p.ikSums[i].tn == 0 {
			p.ikSums[i] = ikSum{tn: tn, sum: s}
			break
		}
	}
	return s
}

// Graph returns the prepared graph.
func (p *Prepared) Graph() *graphs.Graph { return p.g }

// Layer returns the prepared layer.
func (p *Prepared) Layer() workload.Layer { return p.layer }

// Dims returns the layer's dataflow dimensions on this graph.
func (p *Prepared) Dims() dataflow.Dims { return dims(p.layer, p.v) }

// NNZ returns the entries of the matrix the aggregation multiplies by
// (A+I for GCN, GIN and GAT; A for SAGE).
func (p *Prepared) NNZ() int64 { return p.nnz }

// Configs returns the 24 configurations of seed 002 for this graph on hw.
func (p *Prepared) Configs(hw HW) ([dataflow.NumConfigs]dataflow.Config, error) {
	return dataflow.All(p.Dims(), hw.PEs, hw.PPAggPEs)
}

// Run runs one configuration.
func (p *Prepared) Run(cfg dataflow.Config, hw HW, opts Options) (Result, error) {
	if err := hw.Validate(); err != nil {
		return Result{}, err
	}
	if err := p.checkConfig(cfg, hw); err != nil {
		return Result{}, err
	}
	return p.run(cfg, hw, opts), nil
}

// RunAll runs the 24 configurations of seed 002 (in dataflow.All's order)
// and appends their results to dst.
func (p *Prepared) RunAll(hw HW, opts Options, dst []Result) ([]Result, error) {
	if err := hw.Validate(); err != nil {
		return dst, err
	}
	cs, err := p.Configs(hw)
	if err != nil {
		return dst, err
	}
	for _, c := range cs {
		dst = append(dst, p.run(c, hw, opts))
	}
	return dst, nil
}

func (p *Prepared) checkConfig(cfg dataflow.Config, hw HW) error {
	if err := cfg.Validate(p.Dims()); err != nil {
		return fmt.Errorf("accel: %w", err)
	}
	if cfg.PEs != hw.PEs {
		return fmt.Errorf("accel: configuration %s is for %d PEs, the hardware has %d", cfg.Name(), cfg.PEs, hw.PEs)
	}
	if cfg.AggOrder != dataflow.AggOrder || cfg.CombOrder != dataflow.CombOrder {
		return fmt.Errorf("accel: loop orders %s/%s are not modelled: STONNE-Omega's cost model covers only %s/%s",
			cfg.AggOrder, cfg.CombOrder, dataflow.AggOrder, dataflow.CombOrder)
	}
	return nil
}

// Run prepares g for layer and runs one configuration: the convenience
// form of Prepare followed by Prepared.Run.
func Run(g *graphs.Graph, layer workload.Layer, cfg dataflow.Config, hw HW, opts Options) (Result, error) {
	p, err := Prepare(g, layer)
	if err != nil {
		return Result{}, err
	}
	return p.Run(cfg, hw, opts)
}
