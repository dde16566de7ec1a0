package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"gnnsim/accel/fpgaref"
)

// fpgaValidateCmd is 'fpga validate': the FPGA model against references.
func fpgaValidateCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "validate",
		Short: "Check the FPGA model against reference outputs",
		Long: `Check the FPGA cost models against reference outputs. 'fgnas' prices every row of a
set of outputs of the FGNAS authors' own cost model with the fgnas-code model and
reports how many agree exactly.`,
	}
	cmd.AddCommand(fpgaValidateFGNASCmd())
	return cmd
}

func fpgaValidateFGNASCmd() *cobra.Command {
	var refDir, out string
	var asJSON bool
	var worst int
	cmd := &cobra.Command{
		Use:   "fgnas [--reference DIR]",
		Short: "Score the fgnas-code model against the FGNAS authors' cost model's outputs",
		Long: `Price every row of a reference set of the FGNAS authors' FPGA cost model (the
layout of ../shared/fgnas-reference: reference.csv) with the fgnas-code model and
print per metric (cycles, LUT, FF, DSP) the share of rows that agree exactly and
the median, 90th percentile and maximum absolute percentage error, then, as the
last line:

  exact_share=S median_abs_pct_err=X p90_abs_pct_err=Y rows=N

S is the share of rows exact on all four metrics; X and Y pool the errors of
every (row, metric); N is the number of rows. --worst N prints, before the
table, the N rows with the largest error (ours/theirs per metric); --json
prints instead a JSON array with one object per row (all, or the N worst).

--out writes every row as a long Parquet table, one row per (reference
row, metric), typed columns: line, design_id, source, dataset, metric
(cycles, LUT, FF, DSP), ours, theirs, abs_pct_err (null against 0), error
(why a row could not be priced: then one row, metric empty); metadata
gnnsim.command, gnnsim.flags, gnnsim.reference, gnnsim.version.

The exit status is 1 when a row cannot be priced (the summary is still printed).`,
		Example: `  gnnsim fpga validate fgnas --reference ../shared/fgnas-reference
  gnnsim fpga validate fgnas --worst 5
  gnnsim fpga validate fgnas --json --worst 3`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if cmd.Flags().Changed("worst") && worst < 1 {
				return fmt.Errorf("--worst: want a positive number of rows, got %d", worst)
			}
			return runValidateFGNAS(cmd, refDir, out, asJSON, worst)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&refDir, "reference", "", "reference set directory (default: $GNNSIM_SHARED/fgnas-reference, or shared/fgnas-reference beside the module)")
	fl.BoolVar(&asJSON, "json", false, "print a JSON array with one object per row instead of the report")
	intFlag(fl, &worst, "worst", 0, 0, 1_000_000, "show the N rows with the largest error (with --json: print only those)")
	outFileFlag(fl, &out, "out", "", "also write every row's metrics to a Parquet file (columns in --help)")
	return cmd
}

func runValidateFGNAS(cmd *cobra.Command, refDir, out string, asJSON bool, worst int) error {
	w := cmd.OutOrStdout()
	if refDir == "" {
		d, ok := fpgaref.FindDir()
		if !ok {
			return fmt.Errorf("--reference not given and %s", sharedHint("fgnas-reference"))
		}
		refDir = d
	}
	ref, err := fpgaref.Load(refDir)
	if err != nil {
		return err
	}
	rep := fpgaref.Score(ref)
	if err := writeOut(cmd, out, fgnasValidateRows(rep.Results), map[string]string{"gnnsim.reference": refDir}); err != nil {
		return err
	}
	failed := func() error {
		if n := len(rep.Failures); n > 0 {
			return fmt.Errorf("%d of %d reference rows could not be priced", n, rep.Rows)
		}
		return nil
	}
	if asJSON {
		var rs []*fpgaref.Result
		if worst > 0 {
			rs = rep.Worst(worst)
		} else {
			for i := range rep.Results {
				rs = append(rs, &rep.Results[i])
			}
		}
		if err := fpgaref.WriteJSON(w, rs); err != nil {
			return err
		}
		return failed()
	}
	fmt.Fprintf(w, "reference: %s (%d rows)\n", refDir, len(ref.Rows))
	if worst > 0 {
		fmt.Fprintf(w, "the %d rows with the largest error:\n", worst)
		if err := fpgaref.WriteWorst(w, rep.Worst(worst)); err != nil {
			return err
		}
		fmt.Fprintln(w)
	}
	if err := rep.Write(w); err != nil {
		return err
	}
	return failed()
}
