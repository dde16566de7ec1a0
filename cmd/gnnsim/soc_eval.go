package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"gnnsim/bench"
	"gnnsim/soc"
	"gnnsim/workload"
)

// socEvalCommands returns the SoC evaluation commands, "eval" and "units",
// for the "gnnsim soc" command group.
func socEvalCommands() []*cobra.Command {
	return []*cobra.Command{newSocEvalCmd(), newSocUnitsCmd()}
}

type socEvalFlags struct {
	model, graphOp, mapping, mappingFile, gran string
	dvfs, spec, table, out                     string
	profile                                    string
	powerMode, precision                       string
	frames, inFlight                           int
	intervalMS                                 float64
	jsonOut, layers                            bool
	// A GNN stack model file runs on the graph of --data (socModel).
	data, dataDir string
	features      int
	// built, when set, is the model to evaluate instead of the zoo's
	// --model (a GNN stack built on its graph).
	built *workload.Model
}

func newSocEvalCmd() *cobra.Command {
	var f socEvalFlags
	cmd := &cobra.Command{
		Use:   "eval [flags]",
		Short: "Cost a model mapped onto the SoC's units: latency, energy, power (MaGNAS Eq. 6-7), and pipelined frames",
		Long: `Map a zoo model (ViG, Pyramid ViG, CNNs), or a GNN stack model file on the
graph of --data (a name such as cora or a path, as every command's --data;
input width: the file's features:, else --features, else the data set's),
onto the units of a heterogeneous SoC
(default: Jetson AGX Xavier, GPU + DLA sharing one LPDDR4x memory) and
print one frame's latency, energy, average power, unit changes and per-unit
busy time by MaGNAS Eq. 6-7 (package soc).

--mapping gives one unit for every segment ("gpu", "dla") or one unit per
segment, comma-separated, by name or unique prefix ("G,G,D,..."); segments
are blocks (Stem, each Grapher, each FFN, Cls; a GNN stack's layers with
their activations), layers, or kernel groups (each layer's aggregation and
combination kernels) by --granularity; 'gnnsim models show' lists them.
Consecutive segments of one block on the GPU or the DLA run as one engine
(fusion, on-chip buffer and cache across them), so a block mapping costs
the same at every granularity.
--profile magnas evaluates the Xavier as MaGNAS measured it (FP32 GPU
engines, its harness's per-frame host work: MaGNAS Table 2's rows as
'gnnsim repro seed000' reports them; 'gnnsim soc spec magnas' prints it).
--spec reads another SoC ('gnnsim soc spec default' prints the built-in
one as commented YAML); the DSAs its dsas: list declares (MAESTRO-priced,
a built-in or .m dataflow, PEs, NoC, L1/L2, clock) are units like the GPU
and DLA, named in --mapping by their names (a kernel whose tiles exceed a
DSA's L1 or L2 is an error naming the DSA, the kernel and the buffer).
--dvfs picks operating points in MHz per unit, for the memory (emc) and
the CPU (cpu); clocks left out run at their highest point. --power-mode
runs under one of the SoC's power modes (nvpmodel on Jetson: MAXN, 10W,
15W, 30W_ALL, ...): its clock caps and online cores; --dvfs clocks must
then be within its caps.

--layers adds one row per layer of the model: its name, kind, the unit
that ran it, time and energy; a layer fused into another (an element-wise
epilogue of a convolution) costs nothing and names the layer that
absorbed it (fused_into). Hand-offs between segments and the CPU and
memory power are in the totals only.

--frames N > 0 also streams N frames through the mapping on the
discrete-event kernel (units work on different frames at once, all memory
traffic shares one channel) and prints throughput, latency p50/p99, per-unit
utilisation and memory stall time.

--table swaps the units it names for measured per-block latency/energy
tables (CSV or Parquet; columns: block, op, nodes, channels, hidden, k,
layers, unit, freq_mhz, emc_mhz, latency_ms, energy_mj).`,
		Example: `  gnnsim soc eval --model vig-s --graph-op gin --mapping dla --json
  gnnsim soc eval --model vig-s --mapping "$(yes G,D | head -17 | paste -sd,)" --dvfs gpu=905.25,dla=1050,emc=1600 --frames 100
  gnnsim soc eval --model vig-s --power-mode 10W --mapping gpu
  gnnsim soc eval --model vig-s --mapping gpu --layers --json
  gnnsim soc eval --granularity layer --mapping-file map.txt --out result.parquet
  gnnsim soc eval --model examples/sage3.yaml --data cora --mapping G,D,G`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkSocFlags(cmd, &f); err != nil {
				return err
			}
			spec, err := workload.ResolveModelSpec(f.model)
			if err != nil {
				return fmt.Errorf("--model: %w", err)
			}
			if spec.NeedsGraph() {
				m, err := socModel(spec, f.model, f.data, f.dataDir, f.features)
				if err != nil {
					return err
				}
				f.built = &m
			} else if f.data != "" {
				return fmt.Errorf("--data: a zoo model brings its own input; --data is for a model file's GNN stack")
			}
			return runSocEval(cmd, &f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.model, "model", "vig-s", "zoo model ("+strings.Join(workload.ModelNames(), ", ")+") or a GNN stack model file (with --data)")
	dataFlags(fl, &f.data, &f.dataDir, "", "graph a model file's GNN stack runs on")
	intFlag(fl, &f.features, "features", 0, 0, workload.MaxFeatures, "input width of a GNN stack whose file gives none (default: the data set's features)")
	addSocFlags(fl, &f)
	fl.BoolVar(&f.jsonOut, "json", false, "print a JSON object instead of text")
	outFileFlag(fl, &f.out, "out", "", "also write the result as a one-row Parquet file (the --json fields as columns; metadata gnnsim.command, gnnsim.flags, gnnsim.version)")
	return cmd
}

// addSocFlags registers the SoC's options but the model and the output
// form, shared by soc eval and 'eval --unit soc'.
func addSocFlags(fl *pflag.FlagSet, f *socEvalFlags) {
	fl.StringVar(&f.graphOp, "graph-op", "mr", "graph op of every Grapher of a zoo ViG: mr, edge, gin or sage (graph_op is empty for a GNN stack, none for a CNN)")
	fl.StringVar(&f.mapping, "mapping", "gpu", `unit for every segment ("gpu", "dla"), or one unit per segment: "G,G,D,..."`)
	fl.StringVar(&f.mappingFile, "mapping-file", "", "read the mapping from a file (units separated by commas, spaces or lines; # comments)")
	fl.StringVar(&f.gran, "granularity", "block", "what the mapping assigns: block, layer or kernel (aggregation/combination groups)")
	fl.StringVar(&f.dvfs, "dvfs", "", `operating points in MHz, e.g. "gpu=1377,dla=1395.2,emc=2133" (default: highest)`)
	fl.StringVar(&f.powerMode, "power-mode", "", "run under a power mode of the SoC (MAXN, 10W, 15W, 30W_ALL, ... or its ID); see 'gnnsim soc units'")
	fl.StringVar(&f.precision, "precision", "", "arithmetic of the GPU's engines: fp16 (default: tensor cores) or fp32 (CUDA cores, as MaGNAS's Table 2 implies)")
	fl.BoolVar(&f.layers, "layers", false, "also report every layer: unit, time, energy, the layer it was fused into")
	intFlag(fl, &f.frames, "frames", 0, 0, maxFrames, "also stream this many frames through the mapping (pipelined run)")
	intFlag(fl, &f.inFlight, "in-flight", 0, 0, maxInFlight, "frames in the SoC at once in the pipelined run (0: one per unit used)")
	floatFlag(fl, &f.intervalMS, "interval-ms", 0, 0, maxIntervalMS, false, "gap between frame arrivals in the pipelined run (0: back to back)")
	fl.StringVar(&f.spec, "spec", "", "SoC spec YAML (default: the built-in Jetson AGX Xavier; see 'gnnsim soc units')")
	fl.StringVar(&f.profile, "profile", "", profileUsage)
	fl.StringVar(&f.table, "table", "", "measured per-block table (CSV or Parquet) replacing the units it names")
}

// checkSocFlags refuses --mapping beside --mapping-file.
func checkSocFlags(cmd *cobra.Command, f *socEvalFlags) error {
	if cmd.Flags().Changed("mapping") && f.mappingFile != "" {
		return fmt.Errorf("--mapping and --mapping-file exclude each other")
	}
	return nil
}

// socEvalRecord is soc eval's Parquet row: its name is the schema's root
// name in the files --out wrote before the report moved to package soc.
type socEvalRecord soc.Report

// profileUsage is the --profile flag's help.
const profileUsage = "built-in SoC profile: default (the Jetson AGX Xavier as NVIDIA's benchmarks run it) or magnas (as MaGNAS measured it: FP32 GPU engines, its harness's per-frame host work; MaGNAS Table 2's profile, 'gnnsim soc spec magnas'); excludes --spec"

// loadSoC returns the SoC of a spec file (default: the built-in Xavier)
// with its units in precision p ("" or fp16: the spec's own), and the
// measured table's units swapped in.
func loadSoC(spec, table, p string) (*soc.SoC, error) {
	return loadSoCProfile("", spec, table, p)
}

// loadSoCProfile is loadSoC from a built-in profile (soc.Profiles; ""
// is the default) when spec is empty.
func loadSoCProfile(profile, spec, table, p string) (*soc.SoC, error) {
	if profile != "" && spec != "" {
		return nil, fmt.Errorf("--profile and --spec exclude each other")
	}
	sp, err := soc.ProfileSpec(profile)
	if err != nil {
		return nil, fmt.Errorf("--profile: %w", err)
	}
	if spec != "" {
		var err error
		if sp, err = soc.LoadSpec(spec); err != nil {
			return nil, err
		}
	}
	if p != "" && !strings.EqualFold(p, "fp16") {
		var err error
		if sp, err = sp.WithPrecision(strings.ToLower(p)); err != nil {
			return nil, fmt.Errorf("--precision: %w", err)
		}
	}
	s, err := soc.New(sp)
	if err != nil {
		return nil, err
	}
	if table != "" {
		rows, err := soc.ReadTable(table)
		if err != nil {
			return nil, err
		}
		if err := s.UseTable(rows); err != nil {
			return nil, err
		}
	}
	return s, nil
}

func runSocEval(cmd *cobra.Command, f *socEvalFlags) error {
	w := cmd.OutOrStdout()
	// "none" is what a CNN's rows say (no Grapher): it names the zoo's
	// default op, which a CNN never uses; a ViG is refused below.
	noneOp := strings.EqualFold(strings.TrimSpace(f.graphOp), "none")
	opText := f.graphOp
	if noneOp {
		opText = "mr"
	}
	op, err := workload.ParseViGOp(opText)
	if err != nil {
		return fmt.Errorf("--graph-op: %w (none for a CNN)", err)
	}
	var model workload.Model
	if f.built != nil {
		if cmd.Flags().Changed("graph-op") {
			return fmt.Errorf("--graph-op: a GNN stack names its layers' kinds; --graph-op is for a zoo ViG")
		}
		model = *f.built
	} else if model, err = workload.LookupModel(f.model, op); err != nil {
		return fmt.Errorf("--model: %w", err)
	}
	g, err := soc.ParseGranularity(f.gran)
	if err != nil {
		return fmt.Errorf("--granularity: %w", err)
	}
	d, err := soc.ParseDVFS(f.dvfs)
	if err != nil {
		return fmt.Errorf("--dvfs: %w", err)
	}
	if f.frames < 0 || f.inFlight < 0 || !(f.intervalMS >= 0) {
		return fmt.Errorf("--frames, --in-flight and --interval-ms must be >= 0")
	}
	s, err := loadSoCProfile(f.profile, f.spec, f.table, f.precision)
	if err != nil {
		return err
	}
	e, err := soc.NewEvaluator(s, model, g)
	if err != nil {
		return err
	}
	n := len(e.Segments())
	cnn := f.built == nil && !slices.ContainsFunc(e.Segments(), func(sg soc.Segment) bool { return sg.Kind == workload.Grapher })
	if noneOp && !cnn {
		return fmt.Errorf("--graph-op none: %s has graph layers: give mr, edge, gin or sage", model.Name)
	}
	var m soc.Mapping
	if f.mappingFile != "" {
		m, err = s.LoadMapping(f.mappingFile, g, n)
	} else {
		m, err = s.ParseMapping(f.mapping, g, n)
	}
	if err != nil {
		return fmt.Errorf("mapping: %w (the model's %d %s segments: %s)", err, n, g, soc.SegmentList(e.Segments()))
	}
	set, modeName, err := socSetting(s, f.dvfs, d, f.powerMode)
	if err != nil {
		return err
	}
	opName := op.String()
	switch {
	case f.built != nil:
		opName = "" // a GNN stack's layers name their kinds
	case cnn:
		opName = "none" // no Grapher: as a soc sweep's rows say
	}
	rec, err := e.Report(model.Name, m, set, soc.ReportOptions{GraphOp: opName, PowerMode: modeName, Layers: f.layers,
		Frames: f.frames, InFlight: f.inFlight, IntervalMS: f.intervalMS})
	if err != nil {
		return err
	}
	if err := writeOut(cmd, f.out, []socEvalRecord{socEvalRecord(rec)}, nil); err != nil {
		return err
	}
	if f.jsonOut {
		return writeJSON(w, rec)
	}
	return rec.WriteText(w)
}

type socUnitsFlags struct {
	spec, profile string
	jsonOut       bool
}

func newSocUnitsCmd() *cobra.Command {
	var f socUnitsFlags
	cmd := &cobra.Command{
		Use:   "units [flags]",
		Short: "List the SoC's units, their operating points and power, and the shared memory",
		Long: `List the units of a SoC spec (default: the built-in Jetson AGX Xavier) with
their peak rate, per-kernel-class efficiency (a class left out falls back
or is refused), launch overhead, memory share, fallback unit, and every
DVFS operating point with its voltage and idle/dynamic power; then the
shared memory's operating points and bandwidth, the CPU cluster, and the
power modes (nvpmodel on Jetson: budget, clock caps, online cores) that
'soc eval --power-mode' takes. The constants' sources are
in the spec file (soc/xavier.yaml for the default).`,
		Example: `  gnnsim soc units
  gnnsim soc units --spec my-soc.yaml --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runSocUnits(cmd.OutOrStdout(), &f) },
	}
	cmd.Flags().StringVar(&f.spec, "spec", "", "SoC spec YAML (default: the built-in Jetson AGX Xavier)")
	cmd.Flags().StringVar(&f.profile, "profile", "", profileUsage)
	cmd.Flags().BoolVar(&f.jsonOut, "json", false, "print JSON instead of text")
	return cmd
}

func runSocUnits(w io.Writer, f *socUnitsFlags) error {
	s, err := loadSoCProfile(f.profile, f.spec, "", "")
	if err != nil {
		return err
	}
	rec := soc.DescribeUnits(s)
	if f.jsonOut {
		return writeJSON(w, rec)
	}
	return rec.WriteText(w)
}

// socModel builds the GNN stack spec (named what in errors) on the graph
// of the --data argument (bench.StackModel).
func socModel(spec *workload.ModelSpec, what, data, dataDir string, features int) (workload.Model, error) {
	if data == "" {
		return workload.Model{}, fmt.Errorf("--model %s is a GNN stack: give the graph it runs on with --data (a name such as cora, or a path)", what)
	}
	ref, err := resolveData(data, dataDir, bench.NeedGraph)
	if err != nil {
		return workload.Model{}, err
	}
	return bench.StackModel(spec, what, data, ref, features)
}
