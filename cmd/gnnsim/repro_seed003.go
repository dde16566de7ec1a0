package main

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"gnnsim/repro/seed003"
)

// reproSeed003Cmd is 'gnnsim repro seed003': HADAS's experiments end to end.
func reproSeed003Cmd() *cobra.Command {
	var o seed003.Options
	c := &cobra.Command{
		Use:   "seed003 [--quick] [--out DIR] [--seed S] [--data DIR]",
		Short: "Seed 003 (HADAS): nested backbone x early-exit x DVFS search, Table III, Figures 5-7",
		Long: `Reproduce seed 003 (HADAS, hardware-aware dynamic neural architecture search) in
one results directory: the nested search of AttentiveNAS backbones (outer NSGA-II,
450 evaluations) with an inner NSGA-II over early exits and Xavier GPU/CPU/EMC DVFS
(3,500 evaluations each); Table III (static, early-exit and early-exit + DVFS energy
of a0-a6 and of HADAS's picks), Figure 5 (outer and inner fronts), Figure 6
(hypervolume and ratio of dominance against the optimised baselines) and Figure 7
(dissimilarity ablation over gamma), each next to the paper's numbers in report.md;
every design in seed003.parquet, the metrics in metrics.parquet. Exit accuracies
are the measured AttentiveNAS curves of --data/hadas. Full run about 15 s on two
cores; --quick a few seconds.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if o.Out == "" {
				o.Out = "results/seed003"
				if o.Quick {
					o.Out = "results/seed003-quick"
				}
			}
			if st, err := os.Stat(o.DataDir); err != nil || !st.IsDir() {
				return fmt.Errorf("--data %s: not a directory", o.DataDir)
			}
			rep, err := seed003.Run(cmd.Context(), o)
			if err != nil {
				return err
			}
			printFindings(cmd.OutOrStdout(), rep.Findings, rep.Rows, len(rep.Files), rep.Dir)
			return nil
		},
	}
	c.Flags().BoolVar(&o.Quick, "quick", false, "small budgets (the demo run)")
	outDirFlag(c.Flags(), &o.Out, "out", "", "output directory (default results/seed003, or results/seed003-quick with --quick)")
	c.Flags().Uint64Var(&o.Seed, "seed", 1, "random seed")
	workersFlag(c.Flags(), &o.Workers, 2, "parallel outer candidates (results do not depend on it)")
	c.Flags().StringVar(&o.DataDir, "data", defaultDataDir(), "shared data folder holding hadas/ (env GNNSIM_DATA)")
	return c
}

// printFindings prints a reproduction's one-line findings and where its
// rows and files went.
func printFindings(w io.Writer, findings []string, rows, files int, dir string) {
	for _, f := range findings {
		fmt.Fprintln(w, f)
	}
	fmt.Fprintf(w, "wrote %d rows and %d files to %s\n", rows, files, dir)
}
