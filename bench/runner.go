package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"gnnsim/accel"
	"gnnsim/graphs"
	"gnnsim/internal/atomicfile"
	"gnnsim/internal/par"
	"gnnsim/internal/pqio"
	"gnnsim/workload"
)

// Output file names inside a sweep directory.
const (
	GraphsFile   = "graphs.parquet" // graph-set file (graphs package layout)
	RunsFile     = "runs.parquet"   // RunRow table
	SpecFile     = "spec.yaml"      // the normalized spec
	ManifestFile = "sweep.json"     // spec hash and chunk count, for merge
	partsDir     = "parts"
)

// Options steer a run without changing its results.
type Options struct {
	Workers  int       // goroutines; <= 0 means runtime.GOMAXPROCS(0)
	Shard    Shard     // zero value: the whole sweep
	Progress io.Writer // live progress display (only drawn on a terminal); nil: none
}

// Summary reports what a run did.
type Summary struct {
	Graphs, Runs   int     // in the final dataset (0 for an unfinished shard)
	Chunks         int     // chunks of the whole sweep
	ChunksDone     int     // chunks present after this run
	ChunksComputed int     // chunks this run computed
	ChunksReused   int     // chunks found finished and skipped
	Complete       bool    // the final graphs/runs tables were written
	Best           []Count // optimal configuration per (graph, F, G, hardware)
	Skipped        []string
}

// Count is a configuration and how many cases it is the fastest for.
type Count struct {
	Config string
	N      int
}

type manifest struct {
	SpecHash string `json:"spec_hash"`
	Graphs   int    `json:"graphs"`
	Chunks   int    `json:"chunks"`
}

func (p *Plan) meta() map[string]string {
	return map[string]string{
		"gnnsim.spec":      p.Spec.Canonical(),
		"gnnsim.spec_hash": p.Spec.Hash(),
		"gnnsim.seed":      strconv.FormatUint(p.Spec.Seed, 10),
	}
}

func (p *Plan) partPath(dir, table string, c int) string {
	return filepath.Join(dir, partsDir, p.Spec.Hash(), fmt.Sprintf("%s-%06d.parquet", table, c))
}

// chunkDone reports whether both part files of chunk c exist. The graphs
// part is written last, so its presence means the chunk finished.
func (p *Plan) chunkDone(dir string, c int) bool {
	for _, t := range []string{"runs", "graphs"} {
		if _, err := os.Stat(p.partPath(dir, t, c)); err != nil {
			return false
		}
	}
	return true
}

// Run executes the plan's share (opt.Shard) into dir, skipping chunks that
// are already finished there. When every chunk of the sweep is present
// afterwards, it writes the final graphs and runs tables. Cancelling ctx
// stops it after the chunks in flight; finished chunks are kept.
func (p *Plan) Run(ctx context.Context, dir string, opt Options) (*Summary, error) {
	if opt.Shard.Count == 0 {
		opt.Shard = All
	}
	if err := p.initDir(dir); err != nil {
		return nil, err
	}
	sum := &Summary{Chunks: p.NumChunks(), Skipped: p.Skipped}
	var todo []int
	for c := range p.NumChunks() {
		if !opt.Shard.Owns(c) {
			continue
		}
		if p.chunkDone(dir, c) {
			sum.ChunksReused++
			continue
		}
		// Temp files of an owned chunk were left by a killed run of this
		// shard. Other shards' temp files may be in flight: never touch them.
		for _, t := range []string{"runs", "graphs"} {
			stale, _ := filepath.Glob(atomicfile.TempPattern(p.partPath(dir, t, c)))
			for _, f := range stale {
				os.Remove(f)
			}
		}
		todo = append(todo, c)
	}
	prog := NewProgress(orDiscard(opt.Progress), "sweep", "graphs", p.chunkGraphs(todo))
	// Cancelling ctx stops the handing out of chunks; those in flight
	// finish. The error reported is that of the lowest failing chunk of
	// todo, one that found ctx cancelled included.
	var computed atomic.Int32
	runErr := par.For(len(todo), opt.Workers, func(k int) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := p.runChunk(dir, todo[k], prog); err != nil {
			return err
		}
		computed.Add(1)
		return nil
	})
	prog.Done()
	sum.ChunksComputed = int(computed.Load())
	for c := range p.NumChunks() {
		if p.chunkDone(dir, c) {
			sum.ChunksDone++
		}
	}
	if runErr != nil {
		return sum, runErr
	}
	if sum.ChunksDone == sum.Chunks {
		if err := p.assemble([]string{dir}, dir, sum); err != nil {
			return sum, err
		}
	}
	return sum, nil
}

func orDiscard(w io.Writer) io.Writer {
	if w == nil {
		return io.Discard
	}
	return w
}

func (p *Plan) chunkGraphs(cs []int) int {
	n := 0
	for _, c := range cs {
		lo, hi := p.chunkRange(c)
		n += hi - lo
	}
	return n
}

func (p *Plan) chunkRange(c int) (lo, hi int) {
	lo = c * p.Spec.ChunkGraphs
	return lo, min(lo+p.Spec.ChunkGraphs, p.total)
}

// initDir creates dir and records the spec and manifest. Shards running at
// once may share dir: both files are written atomically with equal content.
func (p *Plan) initDir(dir string) error {
	pd := filepath.Join(dir, partsDir, p.Spec.Hash())
	if err := os.MkdirAll(pd, 0o755); err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	m, _ := json.MarshalIndent(manifest{p.Spec.Hash(), p.total, p.NumChunks()}, "", "  ")
	if err := writeFileAtomic(filepath.Join(dir, ManifestFile), append(m, '\n')); err != nil {
		return err
	}
	return writeFileAtomic(filepath.Join(dir, SpecFile), []byte(p.Spec.Canonical()))
}

func writeFileAtomic(path string, data []byte) error {
	if err := atomicfile.WriteFile(path, data); err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	return nil
}

// runChunk simulates the graphs of chunk c and writes its two part files.
func (p *Plan) runChunk(dir string, c int, prog *Progress) error {
	lo, hi := p.chunkRange(c)
	gs := make([]*graphs.Graph, 0, hi-lo)
	var rows []RunRow
	for id := lo; id < hi; id++ {
		g, ds, err := p.graph(id)
		if err != nil {
			return fmt.Errorf("bench: graph %d: %w", id, err)
		}
		gs = append(gs, g)
		if rows, err = p.simulate(rows, id, g, ds); err != nil {
			return err
		}
		prog.Add(1)
	}
	meta := p.meta()
	meta["gnnsim.chunk"] = strconv.Itoa(c)
	if err := pqio.Write(p.partPath(dir, "runs", c), rows, meta); err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	if err := graphs.WriteSet(p.partPath(dir, "graphs", c), gs, meta); err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	return nil
}

// simulate appends the runs of graph id to rows.
func (p *Plan) simulate(rows []RunRow, id int, g *graphs.Graph, ds string) ([]RunRow, error) {
	for _, fg := range p.sizes(id) {
		prep, err := accel.Prepare(g, workload.Layer{Kind: workload.GCN, F: fg[0], G: fg[1]})
		if err != nil {
			return rows, fmt.Errorf("bench: graph %d (%s): %w", id, g.Name, err)
		}
		for _, hp := range p.hws {
			for _, cs := range p.configs {
				cfg, err := cs.tiling.Config(cs.inter, prep.Dims(), hp.hw.PEs, hp.hw.PPAggPEs)
				if err != nil {
					return rows, fmt.Errorf("bench: graph %d (%s) F=%d G=%d: %w", id, g.Name, fg[0], fg[1], err)
				}
				r, err := prep.Run(cfg, hp.hw, p.opts)
				if err != nil {
					return rows, fmt.Errorf("bench: graph %d (%s) %s: %w", id, g.Name, cfg.Name(), err)
				}
				row := newRunRow(&r, &cfg)
				row.GraphID, row.GraphName, row.Dataset = int64(id), g.Name, ds
				row.F, row.G = int64(fg[0]), int64(fg[1])
				row.Hardware, row.PEs = hp.name, int64(hp.hw.PEs)
				rows = append(rows, row)
			}
		}
	}
	return rows, nil
}

// assemble joins the part files of every chunk, found in any of dirs, into
// the final tables in out. The result depends only on the parts' contents,
// so sharded-and-merged sweeps equal unsharded ones byte for byte.
func (p *Plan) assemble(dirs []string, out string, sum *Summary) error {
	var allRows []RunRow
	var allGraphs []*graphs.Graph
	for c := range p.NumChunks() {
		d := ""
		for _, cand := range dirs {
			if p.chunkDone(cand, c) {
				d = cand
				break
			}
		}
		if d == "" {
			return fmt.Errorf("bench: chunk %d of %d is missing from %s", c, p.NumChunks(), strings.Join(dirs, ", "))
		}
		rows, _, err := pqio.Read[RunRow](p.partPath(d, "runs", c))
		if err != nil {
			return fmt.Errorf("bench: %w", err)
		}
		gs, _, err := graphs.ReadSet(p.partPath(d, "graphs", c))
		if err != nil {
			return fmt.Errorf("bench: %w", err)
		}
		allRows = append(allRows, rows...)
		allGraphs = append(allGraphs, gs...)
	}
	if len(allGraphs) != p.total {
		return fmt.Errorf("bench: parts hold %d graphs, the spec %d", len(allGraphs), p.total)
	}
	meta := p.meta()
	if err := graphs.WriteSet(filepath.Join(out, GraphsFile), allGraphs, meta); err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	if err := pqio.Write(filepath.Join(out, RunsFile), allRows, meta); err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	sum.Graphs, sum.Runs, sum.Complete = len(allGraphs), len(allRows), true
	sum.Best = BestCounts(allRows)
	return nil
}

// BestCounts groups rows by (graph, F, G, hardware) and counts how often
// each configuration is the fastest (ties go to the first in row order,
// which is the canonical configuration order). Counts are sorted by
// decreasing count, then name.
func BestCounts(rows []RunRow) []Count {
	type key struct {
		id, f, g int64
		hw       string
	}
	counts := map[string]int{}
	for i := 0; i < len(rows); {
		k := key{rows[i].GraphID, rows[i].F, rows[i].G, rows[i].Hardware}
		best := i
		j := i
		for ; j < len(rows) && (key{rows[j].GraphID, rows[j].F, rows[j].G, rows[j].Hardware}) == k; j++ {
			if rows[j].Cycles < rows[best].Cycles {
				best = j
			}
		}
		counts[rows[best].Config]++
		i = j
	}
	out := make([]Count, 0, len(counts))
	for c, n := range counts {
		out = append(out, Count{c, n})
	}
	slices.SortFunc(out, func(a, b Count) int {
		if a.N != b.N {
			return b.N - a.N
		}
		return strings.Compare(a.Config, b.Config)
	})
	return out
}

// Merge joins the part files of sweep directories (shards of one spec, run
// into separate directories or the same one) into final tables in out.
func Merge(dirs []string, out string) (*Summary, error) {
	if len(dirs) == 0 {
		return nil, errors.New("bench: merge needs at least one directory")
	}
	var spec *Spec
	for _, d := range dirs {
		data, err := os.ReadFile(filepath.Join(d, SpecFile))
		if err != nil {
			return nil, fmt.Errorf("bench: %s is not a sweep directory: %w", d, err)
		}
		s, err := ParseSpec(data)
		if err != nil {
			return nil, fmt.Errorf("bench: %s: %w", d, err)
		}
		if spec != nil && s.Hash() != spec.Hash() {
			return nil, fmt.Errorf("bench: %s holds spec %s, %s holds %s: not shards of one sweep", d, s.Hash(), dirs[0], spec.Hash())
		}
		spec = s
	}
	// The manifest gives the graph count, so merging needs neither the
	// input files nor the generators.
	data, err := os.ReadFile(filepath.Join(dirs[0], ManifestFile))
	if err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	var m manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("bench: %s: %w", filepath.Join(dirs[0], ManifestFile), err)
	}
	p := &Plan{Spec: spec, total: m.Graphs}
	if m.SpecHash != spec.Hash() || p.NumChunks() != m.Chunks {
		return nil, fmt.Errorf("bench: %s does not match %s", ManifestFile, SpecFile)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	sum := &Summary{Chunks: p.NumChunks()}
	for c := range p.NumChunks() {
		for _, d := range dirs {
			if p.chunkDone(d, c) {
				sum.ChunksDone++
				break
			}
		}
	}
	if err := p.assemble(dirs, out, sum); err != nil {
		return sum, err
	}
	if err := writeFileAtomic(filepath.Join(out, SpecFile), []byte(spec.Canonical())); err != nil {
		return sum, err
	}
	return sum, nil
}
