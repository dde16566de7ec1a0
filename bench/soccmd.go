package bench

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"gnnsim/soc"
	"gnnsim/workload"
)

// Bounds of the pipelined run's options.
const (
	MaxFrames     = 1_000_000 // --frames
	MaxInFlight   = 1_024     // --in-flight
	MaxIntervalMS = 3.6e6     // --interval-ms: one hour
)

// ProfileUsage is the --profile flag's help.
const ProfileUsage = "built-in SoC profile: default (the Jetson AGX Xavier as NVIDIA's benchmarks run it) or magnas (as MaGNAS measured it: FP32 GPU engines, its harness's per-frame host work; MaGNAS Table 2's profile, 'gnnsim soc spec magnas'); excludes --spec"

// socCommand is 'gnnsim soc eval' and 'eval --unit soc': a model mapped
// onto a SoC's units.
var socCommand = &Command{
	Use:   "eval [flags]",
	Short: "Cost a model mapped onto the SoC's units: latency, energy, power (MaGNAS Eq. 6-7), and pipelined frames",
	Long:  socEvalLong,
	Example: `  gnnsim soc eval --model vig-s --graph-op gin --mapping dla --json
  gnnsim soc eval --model vig-s --mapping "$(yes G,D | head -17 | paste -sd,)" --dvfs gpu=905.25,dla=1050,emc=1600 --frames 100
  gnnsim soc eval --model vig-s --power-mode 10W --mapping gpu
  gnnsim soc eval --model vig-s --mapping gpu --layers --json
  gnnsim soc eval --granularity layer --mapping-file map.txt --out result.parquet
  gnnsim soc eval --model examples/sage3.yaml --data cora --mapping G,D,G`,
	JSONUsage: "print a JSON object instead of text",
	OutUsage:  "also write the result as a one-row Parquet file (the --json fields as columns; metadata gnnsim.command, gnnsim.flags, gnnsim.version)",
	Unit: `'gnnsim soc eval': a zoo model (ViG, Pyramid ViG, CNNs,
which bring their own input) or a GNN stack model file on
the graph of --graph / --data (input width: the file's
features:, else --features, else the data set's), mapped
onto the SoC's units.`,
	Row: soc.Report{},
	New: func() Evaluation { return &socEval{} },
}

const socEvalLong = `Map a zoo model (ViG, Pyramid ViG, CNNs), or a GNN stack model file on the
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
layers, unit, freq_mhz, emc_mhz, latency_ms, energy_mj).`

// socSpecs are the SoC spec files --spec reads.
var socSpecs = &SpecFiles{
	Short: "Describe SoC spec files (the YAML --spec reads)",
	Long: `Describe the SoC spec files that --spec reads (YAML; unknown keys are
errors, so a typo never silently drops a constant).`,
	Files: []BuiltinSpec{{
		Use:   "default",
		Short: "Print the built-in SoC spec (Jetson AGX Xavier) as commented YAML",
		Long: `Print the built-in SoC spec, the Jetson AGX Xavier, as the spec file --spec
reads: memory, CPU, units (GPU, DLA), power modes and the optional dsas:
list, every constant with its source in its section's sources: map. Edit a
copy to describe another SoC or to declare DSAs (MAESTRO-priced units with
a built-in or a .m dataflow; the commented example at the end of the file).`,
		Example: `  gnnsim soc spec default > my-soc.yaml
  gnnsim soc eval --spec my-soc.yaml --model vig-s --mapping gpu`,
		Text: func() ([]byte, error) { return soc.DefaultSpecYAML(), nil },
	}, {
		Use:   "magnas",
		Short: "Print the Xavier as MaGNAS measured it (soc eval --profile magnas) as YAML",
		Long: `Print the MaGNAS profile (soc.MaGNASSpec) as a spec file --spec reads: the
built-in Xavier with its GPU engines in FP32 (TensorRT's default; MaGNAS
Table 2's slope reads 0.92 TFLOPS) and the per-frame host work of MaGNAS's
measurement harness (cpu.frame_cycles). Its constants and their sources
are the default's, in each section's sources: map. 'gnnsim soc eval
--profile magnas' evaluates the same spec: MaGNAS Table 2's ViG-S rows
come out as 'gnnsim repro seed000' reports them.`,
		Example: `  gnnsim soc spec magnas > magnas.yaml
  gnnsim soc eval --profile magnas --model vig-s --graph-op mrconv --mapping gpu
  gnnsim soc eval --spec magnas.yaml --model vig-s --graph-op gin --mapping dla`,
		Text: soc.MaGNASSpecYAML,
	}},
}

// socUnits is 'gnnsim soc units': a SoC's units, memory, CPU and power
// modes.
var socUnits = &Command{
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
	JSONUsage: "print JSON instead of text",
	New:       func() Evaluation { return &socUnitsList{} },
}

type socUnitsList struct {
	noUnitFlags
	spec, profile string
}

func (u *socUnitsList) OwnFlags(f Flags) {
	f.String(&u.spec, "spec", "", "SoC spec YAML (default: the built-in Jetson AGX Xavier)")
	f.String(&u.profile, "profile", "", ProfileUsage)
}

// Eval describes the SoC's units.
func (u *socUnitsList) Eval(context.Context, *Input) (*Result, error) {
	s, err := LoadSoC(u.profile, u.spec, "", "")
	if err != nil {
		return nil, err
	}
	rec := soc.DescribeUnits(s)
	return &Result{JSON: rec, Text: rec.WriteText}, nil
}

// socEval holds the options of one SoC evaluation.
type socEval struct {
	model, graphOp, mapping, mappingFile, gran string
	dvfs, spec, table                          string
	profile                                    string
	powerMode, precision                       string
	frames, inFlight                           int
	intervalMS                                 float64
	layers                                     bool
	// A GNN stack model file runs on the graph of --data (StackOnData).
	data, dataDir string
	features      int
	// built, when set, is the model to evaluate instead of the zoo's
	// --model (a GNN stack built on its graph).
	built *workload.Model
}

func (e *socEval) OwnFlags(f Flags) {
	f.String(&e.model, "model", "vig-s", "zoo model ("+strings.Join(workload.ModelNames(), ", ")+") or a GNN stack model file (with --data)")
	f.Data(&e.data, &e.dataDir, "", DataUsage("graph a model file's GNN stack runs on"))
	f.Int(&e.features, "features", 0, 0, workload.MaxFeatures, "input width of a GNN stack whose file gives none (default: the data set's features)")
}

// UnitFlags registers the SoC's options but the model and its input.
func (e *socEval) UnitFlags(f Flags) {
	f.String(&e.graphOp, "graph-op", "mr", "graph op of every Grapher of a zoo ViG: mr, edge, gin or sage (graph_op is empty for a GNN stack, none for a CNN)")
	f.String(&e.mapping, "mapping", "gpu", `unit for every segment ("gpu", "dla"), or one unit per segment: "G,G,D,..."`)
	f.String(&e.mappingFile, "mapping-file", "", "read the mapping from a file (units separated by commas, spaces or lines; # comments)")
	f.String(&e.gran, "granularity", "block", "what the mapping assigns: block, layer or kernel (aggregation/combination groups)")
	f.String(&e.dvfs, "dvfs", "", `operating points in MHz, e.g. "gpu=1377,dla=1395.2,emc=2133" (default: highest)`)
	f.String(&e.powerMode, "power-mode", "", "run under a power mode of the SoC (MAXN, 10W, 15W, 30W_ALL, ... or its ID); see 'gnnsim soc units'")
	f.String(&e.precision, "precision", "", "arithmetic of the GPU's engines: fp16 (default: tensor cores) or fp32 (CUDA cores, as MaGNAS's Table 2 implies)")
	f.Bool(&e.layers, "layers", false, "also report every layer: unit, time, energy, the layer it was fused into")
	f.Int(&e.frames, "frames", 0, 0, MaxFrames, "also stream this many frames through the mapping (pipelined run)")
	f.Int(&e.inFlight, "in-flight", 0, 0, MaxInFlight, "frames in the SoC at once in the pipelined run (0: one per unit used)")
	f.Float(&e.intervalMS, "interval-ms", 0, 0, MaxIntervalMS, false, "gap between frame arrivals in the pipelined run (0: back to back)")
	f.String(&e.spec, "spec", "", "SoC spec YAML (default: the built-in Jetson AGX Xavier; see 'gnnsim soc units')")
	f.String(&e.profile, "profile", "", ProfileUsage)
	f.String(&e.table, "table", "", "measured per-block table (CSV or Parquet) replacing the units it names")
}

// Eval maps the model onto the SoC and costs it.
func (e *socEval) Eval(_ context.Context, in *Input) (*Result, error) {
	if in.Changed("mapping") && e.mappingFile != "" {
		return nil, fmt.Errorf("--mapping and --mapping-file exclude each other")
	}
	var err error
	if in.Unit {
		err = e.unitModel(in)
	} else {
		err = e.ownModel()
	}
	if err != nil {
		return nil, err
	}
	rec, err := e.report(in.Changed("graph-op"))
	if err != nil {
		return nil, err
	}
	return RowsResult([]socEvalRecord{socEvalRecord(rec)}, rec, rec.WriteText), nil
}

// socEvalRecord is soc eval's Parquet row: its name is the schema's root
// name in the files --out wrote before the report moved to package soc.
type socEvalRecord soc.Report

// ownModel resolves soc eval's --model: a zoo model, or a GNN stack on the
// graph of its --data.
func (e *socEval) ownModel() error {
	spec, err := workload.ResolveModelSpec(e.model)
	if err != nil {
		return fmt.Errorf("--model: %w", err)
	}
	if spec.NeedsGraph() {
		m, err := StackOnData(spec, e.model, e.data, e.dataDir, e.features)
		if err != nil {
			return err
		}
		e.built = &m
	} else if e.data != "" {
		return fmt.Errorf("--data: a zoo model brings its own input; --data is for a model file's GNN stack")
	}
	return nil
}

// unitModel takes eval --unit's model: a zoo model by name, or a GNN stack
// on the graph of --graph or --data.
func (e *socEval) unitModel(in *Input) error {
	spec := in.Spec
	if spec.NeedsGraph() {
		data, features := in.Graph, 0
		if data == "" {
			data = in.Data
		}
		if in.FeaturesSet {
			features = in.Features
		}
		m, err := StackOnData(spec, in.Model, data, in.DataDir, features)
		if err != nil {
			return err
		}
		e.model, e.built = m.Name, &m
		return nil
	}
	if spec.Name != spec.Zoo || spec.GraphOp != "" {
		return fmt.Errorf("--model %s: --unit soc takes a zoo model by name (%s) or a GNN stack model file; a zoo model file with overrides is not taken on the soc path yet",
			in.Model, strings.Join(workload.ModelNames(), ", "))
	}
	if in.Graph != "" || in.Data != "" {
		return fmt.Errorf("--unit soc: a zoo model brings its own input; --graph and --data are for a model file's GNN stack")
	}
	e.model = spec.Zoo
	return nil
}

// report costs the model of e; opGiven says --graph-op was given.
func (e *socEval) report(opGiven bool) (soc.Report, error) {
	// "none" is what a CNN's rows say (no Grapher): it names the zoo's
	// default op, which a CNN never uses; a ViG is refused below.
	noneOp := strings.EqualFold(strings.TrimSpace(e.graphOp), "none")
	opText := e.graphOp
	if noneOp {
		opText = "mr"
	}
	op, err := workload.ParseViGOp(opText)
	if err != nil {
		return soc.Report{}, fmt.Errorf("--graph-op: %w (none for a CNN)", err)
	}
	var model workload.Model
	if e.built != nil {
		if opGiven {
			return soc.Report{}, fmt.Errorf("--graph-op: a GNN stack names its layers' kinds; --graph-op is for a zoo ViG")
		}
		model = *e.built
	} else if model, err = workload.LookupModel(e.model, op); err != nil {
		return soc.Report{}, fmt.Errorf("--model: %w", err)
	}
	g, err := soc.ParseGranularity(e.gran)
	if err != nil {
		return soc.Report{}, fmt.Errorf("--granularity: %w", err)
	}
	d, err := soc.ParseDVFS(e.dvfs)
	if err != nil {
		return soc.Report{}, fmt.Errorf("--dvfs: %w", err)
	}
	if e.frames < 0 || e.inFlight < 0 || !(e.intervalMS >= 0) {
		return soc.Report{}, fmt.Errorf("--frames, --in-flight and --interval-ms must be >= 0")
	}
	s, err := LoadSoC(e.profile, e.spec, e.table, e.precision)
	if err != nil {
		return soc.Report{}, err
	}
	ev, err := soc.NewEvaluator(s, model, g)
	if err != nil {
		return soc.Report{}, err
	}
	n := len(ev.Segments())
	cnn := e.built == nil && !slices.ContainsFunc(ev.Segments(), func(sg soc.Segment) bool { return sg.Kind == workload.Grapher })
	if noneOp && !cnn {
		return soc.Report{}, fmt.Errorf("--graph-op none: %s has graph layers: give mr, edge, gin or sage", model.Name)
	}
	var m soc.Mapping
	if e.mappingFile != "" {
		m, err = s.LoadMapping(e.mappingFile, g, n)
	} else {
		m, err = s.ParseMapping(e.mapping, g, n)
	}
	if err != nil {
		return soc.Report{}, fmt.Errorf("mapping: %w (the model's %d %s segments: %s)", err, n, g, soc.SegmentList(ev.Segments()))
	}
	set, modeName, err := SoCSetting(s, e.dvfs, d, e.powerMode)
	if err != nil {
		return soc.Report{}, err
	}
	opName := op.String()
	switch {
	case e.built != nil:
		opName = "" // a GNN stack's layers name their kinds
	case cnn:
		opName = "none" // no Grapher: as a soc sweep's rows say
	}
	return ev.Report(model.Name, m, set, soc.ReportOptions{GraphOp: opName, PowerMode: modeName, Layers: e.layers,
		Frames: e.frames, InFlight: e.inFlight, IntervalMS: e.intervalMS})
}

// LoadSoC returns the SoC of a built-in profile (soc.Profiles; "" is the
// default) or of a spec file, with its units in precision p ("" or fp16:
// the spec's own) and the measured table's units swapped in. Errors name
// the flags (--profile, --spec, --precision) of soc eval.
func LoadSoC(profile, spec, table, p string) (*soc.SoC, error) {
	if profile != "" && spec != "" {
		return nil, fmt.Errorf("--profile and --spec exclude each other")
	}
	sp, err := soc.ProfileSpec(profile)
	if err != nil {
		return nil, fmt.Errorf("--profile: %w", err)
	}
	if spec != "" {
		if sp, err = soc.LoadSpec(spec); err != nil {
			return nil, err
		}
	}
	if p != "" && !strings.EqualFold(p, "fp16") {
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

// SoCSetting resolves the clocks d (given as --dvfs text) on s, within
// power mode powerMode's caps when one is named; it returns the mode's
// name ("" for none). An error names the flag that caused it: the power
// mode alone when no --dvfs was given.
func SoCSetting(s *soc.SoC, text string, d soc.DVFS, powerMode string) (soc.Setting, string, error) {
	if powerMode == "" {
		set, err := s.Setting(d)
		if err != nil {
			return soc.Setting{}, "", fmt.Errorf("--dvfs: %w", err)
		}
		return set, "", nil
	}
	mode, err := s.PowerMode(powerMode)
	if err != nil {
		return soc.Setting{}, "", fmt.Errorf("--power-mode: %w", err)
	}
	set, err := s.ModeSetting(mode, d)
	switch {
	case err != nil && text == "":
		return soc.Setting{}, "", fmt.Errorf("--power-mode %s: %w", mode.Name, err)
	case err != nil:
		return soc.Setting{}, "", fmt.Errorf("--dvfs %s under --power-mode %s: %w", text, mode.Name, err)
	}
	return set, mode.Name, nil
}

// StackOnData builds the GNN stack spec (named what in errors) on the
// graph of the --data argument data (StackModel).
func StackOnData(spec *workload.ModelSpec, what, data, dataDir string, features int) (workload.Model, error) {
	if data == "" {
		return workload.Model{}, fmt.Errorf("--model %s is a GNN stack: give the graph it runs on with --data (a name such as cora, or a path)", what)
	}
	ref, err := ResolveData(data, dataDir, NeedGraph)
	if err != nil {
		return workload.Model{}, fmt.Errorf("--data %w", err)
	}
	return StackModel(spec, what, data, ref, features)
}

// socShort and socLong are the help of the 'gnnsim soc' command group.
const (
	socShort = "Heterogeneous SoC models: GPU, DLA and MAESTRO-like DSA units"
	socLong  = `Models of heterogeneous SoCs whose GPU, DLA and DSA units share one memory
(MaGNAS). The DSA units are priced with a MAESTRO-like analytical model
(package soc/maestro).`
)
