package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"gnnsim/bench"
	"gnnsim/repro"
	"gnnsim/repro/seed002"
)

func init() { register(newReproCmd) }

func newReproCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "repro",
		Short: "Reproduce a seed paper end to end",
		Long: `Reproduce a seed paper end to end in one results directory: its data sets,
models, tables and figures, next to the paper's figures in a report.md. Each
subcommand names the seed it reproduces; 'gnnsim demo' runs the quick
reproduction of every seed that has one.`,
	}
	cmd.AddCommand(reproSeed000Cmd(), reproSeed001Cmd(), reproSeed002Cmd(), reproSeed003Cmd(), reproSeed004Cmd())
	cmd.PersistentFlags().Bool("quiet", false, "no progress lines on stderr (warnings and errors still appear)")
	return cmd
}

// reproFlags are the flags of 'repro seed002'.
type reproFlags struct {
	out, data, mode string
	fg              bench.SizeSpec
	seed            uint64
	quick           bool
	workers         int
}

func reproSeed002Cmd() *cobra.Command {
	var f reproFlags
	c := &cobra.Command{
		Use:   "seed002 [--quick] [--out DIR] [--seed S] [--data-dir DIR]",
		Short: "Seed 002 end to end: data sets, predictors, Tables 3/4, scheduling, figures",
		Long: `Reproduce seed 002 (Puigdemont, Russo et al., data-driven dataflow-aware online
scheduling) in one results directory:

  1. the Graphlaxy Small/Medium/Large sets and, when --data-dir exists, the real sets
     (TU ENZYMES/MUTAG/AIDS/NCI1, square Matrix Market networks, Cora), each graph
     simulated on the 24 configurations (data/);
  2. the four predictor variants of Table 4 (base, +features, +log, +features+log),
     24 gradient-boosted models each, trained on the Graphlaxy training splits
     (models/);
  3. Table 3 (the +features+log predictor) and Table 4 on the Graphlaxy test splits
     and the real sets (table3.parquet, table4.parquet);
  4. both scheduling scenarios (three accelerators seq/sp/pp with free tiling,
     Pareto arrivals at 85 % utilisation, seven policies, five seeds) on the
     real-graph jobs, or on held-out Graphlaxy graphs without real data
     (schedule_*.parquet);
  5. the (F, G) spread study: Graphlaxy Medium/Large graphs at every F, G in
     16..512, the optimal configuration's gain over a random and over the best
     fixed one per setting, next to the seed's 93.63 % / 58.42 %;
  6. the scheduling study: speed-ups by load, job mix, trace length and
     predictor charge, and the setting nearest the seed's 3.17x / 6.26x / >1000x;
  7. report.md with our tables next to the seed's, and PNG/SVG figures like the
     seed's Figures 1, 5, 6 and 7 plus the two studies'.

The data sets' F and G default to graph i: F = [16,32,64][i%3], G = [16,32][i%2]
(the seed does not state them); --F, --G and --sizes-mode change them. Real sets
are read from --data-dir; missing ones (PROTEINS, REDDIT-BINARY, QOPTLib, PATTERN,
TSP) are listed in the report with their source, licence and where to put them.

Progress goes to stderr. Everything is determined by --seed, --mode and the data
(wall-clock lines of the report excepted). Rerunning into the same directory
reuses finished simulations. --quick shrinks the Graphlaxy sets (Medium 1,500 and
Large 600 graphs), the spread study (100 Medium and 30 Large graphs) and the
scheduling study (two seeds): about 30 s on two idle cores; the full run, on the
published sizes, takes a few minutes.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			f.out = defaultOut(f.out, "seed002", f.quick)
			if err := checkOutDir("out", f.out); err != nil {
				return err
			}
			if err := checkSizeFlags(f.fg); err != nil {
				return err
			}
			if cmd.Flags().Changed("data") || cmd.Flags().Changed("data-dir") {
				if st, err := os.Stat(f.data); err != nil || !st.IsDir() {
					return fmt.Errorf("--data-dir %s: not a directory", f.data)
				}
			}
			return runRepro(cmd, f)
		},
	}
	c.Flags().BoolVar(&f.quick, "quick", false, "reduced Graphlaxy sets (Medium 1,500, Large 600 graphs; seconds, not minutes)")
	outDirFlag(c.Flags(), &f.out, "out", "", "results directory (default results/seed002, or results/seed002-quick with --quick)")
	c.Flags().Uint64Var(&f.seed, "seed", 1, "seed of every random choice (graphs, splits, training, traces; scheduling runs use seeds S..S+4)")
	dataDirFlag(c.Flags(), &f.data, "folder of the real data sets (env GNNSIM_DATA); when absent, generated graphs only, as the report says")
	c.Flags().StringVar(&f.mode, "mode", bench.DatasetMode, "accelerator model of the labels: omega (STONNE-Omega's numbers, as the seed) or extended")
	sizeFlags(c, &f.fg)
	workersFlag(c.Flags(), &f.workers, 0, "parallel workers (default: number of CPUs); results do not depend on it")
	return c
}

// runRepro runs the reproduction, stopping cleanly on SIGINT/SIGTERM, and
// prints its summary.
func runRepro(cmd *cobra.Command, f reproFlags) error {
	ctx, stop := signalContext()
	defer stop()
	sum, err := seed002.Run(ctx, seed002.Options{
		Out: f.out, Seed: f.seed, DataDir: f.data, Quick: f.quick, Mode: f.mode, FeatureSizes: f.fg,
		Workers: f.workers, Log: progressOut(cmd),
	})
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("interrupted: finished simulations are kept in %s; rerun the same command to resume", f.out)
		}
		return err
	}
	(&repro.Report{Report: sum.Report, Highlights: sum.Highlights(), Wall: sum.Wall}).WriteText(cmd.OutOrStdout())
	return nil
}

// defaultOut is a reproduction's results folder: --out when given, else
// results/NAME, or results/NAME-quick with --quick (a quick run never
// overwrites the full one). --out is never empty when given (outDirFlag).
func defaultOut(out, name string, quick bool) string {
	switch {
	case out != "":
		return out
	case quick:
		return "results/" + name + "-quick"
	}
	return "results/" + name
}
