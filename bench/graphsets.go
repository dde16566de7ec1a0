package bench

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"strings"

	"gnnsim/accel/omegaref"
	"gnnsim/graphs"
	"gnnsim/hw"
	"gnnsim/internal/par"
	"gnnsim/workload"
)

// LargeEntries is the CSR size (stored entries) from which a graph's
// stages are shown: about a second of work at 10^7 entries.
const LargeEntries = 1 << 23

// largeSetBytes is the graph-set file size from which reading it is shown.
const largeSetBytes = 64 << 20

// graphStages returns the stage display (on w) of work on one graph
// of nnz entries, or nil (no display) for a smaller graph.
func graphStages(w io.Writer, label string, nnz int64) *Stages {
	if nnz < LargeEntries {
		return nil
	}
	return NewStages(w, label)
}

// meterOf returns s as a graphs.Meter, nil when s is nil (a nil *Stages in
// an interface would not be a nil Meter).
func meterOf(s *Stages) graphs.Meter {
	if s == nil {
		return nil
	}
	return s
}

// ReadGraphSet is graphs.ReadSet after CheckReadMemory, showing on
// progress (nil: nowhere) the stages of reading a large file.
func ReadGraphSet(path string, progress io.Writer) ([]*graphs.Graph, error) {
	if err := graphs.CheckReadMemory(path); err != nil {
		return nil, err
	}
	var st *Stages
	if fi, err := os.Stat(path); err == nil && fi.Size() >= largeSetBytes {
		st = NewStages(progress, "read "+path)
	}
	gs, _, err := graphs.ReadSetMeter(path, meterOf(st))
	st.Done()
	return gs, err
}

// ReleaseLargeCols drops the column ids of the large graphs of gs (at
// least LargeEntries stored entries), which ReadGraphSet has validated,
// for a caller that needs only the row lengths: the omega runs (the
// accelerator model times a row by its length alone), whose scratch then
// reuses the columns' memory (8 GB at 10^9 edges: simulate of the 10^9
// R-MAT set peaked at 16.8 GB with them, 9.4 GB without). The collection
// returns them to the heap at once; without it the heap would first grow
// to twice the CSR.
func ReleaseLargeCols(gs []*graphs.Graph) {
	released := false
	for _, g := range gs {
		if int64(g.NNZ()) >= LargeEntries {
			g.ReleaseCols()
			released = true
		}
	}
	if released {
		runtime.GC()
	}
}

// GenerateGraphs makes the graphs of spec in parallel (graph i depends
// only on spec and i, as graphs.GenerateSet), showing progress on w (nil:
// nowhere) and stopping between graphs when ctx is done.
func GenerateGraphs(ctx context.Context, spec graphs.GenSpec, w io.Writer) ([]*graphs.Graph, error) {
	// One large graph shows its stages (draws, CSR) instead of 0/1 graphs.
	var st *Stages
	var prog *Progress
	if spec.Count == 1 {
		st = graphStages(w, "graphs gen", 2*int64(max(spec.MinEdges, spec.MaxEdges)))
	}
	if st == nil {
		prog = NewProgress(w, "graphs gen", "graphs", spec.Count)
	}
	gs := make([]*graphs.Graph, spec.Count)
	// Graph 0 first, alone: it checks the generator and parameters once
	// (a bad spec fails with one error) and is kept, so no graph is made
	// twice (a 10^8-draw R-MAT graph was: 37-46 s under load).
	g0, err := graphs.GenerateMeter(spec, 0, meterOf(st))
	if err != nil {
		st.Done()
		prog.Done()
		return nil, err
	}
	gs[0] = g0
	prog.Add(1)
	err = par.For(spec.Count-1, 0, func(j int) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		i := j + 1
		g, err := graphs.GenerateMeter(spec, i, meterOf(st))
		if err != nil {
			return err
		}
		gs[i] = g
		prog.Add(1)
		return nil
	})
	st.Done()
	prog.Done()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return gs, err
}

// WriteGraphSet writes gs to out with their features in mode, showing
// progress on w (nil: nowhere).
func WriteGraphSet(out string, gs []*graphs.Graph, meta map[string]string, mode graphs.FeatureMode, generated bool, w io.Writer) error {
	// Each graph's features (clustering, degrees, ...) are computed as it
	// is written: seconds for thousands of graphs, so shown as progress.
	// One large graph shows its stages (validate, triangles, encode)
	// instead of a count of graphs that reaches 1/1 before the encoding.
	var st *Stages
	var prog *Progress
	if len(gs) == 1 && gs[0] != nil {
		st = graphStages(w, "graphs write", int64(gs[0].NNZ()))
	}
	if st == nil {
		prog = NewProgress(w, "graphs features", "graphs", len(gs))
	}
	err := graphs.WriteSetWith(out, gs, meta, graphs.WriteOptions{Done: func() { prog.Add(1) }, Meter: meterOf(st), Features: mode,
		Generated: generated})
	st.Done()
	prog.Done()
	if err != nil {
		return err
	}
	return nil
}

// GraphSetSummary is the one line saying what WriteGraphSet wrote to out:
// the number of graphs and their node and edge ranges.
func GraphSetSummary(gs []*graphs.Graph, out string) string {
	if len(gs) == 0 {
		return fmt.Sprintf("wrote 0 graphs to %s", out)
	}
	noun := "graphs"
	if len(gs) == 1 {
		noun = "graph"
	}
	minV, maxV, minE, maxE := math.MaxInt, 0, math.MaxInt, 0
	for _, g := range gs {
		v, e := g.NumNodes(), g.NumEdges()
		minV, maxV, minE, maxE = min(minV, v), max(maxV, v), min(minE, e), max(maxE, e)
	}
	return fmt.Sprintf("wrote %d %s (V %d..%d, E %d..%d) to %s", len(gs), noun, minV, maxV, minE, maxE, out)
}

// IsSetPath reports whether LoadGraphs reads path as a graph-set file.
func IsSetPath(path, format string) bool {
	return format == "" && strings.HasSuffix(strings.ToLower(path), ".parquet")
}

// LoadGraphs reads a graph-set Parquet file, a reference .csr graph, or a
// raw graph file or directory.
func LoadGraphs(path, format string) ([]*graphs.Graph, error) {
	switch {
	case IsSetPath(path, format):
		gs, _, err := graphs.ReadSet(path)
		return gs, err
	case format == "" && strings.HasSuffix(strings.ToLower(path), ".csr"):
		g, err := omegaref.ReadCSR(path)
		if err != nil {
			return nil, err
		}
		return []*graphs.Graph{g}, nil
	}
	if _, err := os.Stat(path); err != nil && !graphs.IsPlanetoid(path) {
		return nil, err
	}
	return graphs.Load(path, graphs.Format(format))
}

// StackModel builds the GNN stack spec (named what in errors) on the one
// graph of the data set data (resolved as ref): its input width the
// file's features, else features, else the data set's (a
// node-classification set).
func StackModel(spec *workload.ModelSpec, what, data string, ref Data, features int) (workload.Model, error) {
	var g *graphs.Graph
	if ref.Labelled {
		p, err := graphs.LoadPlanetoid(ref.Path)
		if err != nil {
			return workload.Model{}, fmt.Errorf("--data: %w", err)
		}
		g = p.Graph
		if features == 0 {
			features = p.NumFeatures()
		}
	} else {
		gs, err := LoadGraphs(ref.Path, string(ref.Format))
		if err != nil {
			return workload.Model{}, fmt.Errorf("--data: %w", err)
		}
		if len(gs) != 1 {
			return workload.Model{}, fmt.Errorf("--data %s holds %d graphs; the SoC prices one model on one graph: give one graph", data, len(gs))
		}
		g = gs[0]
	}
	if features == 0 && spec.Features == 0 {
		return workload.Model{}, fmt.Errorf("--model %s: --data %s has no node features: give the input width with --features (or features: in the file)", what, data)
	}
	m, err := spec.Build(hw.SizeOf(g), features)
	if err != nil {
		return workload.Model{}, fmt.Errorf("--model %s: %w", what, err)
	}
	if spec.Name == "" {
		m.Name = what
	}
	return m, nil
}
