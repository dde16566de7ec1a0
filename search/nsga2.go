package search

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
)

// NSGA2 is the elitist non-dominated sorting genetic algorithm of Deb et
// al. (2002) with pymoo's rules:
//
//   - the initial population (Initial, then samples) has no duplicates
//     (unlike pymoo, sampling repeats until it has PopSize distinct
//     genomes or stops finding new ones) and is ranked;
//   - each generation, parents are picked by binary tournaments on random
//     permutations of the population: the lower constraint violation wins
//     if either contender is infeasible, else the dominating one, else the
//     larger crowding distance, with remaining ties broken at random;
//   - offspring come from Crossover then Mutate; offspring equal to a
//     population member or to an earlier offspring are discarded and
//     mating repeats until Offspring new genomes, for at most 100 rounds
//     (pymoo's limit) and, unlike pymoo, no more after 5 rounds in a row
//     that add nothing (a small space is exhausted: without the cut-off a
//     tiny inner search would burn 100 rounds every generation);
//   - (mu+lambda) survival: feasible candidates fill the next population
//     front by front, the front that does not fit is cut by crowding
//     distance (descending, ties at random), and remaining places go to
//     infeasible candidates in order of violation.
//
// It is generic over the genome through Encoding.
type NSGA2[G any] struct {
	Encoding Encoding[G]
	Evaluate EvalFunc[G]
	// PopSize is the population size (mu).
	PopSize int
	// Offspring is the number of offspring per generation (lambda); 0
	// means PopSize.
	Offspring int
	// Generations counts generations including the initial population, as
	// pymoo's n_gen does: at most PopSize + (Generations-1)*Offspring
	// evaluations.
	Generations int
	// MaxEvaluations, if positive, caps the number of evaluations.
	MaxEvaluations int
	// Seed fixes every random choice.
	Seed uint64
	// Workers evaluates each batch on up to this many goroutines.
	Workers int
	// Initial genomes are placed in the first population before sampling
	// fills it (at most PopSize; duplicates are dropped).
	Initial []G
	// KeepGenerations records every generation's population in
	// Result.Generations.
	KeepGenerations bool
	// OnGeneration, if set, is called after each generation's survival
	// with the generation index and the ranked population.
	OnGeneration func(gen int, pop []Individual[G])
}

// Result is the outcome of a search.
type Result[G any] struct {
	// Evaluated holds every evaluated candidate in evaluation order
	// (Evaluated[i].ID == i), ranked over the whole archive.
	Evaluated []Individual[G]
	// Population is the final population of a population-based search,
	// ranked within itself.
	Population []Individual[G]
	// Generations holds the population of every generation when asked.
	Generations []Generation
	// Front is the archive's Pareto front: the feasible candidates no
	// other feasible candidate dominates, by ID. Empty if none is feasible.
	Front []Individual[G]
}

// Generation is a snapshot of a population after survival.
type Generation struct {
	Index   int
	Members []Member
}

// Member is one population member in a Generation snapshot: its candidate
// ID and its rank and crowding distance within that population.
type Member struct {
	ID       int
	Rank     int
	Crowding float64
}

// maxInfillRounds bounds repeated sampling or mating when duplicates are
// rejected (pymoo's n_max_iterations); maxFruitlessRounds ends it sooner
// when consecutive rounds produce nothing new.
const (
	maxInfillRounds    = 100
	maxFruitlessRounds = 5
)

func (c *NSGA2[G]) validate() error {
	switch {
	case c.Encoding == nil:
		return fmt.Errorf("nsga2: no encoding")
	case c.Evaluate == nil:
		return fmt.Errorf("nsga2: no evaluation function")
	case c.PopSize < 1:
		return fmt.Errorf("nsga2: population size %d, need at least 1", c.PopSize)
	case c.Offspring < 0:
		return fmt.Errorf("nsga2: negative offspring count %d", c.Offspring)
	case c.Generations < 1:
		return fmt.Errorf("nsga2: %d generations, need at least 1", c.Generations)
	case c.MaxEvaluations < 0:
		return fmt.Errorf("nsga2: negative evaluation budget %d", c.MaxEvaluations)
	case len(c.Initial) > c.PopSize:
		return fmt.Errorf("nsga2: %d initial genomes for a population of %d", len(c.Initial), c.PopSize)
	}
	if err := validateEncoding(c.Encoding); err != nil {
		return fmt.Errorf("nsga2: %w", err)
	}
	if ch, ok := c.Encoding.(genomeChecker[G]); ok {
		for i, g := range c.Initial {
			if err := ch.CheckGenome(g); err != nil {
				return fmt.Errorf("nsga2: initial genome %d: %w", i, err)
			}
		}
	}
	return nil
}

// nsga2State is one run's working set. The population is held as indices
// into the archive with its ranks and crowding distances alongside.
type nsga2State[G any] struct {
	c       *NSGA2[G]
	r       *rand.Rand
	ev      evaluator[G]
	archive []Individual[G]

	pop, popRank []int32
	popCrowd     []float64

	rk           ranker
	feas, infeas []int32
	next         []int32
	perm, pick   []int32
	seen         *genomeSet[G]
	kids, batch  []G
	budget       int // evaluations left; -1 = unlimited
}

// Run executes the search. It stops early, returning the work done so far
// with ctx's error, when ctx is cancelled.
func (c *NSGA2[G]) Run(ctx context.Context) (*Result[G], error) {
	if err := c.validate(); err != nil {
		return nil, err
	}
	s := &nsga2State[G]{
		c:      c,
		r:      newRand(c.Seed),
		ev:     evaluator[G]{eval: c.Evaluate, workers: c.Workers, ctx: ctx},
		seen:   newGenomeSet[G](c.Encoding),
		budget: -1,
	}
	if c.MaxEvaluations > 0 {
		s.budget = c.MaxEvaluations
	}
	// Size the archive for the whole run, within reason: the declared
	// generations are only an upper bound.
	const maxPrealloc = 1 << 16
	expect, per := c.PopSize, max(c.Offspring, c.PopSize)
	if g := c.Generations - 1; g > (maxPrealloc-expect)/per {
		expect = maxPrealloc
	} else {
		expect += g * per
	}
	if c.MaxEvaluations > 0 {
		expect = min(expect, c.MaxEvaluations)
	}
	s.archive = make([]Individual[G], 0, min(expect, maxPrealloc))
	res := &Result[G]{}
	err := s.run(ctx, res)
	s.finish(res)
	return res, err
}

func (s *nsga2State[G]) run(ctx context.Context, res *Result[G]) error {
	c := s.c
	offspring := c.Offspring
	if offspring == 0 {
		offspring = c.PopSize
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	// Initial population: the given genomes, then samples, without
	// duplicates.
	want := s.allow(c.PopSize)
	s.seen.reset()
	s.kids = s.kids[:0]
	for _, g := range c.Initial {
		if len(s.kids) < want && s.seen.add(g) {
			s.kids = append(s.kids, g)
		}
	}
	for round, idle := 0, 0; len(s.kids) < want && round < maxInfillRounds && idle < maxFruitlessRounds; round++ {
		before := len(s.kids)
		for range want - len(s.kids) {
			if g := c.Encoding.Sample(s.r); s.seen.add(g) {
				s.kids = append(s.kids, g)
			}
		}
		idle = fruitless(idle, len(s.kids) > before)
	}
	if err := s.evaluate(0); err != nil {
		return err
	}
	s.survive(s.allIndices(), c.PopSize)
	s.record(res, 0)

	for gen := 1; gen < c.Generations; gen++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		n := s.allow(offspring)
		if n == 0 {
			break
		}
		s.mate(n)
		if len(s.kids) == 0 {
			break // no new genome could be produced: pymoo terminates too
		}
		first := len(s.archive)
		if err := s.evaluate(gen); err != nil {
			return err
		}
		merged := append(s.next[:0], s.pop...)
		for i := first; i < len(s.archive); i++ {
			merged = append(merged, int32(i))
		}
		s.next = merged
		s.survive(merged, c.PopSize)
		s.record(res, gen)
	}
	return nil
}

// allow returns how many of n evaluations the budget still permits.
func (s *nsga2State[G]) allow(n int) int {
	if s.budget < 0 {
		return n
	}
	return min(n, s.budget)
}

func (s *nsga2State[G]) allIndices() []int32 {
	idx := make([]int32, len(s.archive))
	for i := range idx {
		idx[i] = int32(i)
	}
	return idx
}

// evaluate evaluates s.kids and appends them to the archive.
func (s *nsga2State[G]) evaluate(gen int) error {
	n := len(s.kids)
	var err error
	if s.archive, err = s.ev.appendTo(s.archive, s.kids, gen); err != nil {
		return fmt.Errorf("nsga2: generation %d: %w", gen, err)
	}
	if s.budget > 0 {
		s.budget -= n
	}
	return nil
}

// survive selects n survivors of the candidates (archive indices) into
// s.pop with their ranks and crowding distances.
func (s *nsga2State[G]) survive(cands []int32, n int) {
	n = min(n, len(cands))
	s.feas, s.infeas = s.feas[:0], s.infeas[:0]
	for _, i := range cands {
		if s.archive[i].Feasible() {
			s.feas = append(s.feas, i)
		} else {
			s.infeas = append(s.infeas, i)
		}
	}
	s.pop, s.popRank, s.popCrowd = s.pop[:0], s.popRank[:0], s.popCrowd[:0]
	nf := 0
	if len(s.feas) > 0 {
		m := len(s.archive[s.feas[0]].Objectives)
		s.rk.reset(len(s.feas), m)
		for k, i := range s.feas {
			copy(s.rk.obj[k*m:], s.archive[i].Objectives)
		}
		nf = s.rk.sort()
		for k := 0; k < nf && len(s.pop) < n; k++ {
			front := s.rk.fronts[k]
			s.rk.crowding(front)
			take := front
			if len(s.pop)+len(front) > n {
				// Cut the front by crowding, descending, ties at random:
				// shuffle, then stable sort.
				s.pick = append(s.pick[:0], front...)
				s.r.Shuffle(len(s.pick), func(a, b int) { s.pick[a], s.pick[b] = s.pick[b], s.pick[a] })
				slices.SortStableFunc(s.pick, func(a, b int32) int { return cmp.Compare(s.rk.crowd[b], s.rk.crowd[a]) })
				take = s.pick[:n-len(s.pop)]
			}
			for _, p := range take {
				s.pop = append(s.pop, s.feas[p])
				s.popRank = append(s.popRank, int32(k))
				s.popCrowd = append(s.popCrowd, s.rk.crowd[p])
			}
		}
	}
	if len(s.pop) < n {
		slices.SortStableFunc(s.infeas, func(a, b int32) int {
			return cmp.Compare(s.archive[a].Violation, s.archive[b].Violation)
		})
		rank := nf - 1
		prev := -1.0
		for _, i := range s.infeas[:n-len(s.pop)] {
			if v := s.archive[i].Violation; v != prev {
				rank++
				prev = v
			}
			s.pop = append(s.pop, i)
			s.popRank = append(s.popRank, int32(rank))
			s.popCrowd = append(s.popCrowd, 0)
		}
	}
}

// better is pymoo's binary tournament between population positions a and
// b: violation if either is infeasible, else dominance, else crowding.
func (s *nsga2State[G]) better(a, b int32) int32 {
	ia, ib := &s.archive[s.pop[a]], &s.archive[s.pop[b]]
	if ia.Violation > 0 || ib.Violation > 0 {
		switch {
		case ia.Violation < ib.Violation:
			return a
		case ib.Violation < ia.Violation:
			return b
		}
	} else {
		switch {
		case Dominates(ia.Objectives, ib.Objectives):
			return a
		case Dominates(ib.Objectives, ia.Objectives):
			return b
		case s.popCrowd[a] > s.popCrowd[b]:
			return a
		case s.popCrowd[b] > s.popCrowd[a]:
			return b
		}
	}
	if s.r.IntN(2) == 0 {
		return a
	}
	return b
}

// selectParents fills s.pick with 2*matings population positions chosen by
// binary tournaments over concatenated random permutations.
func (s *nsga2State[G]) selectParents(matings int) {
	np := len(s.pop)
	need := 4 * matings
	s.perm = s.perm[:0]
	for len(s.perm) < need {
		start := len(s.perm)
		for i := range np {
			s.perm = append(s.perm, int32(i))
		}
		p := s.perm[start:]
		s.r.Shuffle(len(p), func(a, b int) { p[a], p[b] = p[b], p[a] })
	}
	s.pick = s.pick[:0]
	for t := range 2 * matings {
		s.pick = append(s.pick, s.better(s.perm[2*t], s.perm[2*t+1]))
	}
}

// mate produces up to n new, unique offspring genomes in s.kids.
func (s *nsga2State[G]) mate(n int) {
	enc := s.c.Encoding
	s.seen.reset()
	for _, i := range s.pop {
		s.seen.add(s.archive[i].Genome)
	}
	s.kids = s.kids[:0]
	for round, idle := 0, 0; len(s.kids) < n && round < maxInfillRounds && idle < maxFruitlessRounds; round++ {
		before := len(s.kids)
		matings := (n - len(s.kids) + 1) / 2
		s.selectParents(matings)
		// pymoo lays out all first children, then all second children.
		s.batch = grow(s.batch, 2*matings)
		for k := range matings {
			a := s.archive[s.pop[s.pick[2*k]]].Genome
			b := s.archive[s.pop[s.pick[2*k+1]]].Genome
			s.batch[k], s.batch[matings+k] = enc.Crossover(s.r, a, b)
		}
		for i := range s.batch {
			s.batch[i] = enc.Mutate(s.r, s.batch[i])
		}
		for _, g := range s.batch {
			if len(s.kids) < n && s.seen.add(g) {
				s.kids = append(s.kids, g)
			}
		}
		clear(s.batch)
		idle = fruitless(idle, len(s.kids) > before)
	}
}

// fruitless counts consecutive infill rounds that added nothing.
func fruitless(idle int, progress bool) int {
	if progress {
		return 0
	}
	return idle + 1
}

func (s *nsga2State[G]) record(res *Result[G], gen int) {
	if s.c.KeepGenerations {
		g := Generation{Index: gen, Members: make([]Member, len(s.pop))}
		for k, i := range s.pop {
			g.Members[k] = Member{ID: int(i), Rank: int(s.popRank[k]), Crowding: s.popCrowd[k]}
		}
		res.Generations = append(res.Generations, g)
	}
	if s.c.OnGeneration != nil {
		s.c.OnGeneration(gen, s.population())
	}
}

func (s *nsga2State[G]) population() []Individual[G] {
	out := make([]Individual[G], len(s.pop))
	for k, i := range s.pop {
		out[k] = s.archive[i]
		out[k].Rank = int(s.popRank[k])
		out[k].Crowding = s.popCrowd[k]
	}
	return out
}

func (s *nsga2State[G]) finish(res *Result[G]) {
	res.Population = s.population()
	res.Evaluated = s.archive
	res.Front = rankArchive(&s.rk, res.Evaluated)
}

// rankArchive ranks all candidates together (feasible ones by
// non-dominated sorting with crowding per front, infeasible ones after
// them by violation) and returns the feasible first front in ID order.
func rankArchive[G any](rk *ranker, inds []Individual[G]) []Individual[G] {
	feas := loadFeasible(rk, inds)
	nf := rk.sort()
	for k := range nf {
		rk.crowding(rk.fronts[k])
	}
	for p, i := range feas {
		inds[i].Rank = int(rk.rank[p])
		inds[i].Crowding = rk.crowd[p]
	}
	var infeas []int
	for i := range inds {
		if !inds[i].Feasible() {
			infeas = append(infeas, i)
		}
	}
	slices.SortStableFunc(infeas, func(a, b int) int { return cmp.Compare(inds[a].Violation, inds[b].Violation) })
	rank, prev := nf-1, -1.0
	for _, i := range infeas {
		if inds[i].Violation != prev {
			rank++
			prev = inds[i].Violation
		}
		inds[i].Rank = rank
		inds[i].Crowding = 0
	}
	var front []Individual[G]
	if nf > 0 {
		for _, p := range rk.fronts[0] {
			front = append(front, inds[feas[p]])
		}
	}
	return front
}
