package search

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"gnnsim/internal/vec"
)

func lstmSpace(t *testing.T) *Space {
	t.Helper()
	sp, err := NewSpace(
		Variable{Name: "a", Choices: 3},
		Variable{Name: "b", Choices: 2, When: []Condition{{Var: "a", In: []int{1, 2}}}},
		Variable{Name: "c", Choices: 4},
		Variable{Name: "d", Choices: 5},
	)
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

// The hand-written backward pass matches central finite differences of
// log pi(g) in every parameter.
func TestLSTMGradient(t *testing.T) {
	sp := lstmSpace(t)
	r := newRand(7)
	p := newLSTMPolicy(sp, 6, 3, r)
	for k := range p.theta { // non-zero heads, larger weights: a harder check
		p.theta[k] = 1.2*r.Float64() - 0.6
	}
	for trial := range 4 {
		g := p.sample(r, sp)
		p.zeroGrad()
		p.accumulate(sp, g, 1)
		analytic := append([]float64(nil), p.grad...)
		// A copy of g is not in the forward cache: accumulate replays it,
		// to the same gradient.
		p.zeroGrad()
		p.accumulate(sp, append([]int(nil), g...), 1)
		for k := range analytic {
			if p.grad[k] != analytic[k] {
				t.Fatalf("replayed gradient %d: %v, cached %v", k, p.grad[k], analytic[k])
			}
		}
		const h = 1e-6
		worst := 0.0
		for k := range p.theta {
			old := p.theta[k]
			p.theta[k] = old + h
			up := p.logProb(sp, g)
			p.theta[k] = old - h
			down := p.logProb(sp, g)
			p.theta[k] = old
			num := (up - down) / (2 * h)
			if d := math.Abs(num - analytic[k]); d > 1e-6*max(1, math.Abs(num)) {
				t.Errorf("trial %d genome %v: parameter %d: analytic %.9g, numeric %.9g", trial, g, k, analytic[k], num)
				if worst > 0 {
					return
				}
			}
			worst = max(worst, math.Abs(num-analytic[k]))
		}
		t.Logf("genome %v: max |analytic - numeric| = %.2g over %d parameters", g, worst, len(p.theta))
	}
}

// On a reward with one best sequence the LSTM controller learns to draw it:
// its probability rises above 0.9.
func TestLSTMLearnsBestSequence(t *testing.T) {
	sp, err := NewSpace(
		Variable{Name: "v0", Choices: 4}, Variable{Name: "v1", Choices: 4}, Variable{Name: "v2", Choices: 4},
		Variable{Name: "v3", Choices: 4}, Variable{Name: "v4", Choices: 4}, Variable{Name: "v5", Choices: 4},
	)
	if err != nil {
		t.Fatal(err)
	}
	best := []int{3, 1, 0, 2, 2, 1}
	eval := func(g []int) (Evaluation, error) {
		s := 0.0
		for i, x := range g {
			if x == best[i] {
				s++
			}
		}
		return Evaluation{Objectives: []float64{-s / float64(len(g))}}, nil
	}
	for _, c := range []struct {
		name string
		opt  Optimizer
		lr   float64
	}{{"sgd", SGD, 0.5}, {"adam", Adam, 0.01}} {
		t.Run(c.name, func(t *testing.T) {
			rl := Reinforce{Space: sp, Evaluate: eval, Policy: LSTMPolicy, Optimizer: c.opt, LearningRate: c.lr,
				MaxEvaluations: 4096, MaxEpisodes: 1500, Seed: 11}
			p0 := math.Pow(0.25, 6)
			res, err := rl.Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			lstm := rl.trained.(*lstmPolicy)
			pr := math.Exp(lstm.logProb(sp, best))
			t.Logf("%s: p(best) %.3g -> %.4f after %d designs", c.name, p0, pr, len(res.Evaluated))
			if pr <= 0.9 {
				t.Errorf("p(best) = %.4f, want > 0.9", pr)
			}
		})
	}
}

// BenchmarkLSTMEpisode: one FGNAS-sized episode (27 decisions, hidden 100,
// embedding 10): draw it, then accumulate its gradient.
func BenchmarkLSTMEpisode(b *testing.B) { benchLSTMEpisode(b, 1) }

// BenchmarkLSTMEpisodeWide: as BenchmarkLSTMEpisode with the weights
// five times their initial range, as after some training: most gates and
// cells then take tanh's and sigmoid's exponential branches (at the
// initial weights nearly all tanh's rational one).
func BenchmarkLSTMEpisodeWide(b *testing.B) { benchLSTMEpisode(b, 5) }

func benchLSTMEpisode(b *testing.B, scale float64) {
	var vars []Variable
	for i := range 27 {
		vars = append(vars, Variable{Name: string(rune('a'+i%26)) + string(rune('0'+i/26)), Choices: 3 + i%5})
	}
	sp, err := NewSpace(vars...)
	if err != nil {
		b.Fatal(err)
	}
	r := newRand(1)
	p := newLSTMPolicy(sp, 100, 10, r)
	for k := range p.theta {
		p.theta[k] *= scale
	}
	for b.Loop() {
		g := p.sample(r, sp)
		p.accumulate(sp, g, 0.1)
	}
}

// TestLSTMSameBitsWithoutAVX2: the controller draws the same episodes
// and reaches the same parameters, bit for bit, with package vec's AVX2
// kernels (dots, axpy, the gates' exp and tanh) and with gonum's and
// math's (after updates, so that every product is non-zero and the gates
// reach both of tanh's branches).
func TestLSTMSameBitsWithoutAVX2(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2 on this CPU")
	}
	var vars []Variable
	for i := range 27 {
		vars = append(vars, Variable{Name: fmt.Sprintf("v%d", i), Choices: 2 + i%7})
	}
	sp, err := NewSpace(vars...)
	if err != nil {
		t.Fatal(err)
	}
	// How many tanh values (of the g gate and the cell) came from each of
	// math.Tanh's branches: the rational function below |z| = 0.625, the
	// exponential above.
	var rational, exponential int
	edge := math.Tanh(0.625)
	run := func(avx bool) ([]float64, [][]int) {
		defer func(old, oldExp bool) { useAVX2, useExp = old, oldExp }(useAVX2, useExp)
		useAVX2, useExp = avx, avx && vec.HasExpAVX2
		r := newRand(7)
		p := newLSTMPolicy(sp, 100, 10, r)
		// Weights five times their initial range, so that the gates'
		// pre-activations and the cells spread beyond 0.625.
		th, _ := p.params()
		for k := range th {
			th[k] *= 5
		}
		var drawn [][]int
		for ep := range 40 {
			p.zeroGrad()
			for k := range 5 {
				g := p.sample(r, sp)
				drawn = append(drawn, g)
				last := len(p.cachedKey) - 1
				for _, s := range p.cached[last][:p.cachedN[last]] {
					for _, v := range append(slices.Clone(s.gates[3*p.h:]), s.tc...) {
						if math.Abs(v) < edge {
							rational++
						} else {
							exponential++
						}
					}
				}
				p.accumulate(sp, g, float64(k-2)/3+0.01*float64(ep))
			}
			th, gr := p.params()
			for k := range th {
				th[k] += 0.05 * gr[k]
			}
		}
		th, _ = p.params()
		return slices.Clone(th), drawn
	}
	thA, gA := run(true)
	thB, gB := run(false)
	if rational == 0 || exponential == 0 {
		t.Fatalf("tanh's branches: %d rational, %d exponential: the test misses one", rational, exponential)
	}
	t.Logf("tanh values: %d from the rational branch, %d from the exponential", rational, exponential)
	for k := range gA {
		if !slices.Equal(gA[k], gB[k]) {
			t.Fatalf("episode %d: %v with AVX2, %v without", k, gA[k], gB[k])
		}
	}
	for k := range thA {
		if math.Float64bits(thA[k]) != math.Float64bits(thB[k]) {
			t.Fatalf("parameter %d: %v with AVX2, %v without", k, thA[k], thB[k])
		}
	}
}
