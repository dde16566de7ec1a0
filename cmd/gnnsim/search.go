package main

import (
	"fmt"
	"strconv"

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
		name      string
		pop, gens int
		offspring int
		seed      uint64
		workers   int
		ref       string
		keepGens  bool
		out       string
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

Limits (checked before any work): --pop and --offspring at most 100,000,
--generations at most 1,000,000, and at most 10,000,000 evaluations in all
(pop + (generations-1) x offspring). Ctrl-C or SIGTERM stops the search
within a second; nothing is written, rerun the command to start again.`,
		Example: `  gnnsim search nsga2 --problem zdt1
  gnnsim search nsga2 --problem dtlz2 --generations 100 --out results/dtlz2.parquet`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if out != "" || cmd.Flags().Changed("out") {
				if err := checkOutFile("out", out); err != nil {
					return err
				}
			}
			if err := checkNSGA2Sizes(pop, offspring, gens, workers); err != nil {
				return err
			}
			p, err := problems.ByName(name)
			if err != nil {
				return err
			}
			refPoint, err := search.ParsePoint(ref, p.NumObjectives)
			if err != nil {
				return fmt.Errorf("--ref: %w", err)
			}
			alg := search.NSGA2[[]float64]{
				Encoding: p.Encoding(), Evaluate: p.Func(),
				PopSize: pop, Offspring: offspring, Generations: gens,
				Seed: seed, Workers: workers, KeepGenerations: keepGens,
			}
			ctx, stop := signalContext()
			defer stop()
			res, err := alg.Run(ctx)
			if ctx.Err() != nil {
				return fmt.Errorf("interrupted after %d evaluations: nothing written; rerun the command to start again", len(res.Evaluated))
			}
			if err != nil {
				return err
			}
			if err := problems.WriteSummary(cmd.OutOrStdout(), p, res, refPoint); err != nil {
				return err
			}
			if out == "" {
				return nil
			}
			meta := map[string]string{
				"command": "search nsga2", "problem": name, "seed": strconv.FormatUint(seed, 10),
				"pop": strconv.Itoa(pop), "generations": strconv.Itoa(gens), "offspring": strconv.Itoa(offspring),
			}
			if err := search.WriteRows(out, search.Rows("nsga2-"+name, res), meta); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "wrote %s\n", out)
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&name, "problem", "", "test problem: zdt1, zdt2, dtlz2, bnh or srn (required)")
	intFlag(f, &pop, "pop", 100, 1, maxPop, "population size")
	intFlag(f, &gens, "generations", 250, 1, maxGenerations, "generations, counting the initial population (pymoo's n_gen)")
	intFlag(f, &offspring, "offspring", 0, 0, maxPop, "offspring per generation (0 = population size)")
	f.Uint64Var(&seed, "seed", 1, "random seed")
	workersFlag(f, &workers, 1, "goroutines evaluating each generation (results do not depend on it)")
	f.StringVar(&ref, "ref", "", "hypervolume reference point, comma-separated (default 1.1 per objective\nfor zdt1, zdt2, dtlz2; otherwise the archive front's worst values moved\nout by 10 %)")
	f.BoolVar(&keepGens, "keep-generations", false, "also write one row per population member and generation")
	outFileFlag(f, &out, "out", "", "write the result rows to this Parquet file")
	cmd.MarkFlagRequired("problem")
	return cmd
}

// Limits of 'search nsga2', in its help.
const (
	maxPop         = 100_000
	maxGenerations = 1_000_000
	maxEvaluations = 10_000_000
)

func checkNSGA2Sizes(pop, offspring, gens, workers int) error {
	if err := checkRange("pop", pop, 1, maxPop); err != nil {
		return err
	}
	if err := checkRange("offspring", offspring, 0, maxPop); err != nil {
		return err
	}
	if err := checkRange("generations", gens, 1, maxGenerations); err != nil {
		return err
	}
	if err := checkWorkers(workers); err != nil {
		return err
	}
	if evals := pop + (gens-1)*max(offspring, pop); evals > maxEvaluations {
		return fmt.Errorf("--pop %d, --offspring %d, --generations %d: %d evaluations, above the limit of %d", pop, offspring, gens, evals, maxEvaluations)
	}
	return nil
}

func newSearchHVCmd() *cobra.Command {
	var (
		ref  string
		kind string
	)
	cmd := &cobra.Command{
		Use:   "hv FILE --ref R1,R2,...",
		Short: "Hypervolume of the Pareto front in a search result file",
		Long: `Compute the exact hypervolume (minimisation) of the front rows of a search
result file: the rows of the given kind whose front column is true, grouped
by search name. Points not strictly better than the reference point in
every objective add nothing.`,
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
			return search.WriteFrontHypervolumes(cmd.OutOrStdout(), args[0], kind, refPoint)
		},
	}
	cmd.Flags().StringVar(&ref, "ref", "", "reference point, comma-separated, one value per objective (required)")
	cmd.Flags().StringVar(&kind, "kind", "evaluated", `row kind to read: "evaluated" (the run's archive front) or "inner"`)
	return cmd
}
