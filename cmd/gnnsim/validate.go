package main

import (
	"github.com/spf13/cobra"
)

func init() { register(newValidateCmd) }

func newValidateCmd() *cobra.Command {
	validateCmd := &cobra.Command{
		Use:    "validate",
		Hidden: true, // deprecated: gnnsim omega validate
		Short:  "Check gnnsim's models against reference simulators (deprecated: gnnsim omega validate)",
		Long:   `Check gnnsim's models against the outputs of reference simulators.`,
	}
	validateCmd.AddCommand(deprecate(kindValidateCmd("omega"), "gnnsim omega validate"))
	return validateCmd
}
