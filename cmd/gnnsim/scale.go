package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"gnnsim/bench"
	"gnnsim/graphs"
	"gnnsim/workload"
)

// Progress of the stages of one large graph (issue 39): generation, the
// set writer, the set reader and the 24 simulations of 'simulate' each
// take seconds to minutes on 10^8-10^9 edges. Small graphs show nothing,
// so the output of the commands on them is unchanged.

// simProgress returns the display of the n simulations of a large graph g,
// or nil.
func simProgress(cmd *cobra.Command, g *graphs.Graph, n int) *bench.Progress {
	if cmd == nil || int64(g.NNZ()) < bench.LargeEntries {
		return nil
	}
	p := bench.NewProgress(progressOut(cmd), "simulate "+g.Name, "configurations", n)
	p.KeepAlive()
	return p
}

// longRunWork is the work (stored entries x widest layer width, summed over
// the graphs, layers and configurations) from which a run of graphs too
// small for simProgress shows one display of its own: about what the 24
// configurations of one large graph (2^23 entries) at width 64 take.
const longRunWork = bench.LargeEntries * 64 * 24

// longRunProgress returns the display of a whole omega run (every graph's
// layers x n configurations) when its work is long though no graph is
// large (a deep, wide model on a small graph: issue 38 item 9), else nil.
func longRunProgress(cmd *cobra.Command, gs []*graphs.Graph, layersOf func(*graphs.Graph) ([]workload.Layer, error), n int) *bench.Progress {
	var work float64
	total := 0
	for _, g := range gs {
		if int64(g.NNZ()) >= bench.LargeEntries {
			continue // shown by simProgress
		}
		layers, err := layersOf(g)
		if err != nil {
			return nil // reported by the run itself
		}
		for _, l := range layers {
			work += float64(g.NNZ()) * float64(max(l.F, l.G)) * float64(n)
			total += n
		}
	}
	if work < longRunWork || total == 0 {
		return nil
	}
	p := bench.NewProgress(progressOut(cmd), "simulate", "configurations", total)
	p.KeepAlive()
	return p
}

// featuresFlag adds --features to a command that writes a graph set.
func featuresFlag(c *cobra.Command) {
	c.Flags().String("features", "auto", fmt.Sprintf("clustering and triangles: auto (exact up to %d stored entries, "+
		"estimated by wedge sampling above, the error bounds in the file's metadata) or exact", graphs.EstimateAbove))
}

// featureMode reads --features (auto when the command has none).
func featureMode(cmd *cobra.Command) (graphs.FeatureMode, error) {
	f := cmd.Flag("features")
	if f == nil {
		return graphs.FeaturesAuto, nil
	}
	switch f.Value.String() {
	case "auto":
		return graphs.FeaturesAuto, nil
	case "exact":
		return graphs.FeaturesExact, nil
	}
	return 0, fmt.Errorf("--features %q: want auto or exact", f.Value.String())
}
