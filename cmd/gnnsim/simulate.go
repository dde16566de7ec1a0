package main

import (
	"fmt"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"gnnsim/accel"
	"gnnsim/bench"
	"gnnsim/dataflow"
	"gnnsim/graphs"
	"gnnsim/workload"
)

func init() {
	register(func() *cobra.Command { return deprecate(newSimulateCmd(), "gnnsim omega eval") })
}

type simulateFlags struct {
	graphsPath, format, graph string
	data, dataDir             string // --data NAME|PATH instead of --graphs
	F, G                      int
	layer                     string
	dataflows, tilings        string
	pes, ppAggPEs             int
	mode, hwPath, disable     string
	engine                    string
	jsonOut                   bool
	out                       string
}

func newSimulateCmd() *cobra.Command {
	var f simulateFlags
	cmd := &cobra.Command{
		Use:   "simulate --graphs FILE | --data NAME|PATH [flags]",
		Short: "Run GNN layers on the Omega-style accelerator model and print cycles, traffic and energy",
		Long: `Run one GNN layer per graph on the Omega-style spatial accelerator model
(package accel) under the chosen dataflow configurations, and print one row
per (graph, configuration): cycles, per-phase cycles, stalls, PE
utilisation, MACs, global-buffer / DRAM / NoC traffic and energy.

--graphs takes a graph-set Parquet file (gnnsim graphs gen/load), a
STONNE-Omega reference graph (.csr, A+I in the file's row order), or any raw
graph file or directory package graphs reads (TUDataset, Matrix Market, edge
list, .cites; --format overrides the detection). --data instead names a
data set or path as every command's --data does (cora, ENZYMES, a
SuiteSparse matrix such as karate, looked up under --data-dir). Row order
is kept: it decides which rows share a row group or tile.

Configurations are the cross product of --dataflow and --tiling. Tilings
are the named tilings a..h of seed 002's Table 2, "all", a comma-separated
list of names, or one custom recipe such as
"T_Va=*,T_N=2,T_Fa=8,T_Vc=*,T_Gc=1,T_Fc=16" ("*" = as large as the PEs
allow). For pp the PEs are split between the phases (--pp-agg-pes, default
half) and each phase's tiles are resolved from its share.

--mode omega reproduces STONNE-Omega (no memory limits, its bookkeeping
quirks included); --mode extended (the default) adds a finite global buffer
with DRAM, NoC bandwidth limits, shared buffer ports in pp, energy, and fixes
omega's quirks. --disable switches extended-mode effects off one by one.

Table columns: graph; V (nodes); nnz (non-zeros of A+I); config
(dataflow-tiling); cycles (total, at the accelerator clock); agg / comb
(cycles of the aggregation / combination phase); stalls (cycles waiting:
pipeline + memory + ports); util% (PE utilisation); MACs; GB acc
(global-buffer reads + writes); DRAM B (DRAM bytes); NoC acc (NoC reads +
writes); energy nJ (total); tiles (the resolved tile sizes).

--json and --out (Parquet, typed columns, one row per (graph,
configuration)) carry the same fields: graph, nodes, nnz, layer, F, G,
dataflow, tiling, tiles, pes, agg_pes, comb_pes, mode, effects (the
extended-mode effects on); cycles, seconds, agg_cycles, comb_cycles,
stall_cycles, stall_pipeline_cycles, stall_memory_cycles, stall_port_cycles,
macs, utilization (0..1); gb_reads, gb_writes, gb_bytes, dram_reads,
dram_writes, dram_bytes, dram_spill_bytes, dram_refetch_bytes, noc_reads,
noc_writes, noc_bytes (accesses or bytes); energy_mac_pj, energy_rf_pj,
energy_noc_pj, energy_gb_pj, energy_dram_pj, energy_total_pj; events
(discrete events run). The Parquet file's metadata holds gnnsim.command,
gnnsim.flags (the flags given) and gnnsim.version.`,
		Example: `  gnnsim simulate --graphs ../shared/data/matrix-market/karate.mtx --F 64 --G 16
  gnnsim simulate --graphs set.parquet --graph 3 --dataflow pp --tiling a,c --mode omega --json
  gnnsim simulate --graphs set.parquet --dataflow pp --out results.parquet
  gnnsim simulate --graphs g.csr --tiling "T_Va=*,T_N=4,T_Fa=16,T_Vc=*,T_Gc=1,T_Fc=16" --hw hw.yaml`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkOmegaFlags(cmd, &f); err != nil {
				return err
			}
			if _, err := omegaData(&f); err != nil {
				return err
			}
			return runSimulate(cmd, &f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.graphsPath, "graphs", "", "graph-set Parquet file, .csr reference graph, or raw graph file/directory (this or --data)")
	dataFlags(fl, &f.data, &f.dataDir, "", "graph (this or --graphs)")
	fl.StringVar(&f.format, "format", "", "raw graph format: tu, mtx, edgelist or cites (default: detect from the path)")
	fl.StringVar(&f.graph, "graph", "", "simulate only this graph: its name, or its 0-based index in the file (default: all)")
	intFlag(fl, &f.F, "F", 64, 1, workload.MaxFeatures, "input feature width F")
	intFlag(fl, &f.G, "G", 16, 1, workload.MaxFeatures, "output feature width G")
	fl.StringVar(&f.layer, "layer", "gcn", "layer kind: gcn, gin, sage or gat")
	addOmegaFlags(fl, &f)
	fl.BoolVar(&f.jsonOut, "json", false, "print a JSON array of results instead of a table")
	outFileFlag(fl, &f.out, "out", "", "also write the results as a Parquet file, one row per (graph, configuration), columns as in --json")
	return cmd
}

// omegaData resolves --data (bench.ResolveData) into the graph path and
// format of simulate and 'eval --unit omega'; exactly one of --graphs
// (--graph for eval) and --data names the graph.
func omegaData(f *simulateFlags) (bench.Data, error) {
	switch {
	case f.data != "" && f.graphsPath != "":
		return bench.Data{}, fmt.Errorf("--graphs and --data exclude each other")
	case f.data == "" && f.graphsPath == "":
		return bench.Data{}, fmt.Errorf("no graph: give --graphs PATH or --data NAME|PATH")
	case f.data == "":
		return bench.Data{Path: f.graphsPath}, nil
	}
	ref, err := resolveData(f.data, f.dataDir, bench.NeedGraph)
	if err != nil {
		return bench.Data{}, err
	}
	f.graphsPath = ref.Path
	if f.format == "" {
		f.format = string(ref.Format)
	}
	return ref, nil
}

// addOmegaFlags registers the Omega accelerator's options (everything
// but the graph and the layer), shared by simulate and 'eval --unit omega'.
func addOmegaFlags(fl *pflag.FlagSet, f *simulateFlags) {
	fl.StringVar(&f.dataflows, "dataflow", "all", "inter-phase dataflow: seq, sp, pp, a comma-separated list, or all")
	fl.StringVar(&f.tilings, "tiling", "all", `tiling: a..h, a comma-separated list of names, all, or one custom recipe "T_Va=..,T_N=..,T_Fa=..,T_Vc=..,T_Gc=..,T_Fc=.."`)
	intFlag(fl, &f.pes, "pes", 0, 0, accel.MaxPEs, "PE count (default: the hardware spec's, 512 built in)")
	intFlag(fl, &f.ppAggPEs, "pp-agg-pes", 0, 0, accel.MaxPEs, "PEs given to aggregation in pp (default: the hardware spec's, half)")
	fl.StringVar(&f.mode, "mode", "extended", "omega (reproduce STONNE-Omega) or extended (add memory, NoC, port and energy effects)")
	fl.StringVar(&f.hwPath, "hw", "", "hardware spec YAML (keys as in 'go doc gnnsim/accel.HW'; left-out keys keep the built-in defaults)")
	fl.StringVar(&f.disable, "disable", "", "extended-mode effects to switch off, comma-separated: buffer, noc, ports, energy, fix-last-group, fix-row-times, fix-pp-tiles, fix-pp-stamps, all")
	fl.StringVar(&f.engine, "engine", "events", "events (run on the discrete-event kernel) or fast (closed form where exact; same numbers)")
}

// checkOmegaFlags refuses an explicit PE count below 1: leaving the flag
// out takes the hardware spec's value, an explicit 0 is an error, not a
// silent default.
func checkOmegaFlags(cmd *cobra.Command, f *simulateFlags) error {
	for _, fl := range []struct {
		name string
		v    int
	}{{"pes", f.pes}, {"pp-agg-pes", f.ppAggPEs}} {
		if cmd.Flags().Changed(fl.name) && fl.v < 1 {
			return fmt.Errorf("--%s %d: want at least 1 (leave the flag out for the hardware spec's)", fl.name, fl.v)
		}
	}
	return nil
}

// simRecord is simulate's Parquet row: its name is the schema's root name
// in the files --out wrote before the record moved to package accel.
type simRecord accel.Record

func runSimulate(cmd *cobra.Command, f *simulateFlags) error {
	kind, err := workload.ParseLayerKind(f.layer)
	if err != nil {
		return fmt.Errorf("--layer: %w", err)
	}
	layer := workload.Layer{Kind: kind, F: f.F, G: f.G}
	return runOmega(cmd, f, func(*graphs.Graph) ([]workload.Layer, error) { return []workload.Layer{layer}, nil })
}

// runOmega runs, on every selected graph of f, each layer layersOf gives
// for it under every configuration of f, and prints the records: the one
// code path of simulate and 'eval --unit omega'.
func runOmega(cmd *cobra.Command, f *simulateFlags, layersOf func(*graphs.Graph) ([]workload.Layer, error)) error {
	w := cmd.OutOrStdout()
	hw := accel.DefaultHW()
	if f.hwPath != "" {
		var err error
		if hw, err = accel.LoadHW(f.hwPath); err != nil {
			return err
		}
	}
	hw = hw.WithPEs(f.pes, f.ppAggPEs)
	if err := hw.Validate(); err != nil {
		return err
	}
	mode, err := accel.ParseMode(f.mode)
	if err != nil {
		return fmt.Errorf("--mode: %w", err)
	}
	disable, err := accel.ParseEffects(f.disable)
	if err != nil {
		return fmt.Errorf("--disable: %w", err)
	}
	if disable != 0 && mode == accel.Omega {
		return fmt.Errorf("--disable applies to extended mode only (omega mode models none of the effects)")
	}
	opts := accel.Options{Mode: mode, Disable: disable}
	if opts.Engine, err = accel.ParseEngine(f.engine); err != nil {
		return fmt.Errorf("--engine: %w", err)
	}
	inters, err := dataflow.ParseInters(f.dataflows)
	if err != nil {
		return fmt.Errorf("--dataflow: %w", err)
	}
	tilings, err := dataflow.ParseTilings(f.tilings)
	if err != nil {
		return fmt.Errorf("--tiling: %w", err)
	}
	var gs []*graphs.Graph
	if bench.IsSetPath(f.graphsPath, f.format) {
		gs, err = bench.ReadGraphSet(f.graphsPath, progressOut(cmd))
	} else {
		gs, err = loadGraphs(f.graphsPath, f.format)
	}
	if err != nil {
		return err
	}
	if gs, err = graphs.Select(gs, f.graph); err != nil {
		return err
	}
	bench.ReleaseLargeCols(gs) // the runs need only the row lengths

	var recs []accel.Record
	all := longRunProgress(cmd, gs, layersOf, len(inters)*len(tilings))
	defer all.Done()
	for _, g := range gs {
		layers, err := layersOf(g)
		if err != nil {
			return fmt.Errorf("graph %s: %w", g.Name, err)
		}
		for _, layer := range layers {
			prog := simProgress(cmd, g, len(inters)*len(tilings))
			if prog == nil {
				prog = all // a small graph in a long run: the run's display
			}
			rs, err := accel.SimulateGraph(g, layer, inters, tilings, hw, opts, func() { prog.Add(1) })
			if prog != all {
				prog.Done()
			}
			if err != nil {
				if layer.Name != "" {
					return fmt.Errorf("graph %s: layer %s: %w", g.Name, layer.Name, err)
				}
				return fmt.Errorf("graph %s: %w", g.Name, err)
			}
			recs = append(recs, rs...)
		}
	}
	rows := make([]simRecord, len(recs))
	for i, r := range recs {
		rows[i] = simRecord(r)
	}
	if err := writeOut(cmd, f.out, rows, nil); err != nil {
		return err
	}
	if f.jsonOut {
		return writeJSON(w, recs)
	}
	return accel.WriteRecordTable(w, recs)
}

// loadGraphs is bench.LoadGraphs (schedule --graph reads with it too).
func loadGraphs(path, format string) ([]*graphs.Graph, error) { return bench.LoadGraphs(path, format) }
