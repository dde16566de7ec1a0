package main

import (
	"os"
	"strings"

	"github.com/spf13/cobra"

	"gnnsim/bench"
	"gnnsim/graphs"
)

// Progress of the stages of one large graph (issue 39): generation, the
// set writer, the set reader and the 24 simulations of 'simulate' each
// take seconds to minutes on 10^8-10^9 edges. Small graphs show nothing,
// so the output of the commands on them is unchanged.

// largeEntries is the CSR size (stored entries) from which a graph's
// stages are shown: about a second of work at 10^7 entries.
const largeEntries = 1 << 23

// largeSetBytes is the graph-set file size from which reading it is shown.
const largeSetBytes = 64 << 20

// graphStages returns the stage display of a command working on one graph
// of nnz entries, or nil (no display) for a smaller graph.
func graphStages(cmd *cobra.Command, label string, nnz int64) *bench.Stages {
	if nnz < largeEntries {
		return nil
	}
	return bench.NewStages(progressOut(cmd), label)
}

// meterOf returns s as a graphs.Meter, nil when s is nil (a nil *Stages in
// an interface would not be a nil Meter).
func meterOf(s *bench.Stages) graphs.Meter {
	if s == nil {
		return nil
	}
	return s
}

// readSetShown is graphs.ReadSet showing the stages of reading a large
// file.
func readSetShown(cmd *cobra.Command, path string) ([]*graphs.Graph, error) {
	var st *bench.Stages
	if fi, err := os.Stat(path); err == nil && fi.Size() >= largeSetBytes && cmd != nil {
		st = bench.NewStages(progressOut(cmd), "read "+path)
	}
	gs, _, err := graphs.ReadSetMeter(path, meterOf(st))
	st.Done()
	return gs, err
}

// isSetPath reports whether loadGraphs reads path as a graph-set file.
func isSetPath(path, format string) bool {
	return format == "" && strings.HasSuffix(strings.ToLower(path), ".parquet")
}

// simProgress returns the display of the n simulations of a large graph g,
// or nil.
func simProgress(cmd *cobra.Command, g *graphs.Graph, n int) *bench.Progress {
	if cmd == nil || int64(g.NNZ()) < largeEntries {
		return nil
	}
	p := bench.NewProgress(progressOut(cmd), "simulate "+g.Name, "configurations", n)
	p.KeepAlive()
	return p
}
