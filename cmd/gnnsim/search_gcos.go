package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"gnnsim/bench"
	"gnnsim/graphs"
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
	var ds nas.Dataset
	source := seed001.TrainedAccuracy(f.dataDir, 0, f.seed)
	if ref.Named {
		all, err := seed001.Datasets(f.dataDir)
		if err != nil {
			return err
		}
		i := slices.IndexFunc(all, func(d nas.Dataset) bool { return d.Name == ref.Name })
		if i < 0 {
			return fmt.Errorf("--data %s: G-CoS knows cora, citeseer, pubmed and reddit by name; give another set's path", ref.Name)
		}
		ds = all[i]
	} else {
		p, err := graphs.LoadPlanetoid(ref.Path)
		if err != nil {
			return fmt.Errorf("--data: %w", err)
		}
		if ds, err = nas.DatasetOf(p); err != nil {
			return fmt.Errorf("--data %s: %w", ref.Path, err)
		}
		source = seed001.TrainedAccuracyAt(func(nas.Dataset) string { return ref.Path }, 0, f.seed)
	}
	if !(f.latWeight >= 0 && f.latWeight <= 1) {
		return fmt.Errorf("--lat-weight %v outside [0, 1]", f.latWeight)
	}
	ctx, stop := signalContext()
	defer stop()
	var sp *nas.Space
	var p *nas.Problem
	if f.model != "" {
		names, archs := seed001.Fig8Models(ds.Classes)
		hc := nas.Handcrafted(ds.Classes)
		names, archs = append(names, "GAT"), append(archs, hc["GAT"])
		j := slices.IndexFunc(names, func(n string) bool { return strings.EqualFold(n, f.model) })
		if j < 0 {
			return fmt.Errorf("--model %q: want gcn, gat, graphsage or gin", f.model)
		}
		if sp, err = nas.NewHardwareSpace(archs[j]); err != nil {
			return err
		}
		if p, err = nas.NewProblem(ds, nil); err != nil {
			return err
		}
		p.Fitness.Acc, p.Fitness.Lat = 0, 1
	} else {
		if ref.Named && ds.Name != "cora" && ds.Name != "citeseer" {
			return fmt.Errorf("--data %s has no labels here: search its accelerator with --model", ds.Name)
		}
		or, err := source(ctx, ds)
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
		p.Fitness.Acc, p.Fitness.Lat = 1-f.latWeight, f.latWeight
	}
	res, err := p.Search(ctx, sp, nas.Options{PoolSize: f.pool, Outputs: f.top, Evaluations: f.evals, Seed: f.seed, Workers: f.workers})
	if err != nil {
		return err
	}
	rows := make([]gcosTopRow, len(res.Top))
	for k, c := range res.Top {
		rows[k] = gcosTopRow{Dataset: ds.Name, Rank: k + 1, Fitness: c.Fitness, LatencyPS: c.LatencyPS,
			LatencyUS: float64(c.LatencyPS) / 1e6, DRAMBytes: c.DRAMBytes, Feasible: c.Feasible,
			GNN: fmt.Sprint(c.Design.Arch), Accelerator: fmt.Sprintf("%+v", c.Design.HW.Subs), Subs: len(c.Design.HW.Subs)}
		if f.model == "" {
			rows[k].Accuracy = &c.Accuracy
		}
	}
	if err := writeOut(cmd, f.out, rows, map[string]string{"gnnsim.evaluations": strconv.Itoa(len(res.Evaluated))}); err != nil {
		return err
	}
	w := cmd.OutOrStdout()
	if f.asJSON {
		return writeJSON(w, rows)
	}
	fmt.Fprintf(w, "%s: %d evaluations\n", ds.Name, len(res.Evaluated))
	for _, r := range rows {
		acc := "not measured (latency-only search)"
		if r.Accuracy != nil {
			acc = fmt.Sprintf("%.3f", *r.Accuracy)
		}
		fmt.Fprintf(w, "%d. fitness %.4f  accuracy %s  latency %.2f us  %.2f MB off chip\n   GNN: %s\n   accelerator: %s\n",
			r.Rank, r.Fitness, acc, r.LatencyUS, float64(r.DRAMBytes)/1e6, r.GNN, r.Accelerator)
	}
	return nil
}

// gcosTopRow is one of search gcos's top designs: a printed entry, a
// --json object and an --out row.
type gcosTopRow struct {
	Dataset string  `json:"dataset" parquet:"dataset"`
	Rank    int     `json:"rank" parquet:"rank"`
	Fitness float64 `json:"fitness" parquet:"fitness"`
	// Accuracy is nil when the search measured none (--model: latency only).
	Accuracy    *float64 `json:"accuracy" parquet:"accuracy,optional"`
	LatencyPS   int64    `json:"latency_ps" parquet:"latency_ps"`
	LatencyUS   float64  `json:"latency_us" parquet:"latency_us"`
	DRAMBytes   int64    `json:"dram_bytes" parquet:"dram_bytes"`
	Feasible    bool     `json:"feasible" parquet:"feasible"`
	GNN         string   `json:"gnn" parquet:"gnn"`
	Accelerator string   `json:"accelerator" parquet:"accelerator"`
	Subs        int      `json:"sub_accelerators" parquet:"sub_accelerators"`
}

// dirHas reports whether dir holds an entry named name.
func dirHas(dir, name string) bool {
	_, err := os.Stat(filepath.Join(dir, name))
	return err == nil
}
