package search

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
)

// Reinforce is FGNAS's policy-gradient controller (seed 004, section 3.2)
// over a discrete Space. The policy is one categorical distribution per
// variable (softmax of free logits, all zero at the start); an episode
// draws the variables in order, skipping inactive ones, and is rewarded
// once. Every BatchSize episodes the logits follow the REINFORCE gradient
//
//	(1/m) sum_k sum_t grad log pi(a_t) (R_k - b)
//
// (undiscounted, gamma = 1) through Adam or SGD, where the baseline b is an
// exponential moving average of the rewards (decay BaselineDecay; it
// starts at the first batch's mean reward). The policy is either free
// logits per decision (LogitsPolicy) or FGNAS's LSTM controller
// (LSTMPolicy: hidden 100, embedding 10 by default, run over the active
// decisions in order, each conditioned on the ones before).
//
// A genome drawn again reuses its first evaluation without calling
// Evaluate, so MaxEvaluations counts distinct designs, like the other
// searches' budgets; MaxEpisodes bounds the episodes in case the policy
// collapses onto known designs.
type Reinforce struct {
	Space    *Space
	Evaluate EvalFunc[[]int]
	// Reward maps an evaluation to the reward to maximise. nil means
	// seed 004's Eq. 5: 0 for infeasible designs, else -Objectives[0]
	// (so an objective of -accuracy gives back the accuracy). That default
	// assumes feasible rewards >= 0, so that infeasible designs are never
	// preferred; supply Reward otherwise.
	Reward func(Evaluation) float64
	// BatchSize is m, episodes per update; 0 means FGNAS's 5.
	BatchSize int
	// LearningRate is the optimiser's step size; 0 means 0.1.
	LearningRate float64
	// BaselineDecay is the baseline's EMA factor in (0, 1); 0 means
	// FGNAS's 0.9.
	BaselineDecay float64
	// MaxEvaluations is the budget of distinct designs (required).
	MaxEvaluations int
	// MaxEpisodes caps the episodes; 0 means 20*MaxEvaluations.
	MaxEpisodes int
	// Until, when not nil, ends the run after the first batch at whose end
	// it returns true for the designs evaluated so far (seed 004's
	// "train until N designs were trained", its --gpu-eps); the budgets
	// still bound the run.
	Until func(evaluated []Individual[[]int]) bool
	// Policy is the controller; the zero value is LogitsPolicy.
	Policy Policy
	// Hidden and Embedding size the LSTM policy; 0 means FGNAS's 100 and 10.
	Hidden, Embedding int
	// Optimizer updates the policy: Adam (the zero value) or SGD (FGNAS,
	// with a constant learning rate of 0.1).
	Optimizer Optimizer
	Seed      uint64
	Workers   int

	trained controller // the controller after Run, for tests
}

// Policy selects the REINFORCE controller.
type Policy uint8

// The controllers.
const (
	LogitsPolicy Policy = iota // independent softmax logits per decision
	LSTMPolicy                 // an LSTM over the sequence of decisions
)

// Optimizer selects the controller's update rule.
type Optimizer uint8

// The optimisers.
const (
	Adam Optimizer = iota // beta1 0.9, beta2 0.999
	SGD                   // plain gradient ascent
)

// controller is a policy over a Space's genomes.
type controller interface {
	sample(r *rand.Rand, sp *Space) []int
	zeroGrad()
	// accumulate adds w * grad log pi(g) to the gradient.
	accumulate(sp *Space, g []int, w float64)
	params() (theta, grad []float64)
}

// DefaultReward is seed 004's reward: 0 for infeasible designs, else the
// negated first objective.
func DefaultReward(e Evaluation) float64 {
	if e.Violation() > 0 {
		return 0
	}
	return -e.Objectives[0]
}

// Run trains the controller until the budget is spent. Each batch's index
// is the Generation of the designs it evaluated first.
func (c *Reinforce) Run(ctx context.Context) (*Result[[]int], error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	set := c.settings()
	sp := c.Space
	r := newRand(c.Seed)
	pol := c.newController(r)
	opt := optimizer{kind: c.Optimizer}
	ev := evaluator[[]int]{eval: c.Evaluate, workers: c.Workers, ctx: ctx}
	// seen holds the evaluated designs in archive order, so a design's
	// position in it is its ID.
	seen := newGenomeSet[[]int](sp)
	res := &Result[[]int]{}
	episodes := make([][]int, set.batch)
	rewards := make([]float64, set.batch)
	var fresh [][]int
	baseline, haveBaseline := 0.0, false
	var err error
	for batch, done := 0, 0; done < set.maxEpisodes && len(res.Evaluated) < c.MaxEvaluations; batch++ {
		if err = ctx.Err(); err != nil {
			break
		}
		var n int
		n, fresh = c.drawBatch(pol, r, seen, episodes, fresh[:0], len(res.Evaluated), set.maxEpisodes-done)
		if len(fresh) > 0 {
			if res.Evaluated, err = ev.appendTo(res.Evaluated, fresh, batch); err != nil {
				err = fmt.Errorf("reinforce: batch %d: %w", batch, err)
				break
			}
		}
		if n == 0 {
			break
		}
		if err = scoreBatch(set.reward, res.Evaluated, seen, episodes[:n], rewards[:n]); err != nil {
			break
		}
		if !haveBaseline {
			for _, v := range rewards[:n] {
				baseline += v
			}
			baseline /= float64(n)
			haveBaseline = true
		}
		baseline = updatePolicy(pol, &opt, sp, episodes[:n], rewards[:n], baseline, set.lr, set.decay)
		done += n
		if c.Until != nil && c.Until(res.Evaluated) {
			break
		}
	}
	c.trained = pol
	var rk ranker
	res.Front = rankArchive(&rk, res.Evaluated)
	return res, err
}

// check refuses a Reinforce that Run cannot start: no space or evaluation
// function, or an option outside its range. It runs before settings, on
// the options as given (zero meaning the default).
func (c *Reinforce) check() error {
	switch {
	case c.Space == nil:
		return fmt.Errorf("reinforce: no space")
	case c.Evaluate == nil:
		return fmt.Errorf("reinforce: no evaluation function")
	case c.BatchSize < 0:
		return fmt.Errorf("reinforce: negative batch size %d", c.BatchSize)
	case c.LearningRate < 0 || math.IsNaN(c.LearningRate):
		return fmt.Errorf("reinforce: learning rate %v", c.LearningRate)
	case !(c.BaselineDecay >= 0 && c.BaselineDecay < 1):
		return fmt.Errorf("reinforce: baseline decay %v outside (0, 1)", c.BaselineDecay)
	case c.MaxEvaluations < 1:
		return fmt.Errorf("reinforce: budget of %d evaluations", c.MaxEvaluations)
	case c.MaxEpisodes < 0:
		return fmt.Errorf("reinforce: negative episode cap %d", c.MaxEpisodes)
	case c.Policy > LSTMPolicy:
		return fmt.Errorf("reinforce: unknown policy %d", c.Policy)
	case c.Optimizer > SGD:
		return fmt.Errorf("reinforce: unknown optimizer %d", c.Optimizer)
	case c.Hidden < 0 || c.Embedding < 0 || c.Hidden > 1<<12 || c.Embedding > 1<<12:
		return fmt.Errorf("reinforce: LSTM of %d hidden, %d embedding units", c.Hidden, c.Embedding)
	}
	return nil
}

// reinforceSettings are a Reinforce's options with every zero value
// replaced by its documented default.
type reinforceSettings struct {
	reward             func(Evaluation) float64
	lr, decay          float64
	maxEpisodes, batch int
}

// settings resolves the defaults of c's options in one place, so that Run
// reads only effective values.
func (c *Reinforce) settings() reinforceSettings {
	s := reinforceSettings{reward: c.Reward, lr: c.LearningRate, decay: c.BaselineDecay,
		maxEpisodes: c.MaxEpisodes, batch: c.BatchSize}
	if s.reward == nil {
		s.reward = DefaultReward
	}
	if s.lr == 0 {
		s.lr = 0.1
	}
	if s.decay == 0 {
		s.decay = 0.9
	}
	if s.maxEpisodes == 0 {
		s.maxEpisodes = 20 * c.MaxEvaluations
	}
	if s.batch == 0 {
		s.batch = 5
	}
	return s
}

// newController returns the untrained policy c.Policy names; the LSTM
// draws its initial weights from r, so it must be made before the first
// episode is drawn.
func (c *Reinforce) newController(r *rand.Rand) controller {
	if c.Policy != LSTMPolicy {
		return newPolicy(c.Space)
	}
	h, e := c.Hidden, c.Embedding
	if h == 0 {
		h = 100
	}
	if e == 0 {
		e = 10
	}
	return newLSTMPolicy(c.Space, h, e, r)
}

// drawBatch draws up to len(episodes) episodes, and no more than left,
// into episodes and returns how many it drew. Designs never seen are added
// to seen and appended to fresh (returned) for evaluation, but no more of
// them than the budget leaves after nEvaluated: the batch ends at the
// first new design beyond it. Drawing and scoring are apart because the
// fresh designs are evaluated between them, as one parallel batch.
func (c *Reinforce) drawBatch(pol controller, r *rand.Rand, seen *genomeSet[[]int], episodes, fresh [][]int, nEvaluated, left int) (int, [][]int) {
	n := 0
	for n < len(episodes) && n < left {
		g := pol.sample(r, c.Space)
		if !seen.contains(g) {
			if nEvaluated+len(fresh) == c.MaxEvaluations {
				break
			}
			seen.add(g)
			fresh = append(fresh, g)
		}
		episodes[n] = g
		n++
	}
	return n, fresh
}

// scoreBatch writes the reward of each episode into rewards, from the
// evaluation of its design in evaluated (found through seen), and refuses
// a NaN or infinite reward, which would corrupt the baseline and the
// policy for good (see drawBatch for why it is a pass of its own).
func scoreBatch(reward func(Evaluation) float64, evaluated []Individual[[]int], seen *genomeSet[[]int], episodes [][]int, rewards []float64) error {
	for k, g := range episodes {
		ind := &evaluated[seen.indexOf(g)]
		rewards[k] = reward(Evaluation{Objectives: ind.Objectives, Constraints: ind.Constraints, Info: ind.Info})
		if math.IsNaN(rewards[k]) || math.IsInf(rewards[k], 0) {
			return fmt.Errorf("reinforce: reward %v for design %d", rewards[k], ind.ID)
		}
	}
	return nil
}

// updatePolicy takes one REINFORCE step on a batch: the mean over its
// episodes of grad log pi weighted by the reward's advantage over the
// baseline, applied by opt with step lr. It returns the baseline moved
// towards each reward in turn with EMA factor decay. It is the only pass
// that changes the policy.
func updatePolicy(pol controller, opt *optimizer, sp *Space, episodes [][]int, rewards []float64, baseline, lr, decay float64) float64 {
	n := len(episodes)
	pol.zeroGrad()
	for k, g := range episodes {
		pol.accumulate(sp, g, (rewards[k]-baseline)/float64(n))
	}
	opt.step(pol, lr)
	for _, v := range rewards {
		baseline = decay*baseline + (1-decay)*v
	}
	return baseline
}

// policy holds the logits of every variable, concatenated, with their
// gradient and Adam moments.
type policy struct {
	off         []int // logits of variable i are at off[i]:off[i+1]
	theta, grad []float64
	prob        []float64 // scratch
}

func newPolicy(sp *Space) *policy {
	p := &policy{off: make([]int, sp.Len()+1)}
	for i := range sp.Len() {
		p.off[i+1] = p.off[i] + sp.vars[i].Choices
	}
	n := p.off[sp.Len()]
	p.theta = make([]float64, n)
	p.grad = make([]float64, n)
	return p
}

// softmax fills p.prob with variable i's distribution.
func (p *policy) softmax(i int) []float64 {
	th := p.theta[p.off[i]:p.off[i+1]]
	p.prob = grow(p.prob, len(th))
	hi := math.Inf(-1)
	for _, v := range th {
		hi = max(hi, v)
	}
	sum := 0.0
	for k, v := range th {
		e := math.Exp(v - hi)
		p.prob[k] = e
		sum += e
	}
	for k := range p.prob {
		p.prob[k] /= sum
	}
	return p.prob
}

func (p *policy) sample(r *rand.Rand, sp *Space) []int {
	g := make([]int, sp.Len())
	for i := range g {
		if !sp.Active(g, i) {
			g[i] = Inactive
			continue
		}
		pr := p.softmax(i)
		u := r.Float64()
		k := 0
		for ; k < len(pr)-1; k++ {
			u -= pr[k]
			if u < 0 {
				break
			}
		}
		g[i] = k
	}
	return g
}

func (p *policy) zeroGrad() { clear(p.grad) }

// accumulate adds w * grad log pi(g): for each drawn decision, one-hot
// minus the probabilities.
func (p *policy) accumulate(sp *Space, g []int, w float64) {
	for i, a := range g {
		if a == Inactive {
			continue
		}
		pr := p.softmax(i)
		gr := p.grad[p.off[i]:p.off[i+1]]
		for k := range gr {
			gr[k] -= w * pr[k]
		}
		gr[a] += w
	}
}

func (p *policy) params() (theta, grad []float64) { return p.theta, p.grad }

// optimizer ascends a controller's gradient.
type optimizer struct {
	kind   Optimizer
	m1, m2 []float64
	steps  int
}

// step ascends the gradient: SGD, or Adam (beta1 0.9, beta2 0.999).
func (o *optimizer) step(c controller, lr float64) {
	theta, grad := c.params()
	if o.kind == SGD {
		for k, g := range grad {
			theta[k] += lr * g
		}
		return
	}
	const b1, b2, eps = 0.9, 0.999, 1e-8
	if o.m1 == nil {
		o.m1 = make([]float64, len(theta))
		o.m2 = make([]float64, len(theta))
	}
	o.steps++
	c1 := 1 - math.Pow(b1, float64(o.steps))
	c2 := 1 - math.Pow(b2, float64(o.steps))
	for k, g := range grad {
		o.m1[k] = b1*o.m1[k] + (1-b1)*g
		o.m2[k] = b2*o.m2[k] + (1-b2)*g*g
		theta[k] += lr * (o.m1[k] / c1) / (math.Sqrt(o.m2[k]/c2) + eps)
	}
}
