package main

import (
	"github.com/spf13/cobra"

	"gnnsim/repro"
	"gnnsim/repro/seed003"
)

// reproSeed003Cmd is 'gnnsim repro seed003': HADAS's experiments end to end.
func reproSeed003Cmd() *cobra.Command {
	var o seed003.Options
	var overlap float64 // --overlap; not given: fitted
	c := &cobra.Command{
		Use:   "seed003 [--quick] [--out DIR] [--seed S] [--data-dir DIR] [--platform tx2|xavier] [--overlap RHO]",
		Short: "Seed 003 (HADAS): nested backbone x early-exit x DVFS search, Table III, Figures 5-7",
		Long: `Reproduce seed 003 (HADAS, hardware-aware dynamic neural architecture search) in
one results directory: the nested search of AttentiveNAS backbones (outer NSGA-II,
450 evaluations) with an inner NSGA-II over early exits and GPU/CPU/EMC DVFS
(3,500 evaluations each) on the Jetson TX2 (default; --platform xavier for the AGX
Xavier); Table III (static, early-exit and early-exit + DVFS energy of a0-a6 and of
HADAS's picks), the b1 headline, Figure 5 (outer and inner fronts), Figure 6
(hypervolume and ratio of dominance against the optimised baselines), Figure 7
(dissimilarity ablation over gamma) and a sweep of the exit-error overlap, each
next to the paper's numbers in report.md; every design in seed003.parquet, the
metrics in metrics.parquet, the sweep in overlap.parquet. Exit accuracies are the
measured AttentiveNAS curves of --data-dir/hadas; which samples each exit gets right
comes from a correlated-error model whose overlap --overlap sets (default: each
backbone's own, its exit curve setting how backbones differ and Table III's a0 gain
the level). Full run about 1.5 CPU-minutes (the paper's budgets);
--quick about 10 CPU-seconds.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.Out = defaultOut(o.Out, "seed003", o.Quick)
			if cmd.Flags().Changed("overlap") {
				o.Overlap = &overlap
			}
			if err := o.Check(); err != nil {
				return err
			}
			stop := heartbeat(cmd, "repro seed003")
			rep, err := seed003.Run(cmd.Context(), o)
			stop()
			if err != nil {
				return err
			}
			repro.WriteFindings(cmd.OutOrStdout(), rep.Findings, rep.Rows, len(rep.Files), rep.Dir)
			return nil
		},
	}
	c.Flags().BoolVar(&o.Quick, "quick", false, "small budgets (the demo run)")
	outDirFlag(c.Flags(), &o.Out, "out", "", "output directory (default results/seed003, or results/seed003-quick with --quick)")
	c.Flags().Uint64Var(&o.Seed, "seed", 1, "random seed")
	workersFlag(c.Flags(), &o.Workers, 2, "parallel outer candidates (results do not depend on it)")
	dataDirFlag(c.Flags(), &o.DataDir, "shared data folder holding hadas/ (env GNNSIM_DATA)")
	c.Flags().StringVar(&o.Platform, "platform", "tx2", "target: tx2 (HADAS Table III) or xavier")
	c.Flags().Float64Var(&overlap, "overlap", 0, "exit-error overlap rho in [0, 1] of every backbone (default: each backbone's own, from its exit curve, levelled on Table III's a0 gain)")
	return c
}
