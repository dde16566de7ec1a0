package gcos

import (
	"context"
	"fmt"
	"math"
	"sync"

	accel "gnnsim/accel/gcos"
	"gnnsim/graphs"
	"gnnsim/hw"
	"gnnsim/search"
	"gnnsim/workload"
)

// Dataset is the graph a GNN classifies nodes of: a concrete graph (real
// row lengths) or its size alone, with its input features and classes.
type Dataset struct {
	Name  string
	Graph *graphs.Graph // nil: Size alone (and Rows, if set)
	Size  workload.Size // ignored when Graph is set
	// Rows is the degree profile of a graph known only by its size (row
	// pointers, len Size.Nodes+1, ending at Size.NNZ: graphs.PowerLawRows);
	// nil: every row of the average length. Ignored when Graph is set.
	Rows     []int32
	Features int
	// FeatureDensity is the non-zero fraction of the input features, in
	// (0, 1]; 0 means dense. The first layer's product with its weights
	// skips the zeros (workload.Layer.InputDensity); hidden layers are
	// dense.
	FeatureDensity float64
	Classes        int
	// CheapOrder prices the GCN layers of an Arch in the cheaper
	// multiplication order, A(XW) when the layer narrows
	// (workload.Layer.CheapOrder): how the design runs them, not a property
	// of the graph, but set per data set so that one Problem prices one
	// design's way. Off: aggregation first.
	CheapOrder bool
}

// DatasetOf returns the data set of a node-classification set read from
// disk: its graph, feature width, measured feature density (over the rows
// the files give) and classes.
func DatasetOf(p *graphs.Planetoid) (Dataset, error) {
	if p == nil || p.Graph == nil || p.Features == nil {
		return Dataset{}, fmt.Errorf("gcos: no data set")
	}
	d := Dataset{Name: p.Name, Graph: p.Graph, Features: p.NumFeatures(), Classes: p.NumClasses}
	if x, rows := p.FeatureDensity(); rows > 0 && x > 0 {
		d.FeatureDensity = x
	}
	return d, d.Validate()
}

func (d Dataset) size() workload.Size {
	if d.Graph != nil {
		return hw.SizeOf(d.Graph)
	}
	return d.Size
}

// rows returns the degree profile the work carries: none with a graph.
func (d Dataset) rows() []int32 {
	if d.Graph != nil {
		return nil
	}
	return d.Rows
}

// Validate reports a data set no GNN can run on.
func (d Dataset) Validate() error {
	if d.Features < 1 || d.Classes < 1 {
		return fmt.Errorf("gcos: data set %s: %d features, %d classes", d.Name, d.Features, d.Classes)
	}
	if x := d.FeatureDensity; !(x >= 0 && x <= 1) {
		return fmt.Errorf("gcos: data set %s: feature density %v, want (0, 1] (0 for dense)", d.Name, x)
	}
	s := d.size()
	if s.Nodes < 1 {
		return fmt.Errorf("gcos: data set %s has no nodes", d.Name)
	} else if err := s.Validate(); err != nil {
		return fmt.Errorf("gcos: data set %s: %w", d.Name, err)
	}
	if r := d.rows(); r != nil && (int64(len(r)) != s.Nodes+1 || r[0] != 0 || int64(r[s.Nodes]) != s.NNZ) {
		return fmt.Errorf("gcos: data set %s: row profile of %d pointers, want %d from 0 to %d entries", d.Name, len(r), s.Nodes+1, s.NNZ)
	}
	return nil
}

// AccuracyFunc returns the accuracy (0..1) of a GNN on the problem's data
// set that the fitness uses (validation accuracy in repro/seed001, as G-CoS
// scores candidates on the validation set). It must depend only on its argument (searches call it
// concurrently and cache it).
type AccuracyFunc func(a Arch) (float64, error)

// Memo returns acc with its results cached per architecture, safe for
// concurrent use; concurrent calls for one architecture train it once. One
// oracle shared by several problems (the co-searches at different latency
// weights) trains each GNN once.
func Memo(acc AccuracyFunc) AccuracyFunc {
	type entry struct {
		once sync.Once
		v    float64
		err  error
	}
	var mu sync.Mutex
	cache := map[Arch]*entry{}
	return func(a Arch) (float64, error) {
		mu.Lock()
		e, ok := cache[a]
		if !ok {
			e = &entry{}
			cache[a] = e
		}
		mu.Unlock()
		e.once.Do(func() { e.v, e.err = acc(a) })
		return e.v, e.err
	}
}

// Fitness weighs accuracy against normalised inverse latency, the paper's
// "weighted sum of (inverse) latency and task accuracy, such that latency
// and task accuracy contribute similarly": fitness = Acc * accuracy + Lat *
// RefPS / (RefPS + latency). The latency term is 1/latency scaled to (0, 1):
// 1/2 at the reference latency, towards 1 for much faster designs, so that
// both terms live on the same scale.
type Fitness struct {
	Acc, Lat float64
	RefPS    float64 // reference latency
}

// Of returns the fitness of a design of accuracy acc and latency ps.
func (f Fitness) Of(acc float64, ps int64) float64 {
	return f.Acc*acc + f.Lat*f.RefPS/(f.RefPS+float64(ps))
}

// Candidate is an evaluated design.
type Candidate struct {
	Design    Design
	LatencyPS int64
	DRAMBytes int64
	Accuracy  float64
	Fitness   float64
	Feasible  bool
	Why       string // the resource over budget when infeasible
}

// Problem is a G-CoS co-search on one data set.
type Problem struct {
	Data     Dataset
	Accuracy AccuracyFunc // nil: accuracy 0 (a hardware-only search)
	Fitness  Fitness

	mu    sync.Mutex
	cache map[Arch]float64
}

// NewProblem returns the co-search on data with accuracy acc. The fitness
// weighs accuracy and inverse latency equally, the latency normalised by
// the hand-set accel.Default design running the handcrafted GCN.
func NewProblem(data Dataset, acc AccuracyFunc) (*Problem, error) {
	if err := data.Validate(); err != nil {
		return nil, err
	}
	p := &Problem{Data: data, Accuracy: acc, Fitness: Fitness{Acc: 0.5, Lat: 0.5}}
	u, err := accel.New(accel.Default())
	if err != nil {
		return nil, err
	}
	c, err := p.Latency(Handcrafted(data.Classes)["GCN"], u)
	if err != nil {
		return nil, err
	}
	p.Fitness.RefPS = float64(c.TimePS)
	return p, nil
}

// Latency runs a on unit u: each layer on the data set's adjacency sampled
// at the layer's rate (a concrete graph keeps its real row lengths), the
// first on the data set's input features at their density, the costs
// added.
func (p *Problem) Latency(a Arch, u hw.Unit) (hw.Cost, error) {
	m, err := a.Model(p.Data)
	if err != nil {
		return hw.Cost{}, err
	}
	c, err := p.Data.RunModel(m, u)
	return c.Total, err
}

// accuracy returns a's accuracy through the cache.
func (p *Problem) accuracy(a Arch) (float64, error) {
	if p.Accuracy == nil {
		return 0, nil
	}
	p.mu.Lock()
	v, ok := p.cache[a]
	p.mu.Unlock()
	if ok {
		return v, nil
	}
	v, err := p.Accuracy(a)
	if err != nil {
		return 0, err
	}
	if math.IsNaN(v) || v < 0 || v > 1 {
		return 0, fmt.Errorf("gcos: accuracy %v of %s outside [0, 1]", v, a)
	}
	p.mu.Lock()
	if p.cache == nil {
		p.cache = map[Arch]float64{}
	}
	p.cache[a] = v
	p.mu.Unlock()
	return v, nil
}

// Evaluate returns the candidate d: its latency on its accelerator, its
// accuracy and fitness, and whether the accelerator fits the budget.
func (p *Problem) Evaluate(d Design) (Candidate, error) {
	u, err := accel.New(d.HW)
	if err != nil {
		return Candidate{}, err
	}
	c, err := p.Latency(d.Arch, u)
	if err != nil {
		return Candidate{}, err
	}
	acc, err := p.accuracy(d.Arch)
	if err != nil {
		return Candidate{}, err
	}
	ok, why := hw.Feasible(u)
	return Candidate{Design: d, LatencyPS: c.TimePS, DRAMBytes: c.DRAMBytes, Accuracy: acc,
		Fitness: p.Fitness.Of(acc, c.TimePS), Feasible: ok, Why: why}, nil
}

// Options configure a search: Algorithm 1's inputs and the budget.
type Options struct {
	PoolSize    int     // p_max; 0: 50
	Rate        float64 // birth/dying rate s; 0: 0.2
	Outputs     int     // N2; 0: 5
	Evaluations int     // budget (required)
	// Target stops the search once the best Outputs designs average this
	// fitness (UseTarget).
	Target    float64
	UseTarget bool
	Seed      uint64
	Workers   int
}

// Result is a search's outcome.
type Result struct {
	Top       []Candidate // best first (Algorithm 1's O_N2 for the pool search)
	Evaluated []Candidate // every candidate in evaluation order
}

// evalFunc adapts the problem to the search package: one objective, the
// negated fitness; one constraint, 1 when over budget.
func (p *Problem) evalFunc(sp *Space) search.EvalFunc[[]int] {
	return func(g []int) (search.Evaluation, error) {
		d, err := sp.Decode(g)
		if err != nil {
			return search.Evaluation{}, err
		}
		c, err := p.Evaluate(d)
		if err != nil {
			return search.Evaluation{}, err
		}
		viol := 0.0
		if !c.Feasible {
			viol = 1
		}
		return search.Evaluation{Objectives: []float64{-c.Fitness}, Constraints: []float64{viol}, Info: c}, nil
	}
}

// Search runs Algorithm 1 (search.Pool) over sp.
func (p *Problem) Search(ctx context.Context, sp *Space, o Options) (*Result, error) {
	if o.PoolSize == 0 {
		o.PoolSize = 50
	}
	if o.Outputs == 0 {
		o.Outputs = 5
	}
	pool := &search.Pool[[]int]{Encoding: sp.Encoding(), Evaluate: p.evalFunc(sp), PoolSize: o.PoolSize, Rate: o.Rate,
		Outputs: o.Outputs, Target: -o.Target, UseTarget: o.UseTarget, MaxEvaluations: o.Evaluations, Seed: o.Seed, Workers: o.Workers}
	res, err := pool.Run(ctx)
	if err != nil {
		return nil, fmt.Errorf("gcos: pool search: %w", err)
	}
	return collect(res, res.Population[:min(o.Outputs, len(res.Population))]), nil
}

// Random evaluates o.Evaluations random designs of sp: the baseline of the
// pool search.
func (p *Problem) Random(ctx context.Context, sp *Space, o Options) (*Result, error) {
	rs := &search.RandomSearch[[]int]{Sampler: sp.Encoding(), Evaluate: p.evalFunc(sp), Evaluations: o.Evaluations, Seed: o.Seed, Workers: o.Workers}
	res, err := rs.Run(ctx)
	if err != nil {
		return nil, fmt.Errorf("gcos: random search: %w", err)
	}
	outputs := max(o.Outputs, 1)
	best := bestOf(res.Evaluated, outputs)
	return collect(res, best), nil
}

func collect(res *search.Result[[]int], top []search.Individual[[]int]) *Result {
	out := &Result{}
	for _, ind := range top {
		out.Top = append(out.Top, ind.Info.(Candidate))
	}
	for _, ind := range res.Evaluated {
		out.Evaluated = append(out.Evaluated, ind.Info.(Candidate))
	}
	return out
}

// bestOf returns the n best individuals: feasible first, by objective, then
// by evaluation order.
func bestOf(inds []search.Individual[[]int], n int) []search.Individual[[]int] {
	idx := make([]int, 0, len(inds))
	for i := range inds {
		idx = append(idx, i)
	}
	better := func(a, b *search.Individual[[]int]) bool {
		if a.Feasible() != b.Feasible() {
			return a.Feasible()
		}
		if a.Objectives[0] != b.Objectives[0] {
			return a.Objectives[0] < b.Objectives[0]
		}
		return a.ID < b.ID
	}
	// partial selection: n is small
	var out []search.Individual[[]int]
	used := make([]bool, len(inds))
	for range min(n, len(inds)) {
		bi := -1
		for _, i := range idx {
			if !used[i] && (bi < 0 || better(&inds[i], &inds[bi])) {
				bi = i
			}
		}
		used[bi] = true
		out = append(out, inds[bi])
	}
	return out
}
