package main

import (
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"gnnsim/bench"
	"gnnsim/workload"
)

type socCorunFlags struct {
	bench.SocCoRun
	out     string
	jsonOut bool
}

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
	fl.StringArrayVar(&f.Runs, "run", nil, "a network and its mapping, MODEL:MAPPING (repeat for each network)")
	fl.StringVar(&f.Spec, "spec", "", "SoC spec YAML (default: the built-in Jetson AGX Xavier)")
	fl.StringVar(&f.DVFS, "dvfs", "", `operating points in MHz, e.g. "gpu=1377,emc=1065.6" (default: highest)`)
	fl.StringVar(&f.PowerMode, "power-mode", "", "run under a power mode of the SoC (MAXN, 10W, 15W, ...)")
	fl.StringVar(&f.Precision, "precision", "", "arithmetic of the GPU's engines: fp16 (default) or fp32")
	fl.StringVar(&f.GraphOp, "graph-op", "mr", "graph op of a zoo ViG's Graphers: mr, edge, gin or sage")
	dataFlags(fl, &f.Data, &f.DataDir, "", "graph a model file's GNN stack runs on")
	intFlag(fl, &f.Features, "features", 0, 0, workload.MaxFeatures, "input width of a GNN stack whose file gives none")
	intFlag(fl, &f.MinFrames, "min-frames", 8, 1, 100000, "measured frames every run needs before its mean counts as steady")
	intFlag(fl, &f.MaxFrames, "max-frames", 400, 1, 1000000, "stop once a run has this many measured frames (and every run --min-frames)")
	fl.BoolVar(&f.jsonOut, "json", false, "print a JSON array of the runs instead of text")
	outDirFlag(fl, &f.out, "out", "", "directory to write corun.parquet into (the --json fields as columns)")
	return cmd
}

func runSocCorun(cmd *cobra.Command, f *socCorunFlags) error {
	if err := f.Check(); err != nil {
		return err
	}
	if cmd.Flags().Changed("out") {
		if err := checkOutDir("out", f.out); err != nil {
			return err
		}
	}
	res, err := f.Run()
	if err != nil {
		return err
	}
	if f.out != "" {
		path := filepath.Join(f.out, "corun.parquet")
		if err := checkReplace(path); err != nil {
			return err
		}
		if err := res.Parquet(path, runMeta(cmd)); err != nil {
			return err
		}
	}
	if f.jsonOut {
		return writeJSON(cmd.OutOrStdout(), res.JSON)
	}
	return res.Text(cmd.OutOrStdout())
}
