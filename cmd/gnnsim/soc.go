package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"gnnsim/soc/maestro"
)

func init() { register(newSocCmd) }

// newSocCmd is the group of the heterogeneous-SoC commands. Each
// subcommand has its own constructor; add new ones (eval, units, ...) to
// the AddCommand call.
func newSocCmd() *cobra.Command {
	socCmd := &cobra.Command{
		Use:   "soc",
		Short: "Heterogeneous SoC models: GPU, DLA and MAESTRO-like DSA units",
		Long: `Models of heterogeneous SoCs whose GPU, DLA and DSA units share one memory
(MaGNAS). The DSA units are priced with a MAESTRO-like analytical model
(package soc/maestro).`,
	}
	socCmd.AddCommand(newSocValidateCmd(), newSocSpecCmd(), newSocCorunCmd())
	socCmd.AddCommand(socEvalCommands()...)
	return socCmd
}

func newSocValidateCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "validate",
		Short: "Check the SoC unit models against reference simulators",
		Long:  `Check the SoC unit models against the outputs of reference simulators.`,
	}
	c.AddCommand(newSocValidateMaestroCmd())
	return c
}

func newSocValidateMaestroCmd() *cobra.Command {
	var refDir string
	var asJSON bool
	c := &cobra.Command{
		Use:   "maestro [--reference DIR] [--json]",
		Short: "Score the DSA cost model against a MAESTRO reference set",
		Long: `Run every row of a MAESTRO reference set through the DSA cost model and
print, per dataflow, the absolute percentage errors of the runtime (median,
p90, max, exact rows), of the L2 reads and writes, L1 accesses, MACs and
energy (p90), then, as the last line:

  median_abs_pct_err=X p90_abs_pct_err=Y l2_rd_p90_abs_pct_err=Z l2_wr_p90_abs_pct_err=W rows=N

X and Y are the median and p90 runtime errors, Z and W the p90 errors of the
L2 reads and writes (summed over the tensors), over the N rows MAESTRO
completed with a correct MAC count (status=ok, macs_ok=1). Rows MAESTRO
rejected must be rejected too; rows where it miscounts MACs are reported
apart. The directory has the layout of ../shared/maestro-reference:
maestro_reference.csv and dataflows/<name>.m.

With --json the report is printed as one JSON object instead. The exit
status is 1 when a row is analysable by one model and not by the other
(the report is still printed).`,
		Example: `  gnnsim soc validate maestro --reference ../shared/maestro-reference`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runSocValidateMaestro(cmd.OutOrStdout(), refDir, asJSON)
		},
	}
	c.Flags().StringVar(&refDir, "reference", "", "reference set directory (default: $GNNSIM_SHARED/maestro-reference, or the nearest shared/maestro-reference above the working directory)")
	c.Flags().BoolVar(&asJSON, "json", false, "print the report as a JSON object instead of the table")
	return c
}

func runSocValidateMaestro(w io.Writer, refDir string, asJSON bool) error {
	if refDir == "" {
		d, ok := maestro.FindReferenceDir()
		if !ok {
			return fmt.Errorf("--reference not given and %s", sharedHint("maestro-reference"))
		}
		refDir = d
	}
	ref, err := maestro.LoadReference(refDir)
	if err != nil {
		return err
	}
	rep := maestro.Score(ref)
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(w, "reference: %s (%d rows, %d dataflows)\n\n", refDir, len(ref.Rows), len(ref.Dataflows))
		if err := rep.Write(w); err != nil {
			return err
		}
	}
	if n := len(rep.Failures); n > 0 {
		return fmt.Errorf("%d of %d reference rows disagree on whether they can be analysed", n, rep.RefRows)
	}
	return nil
}
