package main

import (
	"github.com/spf13/cobra"

	"gnnsim/repro/seed001"
)

// reproSeed001Cmd is 'gnnsim repro seed001'.
func reproSeed001Cmd() *cobra.Command {
	var (
		out, data string
		seed      uint64
		quick     bool
		denseX    bool
		ownModels bool
		fig8Only  bool
		workers   int
	)
	c := &cobra.Command{
		Use:   "seed001 [--quick] [--fig8-dense-x] [--fig8-own-models] [--fig8-only] [--out DIR] [--seed S] [--data-dir DIR]",
		Short: "Seed 001 (G-CoS) end to end: Figures 1, 7 and 8",
		Long: `Reproduce seed 001 (G-CoS, GNN and accelerator co-search) in one results
directory:

  1. Figure 1: accuracy x throughput of random GNN / accelerator pairs on Cora
     (300 x 300; --quick 8 x 40), the good corner marked (fig1_pairs.*);
  2. Figure 7: accuracy vs latency of the pool co-search (Algorithm 1) at three
     latency weights against GCN, GAT and GraphSAGE whose accelerators the same
     search tunes, on Cora and CiteSeer (--quick: Cora) (fig7_*);
  3. Figure 8: speed-up of searched accelerators over the HyGCN-like and
     AWB-GCN-like designs (each sized as its paper), each comparison on its
     baseline's own GNNs as the paper fixes them (HyGCN's GCN, GraphSAGE and
     GIN, 128 wide; AWB-GCN's GCN, hidden 16; --fig8-own-models: our GCN, GIN
     and GraphSAGE, hidden 16, against both), G-CoS searching only its
     accelerator, on Cora, CiteSeer, PubMed and Reddit (a power-law degree
     profile of its published size), per case and per data set, the paper's
     5.52x and 1.92x marked (fig8_*); G-CoS's designs skip zero input
     features (--fig8-dense-x: they do not), a GCN layer combines before it
     aggregates when it narrows (A(XW), as PyG and AWB-GCN), HyGCN-like
     aggregates the dense features first (its pipeline);
  4. report.md with every table and the paper's figures beside ours.

--fig8-only runs Figure 8 alone (no training, no Figures 1 and 7): at the full
accelerator-search budget it takes seconds.

Accuracy is measured by training each GNN on the CPU (package train, Planetoid
data under --data-dir; searches optimise validation accuracy, figures show test
accuracy). Everything is determined by --seed and the data. --quick trains 30
epochs in a space limited to hidden <= 32 and 2 heads, with small budgets:
about 40 s on two busy cores. The full run trains hundreds of GNNs up to
256 x 16 wide (seconds to minutes each): hours on two cores.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			out = defaultOut(out, "seed001", quick)
			ctx, stop := signalContext()
			defer stop()
			rep, err := seed001.Run(ctx, seed001.Options{Out: out, Quick: quick, Seed: seed, DataDir: data, Workers: workers, Fig8DenseX: denseX, Fig8OwnModels: ownModels, Fig8Only: fig8Only, Log: progressOut(cmd)})
			if err != nil {
				return err
			}
			rep.WriteSummary(cmd.OutOrStdout(), fig8Only)
			return nil
		},
	}
	c.Flags().BoolVar(&quick, "quick", false, "reduced sizes (within a minute)")
	c.Flags().BoolVar(&denseX, "fig8-dense-x", false, "price G-CoS's Figure 8 designs on dense input features (default: zeros skipped)")
	c.Flags().BoolVar(&ownModels, "fig8-own-models", false, "run Figure 8 on our GCN, GIN and GraphSAGE (hidden 16) against both baselines (default: each baseline's own GNNs, as the paper)")
	c.Flags().BoolVar(&fig8Only, "fig8-only", false, "run Figure 8 alone (no GNN training, no Figures 1 and 7)")
	outDirFlag(c.Flags(), &out, "out", "", "results directory (default results/seed001, or results/seed001-quick with --quick)")
	c.Flags().Uint64Var(&seed, "seed", 1, "seed of every random choice")
	dataDirFlag(c.Flags(), &data, "folder of the Planetoid data (env GNNSIM_DATA)")
	workersFlag(c.Flags(), &workers, 0, "parallel workers (default: number of CPUs); results do not depend on it")
	return c
}
