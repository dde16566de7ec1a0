package main

import (
	"github.com/spf13/cobra"
)

func init() { register(newDemoCmd) }

func newDemoCmd() *cobra.Command {
	var f reproFlags
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "The end-to-end example: 'repro seed002 --quick' into results/demo/",
		Long: `Run gnnsim's main job on built-in defaults: 'gnnsim repro seed002 --quick'
into results/demo/. It generates the Graphlaxy sets (reduced sizes), simulates
every graph on the 24 configurations of seed 002, trains and evaluates the
latency predictors (Tables 3 and 4), schedules jobs on three accelerators with
seven policies in both scenarios, and writes Parquet tables, report.md and
PNG/SVG figures. Real data sets are used when ../shared/data (or GNNSIM_DATA)
exists; otherwise only generated graphs, as the report says. Works offline on a
fresh clone; about 10 to 20 seconds on two cores.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			f.quick = true
			f.mode = "omega"
			return runRepro(cmd, f)
		},
	}
	cmd.Flags().StringVar(&f.out, "out", "results/demo", "results directory")
	cmd.Flags().Uint64Var(&f.seed, "seed", 1, "seed of every random choice")
	cmd.Flags().StringVar(&f.data, "data", defaultDataDir(), "folder of the real data sets (env GNNSIM_DATA); used only if it exists")
	cmd.Flags().IntVar(&f.workers, "workers", 0, "parallel workers (default: number of CPUs); results do not depend on it")
	return cmd
}
