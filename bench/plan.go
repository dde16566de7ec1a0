package bench

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"gnnsim/graphs"
)

// Plan is a spec resolved against the machine: files loaded, generators
// checked, and the unit kind's keys (for omega: hardware, tilings, mode)
// resolved. Everything a sweep can get wrong is found while planning,
// before any simulation starts.
type Plan struct {
	Spec    *Spec
	sources []source
	offsets []int // offsets[k] = global id of source k's first graph
	total   int
	kind    UnitKind
	eval    Evaluator
	points  bool // the kind sweeps design points: no graphs

	// Skipped lists files a directory source could not load, with reasons.
	Skipped []string
}

type source struct {
	dataset string
	gen     *graphs.GenSpec
	count   int
	loaded  []*graphs.Graph
}

// NewPlan resolves s. Errors name the spec key and the reason.
func NewPlan(s *Spec) (*Plan, error) {
	if err := s.normalize(); err != nil { // a hand-built spec gets its defaults
		return nil, err
	}
	p := &Plan{Spec: s}
	p.kind, _ = unitKind(s.Unit) // normalize checked it
	if p.kind.Points != nil {
		n, err := p.kind.Points(s)
		if err != nil {
			return nil, err
		}
		p.total, p.points = n, true
		if p.eval, err = p.kind.Evaluator(s); err != nil {
			return nil, err
		}
		return p, nil
	}
	for i, gs := range s.Graphs {
		key := fmt.Sprintf("graphs[%d]", i)
		src, skipped, err := resolveSource(s, gs)
		if err != nil {
			return nil, &SpecError{Key: key, Reason: err.Error()}
		}
		p.Skipped = append(p.Skipped, skipped...)
		p.offsets = append(p.offsets, p.total)
		p.sources = append(p.sources, src)
		p.total += src.count
	}
	if p.total == 0 {
		return nil, specErr("graphs", "the sources hold no graphs")
	}
	if p.total > MaxGraphs {
		return nil, specErr("graphs", "%d graphs is above the limit of %d per sweep", p.total, MaxGraphs)
	}
	if p.NumChunks() > MaxChunks {
		return nil, specErr("chunk_graphs", "%d graphs in chunks of %d make more than %d part files; raise chunk_graphs", p.total, s.ChunkGraphs, MaxChunks)
	}
	var err error
	if p.eval, err = p.kind.Evaluator(s); err != nil {
		return nil, err
	}
	return p, nil
}

func resolveSource(s *Spec, gs GraphSource) (source, []string, error) {
	if gs.Generator != "" {
		spec := graphs.GenSpec{Generator: gs.Generator, Count: gs.Count, Seed: s.Seed, Params: gs.Params}
		if gs.Preset != "" {
			if gs.Generator != "graphlaxy" {
				return source{}, nil, fmt.Errorf("presets exist only for the graphlaxy generator")
			}
			ps, err := graphs.Graphlaxy(gs.Preset)
			if err != nil {
				return source{}, nil, err
			}
			if gs.Count > 0 {
				ps.Count = gs.Count
			}
			for k, v := range gs.Params {
				if ps.Params == nil {
					ps.Params = map[string]float64{}
				}
				ps.Params[k] = v
			}
			spec = ps
			spec.Seed = s.Seed
		}
		if gs.Seed != nil {
			spec.Seed = *gs.Seed
		}
		if gs.Nodes != nil {
			spec.MinNodes, spec.MaxNodes = gs.Nodes[0], gs.Nodes[1]
		}
		if gs.Edges != nil {
			spec.MinEdges, spec.MaxEdges = gs.Edges[0], gs.Edges[1]
		}
		// Generating graph 0 checks the generator name and every parameter.
		if _, err := graphs.Generate(spec, 0); err != nil {
			return source{}, nil, err
		}
		ds := gs.Dataset
		if ds == "" {
			ds = gs.Generator
			if gs.Preset != "" {
				ds += "." + gs.Preset
			}
		}
		return source{dataset: ds, gen: &spec, count: spec.Count}, nil, nil
	}
	gl, skipped, err := loadPath(s.Path(gs.Path), gs.Format, gs.Files)
	if err != nil {
		return source{}, nil, err
	}
	ds := gs.Dataset
	if ds == "" {
		ds = strings.TrimSuffix(filepath.Base(gs.Path), filepath.Ext(gs.Path))
	}
	return source{dataset: ds, loaded: gl, count: len(gl)}, skipped, nil
}

// loadPath loads a graph-set Parquet file, a raw graph file or TU
// directory, or (with a glob) every matching file of a directory.
func loadPath(path, format, glob string) ([]*graphs.Graph, []string, error) {
	if format == "graphset" || format == "" && strings.HasSuffix(path, ".parquet") {
		gs, _, err := graphs.ReadSet(path)
		return gs, nil, err
	}
	if glob == "" {
		gs, err := graphs.Load(path, graphs.Format(format))
		return gs, nil, err
	}
	files, err := filepath.Glob(filepath.Join(path, glob))
	if err != nil {
		return nil, nil, fmt.Errorf("files %q: %w", glob, err)
	}
	if len(files) == 0 {
		if _, err := os.Stat(path); err != nil {
			return nil, nil, err
		}
		return nil, nil, fmt.Errorf("no file in %s matches %q", path, glob)
	}
	var out []*graphs.Graph
	var skipped []string
	for _, f := range files { // Glob sorts, so the order is stable
		gs, err := graphs.Load(f, graphs.Format(format))
		if err != nil {
			skipped = append(skipped, err.Error())
			continue
		}
		out = append(out, gs...)
	}
	return out, skipped, nil
}

// NumGraphs is the number of graphs the sweep covers.
func (p *Plan) NumGraphs() int { return p.total }

// NumChunks is the number of part files the sweep is cut into.
func (p *Plan) NumChunks() int { return (p.total + p.Spec.chunkSize() - 1) / p.Spec.chunkSize() }

// graph returns global graph id and its dataset label.
func (p *Plan) graph(id int) (*graphs.Graph, string, error) {
	k, _ := slices.BinarySearch(p.offsets, id+1)
	k--
	src := &p.sources[k]
	local := id - p.offsets[k]
	if src.gen != nil {
		g, err := graphs.Generate(*src.gen, local)
		return g, src.dataset, err
	}
	return src.loaded[local], src.dataset, nil
}

// sizes returns the (F, G) pairs graph id runs with.
func (p *Plan) sizes(id int) [][2]int {
	sz := p.Spec.Sizes
	switch sz.Mode {
	case "cross":
		out := make([][2]int, 0, len(sz.F)*len(sz.G))
		for _, f := range sz.F {
			for _, g := range sz.G {
				out = append(out, [2]int{f, g})
			}
		}
		return out
	case "random":
		r := rand.New(rand.NewPCG(p.Spec.Seed, uint64(id)^0x5eed51ce5))
		return [][2]int{{sz.F[r.IntN(len(sz.F))], sz.G[r.IntN(len(sz.G))]}}
	default:
		return [][2]int{{sz.F[id%len(sz.F)], sz.G[id%len(sz.G)]}}
	}
}
