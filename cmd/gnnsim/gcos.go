package main

import (
	"github.com/spf13/cobra"

	accel "gnnsim/accel/gcos"
)

func newGcosConfigCmd() *cobra.Command {
	c := &cobra.Command{
		Use:    "config",
		Hidden: true, // deprecated: gnnsim gcos spec
		Short:  "G-CoS design files (deprecated: gnnsim gcos spec)",
		Long: `Design files of the G-CoS template: YAML with name, allocation, scheme,
repurpose, share_weights, clock_mhz, hbm_gb_per_s, hbm_latency_cycles and
subs (1..5 sub-accelerators: pes, tiling, kernel, tile_m, tile_k, tile_n);
'gcos config default' prints the built-in one, every key commented.`,
		Args: cobra.NoArgs,
	}
	c.AddCommand(deprecate(newGcosSpecDefaultCmd(), "gnnsim gcos spec default"))
	return c
}

// newGcosSpecDefaultCmd is 'gnnsim gcos spec default' (and the deprecated
// 'gcos config default'): the built-in design as a design file.
func newGcosSpecDefaultCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "default",
		Short: "Print the built-in design as a commented design file (gcos eval --config reads it)",
		Long: `Print the built-in G-CoS design (five sub-accelerators of 816 PEs, output
reuse, row-wise kernels, tiles 64 x 256 x 64) as a commented design file:
edit it and give it to 'gnnsim gcos eval --config' or a gcos sweep's
configs: [{file: ...}].`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			b, err := accel.FormatConfig(accel.Default())
			if err != nil {
				return err
			}
			_, err = cmd.OutOrStdout().Write(b)
			return err
		},
	}
}
