package graphs

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"gnnsim/internal/par"
	"gnnsim/internal/splitmix"
)

// GenSpec describes a seeded set of generated graphs. A zero field takes the
// generator's default, as listed below; GenerateSet rejects a range or a
// Params key the generator does not use. Node and edge counts are drawn
// per graph, uniformly from their (inclusive) ranges unless noted.
//
//	generator  nodes            edges               Params (default)
//	er         [64, 1024]       optional m range    p, or avg_degree (8): p = avg_degree/(n-1);
//	                                                with an edge range p = m/C(n,2) instead
//	ba         [64, 1024]       -                   m (4): edges from each new node
//	ws         [64, 1024]       -                   k (8, even): ring degree; beta (0.1): rewiring probability
//	sbm        [64, 1024]       -                   blocks (4), equal sizes; p_in (0.2); p_out (0.01)
//	grid       rows x cols      -                   rows (14), cols (14); diagonal (0; 1 = 8-neighbour);
//	                                                with a node range: rows = cols = round(sqrt(n))
//	knn        [196, 196]       -                   k (9): neighbours; dim (2): points uniform in [0,1)^dim
//	rmat       [64, 1024]       optional m range    a (0.57), b (0.19), c (0.19) (Graph500);
//	                                                edge_factor (8): m = edge_factor*n without an edge range
//	graphlaxy  - (drawn from E) [300, 60000]        alpha_a, beta_a, alpha_b, beta_b, alpha_c, beta_c,
//	                                                alpha_n, beta_n (DefaultGraphlaxyBetas);
//	                                                log_edges (1): E log-uniform; 0: uniform, as Graphlaxy
//
// Integer parameters (m, k, blocks, rows, cols, dim, diagonal, log_edges)
// must be integral. The 14 x 14 grid and the 196-node k-NN graph are ViG's
// patch graphs for a 224 x 224 image cut into 16 x 16 patches, and k = 9 is
// ViG's neighbour count. See GraphlaxyBetas for the graphlaxy draw.
type GenSpec struct {
	Generator string // one of Generators()
	Count     int    // graphs to generate (DefaultCount when zero)
	Seed      uint64 // graph i is drawn from a PCG stream seeded by (Seed, i) only

	MinNodes, MaxNodes int // node-count range, inclusive
	MinEdges, MaxEdges int // edge-count range, inclusive (generators that take one)

	Params map[string]float64 // generator parameters, see the table above
}

// DefaultCount is the number of graphs GenerateSet makes when Count is zero.
const DefaultCount = 100

// MaxCount bounds Count: GenerateSet holds the whole set in memory. Larger
// sets are made in parts with Generate.
const MaxCount = 1 << 24

// genInfo describes one generator: its defaults and the Params keys it takes.
type genInfo struct {
	noNodes            bool // n is not drawn from a node range (graphlaxy)
	minNodes, maxNodes int  // default node range; 0 when there is none
	minEdges, maxEdges int  // default edge range; 0 when optional or unused
	usesEdges          bool
	params             map[string]float64                                             // valid keys with their defaults (NaN: no default)
	build              func(s *genRun, rng *rand.Rand, src *rand.PCG) (*Graph, error) // src: rng's source
}

var generators = map[string]*genInfo{
	"er": {minNodes: 64, maxNodes: 1024, usesEdges: true,
		params: map[string]float64{"p": math.NaN(), "avg_degree": 8}, build: genER},
	"ba": {minNodes: 64, maxNodes: 1024,
		params: map[string]float64{"m": 4}, build: genBA},
	"ws": {minNodes: 64, maxNodes: 1024,
		params: map[string]float64{"k": 8, "beta": 0.1}, build: genWS},
	"sbm": {minNodes: 64, maxNodes: 1024,
		params: map[string]float64{"blocks": 4, "p_in": 0.2, "p_out": 0.01}, build: genSBM},
	"grid": {minNodes: 0, maxNodes: 0,
		params: map[string]float64{"rows": 14, "cols": 14, "diagonal": 0}, build: genGrid},
	"knn": {minNodes: 196, maxNodes: 196,
		params: map[string]float64{"k": 9, "dim": 2}, build: genKNN},
	"rmat": {minNodes: 64, maxNodes: 1024, usesEdges: true,
		params: map[string]float64{"a": 0.57, "b": 0.19, "c": 0.19, "edge_factor": 8}, build: genRMAT},
	"graphlaxy": {noNodes: true, minEdges: 300, maxEdges: 60000, usesEdges: true,
		params: graphlaxyDefaults(), build: genGraphlaxy},
}

// Generators returns the generator names GenerateSet accepts, sorted.
func Generators() []string { return slices.Sorted(maps.Keys(generators)) }

// GenerateSet returns spec.Count graphs named "<generator>_<i>". Graph i is
// drawn from its own PCG stream seeded by (spec.Seed, i), so it is the same
// whatever Count is and whichever shard makes it (see Generate). The graphs
// are built in parallel; the result does not depend on the number of cores.
func GenerateSet(spec GenSpec) ([]*Graph, error) {
	s, err := spec.resolve()
	if err != nil {
		return nil, err
	}
	out := make([]*Graph, s.Count)
	err = par.For(s.Count, 0, func(i int) error {
		var err error
		out[i], err = s.generate(i)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Generate returns graph i of the set spec describes, exactly as GenerateSet
// would (spec.Count is ignored), so that shards can each make their part.
func Generate(spec GenSpec, i int) (*Graph, error) {
	return GenerateMeter(spec, i, nil)
}

// GenerateMeter is Generate telling m (when not nil) how far the stages of
// a large graph have got (R-MAT only: draws and CSR; other generators make
// graphs of at most 10^7 nodes in seconds). The graph does not depend on m.
func GenerateMeter(spec GenSpec, i int, m Meter) (*Graph, error) {
	spec.Count = 1
	s, err := spec.resolve()
	if err != nil {
		return nil, err
	}
	if i < 0 {
		return nil, fmt.Errorf("graphs: negative graph index %d", i)
	}
	s.meter = meterOr(m)
	return s.generate(i)
}

// graphRand returns the random stream of graph i and its source: PCG seeded
// by the set seed and a mix of the index, so neighbouring indices get
// unrelated streams.
func graphRand(seed uint64, i int) (*rand.Rand, *rand.PCG) {
	src := rand.NewPCG(seed, splitmix.Mix64(uint64(i)^0x6a09e667f3bcc909))
	return rand.New(src), src
}

func (s *genRun) generate(i int) (*Graph, error) {
	rng, src := graphRand(s.Seed, i)
	g, err := generators[s.Generator].build(s, rng, src)
	if err != nil {
		return nil, fmt.Errorf("graphs: %s graph %d: %w", s.Generator, i, err)
	}
	g.Name = fmt.Sprintf("%s_%d", s.Generator, i)
	return g, nil
}

// genRun is a checked GenSpec with every default filled in, plus the
// parameters the caller set explicitly (some generators take one of two
// alternative parameters and must know which one was given).
type genRun struct {
	GenSpec
	user  map[string]float64
	meter Meter // never nil once resolved
}

// resolve checks spec and returns it with every default filled in.
func (spec GenSpec) resolve() (*genRun, error) {
	info, ok := generators[spec.Generator]
	if !ok {
		return nil, fmt.Errorf("graphs: unknown generator %q (valid: %s)", spec.Generator, strings.Join(Generators(), ", "))
	}
	s := spec
	wrap := func(err error) (*genRun, error) {
		return nil, fmt.Errorf("graphs: generator %s: %w", s.Generator, err)
	}
	switch {
	case s.Count < 0:
		return wrap(fmt.Errorf("negative count %d", s.Count))
	case s.Count == 0:
		s.Count = DefaultCount
	case s.Count > MaxCount:
		return wrap(fmt.Errorf("count %d above %d; generate large sets in parts with Generate", s.Count, MaxCount))
	}
	if info.noNodes && (s.MinNodes != 0 || s.MaxNodes != 0) {
		return wrap(errors.New("node count is drawn from the edge count; set MinEdges/MaxEdges instead of MinNodes/MaxNodes"))
	}
	if !info.usesEdges && (s.MinEdges != 0 || s.MaxEdges != 0) {
		return wrap(errors.New("takes no edge range (MinEdges/MaxEdges)"))
	}
	var err error
	if s.MinNodes, s.MaxNodes, err = fillRange("node", s.MinNodes, s.MaxNodes, info.minNodes, info.maxNodes); err != nil {
		return wrap(err)
	}
	if s.MinEdges, s.MaxEdges, err = fillRange("edge", s.MinEdges, s.MaxEdges, info.minEdges, info.maxEdges); err != nil {
		return wrap(err)
	}
	params := make(map[string]float64, len(info.params))
	for k, v := range info.params {
		if !math.IsNaN(v) {
			params[k] = v
		}
	}
	for k, v := range spec.Params {
		if _, ok := info.params[k]; !ok {
			return wrap(fmt.Errorf("unknown parameter %q (valid: %s)", k, strings.Join(slices.Sorted(maps.Keys(info.params)), ", ")))
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return wrap(fmt.Errorf("parameter %s = %v is not finite", k, v))
		}
		params[k] = v
	}
	s.Params = params
	return &genRun{GenSpec: s, user: spec.Params, meter: noMeter{}}, nil
}

// fillRange applies a generator's default range to a user range where the
// user left zeros, and checks the result. A one-sided user range stretches
// the default so that it stays consistent (MinNodes 5000 alone means
// [5000, max(5000, default max)]).
func fillRange(what string, lo, hi, defLo, defHi int) (int, int, error) {
	if lo < 0 || hi < 0 {
		return 0, 0, fmt.Errorf("negative %s count range [%d, %d]", what, lo, hi)
	}
	switch {
	case lo == 0 && hi == 0:
		lo, hi = defLo, defHi
	case lo == 0:
		lo = min(defLo, hi)
		if lo == 0 {
			lo = 1
		}
	case hi == 0:
		hi = max(defHi, lo)
	}
	if lo > hi {
		return 0, 0, fmt.Errorf("%s count range [%d, %d] is empty", what, lo, hi)
	}
	return lo, hi, nil
}

// uniformInt draws an integer uniformly from [lo, hi].
func uniformInt(rng *rand.Rand, lo, hi int) int {
	return lo + int(rng.Int64N(int64(hi-lo)+1))
}

// intParam returns Params[key] as an int, checking it is integral and >= lo.
func (s *genRun) intParam(key string, lo int) (int, error) {
	v := s.Params[key]
	if v != math.Trunc(v) || v < float64(lo) || v > math.MaxInt32 {
		return 0, fmt.Errorf("parameter %s = %v must be an integer >= %d", key, v, lo)
	}
	return int(v), nil
}

// drawNodes draws the node count of one graph.
func (s *genRun) drawNodes(rng *rand.Rand) int { return uniformInt(rng, s.MinNodes, s.MaxNodes) }

func genER(s *genRun, rng *rand.Rand, _ *rand.PCG) (*Graph, error) {
	n := s.drawNodes(rng)
	hasP := s.userParam("p")
	userDeg := s.userParam("avg_degree")
	if hasP && userDeg {
		return nil, errors.New("set either p or avg_degree, not both")
	}
	pairs := float64(n) * float64(n-1) / 2
	var p float64
	switch {
	case s.MaxEdges > 0:
		if hasP || userDeg {
			return nil, errors.New("an edge range replaces p and avg_degree; set only one")
		}
		m := uniformInt(rng, s.MinEdges, s.MaxEdges)
		if float64(m) > pairs {
			return nil, fmt.Errorf("%d edges do not fit in %d nodes", m, n)
		}
		p = float64(m) / max(pairs, 1)
	case hasP:
		p = s.Params["p"]
	default:
		if n > 1 {
			p = s.Params["avg_degree"] / float64(n-1)
		}
		if p > 1 {
			return nil, fmt.Errorf("average degree %v needs more than %d nodes", s.Params["avg_degree"], n)
		}
	}
	g, err := ErdosRenyi(n, p, rng)
	if err != nil {
		return nil, err
	}
	g.Source = fmt.Sprintf("er n=%d p=%.4g", n, p)
	return g, nil
}

// userParam reports whether the caller set key explicitly.
func (s *genRun) userParam(key string) bool {
	_, ok := s.user[key]
	return ok
}

func genBA(s *genRun, rng *rand.Rand, _ *rand.PCG) (*Graph, error) {
	m, err := s.intParam("m", 1)
	if err != nil {
		return nil, err
	}
	n := s.drawNodes(rng)
	g, err := BarabasiAlbert(n, m, rng)
	if err != nil {
		return nil, err
	}
	g.Source = fmt.Sprintf("ba n=%d m=%d", n, m)
	return g, nil
}

func genWS(s *genRun, rng *rand.Rand, _ *rand.PCG) (*Graph, error) {
	k, err := s.intParam("k", 2)
	if err != nil {
		return nil, err
	}
	beta := s.Params["beta"]
	n := s.drawNodes(rng)
	g, err := WattsStrogatz(n, k, beta, rng)
	if err != nil {
		return nil, err
	}
	g.Source = fmt.Sprintf("ws n=%d k=%d beta=%.4g", n, k, beta)
	return g, nil
}

func genSBM(s *genRun, rng *rand.Rand, _ *rand.PCG) (*Graph, error) {
	blocks, err := s.intParam("blocks", 1)
	if err != nil {
		return nil, err
	}
	pin, pout := s.Params["p_in"], s.Params["p_out"]
	n := s.drawNodes(rng)
	if blocks > n {
		return nil, fmt.Errorf("%d blocks for %d nodes", blocks, n)
	}
	sizes := make([]int, blocks)
	for b := range sizes {
		sizes[b] = n / blocks
		if b < n%blocks {
			sizes[b]++
		}
	}
	p := make([][]float64, blocks)
	for r := range p {
		p[r] = make([]float64, blocks)
		for c := range p[r] {
			p[r][c] = pout
		}
		p[r][r] = pin
	}
	g, err := SBM(sizes, p, rng)
	if err != nil {
		return nil, err
	}
	g.Source = fmt.Sprintf("sbm n=%d blocks=%d p_in=%.4g p_out=%.4g", n, blocks, pin, pout)
	return g, nil
}

func genGrid(s *genRun, rng *rand.Rand, _ *rand.PCG) (*Graph, error) {
	diag, err := s.intParam("diagonal", 0)
	if err != nil || diag > 1 {
		return nil, fmt.Errorf("parameter diagonal = %v must be 0 or 1", s.Params["diagonal"])
	}
	userRows := s.userParam("rows")
	userCols := s.userParam("cols")
	var rows, cols int
	if s.MaxNodes > 0 {
		if userRows || userCols {
			return nil, errors.New("set either a node range or rows/cols, not both")
		}
		rows = int(math.Round(math.Sqrt(float64(s.drawNodes(rng)))))
		cols = rows
	} else {
		if rows, err = s.intParam("rows", 1); err != nil {
			return nil, err
		}
		if cols, err = s.intParam("cols", 1); err != nil {
			return nil, err
		}
	}
	g, err := Grid(rows, cols, diag == 1)
	if err != nil {
		return nil, err
	}
	g.Source = fmt.Sprintf("grid rows=%d cols=%d diagonal=%d", rows, cols, diag)
	return g, nil
}

func genKNN(s *genRun, rng *rand.Rand, _ *rand.PCG) (*Graph, error) {
	k, err := s.intParam("k", 1)
	if err != nil {
		return nil, err
	}
	dim, err := s.intParam("dim", 1)
	if err != nil {
		return nil, err
	}
	if dim > 1024 {
		return nil, fmt.Errorf("parameter dim = %d is above 1024", dim)
	}
	n := s.drawNodes(rng)
	if k >= n {
		return nil, fmt.Errorf("k = %d needs more than %d points", k, n)
	}
	flat := make([]float64, n*dim)
	for i := range flat {
		flat[i] = rng.Float64()
	}
	points := make([][]float64, n)
	for i := range points {
		points[i] = flat[i*dim : (i+1)*dim : (i+1)*dim]
	}
	g, err := KNN(points, k)
	if err != nil {
		return nil, err
	}
	g.Source = fmt.Sprintf("knn n=%d k=%d dim=%d", n, k, dim)
	return g, nil
}

func genRMAT(s *genRun, rng *rand.Rand, src *rand.PCG) (*Graph, error) {
	a, b, c := s.Params["a"], s.Params["b"], s.Params["c"]
	n := s.drawNodes(rng)
	var m int
	if s.MaxEdges > 0 {
		if s.userParam("edge_factor") {
			return nil, errors.New("an edge range replaces edge_factor; set only one")
		}
		m = uniformInt(rng, s.MinEdges, s.MaxEdges)
	} else {
		ef := s.Params["edge_factor"]
		if ef < 0 || ef*float64(n) > MaxEntries/2 {
			return nil, fmt.Errorf("parameter edge_factor = %v out of range", ef)
		}
		m = int(math.Round(ef * float64(n)))
	}
	g, err := rmat(n, m, a, b, c, rng, src, s.meter)
	if err != nil {
		return nil, err
	}
	g.Source = fmt.Sprintf("rmat n=%d m=%d a=%.4g b=%.4g c=%.4g", n, m, a, b, c)
	return g, nil
}

// Meta is a generated set's metadata: the command and the request as
// given (the ranges and parameters as written), enough to generate it
// again.
func (s GenSpec) Meta(nodes, edges string, params []string) map[string]string {
	return map[string]string{
		"command":   "graphs gen",
		"generator": s.Generator,
		"count":     strconv.Itoa(s.Count),
		"seed":      strconv.FormatUint(s.Seed, 10),
		"nodes":     nodes,
		"edges":     edges,
		"params":    strings.Join(params, ","),
	}
}
