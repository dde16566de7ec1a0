package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"gnnsim/bench"
	"gnnsim/soc"
	"gnnsim/workload"
)

type socCorunFlags struct {
	runs                                  []string
	spec, dvfs, powerMode, precision, out string
	graphOp, data, dataDir                string
	features, minFrames, maxFrames        int
	jsonOut                               bool
}

// socCorunRecord is one run of a co-run (a JSON object, a Parquet row).
// socCorunRecord is soc corun's Parquet row: its name is the schema's root
// name in the files --out wrote before the row moved to package soc.
type socCorunRecord soc.CoRunRecord

func newSocCorunCmd() *cobra.Command {
	var f socCorunFlags
	cmd := &cobra.Command{
		Use:   "corun --run MODEL:MAPPING [--run MODEL:MAPPING ...] [flags]",
		Short: "Run networks at once on the SoC, each looping back to back, and report each one's slowdown",
		Long: `Run every --run's network in a loop, back to back (as a benchmark harness
runs one inference after another), all at once on the SoC, until every
run's mean latency is steady, and print per run: model, mapping, alone_ms
(what 'gnnsim soc eval' gives), latency_ms (the steady mean while all run),
slowdown, and per unit the share of the time the run held it and the DRAM
bandwidth it used there.

The runs contend for the units (a unit serves one kernel at a time, so two
networks on the GPU, or a DLA network's GPU fallback kernels, interleave)
and for the one shared memory: every kernel's DRAM bytes go through one
channel over the kernel's time, and a stream interleaved with another
unit's loses a row switch per page (package soc, CoRun).

MODEL is a zoo name (` + strings.Join(workload.ModelNames(), ", ") + `) or a model file (a
GNN stack runs on the graph of --data). MAPPING is a unit (gpu, dla, a
DSA of --spec), one unit per block or per layer comma-separated (as
'gnnsim soc eval --mapping'), or A>B@K: the model's first K layers on unit
A, the rest on unit B (gpu>dla@40, dla>gpu@10).`,
		Example: `  gnnsim soc corun --run googlenet:gpu --run googlenet:dla
  gnnsim soc corun --run alexnet:gpu --run resnet101:dla --json
  gnnsim soc corun --run resnet50:gpu>dla@60 --run vig-s:dla --dvfs emc=1065.6 --out results/corun`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runSocCorun(cmd, &f) },
	}
	fl := cmd.Flags()
	fl.StringArrayVar(&f.runs, "run", nil, "a network and its mapping, MODEL:MAPPING (repeat for each network)")
	fl.StringVar(&f.spec, "spec", "", "SoC spec YAML (default: the built-in Jetson AGX Xavier)")
	fl.StringVar(&f.dvfs, "dvfs", "", `operating points in MHz, e.g. "gpu=1377,emc=1065.6" (default: highest)`)
	fl.StringVar(&f.powerMode, "power-mode", "", "run under a power mode of the SoC (MAXN, 10W, 15W, ...)")
	fl.StringVar(&f.precision, "precision", "", "arithmetic of the GPU's engines: fp16 (default) or fp32")
	fl.StringVar(&f.graphOp, "graph-op", "mr", "graph op of a zoo ViG's Graphers: mr, edge, gin or sage")
	dataFlags(fl, &f.data, &f.dataDir, "", "graph a model file's GNN stack runs on")
	intFlag(fl, &f.features, "features", 0, 0, workload.MaxFeatures, "input width of a GNN stack whose file gives none")
	intFlag(fl, &f.minFrames, "min-frames", 8, 1, 100000, "measured frames every run needs before its mean counts as steady")
	intFlag(fl, &f.maxFrames, "max-frames", 400, 1, 1000000, "stop once a run has this many measured frames (and every run --min-frames)")
	fl.BoolVar(&f.jsonOut, "json", false, "print a JSON array of the runs instead of text")
	outDirFlag(fl, &f.out, "out", "", "directory to write corun.parquet into (the --json fields as columns)")
	return cmd
}

func runSocCorun(cmd *cobra.Command, f *socCorunFlags) error {
	if len(f.runs) == 0 {
		return fmt.Errorf("--run: give at least one MODEL:MAPPING")
	}
	if f.maxFrames < f.minFrames {
		return fmt.Errorf("--max-frames %d is below --min-frames %d", f.maxFrames, f.minFrames)
	}
	if cmd.Flags().Changed("out") {
		if err := checkOutDir("out", f.out); err != nil {
			return err
		}
	}
	op, err := workload.ParseViGOp(f.graphOp)
	if err != nil {
		return fmt.Errorf("--graph-op: %w", err)
	}
	s, set, err := socAt(f.spec, f.precision, f.dvfs, f.powerMode)
	if err != nil {
		return err
	}
	var runs []soc.CoRunner
	var names, mappings []string
	for _, arg := range f.runs {
		i := strings.LastIndex(arg, ":")
		if i <= 0 || i == len(arg)-1 {
			return fmt.Errorf("--run %q: want MODEL:MAPPING (e.g. googlenet:gpu, resnet50:gpu>dla@60)", arg)
		}
		name, mapping := arg[:i], arg[i+1:]
		model, err := zooOrFileModel(name, op, f.data, f.dataDir, f.features)
		if err != nil {
			return fmt.Errorf("--run %q: %w", arg, err)
		}
		r, err := s.NewCoRunner(model, mapping)
		if err != nil {
			return fmt.Errorf("--run %q: %w", arg, err)
		}
		runs = append(runs, r)
		names, mappings = append(names, model.Name), append(mappings, mapping)
	}
	res, err := s.CoRun(runs, set, soc.CoRunOptions{MinFrames: f.minFrames, MaxFrames: f.maxFrames})
	if err != nil {
		return err
	}
	recs := soc.CoRunRecords(s, set, res, names, mappings)
	if f.out != "" {
		rows := make([]socCorunRecord, len(recs))
		for i, r := range recs {
			rows[i] = socCorunRecord(r)
		}
		if err := writeOut(cmd, filepath.Join(f.out, "corun.parquet"), rows, nil); err != nil {
			return err
		}
	}
	w := cmd.OutOrStdout()
	if f.jsonOut {
		return writeJSON(w, recs)
	}
	return soc.WriteCoRun(w, s, set, res, recs)
}

// socAt returns the SoC of --spec (in --precision) and the setting of
// --dvfs, within --power-mode's caps when one is named.
func socAt(spec, precision, dvfs, powerMode string) (*soc.SoC, soc.Setting, error) {
	s, err := loadSoC(spec, "", precision)
	if err != nil {
		return nil, soc.Setting{}, err
	}
	d, err := soc.ParseDVFS(dvfs)
	if err != nil {
		return nil, soc.Setting{}, fmt.Errorf("--dvfs: %w", err)
	}
	set, _, err := bench.SoCSetting(s, dvfs, d, powerMode)
	if err != nil {
		return nil, soc.Setting{}, err
	}
	return s, set, nil
}

// zooOrFileModel resolves a model argument: a zoo name (a ViG with graph
// op op), or a model file (a GNN stack on the graph of data).
func zooOrFileModel(name string, op workload.LayerKind, data, dataDir string, features int) (workload.Model, error) {
	spec, err := workload.ResolveModelSpec(name)
	if err != nil {
		return workload.Model{}, err
	}
	if spec.NeedsGraph() {
		return bench.StackOnData(spec, name, data, dataDir, features)
	}
	zoo := spec.Zoo
	if zoo == "" {
		zoo = name
	}
	return workload.LookupModel(zoo, op)
}
