package main

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"gnnsim/accel"
	"gnnsim/accel/omegaref"
)

func init() { register(newValidateCmd) }

func newValidateCmd() *cobra.Command {
	validateCmd := &cobra.Command{
		Use:    "validate",
		Hidden: true, // deprecated: gnnsim omega validate
		Short:  "Check gnnsim's models against reference simulators (deprecated: gnnsim omega validate)",
		Long:   `Check gnnsim's models against the outputs of reference simulators.`,
	}
	validateCmd.AddCommand(deprecate(newValidateOmegaCmd(), "gnnsim omega validate"))
	return validateCmd
}

func newValidateOmegaCmd() *cobra.Command {
	var refDir, hwPath, engine, out string
	var asJSON bool
	var worst int
	cmd := &cobra.Command{
		Use:   "omega [--reference DIR]",
		Short: "Score omega mode against a STONNE-Omega reference set",
		Long: `Simulate every run of a STONNE-Omega reference set in omega mode and print
the absolute percentage errors per quantity (agg, comb, seq, sp, pp, and the
global-buffer access counts) and per source, then, as the last line:

  median_abs_pct_err=X p90_abs_pct_err=Y top1_agreement=Z spearman_median=W rows=N

X and Y are over the seq and sp cycles of the P = 512 runs and the pp cycles
of the P = 256 runs (against pp_cycles_safe); Z is the share of graphs whose
fastest of the 24 configurations agrees; W is the median over graphs of the
Spearman rank correlation of the 24 latencies; N is the number of reference
runs. The directory has the layout of ../shared/omega-reference (its
README): omega_reference.csv and graphs/<name>.csr. The command also prints
how long the simulations took against the reference's own wall time.

To see where the model disagrees: --worst N prints, before the summary, the
N runs with the largest error (each with its worst quantity and every
compared value as ours/theirs); --json prints instead a JSON array with one
object per run (graph, source, tiling, P, gnnsim's configurations, tile
sizes, and ours, theirs and the absolute % error of every compared
quantity: agg, comb, seq and sp or pp, gb_seq and gb_sp), all runs or, with
--worst N, the N worst.

--out writes every run as a long Parquet table, one row per (run,
compared quantity), typed columns: graph, tiling, P, quantity, ours,
theirs, abs_pct_err (null against 0), error (why a run could not be
simulated: then one row, quantity empty); metadata gnnsim.command,
gnnsim.flags, gnnsim.reference, gnnsim.version.

The exit status is 1 when a run cannot be simulated (the summary is still
printed).`,
		Example: `  gnnsim validate omega --reference ../shared/omega-reference
  gnnsim validate omega --worst 10
  gnnsim validate omega --json --worst 5`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if cmd.Flags().Changed("worst") && worst < 1 {
				return fmt.Errorf("--worst: want a positive number of runs, got %d", worst)
			}
			return runValidateOmega(cmd, refDir, hwPath, engine, out, asJSON, worst)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&refDir, "reference", "", "reference set directory (default: $GNNSIM_SHARED/omega-reference, or the nearest shared/omega-reference above the working directory)")
	fl.StringVar(&hwPath, "hw", "", "hardware spec YAML (default: built in; its pes must be the reference's P = 512)")
	fl.StringVar(&engine, "engine", "events", "events (discrete-event kernel) or fast (closed form; same numbers)")
	fl.BoolVar(&asJSON, "json", false, "print a JSON array with one object per run (ours and theirs per quantity) instead of the report")
	intFlag(fl, &worst, "worst", 0, 0, 1_000_000, "show the N runs with the largest error (with --json: print only those)")
	outFileFlag(fl, &out, "out", "", "also write every run's compared quantities to a Parquet file (columns in --help)")
	return cmd
}

func runValidateOmega(cmd *cobra.Command, refDir, hwPath, engine, out string, asJSON bool, worst int) error {
	w := cmd.OutOrStdout()
	if refDir == "" {
		d, ok := omegaref.FindDir()
		if !ok {
			return fmt.Errorf("--reference not given and %s", sharedHint("omega-reference"))
		}
		refDir = d
	}
	hw := accel.DefaultHW()
	if hwPath != "" {
		var err error
		if hw, err = accel.LoadHW(hwPath); err != nil {
			return err
		}
	}
	opts := accel.Options{Mode: accel.Omega}
	var err error
	if opts.Engine, err = accel.ParseEngine(engine); err != nil {
		return fmt.Errorf("--engine: %w", err)
	}
	ref, err := omegaref.Load(refDir)
	if err != nil {
		return err
	}
	start := time.Now()
	rep := omegaref.Score(ref, hw, opts)
	took := time.Since(start).Seconds()
	if err := writeOut(cmd, out, omegaValidateRows(rep.Results), map[string]string{"gnnsim.reference": refDir}); err != nil {
		return err
	}
	failed := func() error {
		if n := len(rep.Failures); n > 0 {
			return fmt.Errorf("%d of %d reference runs could not be simulated", n, rep.Runs)
		}
		return nil
	}
	if asJSON {
		runs := rep.Results
		if worst > 0 {
			runs = rep.Worst(worst)
		}
		if err := omegaref.WriteJSON(w, runs); err != nil {
			return err
		}
		return failed()
	}
	wall := ref.WallSeconds()
	fmt.Fprintf(w, "reference: %s (%d runs, %d graphs)\n", refDir, len(ref.Runs), len(ref.Graphs))
	if took > 0 {
		fmt.Fprintf(w, "simulated in %.3f s on one core; STONNE-Omega's wall time: %.1f s; speed-up %.0fx\n\n", took, wall, wall/took)
	}
	if worst > 0 {
		fmt.Fprintf(w, "the %d runs with the largest error:\n", worst)
		if err := omegaref.WriteWorst(w, rep.Worst(worst)); err != nil {
			return err
		}
		fmt.Fprintln(w)
	}
	if err := rep.Write(w); err != nil {
		return err
	}
	return failed()
}
