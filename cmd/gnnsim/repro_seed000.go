package main

import (
	"github.com/spf13/cobra"

	"gnnsim/nas/magnas"
	"gnnsim/repro"
	"gnnsim/repro/seed000"
)

// reproSeed000Cmd is 'gnnsim repro seed000': MaGNAS's experiments end to
// end (the lead wires it into 'repro' and 'demo').
func reproSeed000Cmd() *cobra.Command {
	var (
		out, accCSV, dataset string
		seed                 uint64
		quick                bool
		workers              int
	)
	c := &cobra.Command{
		Use:   "seed000 [--quick] [--out DIR] [--seed S] [--accuracy FILE.csv] [--dataset D]",
		Short: "Seed 000 (MaGNAS): two-tier architecture/mapping search, Tables 3-5, Figures 5-10",
		Long: `Reproduce seed 000 (MaGNAS, mapping-aware graph neural architecture search) in one
results directory: the search-space sizes, the platform's anchors against Table 2,
Table 3 (standalone vs constrained-transition vs unconstrained mappings), Figure 5
(nested vs outer-only hypervolume), Figure 6 with Tables 4-5 (latency and power
constraints), Figure 7 (DVFS), Figure 8 (isotropic vs pyramid), Figure 9 (block-wise
vs layer-wise on three MAESTRO DSAs) and Figure 10 (evolution vs random search), each
next to the paper's numbers in report.md; every evaluated candidate in
seed000.parquet; figures as PNG. --quick uses small budgets (about 30 s).

Accuracy is a documented proxy anchored on Table 2's baselines unless --accuracy
names a CSV with columns arch (e.g. d4G.fc0.ffn1.w192|d2M.fc1.ffn0|...) and top1.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			out = defaultOut(out, "seed000", quick)
			opts := seed000.Options{Out: out, Quick: quick, Seed: seed, Workers: workers, Dataset: dataset}
			if accCSV != "" {
				t, err := magnas.LoadAccuracyCSV(accCSV)
				if err != nil {
					return err
				}
				opts.Accuracy = t
			}
			rep, err := seed000.Run(cmd.Context(), opts)
			if err != nil {
				return err
			}
			repro.WriteFindings(cmd.OutOrStdout(), rep.Findings, rep.Rows, len(rep.Files), rep.Dir)
			return nil
		},
	}
	outDirFlag(c.Flags(), &out, "out", "", "results directory (default results/seed000, or results/seed000-quick with --quick)")
	c.Flags().BoolVar(&quick, "quick", false, "small budgets (the demo run)")
	c.Flags().Uint64Var(&seed, "seed", 1, "random seed")
	workersFlag(c.Flags(), &workers, 2, "parallel outer candidates (results do not depend on it)")
	c.Flags().StringVar(&accCSV, "accuracy", "", "CSV of measured top-1 per architecture (default: the proxy)")
	c.Flags().StringVar(&dataset, "dataset", "cifar100", "proxy data set for Tables 3-5 and Figure 7: cifar10, cifar100, flowers, tiny-imagenet")
	return c
}
