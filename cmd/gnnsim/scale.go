package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"gnnsim/graphs"
)

// Progress of the stages of one large graph (issue 39): generation, the
// set writer, the set reader and the 24 simulations of 'simulate' each
// take seconds to minutes on 10^8-10^9 edges. Small graphs show nothing,
// so the output of the commands on them is unchanged.

// featuresFlag adds --features to a command that writes a graph set.
func featuresFlag(c *cobra.Command) {
	c.Flags().String("features", "auto", fmt.Sprintf("clustering and triangles: auto (exact up to %d stored entries, "+
		"estimated by wedge sampling above, the error bounds in the file's metadata) or exact", graphs.EstimateAbove))
}

// featureMode reads --features (auto when the command has none).
func featureMode(cmd *cobra.Command) (graphs.FeatureMode, error) {
	f := cmd.Flag("features")
	if f == nil {
		return graphs.FeaturesAuto, nil
	}
	switch f.Value.String() {
	case "auto":
		return graphs.FeaturesAuto, nil
	case "exact":
		return graphs.FeaturesExact, nil
	}
	return 0, fmt.Errorf("--features %q: want auto or exact", f.Value.String())
}
