package main

import (
	"github.com/spf13/cobra"
)

func newSocValidateCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "validate",
		Short: "Check the SoC unit models against reference simulators",
		Long:  `Check the SoC unit models against the outputs of reference simulators.`,
	}
	c.AddCommand(kindValidateCmd("dsa"))
	return c
}
