package main

import (
	"fmt"
	"strconv"

	"github.com/spf13/cobra"

	"gnnsim/bench"
	"gnnsim/nas/fgnas"
	"gnnsim/repro/seed004"
)

// searchFGNASCmd is 'search fgnas', for the lead to add to the search group.
func searchFGNASCmd() *cobra.Command {
	var f searchFGNASFlags
	c := &cobra.Command{
		Use:   "fgnas --data cora --latency-ms 0.8 --lut 10000 --dsp 10 [--method joint|random|separate]",
		Short: "FGNAS co-search of a GNN and its FPGA pipeline under hardware limits",
		Long: `Search a two-layer GNN, its FPGA group sizes and its per-layer fixed-point formats
(seed 004, Table 1) under a latency, LUT/FF and DSP limit at 100 MHz. Methods:
joint (FGNAS's LSTM REINFORCE controller, 2,000 episodes), random (uniform
designs until --trained were trained; default: as many as a joint run with the
same seed trains) and separate (architecture 200 episodes, then hardware 800).
Rewards are validation accuracies of the networks trained on the CPU and
quantised to the design's formats; infeasible designs get 0 untrained.
--data is a name or a path, as in every command: cora, citeseer or pubmed
(the hardware priced on their published statistics, the networks trained
on their Planetoid files under --data-dir) or a Planetoid file set / .npz
file (statistics measured from it, trained on its split).

Prints the number of distinct designs and of trained ones, then the best
design by validation accuracy: val and test accuracy (%), its latency (ms,
the timing judged against --latency-ms), LUT, FF and DSP usage, and its
genome (per layer: embedding width, attention, aggregation, heads,
activation, group sizes t_*, and the integer.fraction bits ai.af of the
activations and wi.wf of the weights).

--json prints every distinct design, in evaluation order, and --out writes
them to a Parquet file, one row per design, typed columns: method, data,
index (evaluation order), episode (the controller batch that first drew
it), phase (1 for the hardware phase of separate search, else 0), design
(the genome as printed), latency_ms, cycles (the timing judged), lut, ff,
dsp, feasible (within every limit), over (the limit exceeded, empty when
feasible), trained, val, test (accuracies in [0, 1], 0 when not trained),
best (the design printed). The file's metadata holds gnnsim.command,
gnnsim.flags, gnnsim.seed, gnnsim.limits, gnnsim.episodes, gnnsim.trained
and gnnsim.version.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runSearchFGNAS(cmd, &f) },
	}
	dataFlags(c.Flags(), &f.data, &f.dataDir, "cora", "node-classification set to search on (cora, citeseer, pubmed: published statistics for the hardware; a path: measured)")
	c.Flags().StringVar(&f.method, "method", "joint", "joint, random or separate")
	floatFlag(c.Flags(), &f.lim.LatencyMS, "latency-ms", 1, 0, maxLatencyMS, false, "latency limit in ms (0: none)")
	intFlag(c.Flags(), &f.lim.LUT, "lut", 100000, 0, maxFPGAResource, "LUT and FF limit (0: none)")
	intFlag(c.Flags(), &f.lim.DSP, "dsp", 100, 0, maxFPGAResource, "DSP limit (0: none)")
	intFlag(c.Flags(), &f.episodes, "episodes", 0, 0, maxEpisodes, "joint episodes (default 2,000)")
	intFlag(c.Flags(), &f.trained, "trained", 0, 0, maxTrained, "random search: trained designs to reach (default: as many as the joint run)")
	c.Flags().Uint64Var(&f.seed, "seed", 1, "seed")
	c.Flags().StringVar(&f.costModel, "cost-model", "gnnsim", "cost model: gnnsim (ours) or fgnas-code (the FGNAS authors' model)")
	// --model was the cost model here; everywhere else it names the
	// workload. Kept one release as an alias.
	c.Flags().StringVar(&f.costModel, "model", "gnnsim", "old name of --cost-model")
	_ = c.Flags().MarkDeprecated("model", "use --cost-model (--model names the workload in every other command)")
	c.Flags().BoolVar(&f.anyResource, "any-resource", false, "fgnas-code: the authors' code's any-resource rule (default: every limit, as the paper)")
	intFlag(c.Flags(), &f.trainUntil, "train-until", 0, 0, maxTrained, "joint and separate (hardware phase): run until N designs were trained (the authors' --gpu-eps; capped at 10x the episodes)")
	intFlag(c.Flags(), &f.screen, "screen", 2000, 0, maxScreen, "separate: skip architectures with no feasible design among N uniform hardware draws (0: FGNAS's protocol)")
	c.Flags().BoolVar(&f.published, "published", true, "FGNAS's published timing; false: ours (nodes counted, sparse input)")
	c.Flags().BoolVar(&f.pipelined, "pipelined", false, "judge latency on the pipelined time")
	c.Flags().BoolVar(&f.asJSON, "json", false, "print every distinct design as a JSON array instead of the summary")
	outFileFlag(c.Flags(), &f.out, "out", "", "also write every distinct design to a Parquet file (columns in --help)")
	return c
}

// searchFGNASFlags are the options of search fgnas.
type searchFGNASFlags struct {
	data, dataDir, method, costModel, out string
	lim                                   fgnas.Limits
	episodes, trained, trainUntil, screen int
	seed                                  uint64
	published, pipelined, anyResource     bool
	asJSON                                bool
}

// runSearchFGNAS runs the search of f and prints or writes its designs.
func runSearchFGNAS(cmd *cobra.Command, f *searchFGNASFlags) error {
	ds, err := fpgaDataset(f.data, f.dataDir)
	if err != nil {
		return err
	}
	ref, err := resolveData(f.data, f.dataDir, bench.NeedLabels)
	if err != nil {
		return fmt.Errorf("%w (the search trains its networks)", err)
	}
	ctx, stop := signalContext()
	defer stop()
	res, sp, err := seed004.Search{Data: ds, TrainPath: ref.Path, CostModel: f.costModel, Limits: f.lim, Method: f.method,
		Episodes: f.episodes, Trained: f.trained, TrainUntil: f.trainUntil, Screen: f.screen, Seed: f.seed,
		AnyResource: f.anyResource, Published: f.published, Pipelined: f.pipelined}.Run(ctx)
	if err != nil {
		return err
	}
	samples := seed004.DesignRows(res, sp, ds.Name)
	rows := make([]fgnasSampleRow, len(samples))
	for i, r := range samples {
		rows[i] = fgnasSampleRow(r)
	}
	extra := map[string]string{"gnnsim.limits": f.lim.String(), "gnnsim.trained": strconv.Itoa(res.Trained),
		"gnnsim.episodes": strconv.Itoa(res.Episodes)}
	if err := writeOut(cmd, f.out, rows, extra); err != nil {
		return err
	}
	w := cmd.OutOrStdout()
	if f.asJSON {
		return writeJSON(w, rows)
	}
	seed004.WriteRun(w, res, ds.Name, f.lim, sp)
	return nil
}

// fgnasSampleRow is search fgnas's Parquet row: its name is the schema's
// root name in the files --out wrote before the row moved to repro/seed004.
type fgnasSampleRow seed004.DesignRow
