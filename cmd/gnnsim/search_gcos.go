package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/spf13/cobra"

	"gnnsim/bench"
	nas "gnnsim/nas/gcos"
	"gnnsim/repro/seed001"
)

// searchGcosCmd is 'gnnsim search gcos'.
func searchGcosCmd() *cobra.Command {
	var f searchGcosFlags
	c := &cobra.Command{
		Use:   "gcos [--data cora|PATH] [--model NAME] [flags]",
		Short: "G-CoS pool search of a GNN and its multi-sub-accelerator (seed 001)",
		Long: `Run G-CoS's Algorithm 1 (pool of p_max designs, birth/dying rate 0.2,
half of the attributes mutated) over the joint space of two-layer GNNs (Table
II) and accel/gcos designs (Table I) on one data set, with fitness
(1 - w) accuracy + w RefPS / (RefPS + latency), accuracy measured by training
each GNN on the CPU. With --model (gcn, gat, graphsage, gin) the GNN is fixed
and only the accelerator is searched, for latency alone (no training).

--data is a name or a path, as in every command: cora, citeseer
(trainable), pubmed, reddit (latency only: use --model) by name, looked up
under --data-dir (their files when present, else their published sizes),
or a Planetoid file set / .npz file by path (its graph and measured
feature density; trained on its split). --dataset is the old name of
--data. Prints the top designs, best first, each with: fitness (the
formula above; with --model, w = 1: RefPS / (RefPS + latency), in (0, 1],
higher is faster); accuracy (the GNN's validation accuracy in [0, 1] used
by the fitness; "not measured" with --model, which trains nothing);
latency (one inference on the accelerator, us); MB off chip (HBM
traffic); GNN (its two layers); accelerator (each sub-accelerator's PEs,
tiling and kernel mode, tile sizes and options).

--json prints the designs as an array and --out writes them to a Parquet
file, one row per design, typed columns: dataset, rank (1 = best),
fitness, accuracy (null when not measured), latency_ps, latency_us,
dram_bytes, feasible (within the platform's resources), gnn, accelerator
(text as printed), sub_accelerators (their count). The file's metadata
holds gnnsim.command, gnnsim.flags, gnnsim.seed, gnnsim.evaluations and
gnnsim.version.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runSearchGcos(cmd, &f) },
	}
	dataFlags(c.Flags(), &f.data, &f.dataDir, "cora", "node-classification set (by name: cora, citeseer, pubmed, reddit)")
	c.Flags().StringVar(&f.dataset, "dataset", "", "old name of --data")
	_ = c.Flags().MarkDeprecated("dataset", "use --data")
	c.Flags().StringVar(&f.model, "model", "", "fix the GNN (gcn, gat, graphsage, gin) and search the accelerator only")
	intFlag(c.Flags(), &f.evals, "evaluations", 1000, 1, maxGcosEvaluations, "evaluation budget")
	intFlag(c.Flags(), &f.pool, "pool", 50, 1, maxPool, "pool size p_max")
	intFlag(c.Flags(), &f.top, "top", 5, 1, maxPool, "designs returned (N2)")
	floatFlag(c.Flags(), &f.latWeight, "lat-weight", 0.5, 0, 1, false, "weight of the latency term (the accuracy's is 1 - w)")
	c.Flags().Uint64Var(&f.seed, "seed", 1, "seed of the search")
	workersFlag(c.Flags(), &f.workers, 0, "parallel workers; results do not depend on it")
	c.Flags().BoolVar(&f.asJSON, "json", false, "print the top designs as a JSON array instead of text")
	outFileFlag(c.Flags(), &f.out, "out", "", "also write the top designs to a Parquet file (columns in --help)")
	return c
}

// searchGcosFlags are the options of search gcos.
type searchGcosFlags struct {
	dataset, data, model, dataDir, out string
	evals, pool, top, workers          int
	latWeight                          float64
	seed                               uint64
	asJSON                             bool
}

// runSearchGcos runs the pool search of f and prints or writes its top
// designs.
func runSearchGcos(cmd *cobra.Command, f *searchGcosFlags) error {
	if cmd.Flags().Changed("dataset") {
		if cmd.Flags().Changed("data") && f.data != f.dataset {
			return fmt.Errorf("--dataset %s and --data %s: --dataset is the old name of --data; give one", f.dataset, f.data)
		}
		f.data = f.dataset
	}
	if st, err := os.Stat(f.data); err == nil && st.IsDir() && dirHas(f.data, "planetoid") {
		return fmt.Errorf("--data %s is the data folder: give it as --data-dir, and the set as --data (cora, citeseer, pubmed, reddit or a path)", f.data)
	}
	ref, err := resolveData(f.data, f.dataDir, bench.NeedStats)
	if err != nil {
		return err
	}
	ds, err := seed001.DatasetFor(ref.Named, ref.Name, ref.Path, f.dataDir)
	if err != nil {
		return err
	}
	ctx, stop := signalContext()
	defer stop()
	q := seed001.PoolSearch{Dataset: ds, Named: ref.Named, Path: ref.Path, DataDir: f.dataDir, Model: f.model, LatWeight: f.latWeight,
		Options: nas.Options{PoolSize: f.pool, Outputs: f.top, Evaluations: f.evals, Seed: f.seed, Workers: f.workers}}
	top, evaluations, err := q.Run(ctx, cmd.ErrOrStderr())
	if err != nil {
		return err
	}
	rows := make([]gcosTopRow, len(top))
	for i, r := range top {
		rows[i] = gcosTopRow(r)
	}
	if err := writeOut(cmd, f.out, rows, map[string]string{"gnnsim.evaluations": strconv.Itoa(evaluations)}); err != nil {
		return err
	}
	w := cmd.OutOrStdout()
	if f.asJSON {
		return writeJSON(w, rows)
	}
	seed001.WriteTop(w, ds.Name, evaluations, top)
	return nil
}

// gcosTopRow is search gcos's Parquet row: its name is the schema's root
// name in the files --out wrote before the row moved to repro/seed001.
type gcosTopRow seed001.TopRow

// dirHas reports whether dir holds an entry named name.
func dirHas(dir, name string) bool {
	_, err := os.Stat(filepath.Join(dir, name))
	return err == nil
}
