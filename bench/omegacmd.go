package bench

import (
	"context"
	"fmt"
	"io"

	"gnnsim/accel"
	"gnnsim/dataflow"
	"gnnsim/graphs"
	"gnnsim/workload"
)

// omegaCommand is 'gnnsim omega eval' (formerly 'gnnsim simulate') and
// 'eval --unit omega': GNN layers on the Omega-style accelerator, one row
// per (graph, layer, dataflow, tiling).
var omegaCommand = &Command{
	Use:   "eval --graphs FILE | --data NAME|PATH [flags]",
	Short: "Run GNN layers on the Omega-style accelerator model and print cycles, traffic and energy",
	Long:  omegaEvalLong,
	Example: `  gnnsim simulate --graphs ../shared/data/matrix-market/karate.mtx --F 64 --G 16
  gnnsim simulate --graphs set.parquet --graph 3 --dataflow pp --tiling a,c --mode omega --json
  gnnsim simulate --graphs set.parquet --dataflow pp --out results.parquet
  gnnsim simulate --graphs g.csr --tiling "T_Va=*,T_N=4,T_Fa=16,T_Vc=*,T_Gc=1,T_Fc=16" --hw hw.yaml`,
	JSONUsage: "print a JSON array of results instead of a table",
	OutUsage:  "also write the results as a Parquet file, one row per (graph, configuration), columns as in --json",
	Unit: `'gnnsim simulate': the Omega-style spatial accelerator runs
every layer of a GNN stack on the graph of --graph (a
path) or --data (a name or a path), one row per (graph,
layer, dataflow, tiling). Only gcn, gin, sage (mean) and
single-head gat layers are modelled: any other layer is
refused with its name. A layer's activation is fused
into the combination phase's output write and gets no
row of its own ('go doc gnnsim/accel.ModelLayers').`,
	Row: accel.Record{},
	New: func() Evaluation { return &omegaEval{} },
}

const omegaEvalLong = `Run one GNN layer per graph on the Omega-style spatial accelerator model
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
gnnsim.flags (the flags given) and gnnsim.version.`

// omegaEval holds the options of one Omega run.
type omegaEval struct {
	graphsPath, format, graph string
	data, dataDir             string // --data NAME|PATH instead of --graphs
	F, G                      int
	layer                     string
	dataflows, tilings        string
	pes, ppAggPEs             int
	mode, hwPath, disable     string
	engine                    string
}

func (o *omegaEval) OwnFlags(f Flags) {
	f.String(&o.graphsPath, "graphs", "", "graph-set Parquet file, .csr reference graph, or raw graph file/directory (this or --data)")
	f.Data(&o.data, &o.dataDir, "", DataUsage("graph (this or --graphs)"))
	f.String(&o.graph, "graph", "", "simulate only this graph: its name, or its 0-based index in the file (default: all)")
	f.Int(&o.F, "F", 64, 1, workload.MaxFeatures, "input feature width F")
	f.Int(&o.G, "G", 16, 1, workload.MaxFeatures, "output feature width G")
	f.String(&o.layer, "layer", "gcn", "layer kind: gcn, gin, sage or gat")
}

// UnitFlags registers the accelerator's options and the raw graph format.
func (o *omegaEval) UnitFlags(f Flags) {
	f.String(&o.format, "format", "", "raw graph format: tu, mtx, edgelist or cites (default: detect from the path)")
	f.String(&o.dataflows, "dataflow", "all", "inter-phase dataflow: seq, sp, pp, a comma-separated list, or all")
	f.String(&o.tilings, "tiling", "all", `tiling: a..h, a comma-separated list of names, all, or one custom recipe "T_Va=..,T_N=..,T_Fa=..,T_Vc=..,T_Gc=..,T_Fc=.."`)
	f.Int(&o.pes, "pes", 0, 0, accel.MaxPEs, "PE count (default: the hardware spec's, 512 built in)")
	f.Int(&o.ppAggPEs, "pp-agg-pes", 0, 0, accel.MaxPEs, "PEs given to aggregation in pp (default: the hardware spec's, half)")
	f.String(&o.mode, "mode", "extended", "omega (reproduce STONNE-Omega) or extended (add memory, NoC, port and energy effects)")
	f.String(&o.hwPath, "hw", "", "hardware spec YAML (keys as in 'go doc gnnsim/accel.HW'; left-out keys keep the built-in defaults)")
	f.String(&o.disable, "disable", "", "extended-mode effects to switch off, comma-separated: buffer, noc, ports, energy, fix-last-group, fix-row-times, fix-pp-tiles, fix-pp-stamps, all")
	f.String(&o.engine, "engine", "events", "events (run on the discrete-event kernel) or fast (closed form where exact; same numbers)")
}

// Eval runs the layers on the graphs under every configuration.
func (o *omegaEval) Eval(_ context.Context, in *Input) (*Result, error) {
	// An explicit PE count below 1 is refused: leaving the flag out takes
	// the hardware spec's value, an explicit 0 is not a silent default.
	for _, fl := range []struct {
		name string
		v    int
	}{{"pes", o.pes}, {"pp-agg-pes", o.ppAggPEs}} {
		if in.Changed(fl.name) && fl.v < 1 {
			return nil, fmt.Errorf("--%s %d: want at least 1 (leave the flag out for the hardware spec's)", fl.name, fl.v)
		}
	}
	if in.Unit {
		return o.evalModel(in)
	}
	if _, err := o.resolveData(); err != nil {
		return nil, err
	}
	kind, err := workload.ParseLayerKind(o.layer)
	if err != nil {
		return nil, fmt.Errorf("--layer: %w", err)
	}
	layer := workload.Layer{Kind: kind, F: o.F, G: o.G}
	return o.run(in.Progress, func(*graphs.Graph) ([]workload.Layer, error) { return []workload.Layer{layer}, nil })
}

// evalModel runs eval --unit's model on the graph of --graph or --data.
func (o *omegaEval) evalModel(in *Input) (*Result, error) {
	o.graphsPath, o.data, o.dataDir = in.Graph, in.Data, in.DataDir
	if o.graphsPath == "" && o.data == "" {
		return nil, fmt.Errorf("--unit omega needs a graph: --graph PATH or --data NAME|PATH")
	}
	ref, err := o.resolveData()
	if err != nil {
		return nil, err
	}
	features := in.Features
	if ref.Labelled && !in.FeaturesSet {
		p, err := graphs.LoadPlanetoid(ref.Path)
		if err != nil {
			return nil, fmt.Errorf("--data: %w", err)
		}
		features = p.NumFeatures() // the data set's, as soc and fpga take it
	}
	return o.run(in.Progress, func(g *graphs.Graph) ([]workload.Layer, error) {
		m, err := in.Spec.Build(workload.Size{Nodes: int64(g.NumNodes()), NNZ: int64(g.NumEdges())}, features)
		if err != nil {
			return nil, fmt.Errorf("--model %s: %w", in.Model, err)
		}
		ls, err := accel.ModelLayers(m) // names as models show prints them
		if err != nil {
			return nil, fmt.Errorf("--model %s: %w", in.Model, err)
		}
		return ls, nil
	})
}

// resolveData resolves --data (ResolveData) into the graph path and
// format; exactly one of --graphs (--graph for eval) and --data names
// the graph.
func (o *omegaEval) resolveData() (Data, error) {
	switch {
	case o.data != "" && o.graphsPath != "":
		return Data{}, fmt.Errorf("--graphs and --data exclude each other")
	case o.data == "" && o.graphsPath == "":
		return Data{}, fmt.Errorf("no graph: give --graphs PATH or --data NAME|PATH")
	case o.data == "":
		return Data{Path: o.graphsPath}, nil
	}
	ref, err := ResolveData(o.data, o.dataDir, NeedGraph)
	if err != nil {
		return Data{}, fmt.Errorf("--data %w", err)
	}
	o.graphsPath = ref.Path
	if o.format == "" {
		o.format = string(ref.Format)
	}
	return ref, nil
}

// simRecord is simulate's Parquet row: its name is the schema's root name
// in the files --out wrote before the record moved to package accel.
type simRecord accel.Record

// run runs, on every selected graph, each layer layersOf gives for it
// under every configuration of o; progress shows long runs.
func (o *omegaEval) run(progress io.Writer, layersOf func(*graphs.Graph) ([]workload.Layer, error)) (*Result, error) {
	hw, opts, err := o.machine()
	if err != nil {
		return nil, err
	}
	inters, err := dataflow.ParseInters(o.dataflows)
	if err != nil {
		return nil, fmt.Errorf("--dataflow: %w", err)
	}
	tilings, err := dataflow.ParseTilings(o.tilings)
	if err != nil {
		return nil, fmt.Errorf("--tiling: %w", err)
	}
	var gs []*graphs.Graph
	if IsSetPath(o.graphsPath, o.format) {
		gs, err = ReadGraphSet(o.graphsPath, progress)
	} else {
		gs, err = LoadGraphs(o.graphsPath, o.format)
	}
	if err != nil {
		return nil, err
	}
	if gs, err = graphs.Select(gs, o.graph); err != nil {
		return nil, err
	}
	ReleaseLargeCols(gs) // the runs need only the row lengths
	var recs []accel.Record
	n := len(inters) * len(tilings)
	all := LongRunProgress(progress, gs, layersOf, n)
	defer all.Done()
	for _, g := range gs {
		layers, err := layersOf(g)
		if err != nil {
			return nil, fmt.Errorf("graph %s: %w", g.Name, err)
		}
		for _, layer := range layers {
			prog := graphProgress(progress, g, n)
			if prog == nil {
				prog = all // a small graph in a long run: the run's display
			}
			rs, err := accel.SimulateGraph(g, layer, inters, tilings, hw, opts, func() { prog.Add(1) })
			if prog != all {
				prog.Done()
			}
			if err != nil {
				if layer.Name != "" {
					return nil, fmt.Errorf("graph %s: layer %s: %w", g.Name, layer.Name, err)
				}
				return nil, fmt.Errorf("graph %s: %w", g.Name, err)
			}
			recs = append(recs, rs...)
		}
	}
	rows := make([]simRecord, len(recs))
	for i, r := range recs {
		rows[i] = simRecord(r)
	}
	return RowsResult(rows, recs, func(w io.Writer) error { return accel.WriteRecordTable(w, recs) }), nil
}

// machine returns the hardware and the simulation options of o.
func (o *omegaEval) machine() (accel.HW, accel.Options, error) {
	hw := accel.DefaultHW()
	if o.hwPath != "" {
		var err error
		if hw, err = accel.LoadHW(o.hwPath); err != nil {
			return hw, accel.Options{}, err
		}
	}
	hw = hw.WithPEs(o.pes, o.ppAggPEs)
	if err := hw.Validate(); err != nil {
		return hw, accel.Options{}, err
	}
	mode, err := accel.ParseMode(o.mode)
	if err != nil {
		return hw, accel.Options{}, fmt.Errorf("--mode: %w", err)
	}
	disable, err := accel.ParseEffects(o.disable)
	if err != nil {
		return hw, accel.Options{}, fmt.Errorf("--disable: %w", err)
	}
	if disable != 0 && mode == accel.Omega {
		return hw, accel.Options{}, fmt.Errorf("--disable applies to extended mode only (omega mode models none of the effects)")
	}
	opts := accel.Options{Mode: mode, Disable: disable}
	if opts.Engine, err = accel.ParseEngine(o.engine); err != nil {
		return hw, accel.Options{}, fmt.Errorf("--engine: %w", err)
	}
	return hw, opts, nil
}

// graphProgress returns the display (on w) of the n simulations of a
// large graph g, or nil for a small one.
func graphProgress(w io.Writer, g *graphs.Graph, n int) *Progress {
	if int64(g.NNZ()) < LargeEntries {
		return nil
	}
	p := NewProgress(w, "simulate "+g.Name, "configurations", n)
	p.KeepAlive()
	return p
}

// longRunWork is the work (stored entries x widest layer width, summed over
// the graphs, layers and configurations) from which a run of graphs too
// small for graphProgress shows one display of its own: about what the 24
// configurations of one large graph (2^23 entries) at width 64 take.
const longRunWork = LargeEntries * 64 * 24

// LongRunProgress returns the display (on w) of a whole omega run (every
// graph's layers x n configurations) when its work is long though no graph
// is large (a deep, wide model on a small graph: issue 38 item 9), else nil.
func LongRunProgress(w io.Writer, gs []*graphs.Graph, layersOf func(*graphs.Graph) ([]workload.Layer, error), n int) *Progress {
	var work float64
	total := 0
	for _, g := range gs {
		if int64(g.NNZ()) >= LargeEntries {
			continue // shown by graphProgress
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
	p := NewProgress(w, "simulate", "configurations", total)
	p.KeepAlive()
	return p
}

// omegaShort and omegaLong are the help of the 'gnnsim omega' command group.
const (
	omegaShort = "The Omega-style spatial accelerator (seed 002): eval, validate, spec"
	omegaLong  = `The Omega-style spatial accelerator of seed 002 (package accel): GNN layers
under the seq / sp / pp inter-phase dataflows and the tilings of its Table 2.

  omega eval       run GNN layers on graphs (formerly 'gnnsim simulate')
  omega validate   score omega mode against STONNE-Omega (formerly 'validate omega')
  omega spec       the hardware spec files --hw reads (formerly 'hw default')`
)
