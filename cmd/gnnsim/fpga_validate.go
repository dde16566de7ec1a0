package main

import (
	"github.com/spf13/cobra"
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
	cmd.AddCommand(kindValidateCmd("fpga"))
	return cmd
}
