package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	nas "gnnsim/nas/gcos"
	"gnnsim/repro/seed001"
)

// searchGcosCmd is 'gnnsim search gcos'.
func searchGcosCmd() *cobra.Command {
	var (
		dataset, data, model string
		evals, pool, top     int
		latWeight            float64
		seed                 uint64
		workers              int
	)
	c := &cobra.Command{
		Use:   "gcos [--dataset cora] [--model NAME] [flags]",
		Short: "G-CoS pool search of a GNN and its multi-sub-accelerator (seed 001)",
		Long: `Run G-CoS's Algorithm 1 (pool of p_max designs, birth/dying rate 0.2,
half of the attributes mutated) over the joint space of two-layer GNNs (Table
II) and accel/gcos designs (Table I) on one data set, with fitness
(1 - w) accuracy + w RefPS / (RefPS + latency), accuracy measured by training
each GNN on the CPU. With --model (gcn, gat, graphsage, gin) the GNN is fixed
and only the accelerator is searched, for latency alone (no training).

Data sets: cora, citeseer (trainable), pubmed, reddit (latency only: use
--model). Prints the top designs.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			all, err := seed001.Datasets(data)
			if err != nil {
				return err
			}
			i := slices.IndexFunc(all, func(d nas.Dataset) bool { return d.Name == strings.ToLower(dataset) })
			if i < 0 {
				return fmt.Errorf("--dataset %q: want cora, citeseer, pubmed or reddit", dataset)
			}
			ds := all[i]
			if !(latWeight >= 0 && latWeight <= 1) {
				return fmt.Errorf("--lat-weight %v outside [0, 1]", latWeight)
			}
			ctx, stop := signalContext()
			defer stop()
			var sp *nas.Space
			var p *nas.Problem
			if model != "" {
				names, archs := seed001.Fig8Models(ds.Classes)
				hc := nas.Handcrafted(ds.Classes)
				names, archs = append(names, "GAT"), append(archs, hc["GAT"])
				j := slices.IndexFunc(names, func(n string) bool { return strings.EqualFold(n, model) })
				if j < 0 {
					return fmt.Errorf("--model %q: want gcn, gat, graphsage or gin", model)
				}
				if sp, err = nas.NewHardwareSpace(archs[j]); err != nil {
					return err
				}
				if p, err = nas.NewProblem(ds, nil); err != nil {
					return err
				}
				p.Fitness.Acc, p.Fitness.Lat = 0, 1
			} else {
				if ds.Name != "cora" && ds.Name != "citeseer" {
					return fmt.Errorf("--dataset %s has no labels here: search its accelerator with --model", ds.Name)
				}
				or, err := seed001.TrainedAccuracy(data, 0, seed)(ctx, ds)
				if err != nil {
					return err
				}
				fmt.Fprintln(cmd.ErrOrStderr(), "accuracy (validation, for the fitness):", or.From)
				acc := or.Search
				if sp, err = nas.NewSpace(ds.Classes); err != nil {
					return err
				}
				if p, err = nas.NewProblem(ds, acc); err != nil {
					return err
				}
				p.Fitness.Acc, p.Fitness.Lat = 1-latWeight, latWeight
			}
			res, err := p.Search(ctx, sp, nas.Options{PoolSize: pool, Outputs: top, Evaluations: evals, Seed: seed, Workers: workers})
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			fmt.Fprintf(w, "%s: %d evaluations\n", ds.Name, len(res.Evaluated))
			for k, c := range res.Top {
				fmt.Fprintf(w, "%d. fitness %.4f  accuracy %.3f  latency %.2f us  %.2f MB off chip\n   GNN: %s\n   accelerator: %+v\n",
					k+1, c.Fitness, c.Accuracy, float64(c.LatencyPS)/1e6, float64(c.DRAMBytes)/1e6, c.Design.Arch, c.Design.HW.Subs)
			}
			return nil
		},
	}
	c.Flags().StringVar(&dataset, "dataset", "cora", "cora, citeseer, pubmed or reddit")
	c.Flags().StringVar(&data, "data", defaultDataDir(), "folder of the Planetoid data (env GNNSIM_DATA)")
	c.Flags().StringVar(&model, "model", "", "fix the GNN (gcn, gat, graphsage, gin) and search the accelerator only")
	intFlag(c.Flags(), &evals, "evaluations", 1000, 1, maxGcosEvaluations, "evaluation budget")
	intFlag(c.Flags(), &pool, "pool", 50, 1, maxPool, "pool size p_max")
	intFlag(c.Flags(), &top, "top", 5, 1, maxPool, "designs returned (N2)")
	floatFlag(c.Flags(), &latWeight, "lat-weight", 0.5, 0, 1, false, "weight of the latency term (the accuracy's is 1 - w)")
	c.Flags().Uint64Var(&seed, "seed", 1, "seed of the search")
	workersFlag(c.Flags(), &workers, 0, "parallel workers; results do not depend on it")
	return c
}
