// Package search is gnnsim's design-space search machinery: encodings of
// discrete (and continuous) design spaces, NSGA-II, exact hypervolume,
// nested two-tier search, pool-based evolution, a REINFORCE controller and
// random search. It knows nothing about accelerators: every search takes
// the fitness of a candidate from a function the caller supplies, so the
// SoC, FPGA and co-search models plug their simulators (or lookup tables,
// or predictors) in as that function.
//
// # Conventions
//
// All objectives are minimised. A score to maximise (accuracy, fitness)
// enters as its negation. Constraints are values g that must satisfy
// g <= 0; an evaluation's constraint violation is the sum of max(0, g) over
// its constraints (pymoo's CV) and the evaluation is feasible when that sum
// is 0. Feasible candidates are always preferred to infeasible ones, and
// infeasible ones are ordered by violation (Deb's constraint-domination).
//
// Every random choice comes from one PCG stream seeded by the caller, drawn
// only on the calling goroutine. Evaluations may run on several goroutines
// (the Workers fields); their results are stored by candidate index, so a
// parallel run gives exactly the result of a serial one as long as the
// evaluation function is a pure function of the genome.
//
// # What is modelled
//
//   - Space: discrete variables with a number of choices each, optionally
//     active only when earlier variables take given values. Genomes have
//     one slot per variable and hold Inactive (-1) in the slots of inactive
//     variables, so the effective genome length depends on other genes
//     (MaGNAS's dynamic genome: no mapping genes for skipped blocks) while
//     genes stay positionally aligned for crossover.
//   - Discrete and Real encodings: sampling, uniform mutation with a
//     per-gene probability, uniform and block crossover; SBX crossover and
//     polynomial mutation with pymoo's NSGA-II defaults for real vectors.
//   - NSGA2: pymoo's NSGA-II (binary tournament by violation, dominance,
//     crowding; (mu+lambda) survival by fronts with the last front split by
//     crowding; duplicate elimination), generic over the encoding. Its
//     Result keeps every evaluated candidate and the archive's Pareto
//     front as well as the final population.
//   - Hypervolume: exact 2-D sweep, exact 3-D sweep in O(n log n) time
//     apart from slice shifting, and WFG with dimension slicing for more
//     objectives; ratio of dominance (HADAS) and Pareto-front utilities.
//   - Nested: an outer NSGA-II whose candidates are scored by an inner
//     search (NSGA-II, brute force or random) with MaGNAS's fallback to
//     standalone evaluations when no inner solution meets the constraints.
//     Inner seeds derive from the outer genome, so a repeated outer genome
//     reuses its outcome.
//   - Pool (G-CoS Algorithm 1), Reinforce (FGNAS section 3.2: logits or
//     LSTM controller, Adam or SGD) and
//     RandomSearch for single-objective constrained search at a fixed
//     evaluation budget.
//   - Rows and WriteRows: results as Parquet rows through internal/pqio.
//
// # What is left out
//
// Candidate accuracy cannot be computed here (no network is trained): the
// callers take it from user-supplied tables or documented proxies. The
// REINFORCE policy is one independent categorical distribution per decision
// rather than FGNAS's RNN controller. Bit-for-bit agreement with pymoo is
// not a goal (its random streams differ); its selection, survival and
// variation rules are, with two deliberate differences for small discrete
// spaces: NSGA-II resamples until its initial population has PopSize
// distinct genomes (pymoo drops duplicates and starts smaller), and it stops
// re-mating after 5 consecutive rounds that produce no new genome, where
// pymoo always tries 100 (a small inner space would otherwise burn 100
// rounds every generation).
package search
