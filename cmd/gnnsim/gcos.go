package main

import (
	"gnnsim/bench"

	"github.com/spf13/cobra"
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
	for _, k := range bench.Kinds() {
		if k.Name == "gcos" {
			c.AddCommand(deprecate(newBuiltinSpecCmd(k.Spec.Files[0]), "gnnsim gcos spec default"))
		}
	}
	return c
}
