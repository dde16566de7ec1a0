package main

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"gnnsim/accel"
	"gnnsim/accel/omegaref"
	"gnnsim/bench"
)

func init() {
	var out string
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "The end-to-end example on built-in defaults (writes results/demo/)",
		Long: `Run gnnsim's main job on built-in defaults: build the Graphlaxy Small set
(243 graphs), simulate every graph on the 24 configurations of seed 002, print
which configurations are optimal, and, when ../shared/omega-reference exists,
check omega mode against STONNE-Omega. Works offline on a fresh clone.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			w := cmd.OutOrStdout()
			start := time.Now()
			spec, err := bench.GraphlaxySpec("small", 1, "extended")
			if err != nil {
				return err
			}
			dir := filepath.Join(out, "graphlaxy-small")
			fmt.Fprintf(w, "== Graphlaxy Small x 24 configurations (extended mode) -> %s\n", dir)
			plan, err := bench.NewPlan(spec)
			if err != nil {
				return err
			}
			sum, err := plan.Run(context.Background(), dir, bench.Options{Progress: cmd.ErrOrStderr()})
			if err != nil {
				return err
			}
			printSummary(w, sum, dir, time.Since(start))
			if refDir, ok := omegaref.FindDir(); ok {
				ref, err := omegaref.Load(refDir)
				if err != nil {
					return err
				}
				fmt.Fprintf(w, "== omega mode vs STONNE-Omega (%s)\n", refDir)
				rep := omegaref.Score(ref, accel.DefaultHW(), accel.Options{Mode: accel.Omega, Engine: accel.Fast})
				fmt.Fprintln(w, rep.LastLine())
			} else {
				fmt.Fprintln(w, "== omega reference not found (../shared/omega-reference): validation skipped")
			}
			fmt.Fprintf(w, "results in %s (graphs.parquet, runs.parquet)\n", dir)
			return nil
		},
	}
	cmd.Flags().StringVar(&out, "out", "results/demo", "output directory")
	rootCmd.AddCommand(cmd)
}
