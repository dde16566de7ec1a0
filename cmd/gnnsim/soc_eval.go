package main

import (
	"io"

	"github.com/spf13/cobra"

	"gnnsim/bench"
	"gnnsim/soc"
)

// loadSoC returns the SoC of a spec file (default: the built-in Xavier)
// in precision p with the measured table's units swapped in
// (bench.LoadSoC).
func loadSoC(spec, table, p string) (*soc.SoC, error) { return bench.LoadSoC("", spec, table, p) }

type socUnitsFlags struct {
	spec, profile string
	jsonOut       bool
}

func newSocUnitsCmd() *cobra.Command {
	var f socUnitsFlags
	cmd := &cobra.Command{
		Use:   "units [flags]",
		Short: "List the SoC's units, their operating points and power, and the shared memory",
		Long: `List the units of a SoC spec (default: the built-in Jetson AGX Xavier) with
their peak rate, per-kernel-class efficiency (a class left out falls back
or is refused), launch overhead, memory share, fallback unit, and every
DVFS operating point with its voltage and idle/dynamic power; then the
shared memory's operating points and bandwidth, the CPU cluster, and the
power modes (nvpmodel on Jetson: budget, clock caps, online cores) that
'soc eval --power-mode' takes. The constants' sources are
in the spec file (soc/xavier.yaml for the default).`,
		Example: `  gnnsim soc units
  gnnsim soc units --spec my-soc.yaml --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runSocUnits(cmd.OutOrStdout(), &f) },
	}
	cmd.Flags().StringVar(&f.spec, "spec", "", "SoC spec YAML (default: the built-in Jetson AGX Xavier)")
	cmd.Flags().StringVar(&f.profile, "profile", "", bench.ProfileUsage)
	cmd.Flags().BoolVar(&f.jsonOut, "json", false, "print JSON instead of text")
	return cmd
}

func runSocUnits(w io.Writer, f *socUnitsFlags) error {
	s, err := bench.LoadSoC(f.profile, f.spec, "", "")
	if err != nil {
		return err
	}
	rec := soc.DescribeUnits(s)
	if f.jsonOut {
		return writeJSON(w, rec)
	}
	return rec.WriteText(w)
}
