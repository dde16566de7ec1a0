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

	"gnnsim/graphs"
	"gnnsim/internal/atomicfile"
	"gnnsim/internal/boundedio"
	"gnnsim/internal/par"
	"gnnsim/internal/pqio"
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
	Points         int     // design points of a point kind's sweep (fpga), else 0
	Chunks         int     // chunks of the whole sweep
	ChunksDone     int     // chunks present after this run
	ChunksComputed int     // chunks this run computed
	ChunksReused   int     // chunks found finished and skipped
	Complete       bool    // the final graphs/runs tables were written
	Best           []Count // omega: optimal configuration per (graph, layer, F, G, hardware)
	Skipped        []string
	// Removed lists damaged part files this run removed (and recomputed
	// when its shard owns their chunk).
	Removed []string
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
	for _, t := range p.partTables() {
		if _, err := os.Stat(p.partPath(dir, t, c)); err != nil {
			return false
		}
	}
	return true
}

// partTables are the part files of a chunk, the one that marks it done
// last: a design-point sweep has no graphs, so its runs part alone.
func (p *Plan) partTables() []string {
	if p.points {
		return []string{"runs"}
	}
	return []string{"runs", "graphs"}
}

// errInterrupted wraps ctx's error when a run stops between units of work.
func interrupted(ctx context.Context) error {
	return fmt.Errorf("bench: %w", ctx.Err())
}

// Run executes the plan's share (opt.Shard) into dir, skipping chunks that
// are already finished there. When every chunk of the sweep is present
// afterwards, it writes the final graphs and runs tables. Cancelling ctx
// stops it within a graph's simulation: chunks in flight are abandoned,
// finished chunks are kept.
//
// dir is locked for the spec while Run works (see lockDir): shards of the
// spec may run into it at once, another spec is refused. Temp files that
// killed runs left behind are removed, and finished part files that are
// damaged (not complete Parquet files) are removed and recomputed.
func (p *Plan) Run(ctx context.Context, dir string, opt Options) (*Summary, error) {
	if opt.Shard.Count == 0 {
		opt.Shard = All
	}
	pd := filepath.Join(dir, partsDir, p.Spec.Hash())
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	lk, err := lockDir(dir, p.Spec.Hash())
	if err != nil {
		return nil, err
	}
	defer lk.unlock()
	if err := checkOwner(dir, p.Spec.Hash()); err != nil {
		return nil, err
	}
	if err := p.initDir(dir); err != nil {
		return nil, err
	}
	sum := &Summary{Chunks: p.NumChunks(), Skipped: p.Skipped}
	for _, f := range []string{GraphsFile, RunsFile, SpecFile, ManifestFile} {
		atomicfile.RemoveStale(filepath.Join(dir, f))
	}
	done, err := p.scanParts(ctx, pd, sum)
	if err != nil {
		return sum, err
	}
	var todo []int
	for c := range p.NumChunks() {
		if !opt.Shard.Owns(c) {
			continue
		}
		if done[c] {
			sum.ChunksReused++
			continue
		}
		todo = append(todo, c)
	}
	what := "graphs"
	if p.points {
		what = "points"
	}
	prog := NewProgress(orDiscard(opt.Progress), "sweep", what, p.chunkGraphs(todo))
	// Cancelling ctx stops the handing out of chunks and the chunks in
	// flight between graphs. The error reported is that of the lowest
	// failing chunk of todo, one that found ctx cancelled included.
	var computed atomic.Int32
	runErr := par.For(len(todo), opt.Workers, func(k int) error {
		if err := ctx.Err(); err != nil {
			return interrupted(ctx)
		}
		if err := p.runChunk(ctx, pd, todo[k], prog); err != nil {
			return err
		}
		done[todo[k]] = true // distinct k write distinct elements
		computed.Add(1)
		return nil
	})
	prog.Done()
	sum.ChunksComputed = int(computed.Load())
	for c := range p.NumChunks() {
		if done[c] || !opt.Shard.Owns(c) && p.chunkDone(dir, c) {
			sum.ChunksDone++
		}
	}
	if runErr != nil {
		if sum.ChunksDone == 0 { // leave no empty part directory behind
			os.Remove(pd)
			os.Remove(filepath.Dir(pd))
		}
		return sum, runErr
	}
	if sum.ChunksDone == sum.Chunks {
		if err := p.assemble(ctx, []string{dir}, dir, sum); err != nil {
			return sum, err
		}
	}
	return sum, nil
}

// scanParts lists the part directory pd once and returns which chunks are
// finished there. Finished parts that are not complete Parquet files are
// removed (and listed in sum.Removed), so their chunk is recomputed;
// stale temp files are removed.
func (p *Plan) scanParts(ctx context.Context, pd string, sum *Summary) ([]bool, error) {
	done := make([]bool, p.NumChunks())
	ents, err := os.ReadDir(pd)
	if err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	have := make(map[string]bool, len(ents))
	for i, e := range ents {
		if i%4096 == 0 && ctx.Err() != nil {
			return nil, interrupted(ctx)
		}
		name := e.Name()
		if strings.HasPrefix(name, ".") {
			if target, _, ok := strings.Cut(name[1:], ".tmp-"); ok {
				atomicfile.RemoveStale(filepath.Join(pd, target))
			}
			continue
		}
		have[name] = true
	}
	for c := range done {
		if c%4096 == 0 && ctx.Err() != nil {
			return nil, interrupted(ctx)
		}
		var fs []string
		for _, t := range p.partTables() {
			fs = append(fs, fmt.Sprintf("%s-%06d.parquet", t, c))
		}
		if !have[fs[0]] || !have[fs[len(fs)-1]] {
			continue
		}
		ok := true
		for _, f := range fs {
			if err := p.checkPart(filepath.Join(pd, f), c); err != nil {
				ok = false
				sum.Removed = append(sum.Removed, filepath.Join(pd, f))
			}
		}
		if !ok {
			for i := len(fs) - 1; i >= 0; i-- { // the done mark first
				os.Remove(filepath.Join(pd, fs[i]))
			}
			continue
		}
		done[c] = true
	}
	return done, nil
}

// checkOwner refuses a directory that holds the sweep of another spec
// (its manifest names another spec hash): the final tables of two specs
// would replace each other's, graphs.parquet of one beside runs.parquet of
// the other. A directory belongs to the first spec run into it; another
// spec needs another directory, or this one deleted.
func checkOwner(dir, hash string) error {
	data, err := boundedio.ReadFile(filepath.Join(dir, ManifestFile), boundedio.Manifest)
	if err != nil { // none: a merge's output holds spec.yaml alone, or nothing yet
		spec, err := boundedio.ReadFile(filepath.Join(dir, SpecFile), boundedio.Spec)
		if err != nil {
			return nil
		}
		s, err := ParseSpec(spec)
		if err == nil && s.Hash() == hash {
			return nil
		}
		return fmt.Errorf("bench: %s holds the tables of another spec (%s): write to another directory, or delete that one to replace it", dir, filepath.Join(dir, SpecFile))
	}
	var m manifest
	if json.Unmarshal(data, &m) != nil || m.SpecHash == "" {
		return fmt.Errorf("bench: %s is not a manifest of gnnsim sweep: write to another directory, or delete it", filepath.Join(dir, ManifestFile))
	}
	if m.SpecHash != hash {
		return fmt.Errorf("bench: %s holds the sweep of another spec (%s in %s, this one is %s): write to another directory, or delete that one to replace it",
			dir, m.SpecHash, ManifestFile, hash)
	}
	return nil
}

// checkPart reports a part file that is not a complete Parquet file, or
// that another chunk or spec wrote (its gnnsim.chunk and gnnsim.spec_hash
// metadata): a part copied over another must be recomputed, not trusted.
func (p *Plan) checkPart(path string, c int) error {
	f, err := pqio.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	meta := f.Meta()
	if got := meta["gnnsim.chunk"]; got != strconv.Itoa(c) {
		return fmt.Errorf("bench: %s holds chunk %q, not %d", path, got, c)
	}
	if got := meta["gnnsim.spec_hash"]; got != p.Spec.Hash() {
		return fmt.Errorf("bench: %s was written for spec %q, not %s", path, got, p.Spec.Hash())
	}
	if lo, hi := p.chunkRange(c); p.points && f.NumRows() < int64(hi-lo) {
		return fmt.Errorf("bench: %s holds %d rows, chunk %d has %d points", path, f.NumRows(), c, hi-lo)
	}
	return nil
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
	lo = c * p.Spec.chunkSize()
	return lo, min(lo+p.Spec.chunkSize(), p.total)
}

// initDir creates the part directory and records the spec and manifest.
// Shards running at once may share dir: both files are written atomically
// with equal content.
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

// runChunk simulates the graphs of chunk c and writes its two part files
// into the part directory pd. It stops between graphs when ctx is done.
func (p *Plan) runChunk(ctx context.Context, pd string, c int, prog *Progress) error {
	lo, hi := p.chunkRange(c)
	gs := make([]*graphs.Graph, 0, hi-lo)
	runs := p.kind.Table(p.Spec)
	if g, ok := runs.(interface{ Grow(int) }); ok && p.points {
		g.Grow(hi - lo) // at least a row per point
	}
	for id := lo; id < hi; id++ {
		if ctx.Err() != nil {
			return interrupted(ctx)
		}
		if p.points {
			if err := p.eval.Evaluate(runs, Case{ID: id}); err != nil {
				return err
			}
			prog.Add(1)
			continue
		}
		g, ds, err := p.graph(id)
		if err != nil {
			return fmt.Errorf("bench: graph %d: %w", id, err)
		}
		gs = append(gs, g)
		if err := p.eval.Evaluate(runs, Case{ID: id, Graph: g, Dataset: ds, Sizes: p.sizes(id)}); err != nil {
			return err
		}
		prog.Add(1)
	}
	meta := p.meta()
	meta["gnnsim.chunk"] = strconv.Itoa(c)
	part := func(t string) string { return filepath.Join(pd, fmt.Sprintf("%s-%06d.parquet", t, c)) }
	if err := runs.WriteFile(part("runs"), meta); err != nil {
		return err
	}
	if p.points {
		return nil
	}
	if err := graphs.WriteSet(part("graphs"), gs, meta); err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	return nil
}

// assemble joins the part files of every chunk, found in any of dirs, into
// the final tables in out. The result depends only on the parts' contents,
// so sharded-and-merged sweeps equal unsharded ones byte for byte. The
// tables are streamed part by part (Table.Concat, graphs.ConcatSets), so
// memory does not grow with the sweep.
func (p *Plan) assemble(ctx context.Context, dirs []string, out string, sum *Summary) error {
	parts := make([]string, p.NumChunks())
	var rows int64
	for c := range parts {
		if ctx.Err() != nil {
			return interrupted(ctx)
		}
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
		parts[c] = p.partPath(d, "runs", c)
		n, err := partRows(parts[c])
		if err != nil {
			return damagedPart(parts[c], err)
		}
		rows += n
	}
	if p.points && rows < int64(p.total) {
		return fmt.Errorf("bench: parts hold %d rows, the spec %d design points", rows, p.total)
	}
	runs := p.kind.Table(p.Spec)
	if p.points {
		if err := runs.Concat(filepath.Join(out, RunsFile), p.meta(), parts); err != nil {
			return err
		}
		sum.Points, sum.Runs, sum.Complete = p.total, int(rows), true
		return nil
	}
	graphParts := make([]string, len(parts))
	var ngraphs int64
	for c := range parts {
		if ctx.Err() != nil {
			return interrupted(ctx)
		}
		graphParts[c] = filepath.Join(filepath.Dir(parts[c]), fmt.Sprintf("graphs-%06d.parquet", c))
		n, err := partRows(graphParts[c])
		if err != nil {
			return damagedPart(graphParts[c], err)
		}
		ngraphs += n
	}
	if ngraphs != int64(p.total) {
		return fmt.Errorf("bench: parts hold %d graphs, the spec %d", ngraphs, p.total)
	}
	if ctx.Err() != nil {
		return interrupted(ctx)
	}
	meta := p.meta()
	if err := graphs.ConcatSets(filepath.Join(out, GraphsFile), graphParts, meta); err != nil {
		if pe := (*graphs.PartError)(nil); errors.As(err, &pe) {
			return damagedPart(pe.Path, pe.Err)
		}
		return fmt.Errorf("bench: %w", err)
	}
	if err := runs.Concat(filepath.Join(out, RunsFile), meta, parts); err != nil {
		return err
	}
	sum.Graphs, sum.Runs, sum.Complete = p.total, int(rows), true
	if b, ok := runs.(interface{ Best() []Count }); ok {
		sum.Best = b.Best()
	}
	return nil
}

// partRows returns the rows a part file's footer declares.
func partRows(path string) (int64, error) {
	f, err := pqio.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	return f.NumRows(), nil
}

// damagedPart is the error of a part file that cannot be read: it names the
// file and how to recover.
func damagedPart(path string, err error) error {
	return fmt.Errorf("bench: part file %s is damaged (%v): delete it and rerun the sweep to recompute its chunk", path, err)
}

// bestCounts groups rows by (graph, layer, F, G, hardware) and counts how
// often each configuration is the fastest (ties go to the first in row
// order, which is the canonical configuration order). Counts are sorted by
// decreasing count, then name.
func bestCounts(rows []LayerRunRow) []Count {
	counts := map[string]int{}
	addBest(rows, counts)
	return sortCounts(counts)
}

// addBest adds the fastest configuration of each case of rows to counts.
func addBest(rows []LayerRunRow, counts map[string]int) {
	type key struct {
		id, f, g  int64
		layer, hw string
	}
	keyOf := func(r *LayerRunRow) key { return key{r.GraphID, r.F, r.G, r.Layer, r.Hardware} }
	for i := 0; i < len(rows); {
		k := keyOf(&rows[i])
		best := i
		j := i
		for ; j < len(rows) && keyOf(&rows[j]) == k; j++ {
			if rows[j].Cycles < rows[best].Cycles {
				best = j
			}
		}
		counts[rows[best].Config]++
		i = j
	}
}

// sortCounts lists counts by decreasing count, then name.
func sortCounts(counts map[string]int) []Count {
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
		data, err := boundedio.ReadFile(filepath.Join(d, SpecFile), boundedio.Spec)
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
	data, err := boundedio.ReadFile(filepath.Join(dirs[0], ManifestFile), boundedio.Manifest)
	if err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	var m manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("bench: %s: %w", filepath.Join(dirs[0], ManifestFile), err)
	}
	p := &Plan{Spec: spec, total: m.Graphs}
	p.kind, _ = unitKind(spec.Unit) // ParseSpec checked it
	p.points = p.kind.Points != nil
	if m.SpecHash != spec.Hash() || p.NumChunks() != m.Chunks {
		return nil, fmt.Errorf("bench: %s does not match %s", ManifestFile, SpecFile)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	lk, err := lockDir(out, spec.Hash())
	if err != nil {
		return nil, err
	}
	defer lk.unlock()
	if err := checkOwner(out, spec.Hash()); err != nil {
		return nil, err
	}
	for _, f := range []string{GraphsFile, RunsFile, SpecFile} {
		atomicfile.RemoveStale(filepath.Join(out, f))
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
	if err := p.assemble(context.Background(), dirs, out, sum); err != nil {
		return sum, err
	}
	if err := writeFileAtomic(filepath.Join(out, SpecFile), []byte(spec.Canonical())); err != nil {
		return sum, err
	}
	return sum, nil
}
