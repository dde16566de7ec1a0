package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"gnnsim/repro"
)

func init() { register(newDemoCmd) }

func newDemoCmd() *cobra.Command {
	var o repro.Options
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "The end-to-end tour: every seed's quick reproduction into results/demo/",
		Long: `Run gnnsim's main jobs on built-in defaults: the quick reproduction of every
seed paper (` + strings.Join(repro.Names(), ", ") + `: 'gnnsim repro seedNNN --quick'),
each into its own folder of results/demo/, and results/demo/index.md linking
every report and figure.

Seed 002's run, for one, generates the Graphlaxy sets (reduced sizes), simulates every
graph on the 24 configurations, trains and evaluates the latency predictors
(Tables 3 and 4), schedules jobs on three accelerators with seven policies in
both scenarios, and writes Parquet tables, report.md and PNG/SVG figures.
Real data sets are used when ../shared/data (or GNNSIM_DATA) exists;
otherwise only generated graphs, and the reproductions that need real data
say they were skipped. Works offline on a fresh clone.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkOutDir("out", o.Out); err != nil {
				return err
			}
			ctx, stop := signalContext()
			defer stop()
			o.Quick, o.Log = true, progressOut(cmd)
			reports, err := repro.Tour(ctx, repro.All(), o)
			if err != nil {
				if ctx.Err() != nil {
					return fmt.Errorf("interrupted: finished simulations are kept in %s; rerun the same command to resume", o.Out)
				}
				return err
			}
			w := cmd.OutOrStdout()
			for i, r := range repro.All() {
				fmt.Fprintf(w, "%s: %s\n", r.Name, r.Title)
				reports[i].WriteText(w)
			}
			fmt.Fprintf(w, "index: %s\n", filepath.Join(o.Out, repro.IndexFile))
			return nil
		},
	}
	outDirFlag(cmd.Flags(), &o.Out, "out", "results/demo", "results directory (one folder per seed, and index.md)")
	cmd.Flags().Uint64Var(&o.Seed, "seed", 1, "seed of every random choice")
	dataDirFlag(cmd.Flags(), &o.DataDir, "folder of the real data sets (env GNNSIM_DATA); used only if it exists")
	workersFlag(cmd.Flags(), &o.Workers, 0, "parallel workers (default: number of CPUs); results do not depend on it")
	quietFlag(cmd)
	return cmd
}
