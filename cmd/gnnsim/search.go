package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"gnnsim/search"
	"gnnsim/search/problems"
)

func init() { register(newSearchCmd) }

func newSearchCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "search",
		Short: "Run and analyse design-space searches (NSGA-II, hypervolume)",
		Long: `Run and analyse design-space searches.

The search machinery (NSGA-II, nested two-tier search, pool evolution,
REINFORCE, random search, exact hypervolume) lives in package search and
is driven by the SoC, FPGA and co-search commands. The commands here run
NSGA-II on standard test problems, to check it and to show its output
format, and compute the hypervolume of a search result file.

Search result files have one row per candidate ("evaluated" rows, ranked
over the whole run) and, when generations are kept, one row per population
member and generation ("population" rows). Columns: search, kind,
generation, candidate, parent, genes, x, objectives, violation, feasible,
rank, crowding, front, fallback (see 'go doc gnnsim/search.Row').`,
	}
	cmd.AddCommand(newSearchNSGA2Cmd(), newSearchHVCmd(), searchGcosCmd(), searchFGNASCmd())
	return cmd
}

func newSearchNSGA2Cmd() *cobra.Command {
	var (
		o      problems.RunOptions
		out    string
		asJSON bool
	)
	cmd := &cobra.Command{
		Use:   "nsga2 --problem NAME [flags]",
		Short: "Run NSGA-II on a standard test problem and report its hypervolume",
		Long: `Run NSGA-II (pymoo's rules, SBX crossover and polynomial mutation with
pymoo's defaults) on a standard test problem and report the hypervolume of
the archive's Pareto front and of the final population, next to the true
front's where it is known in closed form.

Problems: zdt1, zdt2 (30 variables, 2 objectives), dtlz2 (12 variables,
3 objectives), bnh, srn (2 variables, 2 objectives, 2 constraints).

The same flags always give the same numbers and a byte-identical file,
whatever --workers is.

--json prints the summary as one JSON object: problem, evaluations,
reference_point, front_points, front_hypervolume, population_points,
population_hypervolume and, where the true front is known,
true_hypervolume.

Limits (checked before any work): --pop and --offspring at most 100,000,
--generations at most 1,000,000, and at most 10,000,000 evaluations in all
(pop + (generations-1) x offspring). Ctrl-C or SIGTERM stops the search
within a second; nothing is written, rerun the command to start again.`,
		Example: `  gnnsim search nsga2 --problem zdt1
  gnnsim search nsga2 --problem dtlz2 --generations 100 --out results/dtlz2.parquet`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, stop := signalContext()
			defer stop()
			sum, res, err := problems.Run(ctx, o)
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			if asJSON {
				if err := writeJSON(w, sum); err != nil {
					return err
				}
			} else {
				sum.WriteText(w)
			}
			if out == "" {
				return nil
			}
			if err := search.WriteRows(out, search.Rows("nsga2-"+o.Problem, res), o.Meta()); err != nil {
				return err
			}
			if !asJSON {
				fmt.Fprintf(w, "wrote %s\n", out)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Problem, "problem", "", "test problem: zdt1, zdt2, dtlz2, bnh or srn (required)")
	intFlag(f, &o.Pop, "pop", 100, 1, problems.MaxPop, "population size")
	intFlag(f, &o.Generations, "generations", 250, 1, problems.MaxGenerations, "generations, counting the initial population (pymoo's n_gen)")
	intFlag(f, &o.Offspring, "offspring", 0, 0, problems.MaxPop, "offspring per generation (0 = population size)")
	f.Uint64Var(&o.Seed, "seed", 1, "random seed")
	workersFlag(f, &o.Workers, 1, "goroutines evaluating each generation (results do not depend on it)")
	f.StringVar(&o.Ref, "ref", "", "hypervolume reference point, comma-separated (default 1.1 per objective\nfor zdt1, zdt2, dtlz2; otherwise the archive front's worst values moved\nout by 10 %)")
	f.BoolVar(&o.KeepGenerations, "keep-generations", false, "also write one row per population member and generation")
	outFileFlag(f, &out, "out", "", "write the result rows to this Parquet file")
	f.BoolVar(&asJSON, "json", false, "print the summary as a JSON object instead of text")
	cmd.MarkFlagRequired("problem")
	return cmd
}

func newSearchHVCmd() *cobra.Command {
	var ref, kind, out string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "hv FILE --ref R1,R2,...",
		Short: "Hypervolume of the Pareto front in a search result file",
		Long: `Compute the exact hypervolume (minimisation) of the front rows of a search
result file: the rows of the given kind whose front column is true, grouped
by search name. Points not strictly better than the reference point in
every objective add nothing.

--json prints a JSON array and --out writes a Parquet file, one object or
row per search: search, points (its front's), hypervolume.`,
		Example: `  gnnsim search hv results/zdt1.parquet --ref 1.1,1.1`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			refPoint, err := search.ParsePoint(ref, 0)
			if err != nil {
				return fmt.Errorf("--ref: %w", err)
			}
			if refPoint == nil {
				return fmt.Errorf("--ref is required")
			}
			hs, err := search.FrontHypervolumes(args[0], kind, refPoint)
			if err != nil {
				return err
			}
			if err := writeOut(cmd, out, hs, map[string]string{"gnnsim.file": args[0]}); err != nil {
				return err
			}
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), hs)
			}
			search.WriteFrontHypervolumes(cmd.OutOrStdout(), hs)
			return nil
		},
	}
	cmd.Flags().StringVar(&ref, "ref", "", "reference point, comma-separated, one value per objective (required)")
	cmd.Flags().StringVar(&kind, "kind", "evaluated", `row kind to read: "evaluated" (the run's archive front) or "inner"`)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array (one object per search) instead of text")
	outFileFlag(cmd.Flags(), &out, "out", "", "also write one row per search to a Parquet file")
	return cmd
}
