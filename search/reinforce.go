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
// (undiscounted, gamma = 1) through Adam, where the baseline b is an
// exponential moving average of the rewards (decay BaselineDecay; it
// starts at the first batch's mean reward). FGNAS uses an RNN controller;
// the independent per-decision policy here keeps the same estimator and
// reward.
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
	// LearningRate is Adam's step size on the logits; 0 means 0.1.
	LearningRate float64
	// BaselineDecay is the baseline's EMA factor in (0, 1); 0 means
	// FGNAS's 0.9.
	BaselineDecay float64
	// MaxEvaluations is the budget of distinct designs (required).
	MaxEvaluations int
	// MaxEpisodes caps the episodes; 0 means 20*MaxEvaluations.
	MaxEpisodes int
	Seed        uint64
	Workers     int
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
	switch {
	case c.Space == nil:
		return nil, fmt.Errorf("reinforce: no space")
	case c.Evaluate == nil:
		return nil, fmt.Errorf("reinforce: no evaluation function")
	case c.BatchSize < 0:
		return nil, fmt.Errorf("reinforce: negative batch size %d", c.BatchSize)
	case c.LearningRate < 0 || math.IsNaN(c.LearningRate):
		return nil, fmt.Errorf("reinforce: learning rate %v", c.LearningRate)
	case !(c.BaselineDecay >= 0 && c.BaselineDecay < 1):
		return nil, fmt.Errorf("reinforce: baseline decay %v outside (0, 1)", c.BaselineDecay)
	case c.MaxEvaluations < 1:
		return nil, fmt.Errorf("reinforce: budget of %d evaluations", c.MaxEvaluations)
	case c.MaxEpisodes < 0:
		return nil, fmt.Errorf("reinforce: negative episode cap %d", c.MaxEpisodes)
	}
	reward := c.Reward
	if reward == nil {
		reward = DefaultReward
	}
	lr := c.LearningRate
	if lr == 0 {
		lr = 0.1
	}
	decay := c.BaselineDecay
	if decay == 0 {
		decay = 0.9
	}
	maxEpisodes := c.MaxEpisodes
	if maxEpisodes == 0 {
		maxEpisodes = 20 * c.MaxEvaluations
	}
	sp := c.Space
	pol := newPolicy(sp)
	r := newRand(c.Seed)
	ev := evaluator[[]int]{eval: c.Evaluate, workers: c.Workers}
	// seen holds the evaluated designs in archive order, so a design's
	// position in it is its ID.
	seen := newGenomeSet[[]int](sp)
	res := &Result[[]int]{}
	m := c.BatchSize
	if m == 0 {
		m = 5
	}
	episodes := make([][]int, m)
	rewards := make([]float64, m)
	var fresh [][]int
	baseline, haveBaseline := 0.0, false
	var err error
	for batch, done := 0, 0; done < maxEpisodes && len(res.Evaluated) < c.MaxEvaluations; batch++ {
		if err = ctx.Err(); err != nil {
			break
		}
		// Draw the batch; only designs never seen are evaluated, and no
		// more of them than the budget allows.
		n := 0
		fresh = fresh[:0]
		for n < m && done+n < maxEpisodes {
			g := pol.sample(r, sp)
			if !seen.contains(g) {
				if len(res.Evaluated)+len(fresh) == c.MaxEvaluations {
					break
				}
				seen.add(g)
				fresh = append(fresh, g)
			}
			episodes[n] = g
			n++
		}
		if len(fresh) > 0 {
			if res.Evaluated, err = ev.appendTo(res.Evaluated, fresh, batch); err != nil {
				err = fmt.Errorf("reinforce: batch %d: %w", batch, err)
				break
			}
		}
		if n == 0 {
			break
		}
		for k, g := range episodes[:n] {
			ind := &res.Evaluated[seen.indexOf(g)]
			rewards[k] = reward(Evaluation{Objectives: ind.Objectives, Constraints: ind.Constraints, Info: ind.Info})
			if math.IsNaN(rewards[k]) || math.IsInf(rewards[k], 0) {
				err = fmt.Errorf("reinforce: reward %v for design %d", rewards[k], ind.ID)
				break
			}
		}
		if err != nil {
			break
		}
		if !haveBaseline {
			for _, v := range rewards[:n] {
				baseline += v
			}
			baseline /= float64(n)
			haveBaseline = true
		}
		pol.zeroGrad()
		for k, g := range episodes[:n] {
			pol.accumulate(sp, g, (rewards[k]-baseline)/float64(n))
		}
		pol.adamStep(lr)
		for _, v := range rewards[:n] {
			baseline = decay*baseline + (1-decay)*v
		}
		done += n
	}
	var rk ranker
	res.Front = rankArchive(&rk, res.Evaluated)
	return res, err
}

// policy holds the logits of every variable, concatenated, with their
// gradient and Adam moments.
type policy struct {
	off         []int // logits of variable i are at off[i]:off[i+1]
	theta, grad []float64
	m1, m2      []float64
	prob        []float64 // scratch
	steps       int
}

func newPolicy(sp *Space) *policy {
	p := &policy{off: make([]int, sp.Len()+1)}
	for i := range sp.Len() {
		p.off[i+1] = p.off[i] + sp.vars[i].Choices
	}
	n := p.off[sp.Len()]
	p.theta = make([]float64, n)
	p.grad = make([]float64, n)
	p.m1 = make([]float64, n)
	p.m2 = make([]float64, n)
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

// adamStep ascends the gradient with Adam (beta1 0.9, beta2 0.999).
func (p *policy) adamStep(lr float64) {
	const b1, b2, eps = 0.9, 0.999, 1e-8
	p.steps++
	c1 := 1 - math.Pow(b1, float64(p.steps))
	c2 := 1 - math.Pow(b2, float64(p.steps))
	for k, g := range p.grad {
		p.m1[k] = b1*p.m1[k] + (1-b1)*g
		p.m2[k] = b2*p.m2[k] + (1-b2)*g*g
		p.theta[k] += lr * (p.m1[k] / c1) / (math.Sqrt(p.m2[k]/c2) + eps)
	}
}
