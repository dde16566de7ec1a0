package main

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"gnnsim/accel"
	"gnnsim/graphs"
	"gnnsim/internal/cliflag"
	"gnnsim/predict"
	"gnnsim/repro/seed002"
	"gnnsim/workload"
)

func init() { register(newPredictCmd) }

func newPredictCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "predict",
		Short: "Train, evaluate and use the per-configuration latency predictors (seed 002)",
		Long: `Latency predictors of seed 002, section 3: one gradient-boosted tree model per
configuration (3 inter-phase dataflows x 8 tilings), trained on a sweep's
labels and stored as LightGBM v3 text files plus a manifest.json, read back
for inference through leaves.

Data directories are sweep outputs (graphs.parquet + runs.parquet), e.g. from
'gnnsim dataset graphlaxy' or 'gnnsim dataset real'. Graphs are split
70/15/15 (train/valid/test) by graph and per data set with a seeded shuffle;
the test split is only read by 'eval' and 'ablation'.`,
	}
	cmd.AddCommand(predictTrainCmd(), predictEvalCmd(), predictGraphCmd(), predictAblationCmd())
	return cmd
}

// fitFlags registers the training flags shared by train and ablation.
func fitFlags(c *cobra.Command, o *predict.FitOptions) {
	d := predict.DefaultFitOptions()
	*o = d
	p := &o.Params
	f := c.Flags()
	f.Uint64Var(&o.SplitSeed, "split-seed", d.SplitSeed, "seed of the 70/15/15 split by graph (eval recomputes the split from the manifest)")
	workersFlag(f, &o.Workers, 0, "models trained at once (default: number of CPUs); results do not depend on it")
	intFlag(f, &p.NumIterations, "num-iterations", d.Params.NumIterations, 1, 100_000, "most boosting rounds (trees) per model")
	floatFlag(f, &p.LearningRate, "learning-rate", d.Params.LearningRate, 0, 1, true, "shrinkage of every tree")
	intFlag(f, &p.NumLeaves, "num-leaves", d.Params.NumLeaves, 2, 131_072, "most leaves per tree (leaf-wise growth)")
	intFlag(f, &p.MaxDepth, "max-depth", d.Params.MaxDepth, -1, 1000, "most depth of a leaf; <= 0: no limit")
	intFlag(f, &p.MinDataInLeaf, "min-data-in-leaf", d.Params.MinDataInLeaf, 1, 1_000_000, "fewest training rows in a leaf")
	floatFlag(f, &p.MinSumHessianInLeaf, "min-sum-hessian", d.Params.MinSumHessianInLeaf, 0, 1e12, false, "smallest hessian sum in a leaf")
	floatFlag(f, &p.LambdaL2, "lambda-l2", d.Params.LambdaL2, 0, 1e12, false, "L2 regularisation of leaf values")
	intFlag(f, &p.MaxBin, "max-bin", d.Params.MaxBin, 2, 256, "most histogram bins per feature (2..256)")
	floatFlag(f, &p.FeatureFraction, "feature-fraction", d.Params.FeatureFraction, 0, 1, true, "fraction of features each tree may use")
	floatFlag(f, &p.BaggingFraction, "bagging-fraction", d.Params.BaggingFraction, 0, 1, true, "fraction of rows each tree is grown on (with --bagging-freq > 0)")
	intFlag(f, &p.BaggingFreq, "bagging-freq", d.Params.BaggingFreq, 0, 1_000_000, "redraw the bag every this many rounds; 0: no bagging")
	intFlag(f, &p.EarlyStoppingRound, "early-stopping", d.Params.EarlyStoppingRound, 0, 1_000_000, "stop when the validation L2 has not improved for this many rounds; 0: never")
	f.Uint64Var(&p.Seed, "gbdt-seed", d.Params.Seed, "seed of bagging and feature sampling")
	cliflag.Parsed(f, &o.Baseline, "baseline", "what +log trees are boosted from: loglinear (a per-configuration linear model of log latency, stored in the manifest) or none (the mean, as LightGBM and seed 002); ignored without the log target", predict.ParseBaseline)
}

func predictTrainCmd() *cobra.Command {
	var data []string
	var out, features string
	var o predict.FitOptions
	var asJSON bool
	c := &cobra.Command{
		Use:   "train --data DIR --out MODELS [--features base|full] [--log=false]",
		Short: "Train the 24 latency models on sweep data and write a model directory",
		Long: `Train one model per configuration on the training split of the --data sweep
directories (several may be given; their data set labels must differ), with
early stopping on the validation split, and write MODELS/<config>.txt
(LightGBM v3 text) and MODELS/manifest.json.

The defaults train the recommended predictor (all features, log target,
log-linear baseline: seed 002's +features+log); --features base and
--log=false reach the other variants of the ablation.

Prints the training time, the trees per model and the Table 3 metrics of
each data set on its validation split: the figures to tune parameters on.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if len(data) == 0 || out == "" {
				return fmt.Errorf("--data and --out are required")
			}
			f, n, wall, err := seed002.TrainDirs(data, features, o, out, progressOut(cmd))
			if err != nil {
				return err
			}
			if asJSON {
				fmt.Fprintf(cmd.ErrOrStderr(), "trained in %.1f s\n", wall.Seconds())
				return writeJSON(cmd.OutOrStdout(), seed002.NewFitSummary(f, n, out))
			}
			return seed002.WriteFit(cmd.OutOrStdout(), f, n, wall, out)
		},
	}
	pathListFlag(c.Flags(), &data, "data", nil, "sweep directory to train on (repeat or comma-separate for several)")
	outDirFlag(c.Flags(), &out, "out", "", "model directory to write")
	fitFlags(c, &o)
	c.Flags().StringVar(&features, "features", "full", "feature set: base (Table 1's base) or full (base+features, adds S1..S6)")
	c.Flags().BoolVar(&asJSON, "json", false, "print one JSON object (variant, baseline, samples, best_fixed, models with their trees, validation rows as 'predict eval --json'); the training time goes to stderr")
	c.Flags().BoolVar(&o.Log, "log", true, "train on log(latency) (seed 002's +log; --log=false trains on cycles)")
	return c
}

func predictEvalCmd() *cobra.Command {
	var models, parquetOut, mdOut string
	var data []string
	var asJSON bool
	c := &cobra.Command{
		Use:   "eval --models MODELS --data DIR... [--json]",
		Short: "Evaluate a model directory on sweep data (seed 002's Table 3)",
		Long: `Predict every case of the --data directories with the models and report
seed 002's Table 3 metrics per data set, in percent: MAPE, top-1 and top-3
accuracy of the predicted best configuration, improvement over a random and
over the best fixed configuration, degradation over the optimum.

Data sets the models were trained on, and Graphlaxy sets, are evaluated on
their test split (recomputed from the manifest's split seed); every other
set on all its graphs. The best fixed configuration is chosen on the training
split (a trained-on set's own, otherwise the whole training split's).

Without --json prints a Markdown table with seed 002's figures beside ours;
with --json prints a JSON array, one object per data set with keys dataset,
n_graphs, mape, top1, top3, improvement_vs_random, improvement_vs_best_fixed,
degradation_vs_optimal. --out writes the same rows to a Parquet file
(--parquet, its old name, still works for one release).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if models == "" || len(data) == 0 {
				return fmt.Errorf("--models and --data are required")
			}
			stop := heartbeat(cmd, "predict eval")
			defer stop()
			rows, variant, err := seed002.EvalModels(models, data, parquetOut, mdOut, cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			if asJSON {
				return writeJSON(w, rows)
			}
			fmt.Fprintf(w, "models: %s (%s)\n\n", models, variant)
			return seed002.WriteTable3(w, rows)
		},
	}
	c.Flags().StringVar(&models, "models", "", "model directory written by 'predict train', or LightGBM models trained elsewhere with a sidecar.json (see 'go doc gnnsim/predict')")
	pathListFlag(c.Flags(), &data, "data", nil, "sweep directory to evaluate on (repeat or comma-separate for several)")
	c.Flags().BoolVar(&asJSON, "json", false, "print a JSON array (one object per data set, figures in percent) instead of the table")
	outFileFlag(c.Flags(), &parquetOut, "out", "", "also write the rows to this Parquet file")
	// --out is every command's result file; --parquet was this one's.
	outFileFlag(c.Flags(), &parquetOut, "parquet", "", "old name of --out")
	_ = c.Flags().MarkDeprecated("parquet", "use --out")
	outFileFlag(c.Flags(), &mdOut, "markdown", "", "also write the Markdown table to this file")
	return c
}

func predictGraphCmd() *cobra.Command {
	var models, graphsFile, graph, hwFile, out string
	var F, G int
	var asJSON bool
	c := &cobra.Command{
		Use:   "graph --models MODELS --graphs FILE --graph N --F F --G G",
		Short: "Predict the latency of all 24 configurations for one graph",
		Long: `Predict the latency in cycles of a GCN layer (F input, G output features) on
one graph of a graph-set file under each of the 24 configurations, fastest
first, and name the predicted best. The hardware (default: the built-in one)
must be one the models were trained on. A graph or F, G outside the ranges
the models were trained on (their feature_infos) gets a warning naming the
features; a prediction below one cycle is refused.

--json prints one object: graph, nodes, edges, F, G, pe_array, best and
configs (rank, config, cycles; fastest first); --out writes the configs as
a Parquet file with typed columns rank, config, cycles, its metadata
holding gnnsim.models, gnnsim.graphs, gnnsim.graph (the graph's name),
gnnsim.command and gnnsim.flags.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if models == "" || graphsFile == "" || graph == "" {
				return fmt.Errorf("--models, --graphs and --graph are required")
			}
			p, err := predict.LoadPredictor(models)
			if err != nil {
				return err
			}
			hw := accel.DefaultHW()
			if hwFile != "" {
				if hw, err = accel.LoadHW(hwFile); err != nil {
					return err
				}
			}
			gs, _, err := graphs.ReadSet(graphsFile)
			if err != nil {
				return err
			}
			sel, err := graphs.Select(gs, graph) // the rule of 'simulate --graph'
			if err != nil {
				return fmt.Errorf("%s: %w", graphsFile, err)
			}
			pr, err := seed002.Predict(cmd.ErrOrStderr(), p, sel[0], F, G, hw)
			if err != nil {
				return err
			}
			meta := map[string]string{"gnnsim.models": models, "gnnsim.graphs": graphsFile, "gnnsim.graph": pr.Graph}
			if err := writeOut(cmd, out, pr.Configs, meta); err != nil {
				return err
			}
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), pr)
			}
			pr.WriteText(cmd.OutOrStdout())
			return nil
		},
	}
	c.Flags().StringVar(&models, "models", "", "model directory written by 'predict train', or LightGBM models trained elsewhere with a sidecar.json (see 'go doc gnnsim/predict')")
	c.Flags().StringVar(&graphsFile, "graphs", "", "graph-set Parquet file (e.g. a sweep's graphs.parquet)")
	c.Flags().StringVar(&graph, "graph", "", "the graph: its name, or its 0-based index in the file (a name wins), as for simulate")
	intFlag(c.Flags(), &F, "F", 16, 1, workload.MaxFeatures, "input features of the GCN layer")
	intFlag(c.Flags(), &G, "G", 16, 1, workload.MaxFeatures, "output features of the GCN layer")
	c.Flags().StringVar(&hwFile, "hw", "", "accelerator spec YAML (default: the built-in 512-PE hardware)")
	c.Flags().BoolVar(&asJSON, "json", false, "print one JSON object (the graph and every configuration's cycles) instead of text")
	outFileFlag(c.Flags(), &out, "out", "", "also write one row per configuration to a Parquet file (columns in --help)")
	return c
}

func predictAblationCmd() *cobra.Command {
	var data, evalData []string
	var out string
	var o predict.FitOptions
	var asJSON bool
	c := &cobra.Command{
		Use:   "ablation --data DIR --out DIR [--eval DIR...]",
		Short: "Seed 002's Table 4: train and evaluate base, +features, +log, +features+log",
		Long: `Train the four variants of seed 002's ablation (base, base+features, base+log,
base+features+log) on the --data sweep directories with the same parameters,
save them to OUT/<variant>/, evaluate each on the test split of the training
data and on every --eval directory (all graphs, unless a Graphlaxy set), and
write OUT/ablation.parquet, OUT/table4.md (MAPE and degradation over optimal
beside the seed's) and OUT/table3.md (all metrics of every variant).

--json prints the rows as a JSON array instead of Table 4, one object per
variant and data set with the keys of 'predict eval --json' (the summary
line with the wall time goes to stderr).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if len(data) == 0 || out == "" {
				return fmt.Errorf("--data and --out are required")
			}
			start := time.Now()
			stop := heartbeat(cmd, "predict ablation")
			rows, n, err := seed002.AblationDirs(data, evalData, o, out)
			stop()
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			if asJSON {
				fmt.Fprintf(cmd.ErrOrStderr(), "ablation of %d samples done in %.1f s; wrote %s\n", n, time.Since(start).Seconds(), out)
				return writeJSON(w, rows)
			}
			fmt.Fprintf(w, "ablation of %d samples done in %.1f s; wrote %s\n\n", n, time.Since(start).Seconds(), out)
			return seed002.WriteTable4(w, rows)
		},
	}
	pathListFlag(c.Flags(), &data, "data", nil, "sweep directory to train on (repeat or comma-separate for several)")
	pathListFlag(c.Flags(), &evalData, "eval", nil, "further sweep directories to evaluate on (e.g. the real data sets)")
	outDirFlag(c.Flags(), &out, "out", "", "output directory (models, ablation.parquet, table3.md, table4.md)")
	c.Flags().BoolVar(&asJSON, "json", false, "print the rows as a JSON array (keys as 'predict eval --json') instead of Table 4")
	fitFlags(c, &o)
	return c
}
