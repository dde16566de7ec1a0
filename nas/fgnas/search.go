package fgnas

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"

	"gnnsim/accel/fpga"
	"gnnsim/hw"
	"gnnsim/search"
	"gnnsim/workload"
)

// Limits are a hardware specification of FGNAS Table 2: a latency bound,
// one bound for LUTs and FFs alike, and a DSP bound.
type Limits struct {
	LatencyMS float64
	LUT       int64 // LUTs and FFs
	DSP       int64
}

func (l Limits) String() string {
	return fmt.Sprintf("%gms/%dLUT/%dDSP", l.LatencyMS, l.LUT, l.DSP)
}

// Budget returns the FPGA budget of l. A positive latency bound stays one,
// however small (hw.MSToPS rounds up): 0 alone means none.
func (l Limits) Budget() fpga.Budget {
	return fpga.Budget{Resources: hw.Resources{LUT: l.LUT, FF: l.LUT, DSP: l.DSP}, LatencyPS: hw.MSToPS(l.LatencyMS)}
}

// Problem is one search setting: a dataset, its constraints and where the
// accuracy comes from.
type Problem struct {
	Space  *Space
	Data   Dataset
	Limits Limits
	Oracle Oracle
	// Timing selects the FPGA model's timing (Published, Pipelined); its
	// Budget is set from Limits.
	Timing fpga.Options
	// Workers evaluates a controller batch in parallel (the oracle must be
	// safe for it); results do not depend on it.
	Workers int
	// TrainUntil, when > 0, is the FGNAS authors' "train until N designs
	// were trained" mode (their --gpu-eps): joint search and separate
	// search's hardware phase run past their episodes until TrainUntil
	// distinct designs were trained, checked after each controller batch,
	// for at most MaxEpisodes episodes (0: 10x the phase's episodes).
	TrainUntil, MaxEpisodes int
	// ScreenDraws, when > 0, lets separate search's hardware phase skip
	// architectures whose hardware is (nearly) infeasible everywhere: it
	// takes the best architecture of the first phase for which 1 % of
	// ScreenDraws uniform hardware genomes meet the limits, or failing
	// that a uniformly drawn one that does (see screen), and runs until it
	// has trained a design (within the TrainUntil cap).
	// 0 is FGNAS's protocol: the best architecture, whatever its hardware.
	ScreenDraws int
	// Screens, when not nil, shares the screen's priced hardware draws
	// among problems that differ only in Limits (see ScreenCache).
	Screens *ScreenCache
}

// Sample is one evaluated design of a search.
type Sample struct {
	Genome    []int
	Episode   int // the batch (controller update) that first drew it
	Phase     int // 0, or 1 for the hardware phase of separate search
	LatencyMS float64
	Cycles    int64 // the timing judged against the latency bound
	Use       hw.Resources
	Feasible  bool
	Over      string
	// Trained says the oracle ran; Val and Test are its accuracies.
	Trained   bool
	Val, Test float64
}

// RunResult is the outcome of one search run.
type RunResult struct {
	Method  string
	Samples []Sample // distinct designs in evaluation order
	// Trained is the number of distinct designs trained; Episodes the
	// designs the controller (or random draw) proposed.
	Trained, Episodes int
	// Best is the trained sample with the highest validation accuracy
	// (ties: the first), -1 when none was feasible.
	Best int
	// Top10Test is the mean test accuracy of the ten best by validation.
	Top10Test float64
	// Capped says a TrainUntil run stopped at its episode cap before it
	// had trained TrainUntil designs.
	Capped bool
	// ArchRank is, for separate search, the rank (0: best) of the
	// architecture its hardware phase searched (ScreenDraws may skip the
	// best; a rank past the first phase's architectures is one the screen
	// drew uniformly, see Problem.screen).
	ArchRank int
}

// BestTest returns the test accuracy of the best sample, 0 if none.
func (r *RunResult) BestTest() float64 {
	if r.Best < 0 {
		return 0
	}
	return r.Samples[r.Best].Test
}

// BestVal returns the validation accuracy of the best sample, 0 if none.
func (r *RunResult) BestVal() float64 {
	if r.Best < 0 {
		return 0
	}
	return r.Samples[r.Best].Val
}

func (p *Problem) check() error {
	switch {
	case p.Space == nil:
		return errors.New("fgnas: problem without a space")
	case p.Oracle == nil:
		return errors.New("fgnas: problem without an accuracy oracle")
	case p.Limits.LatencyMS < 0 || p.Limits.LUT < 0 || p.Limits.DSP < 0:
		return fmt.Errorf("fgnas: negative limits %s", p.Limits)
	case p.Data.Size.Nodes <= 0 || p.Data.Features <= 0:
		return fmt.Errorf("fgnas: dataset %q without nodes or features", p.Data.Name)
	}
	return nil
}

// Hardware evaluates the FPGA design of a joint genome against the limits
// (no training).
func (p *Problem) Hardware(g []int) (Candidate, Sample, error) {
	pr := p.pooledPricer()
	defer pr.release()
	c, s, err := pr.Hardware(g)
	return c.clone(), s, err
}

// A Pricer evaluates the FPGA designs of joint genomes of one problem, as
// Problem.Hardware does, reusing its storage from one design to the next:
// after the first, a design costs no allocation. The Candidate it returns
// shares that storage and is valid until its next call. A Pricer is not
// safe for concurrent use: give each goroutine its own.
type Pricer struct {
	p     *Problem
	c     Candidate
	unit  fpga.Unit
	block workload.Block
}

// NewPricer returns a Pricer of p's designs.
func (p *Problem) NewPricer() *Pricer {
	pr := &Pricer{p: p}
	if p.Space != nil {
		// Sized for p's networks: even the first design grows nothing.
		n := p.Space.Layers
		pr.c = Candidate{Arch: make(Arch, 0, n), Bits: make(Bits, 0, n), Design: fpga.Design{Layers: make([]fpga.LayerDesign, 0, n)}}
		pr.block.Layers = make([]workload.Layer, 0, n)
	}
	return pr
}

// Hardware is Problem.Hardware.
func (pr *Pricer) Hardware(g []int) (Candidate, Sample, error) {
	p := pr.p
	if err := p.Space.DecodeInto(&pr.c, g, p.Data); err != nil {
		return Candidate{}, Sample{}, err
	}
	c := pr.c
	opt := p.Timing
	opt.Budget = p.Limits.Budget()
	if err := pr.unit.Reset(c.Design, opt); err != nil {
		return c, Sample{}, err
	}
	c.Design.BlockInto(&pr.block, p.Data.Size, p.Data.Features)
	r, err := pr.unit.Assess(hw.BlockWork(pr.block))
	if err != nil {
		return c, Sample{}, err
	}
	return c, Sample{Genome: g, LatencyMS: float64(r.Cost.TimePS) * 1e-9, Cycles: r.Cost.Cycles, Use: r.Resources, Feasible: r.Feasible, Over: r.Over}, nil
}

// pricers hold Pricers for Problem.Hardware and the searches'
// evaluations, which run on the searches' worker goroutines.
var pricers = sync.Pool{New: func() any { return new(Pricer) }}

// pooledPricer returns a Pricer of p's designs from pricers; release
// returns it.
func (p *Problem) pooledPricer() *Pricer {
	pr := pricers.Get().(*Pricer)
	pr.p = p
	return pr
}

func (pr *Pricer) release() {
	pr.p = nil // the pool keeps storage, not problems
	pricers.Put(pr)
}

// evaluate is Eq. 5: reward 0 (objective 0) when the design is infeasible,
// else the validation accuracy of the trained, quantised network.
func (p *Problem) evaluate(g []int, quantise bool) (search.Evaluation, error) {
	s, err := p.sample(g, quantise)
	if err != nil {
		return search.Evaluation{}, err
	}
	if !s.Trained {
		return search.Evaluation{Objectives: []float64{0}, Constraints: []float64{1}, Info: s}, nil
	}
	return search.Evaluation{Objectives: []float64{-s.Val}, Info: s}, nil
}

// sample prices g's design and, when it is feasible, trains its network
// (quantised to its bits when quantise).
func (p *Problem) sample(g []int, quantise bool) (Sample, error) {
	pr := p.pooledPricer()
	c, s, err := pr.Hardware(g)
	var arch Arch
	var bits Bits
	if err == nil && s.Feasible {
		// The oracle may keep what it is given: copies, not the pricer's
		// storage.
		arch, bits = slices.Clone(c.Arch), slices.Clone(c.Bits)
	}
	pr.release() // before the training, which may take long
	if err != nil || !s.Feasible {
		return s, err
	}
	if !quantise {
		bits = nil
	}
	s.Val, s.Test, err = p.Oracle(arch, bits)
	if err != nil {
		return Sample{}, fmt.Errorf("fgnas: training %s: %w", arch, err)
	}
	s.Trained = true
	return s, nil
}

// Controller settings of FGNAS section 3.2 and 4.3.
const (
	BatchEpisodes = 5   // m
	BaselineDecay = 0.9 // EMA of the reward
	LearningRate  = 0.1 // SGD, constant
	JointEpisodes = 2000
	ArchEpisodes  = 200 // separate search: architecture first
	HWEpisodes    = 800 // then hardware
)

// reinforce runs the controller over sp for episodes, or, when until > 0,
// until that many distinct designs were trained (at most cap episodes).
func (p *Problem) reinforce(ctx context.Context, sp *search.Space, eval search.EvalFunc[[]int], episodes int, seed uint64, until int) (*search.Result[[]int], bool, error) {
	rl := search.Reinforce{
		Space: sp, Evaluate: eval,
		Policy: search.LSTMPolicy, Optimizer: search.SGD, LearningRate: LearningRate,
		BatchSize: BatchEpisodes, BaselineDecay: BaselineDecay,
		MaxEvaluations: episodes, MaxEpisodes: episodes,
		Seed: seed, Workers: p.Workers,
	}
	trained, counted := 0, 0
	if until > 0 {
		budget := p.MaxEpisodes
		if budget <= 0 {
			budget = 10 * episodes
		}
		rl.MaxEvaluations, rl.MaxEpisodes = budget, budget
		rl.Until = func(ev []search.Individual[[]int]) bool {
			for ; counted < len(ev); counted++ {
				if ev[counted].Info.(Sample).Trained {
					trained++
				}
			}
			return trained >= until
		}
	}
	res, err := rl.Run(ctx)
	return res, until > 0 && trained < until, err
}

// Joint runs FGNAS: the LSTM controller over the joint space for episodes
// episodes (0 means 2,000).
func (p *Problem) Joint(ctx context.Context, episodes int, seed uint64) (*RunResult, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	if episodes == 0 {
		episodes = JointEpisodes
	}
	res, capped, err := p.reinforce(ctx, p.Space.Joint(), func(g []int) (search.Evaluation, error) { return p.evaluate(g, true) }, episodes, seed, p.TrainUntil)
	if err != nil {
		return nil, fmt.Errorf("fgnas: joint search: %w", err)
	}
	out := &RunResult{Method: "joint", Episodes: episodes, Capped: capped}
	if p.TrainUntil > 0 {
		out.Episodes = len(res.Evaluated) // distinct designs: a lower bound
	}
	for _, ind := range res.Evaluated {
		s := ind.Info.(Sample)
		s.Episode = ind.Generation
		out.Samples = append(out.Samples, s)
	}
	out.finish()
	return out, ctx.Err()
}

// maxRandomDraws bounds random search's hardware evaluations per trained
// sample it must find (a guard against an empty feasible region). Under
// Table 3's tightest specification 0.02 % of uniform designs are feasible,
// 5,000 draws per feasible one on average, so the bound sits far above
// that: random search gets the joint run's trained count (one verdict
// takes about 5 us).
const maxRandomDraws = 200_000

// Random runs random search: uniform distinct designs until trained of them
// were feasible (and trained), FGNAS's rule for an equal training budget.
func (p *Problem) Random(ctx context.Context, trained int, seed uint64) (*RunResult, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	if trained < 0 {
		return nil, fmt.Errorf("fgnas: random search for %d trained samples", trained)
	}
	sp := p.Space.Joint()
	r := rand.New(rand.NewPCG(seed, 0x6667_6e61_7321)) // "fgnas!"
	seen := map[uint64][][]int{}
	out := &RunResult{Method: "random"}
	got := 0
	for draws := 0; got < trained && draws < maxRandomDraws*max(trained, 1); draws++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		g := sp.Sample(r)
		h := sp.Hash(g)
		if slices.ContainsFunc(seen[h], func(x []int) bool { return slices.Equal(x, g) }) {
			continue
		}
		seen[h] = append(seen[h], g)
		out.Episodes++
		s, err := p.sample(g, true)
		if err != nil {
			return nil, err
		}
		s.Episode = out.Episodes - 1
		out.Samples = append(out.Samples, s)
		if s.Trained {
			got++
		}
	}
	out.finish()
	return out, nil
}

// Separate runs the two-step baseline: a pure architecture search (the
// hardware ignored, full precision) for archEpisodes, then a hardware
// search (group sizes and bits) for the best architecture found, for
// hwEpisodes (0 means 200 and 800). It is SeparateArch followed by
// SeparateHardware with seed+1.
func (p *Problem) Separate(ctx context.Context, archEpisodes, hwEpisodes int, seed uint64) (*RunResult, error) {
	a, err := p.SeparateArch(ctx, archEpisodes, seed)
	if err != nil {
		return nil, err
	}
	return p.SeparateHardware(ctx, a, hwEpisodes, seed+1)
}

// ArchResult is the first phase of separate search.
type ArchResult struct {
	// Samples are the architectures trained, in evaluation order, with the
	// first choice of every hardware gene and no hardware verdict.
	Samples []Sample
	// Best is the joint genome of the best architecture by validation
	// accuracy (ties: the first), its hardware genes the first choices;
	// Ranked every distinct architecture so, best first.
	Best     []int
	Ranked   [][]int
	Episodes int
}

// SeparateArch runs separate search's architecture phase: the controller
// over the architecture decisions alone for archEpisodes (0 means 200),
// every network trained at full precision, the hardware and the limits
// ignored. Its outcome depends on the space, the data set, the oracle and
// seed only, not on p's limits, so one phase serves every specification.
func (p *Problem) SeparateArch(ctx context.Context, archEpisodes int, seed uint64) (*ArchResult, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	if archEpisodes == 0 {
		archEpisodes = ArchEpisodes
	}
	archSp, err := p.Space.Part(Architecture)
	if err != nil {
		return nil, err
	}
	// The hardware genes during the architecture phase: the first choice
	// of each (they do not affect an unquantised, unconstrained network).
	zero := make([]int, p.Space.Joint().Len())
	free := *p
	free.Limits = Limits{}
	archRes, _, err := p.reinforce(ctx, archSp, func(g []int) (search.Evaluation, error) {
		return free.evaluate(p.Space.Merge(Architecture, g, zero), false)
	}, archEpisodes, seed, 0)
	if err != nil {
		return nil, fmt.Errorf("fgnas: separate search, architecture: %w", err)
	}
	out := &ArchResult{Episodes: archEpisodes}
	for _, ind := range archRes.Evaluated {
		s := ind.Info.(Sample)
		s.Episode = ind.Generation
		// The architecture phase's samples carry no hardware verdict.
		s.Feasible, s.Over = false, "not evaluated"
		out.Samples = append(out.Samples, s)
	}
	// Rank the distinct architectures by validation accuracy (ties: the
	// first drawn).
	idx := make([]int, len(out.Samples))
	for i := range idx {
		idx[i] = i
	}
	byValDesc(out.Samples, idx)
	for _, i := range idx {
		out.Ranked = append(out.Ranked, out.Samples[i].Genome)
	}
	if len(out.Ranked) > 0 {
		out.Best = out.Ranked[0]
	}
	return out, ctx.Err()
}

// SeparateHardware runs separate search's hardware phase on the best
// architecture of a: the controller over group sizes and bits for
// hwEpisodes (0 means 800), each design judged against p's limits and,
// when feasible, its quantised network evaluated. The result holds a's
// samples then the phase's; its best design comes from this phase.
func (p *Problem) SeparateHardware(ctx context.Context, a *ArchResult, hwEpisodes int, seed uint64) (*RunResult, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	if hwEpisodes == 0 {
		hwEpisodes = HWEpisodes
	}
	hwSp, err := p.Space.Part(Hardware)
	if err != nil {
		return nil, err
	}
	out := &RunResult{Method: "separate", Episodes: a.Episodes + hwEpisodes}
	out.Samples = append(out.Samples, a.Samples...)
	best, rank, err := p.screen(a, hwSp, seed)
	if err != nil {
		return nil, err
	}
	out.ArchRank = rank
	// With the screen on, the phase also runs until it has trained one
	// design (within the TrainUntil cap): the screen says one exists.
	until := p.TrainUntil
	if p.ScreenDraws > 0 {
		until = max(until, 1)
	}
	hwRes, capped, err := p.reinforce(ctx, hwSp, func(g []int) (search.Evaluation, error) {
		return p.evaluate(p.Space.Merge(Hardware, g, best), true)
	}, hwEpisodes, seed, until)
	if err != nil {
		return nil, fmt.Errorf("fgnas: separate search, hardware: %w", err)
	}
	out.Capped = capped
	if until > 0 {
		out.Episodes = a.Episodes + len(hwRes.Evaluated)
	}
	first := len(out.Samples)
	for _, ind := range hwRes.Evaluated {
		s := ind.Info.(Sample)
		s.Episode = ind.Generation
		s.Phase = 1
		out.Samples = append(out.Samples, s)
	}
	out.finishFrom(first)
	out.Trained += len(a.Samples)
	return out, ctx.Err()
}

// screenFallback bounds the uniform architectures the screen tries when
// none of the first phase's has feasible hardware.
const screenFallback = 200

// screen returns the architecture separate search's hardware phase
// searches (a joint genome, its hardware genes unset) and its rank in the
// first phase's ranking. With ScreenDraws it is the best-ranked one for
// which at least 1 % (and at least one) of ScreenDraws uniform hardware
// genomes (seeded by seed) are feasible, so that the phase's controller,
// starting uniform, can expect to meet some. When none of the ranked
// ones is, the screen goes on with up to screenFallback uniform
// architectures (rank len(Ranked) + i: never trained by the first phase);
// when none of those is either, the ranked one with the most feasible
// draws (ties: the better ranked). Without ScreenDraws: the best.
func (p *Problem) screen(a *ArchResult, hwSp *search.Space, seed uint64) ([]int, int, error) {
	if p.ScreenDraws <= 0 || len(a.Ranked) == 0 {
		return a.Best, 0, nil
	}
	need := max(1, p.ScreenDraws/100)
	count := func(arch []int, k int) (int, error) {
		return p.screenCount(hwSp, seed, k, arch, need)
	}
	best, bestN := 0, 0
	for k, arch := range a.Ranked {
		n, err := count(arch, k)
		if err != nil {
			return nil, 0, err
		}
		if n >= need {
			return arch, k, nil
		}
		if n > bestN {
			best, bestN = k, n
		}
	}
	archSp, err := p.Space.Part(Architecture)
	if err != nil {
		return nil, 0, err
	}
	zero := make([]int, p.Space.Joint().Len())
	r := rand.New(rand.NewPCG(seed, 0x73637265656e)) // "screen"
	for i := range screenFallback {
		arch := p.Space.Merge(Architecture, archSp.Sample(r), zero)
		k := len(a.Ranked) + i
		n, err := count(arch, k)
		if err != nil {
			return nil, 0, err
		}
		if n >= need {
			return arch, k, nil
		}
	}
	return a.Ranked[best], best, nil
}

func (r *RunResult) finish() { r.finishFrom(0) }

// finishFrom counts the trained samples from index first on and picks the
// best among them (the architecture phase of separate search trains at
// full precision with no hardware: its networks are not candidates).
func (r *RunResult) finishFrom(first int) {
	r.Best = -1
	var idx []int
	for i := first; i < len(r.Samples); i++ {
		s := &r.Samples[i]
		if !s.Trained || !s.Feasible {
			continue
		}
		r.Trained++
		idx = append(idx, i)
		if r.Best < 0 || s.Val > r.Samples[r.Best].Val {
			r.Best = i
		}
	}
	byValDesc(r.Samples, idx)
	if len(idx) > 10 {
		idx = idx[:10]
	}
	for _, i := range idx {
		r.Top10Test += r.Samples[i].Test / float64(len(idx))
	}
}

// byValDesc sorts idx, indices into samples, by validation accuracy,
// highest first (ties keep their order).
func byValDesc(samples []Sample, idx []int) {
	slices.SortStableFunc(idx, func(a, b int) int {
		va, vb := samples[a].Val, samples[b].Val
		switch {
		case va > vb:
			return -1
		case va < vb:
			return 1
		}
		return 0
	})
}
