package main

import (
	"encoding/json"
	"fmt"
	"io"
	"runtime"

	"github.com/spf13/cobra"

	"gnnsim"
	"gnnsim/accel"
	"gnnsim/dataflow"
	"gnnsim/workload"
)

// This file holds the commands that describe gnnsim itself rather than
// simulate: its version, the 24 configurations, the default hardware.

func init() { register(newVersionCmd, newConfigsCmd, newHWCmd) }

// writeJSON prints v to w as indented JSON: every command's --json.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func newVersionCmd() *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "version [--json]",
		Short: "Print the gnnsim version and the Go version it was built with",
		Long: `Print the gnnsim version (recorded in every result file, bumped whenever a
model change alters simulated numbers) and the Go version of the binary.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), struct {
					Version string `json:"version"`
					Go      string `json:"go"`
				}{gnnsim.Version, runtime.Version()})
			}
			fmt.Fprintf(cmd.OutOrStdout(), "gnnsim %s (%s)\n", gnnsim.Version, runtime.Version())
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, `print {"version", "go"} as JSON`)
	return c
}

// configJSON is one configuration of 'gnnsim configs --json'.
func newConfigsCmd() *cobra.Command {
	var d dataflow.Dims
	var pes, ppAgg int
	var asJSON bool
	c := &cobra.Command{
		Use:   "configs [--V N --F F --G G --pes P] [--json]",
		Short: "List seed 002's 24 configurations with their tile sizes for a layer",
		Long: `List the 24 configurations (3 inter-phase dataflows x Table 2's 8 tilings)
in model order with the tile sizes they take for a layer of V nodes, F input
and G output features on a PE array of --pes PEs (under pp, aggregation gets
--pp-agg-pes of them, 0: half). agg_pes and comb_pes are the PEs each phase
may use.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfgs, err := dataflow.All(d, pes, ppAgg)
			if err != nil {
				return err
			}
			rows := dataflow.ConfigRows(cfgs[:])
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), rows)
			}
			return dataflow.WriteConfigTable(cmd.OutOrStdout(), rows)
		},
	}
	def := accel.DefaultHW()
	intFlag(c.Flags(), &d.V, "V", 1000, 1, maxNodes, "nodes of the layer's graph")
	intFlag(c.Flags(), &d.F, "F", 16, 1, workload.MaxFeatures, "input features")
	intFlag(c.Flags(), &d.G, "G", 16, 1, workload.MaxFeatures, "output features")
	intFlag(c.Flags(), &pes, "pes", def.PEs, 2, accel.MaxPEs, "PE array size")
	intFlag(c.Flags(), &ppAgg, "pp-agg-pes", def.PPAggPEs, 0, accel.MaxPEs, "PEs aggregation gets under pp (0: half)")
	c.Flags().BoolVar(&asJSON, "json", false, "print a JSON array, one object per configuration")
	return c
}

func newHWCmd() *cobra.Command {
	c := &cobra.Command{
		Use:    "hw",
		Hidden: true, // deprecated: gnnsim omega spec
		Short:  "Describe accelerator hardware specs (deprecated: gnnsim omega spec)",
		Long: `Describe the accelerator hardware specs that --hw flags read (YAML; keys left
out keep the built-in values, unknown keys are errors).`,
	}
	c.AddCommand(deprecate(newOmegaSpecDefaultCmd(), "gnnsim omega spec default"))
	return c
}

// newOmegaSpecDefaultCmd is 'gnnsim omega spec default' (and the
// deprecated 'hw default'): the built-in accelerator as a spec file.
func newOmegaSpecDefaultCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "default",
		Short: "Print the built-in accelerator spec as YAML, each key commented with its meaning and unit",
		Long: `Print the built-in accelerator hardware as a spec file that --hw reads:
edit a copy to describe other hardware (keys left out keep these values).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return accel.WriteHWYAML(cmd.OutOrStdout(), accel.DefaultHW())
		},
	}
}
