package main

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"gnnsim/accel/fpga"
	"gnnsim/repro/seed004"
)

// reproSeed004Cmd is 'repro seed004', for the lead to add to the repro
// group.
func reproSeed004Cmd() *cobra.Command {
	var (
		out, data        string
		quick, published bool
		pipelined        bool
		seed             uint64
		runs, workers    int
		datasets         []string
		models           []string
		anyResource      bool
		trainUntil       int
		maxEpisodes      int
		screen           int
	)
	c := &cobra.Command{
		Use:   "seed004 [--quick] [--out DIR] [--seed S] [--data-dir DIR]",
		Short: "Seed 004 (FGNAS): Tables 3 and 4, Figure 3 of the FPGA-aware co-search",
		Long: `Reproduce seed 004 (FGNAS) in one results directory: Table 3 (Cora under the 12
hardware specifications, best accuracy of joint REINFORCE, random and separate
search, 5 runs each), Table 4 (Cora, CiteSeer, PubMed where the data allow) and
Figure 3 (the samples on the usage-latency planes), with the paper's numbers
beside ours in report.md, and every searched design in samples.parquet.

Accuracy is measured: each feasible design's network is trained on the CPU
(package train) and post-training quantised to its formats; trainings are
cached by architecture and bits. --quick runs Table 3's tightest and loosest
specifications on Cora under both cost models (2 x 2), 2 runs each, short
searches and short trainings (under a minute on two cores). Every run writes
claims.csv (the headline claims, joint against random and separate search per
cost model) and the same table at the top of report.md.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			out = defaultOut(out, "seed004", quick)
			ctx, stop := signalContext()
			defer stop()
			oracle, err := seed004.TrainedOracle(ctx, data, quick, workers)
			if err != nil {
				return err
			}
			ms, err := seed004.ParseCostModels(models)
			if err != nil {
				return err
			}
			if trainUntil < 0 || maxEpisodes < 0 || screen < 0 {
				return fmt.Errorf("--train-until %d, --max-episodes %d, --screen %d: want >= 0", trainUntil, maxEpisodes, screen)
			}
			start := time.Now()
			rep, err := seed004.Run(ctx, seed004.Options{
				Out: out, Quick: quick, Runs: runs, Seed: seed, Oracle: oracle, Datasets: datasets,
				Models: ms, AnyResource: anyResource, TrainUntil: trainUntil, MaxEpisodes: maxEpisodes, ScreenDraws: screen,
				Timing: fpga.Options{Published: published, Pipelined: pipelined}, Workers: workers, Log: progressOut(cmd),
			})
			if err != nil {
				return err
			}
			rep.WriteSummary(cmd.OutOrStdout(), out, time.Since(start))
			return nil
		},
	}
	c.Flags().BoolVar(&quick, "quick", false, "Table 3's tightest and loosest specifications x 2 cost models, 2 runs, short searches and trainings")
	outDirFlag(c.Flags(), &out, "out", "", "results directory (default results/seed004, or results/seed004-quick)")
	c.Flags().Uint64Var(&seed, "seed", 1, "seed of every random choice")
	dataDirFlag(c.Flags(), &data, "folder of the real data sets (planetoid/ind inside)")
	intFlag(c.Flags(), &runs, "runs", 0, 0, maxRuns, "runs per method and specification (default 5, 2 with --quick)")
	listFlag(c.Flags(), &datasets, "datasets", nil, "data sets to run (default cora,citeseer,pubmed; cora alone: Table 3 and Table 4's Cora row)")
	listFlag(c.Flags(), &models, "models", []string{"fgnas-code", "gnnsim"}, "cost models to search under: fgnas-code (the FGNAS authors' model), gnnsim (ours)")
	c.Flags().BoolVar(&anyResource, "any-resource", false, "fgnas-code: judge resources by the authors' code's any-resource rule (default: the paper's every limit)")
	intFlag(c.Flags(), &trainUntil, "train-until", 0, 0, maxTrained, "run joint search and separate search's hardware phase until N designs were trained (the authors' --gpu-eps; 0: fixed episodes)")
	intFlag(c.Flags(), &maxEpisodes, "max-episodes", 0, 0, maxEpisodesFlag, "episode cap of --train-until (0: 10x the phase's episodes)")
	intFlag(c.Flags(), &screen, "screen", 2000, 0, maxScreen, "separate search: skip architectures with no feasible design among N uniform hardware draws (0: FGNAS's protocol, the best architecture whatever its hardware)")
	c.Flags().BoolVar(&published, "published", true, "FGNAS's published timing (the paper's specifications were set for it); false: ours")
	c.Flags().BoolVar(&pipelined, "pipelined", false, "judge latency on the pipelined time")
	workersFlag(c.Flags(), &workers, 0, "networks trained at once (default: number of CPUs; 4x as many runs are searched at once); results do not depend on it")
	return c
}
