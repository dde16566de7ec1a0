// Command gnnsim simulates GNN inference on spatial accelerators, SoCs and
// FPGA pipelines. It is a thin shell: each subcommand parses its flags,
// calls the packages that do the work, and prints.
//
// Each command group lives in its own file and adds itself to rootCmd from
// an init function, so groups can be added without touching this file.
package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"gnnsim"
)

var rootCmd = &cobra.Command{
	Use:   "gnnsim",
	Short: "Simulate GNN inference on hardware: dataflows, SoCs, schedulers, predictors",
	Long: `gnnsim simulates GNN inference on Omega-style spatial accelerators and
feeds generated and real graphs through hardware models, online schedulers
and search loops. Every result is written as Parquet.

Run 'gnnsim demo' for the end-to-end example on built-in defaults.`,
	Version:       gnnsim.Version,
	SilenceUsage:  true,
	SilenceErrors: true,
}

func main() {
	if err := rootCmd.Execute(); err != nil {
		fmt.Fprintln(os.Stderr, "gnnsim:", err)
		os.Exit(1)
	}
}
