package search

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/floats"

	"gnnsim/internal/vec"
)

// lstmPolicy is the controller of NAS with reinforcement learning (Zoph &
// Le) as FGNAS uses it (seed 004, section 3.2): one LSTM cell run over the
// sequence of active decisions. At each step the input is the embedding of
// the previous decision (a learned start vector at the first), the hidden
// state goes through the decision's own linear head to its logits, and the
// action is drawn from their softmax.
//
// All parameters live in one flat slice, so the optimiser treats them as
// the logits policy's:
//
//	Wx 4H x E, Wh 4H x H, b 4H (gates i, f, o, g), start E,
//	then per variable: Emb C x E, Wo C x H, bo C
type lstmPolicy struct {
	h, e             int
	wx, wh, b, start int   // offsets
	emb, wo, bo      []int // offsets per variable
	theta, grad      []float64

	// Per-step scratch of the forward pass, kept for the backward pass.
	steps []lstmStep
	// The forward passes of the episodes drawn since the last update,
	// keyed by their genome's first gene's address: accumulate reuses
	// them instead of replaying the episode (the parameters have not
	// moved in between).
	cached    [][]lstmStep
	cachedKey []*int
	cachedN   []int
	stale     bool // an update began: the cache is for past parameters
	dz        []float64
	dzs       []float64 // every step's dz (n x 4H), for the weight gradients
	dh        []float64
	zx, zh    []float64 // the gate pre-activations' two products (4H)
	zo        []float64 // a head's products (the most choices)
	ones      []float64 // the unit mask of vec.DotsKeptAVX2
	rows      []int32   // 0, 1, ..., 4H-1: every row of Wx and Wh
	dc        []float64
	dx        []float64
}

type lstmStep struct {
	v, a    int       // variable and action
	prevV   int       // variable of the input embedding, -1 for start
	prevA   int       // its action
	x       []float64 // input (E)
	hPrev   []float64
	cPrev   []float64
	gates   []float64 // i, f, o, g after their nonlinearities (4H)
	c, tc   []float64 // cell and tanh(cell)
	h       []float64
	p       []float64 // action probabilities
	cLabels int
}

func newLSTMPolicy(sp *Space, hidden, embed int, r *rand.Rand) *lstmPolicy {
	p := &lstmPolicy{h: hidden, e: embed}
	n := 0
	take := func(k int) int { o := n; n += k; return o }
	p.wx = take(4 * hidden * embed)
	p.wh = take(4 * hidden * hidden)
	p.b = take(4 * hidden)
	p.start = take(embed)
	for i := range sp.Len() {
		c := sp.vars[i].Choices
		p.emb = append(p.emb, take(c*embed))
		p.wo = append(p.wo, take(c*hidden))
		p.bo = append(p.bo, take(c))
	}
	p.theta = make([]float64, n)
	p.grad = make([]float64, n)
	// Uniform in [-0.1, 0.1], as Zoph & Le and ENAS initialise.
	for k := range p.theta {
		p.theta[k] = 0.2*r.Float64() - 0.1
	}
	// The heads start at zero: every decision starts uniform, as the
	// logits policy does.
	for i := range p.wo {
		clear(p.theta[p.wo[i] : p.wo[i]+sp.vars[i].Choices*hidden])
	}
	p.dz = make([]float64, 4*hidden)
	most := 4 * hidden
	for i := range sp.Len() {
		most = max(most, sp.vars[i].Choices)
	}
	p.zx = make([]float64, 4*hidden)
	p.zh = make([]float64, 4*hidden)
	p.zo = make([]float64, most)
	p.ones = make([]float64, most)
	p.rows = make([]int32, most)
	for k := range p.ones {
		p.ones[k] = 1
		p.rows[k] = int32(k)
	}
	p.dh = make([]float64, hidden)
	p.dc = make([]float64, hidden)
	p.dx = make([]float64, embed)
	return p
}

// useAVX2 routes dots and axpy to package vec's AVX2 kernels (tests
// switch it off to compare): the same bits as gonum's, about twice as
// fast for the controller's 10- to 100-element vectors.
var useAVX2 = vec.HasAVX2

// dots sets dst[j] = floats.Dot(w[j*n:(j+1)*n], x) for every j <
// len(dst), w holding the rows one after the other.
func (p *lstmPolicy) dots(dst, w, x []float64, n int) {
	j := 0
	if useAVX2 {
		j = len(dst) &^ 3
		vec.DotsKeptAVX2(dst, p.ones, x, w, p.rows[:j], n)
	}
	for ; j < len(dst); j++ {
		dst[j] = floats.Dot(w[j*n:(j+1)*n], x)
	}
}

// axpy sets dst += a*x, as floats.AddScaled.
func axpy(dst []float64, a float64, x []float64) {
	if useAVX2 && len(dst) >= 4 {
		vec.AxpyAVX2(dst, a, x)
		return
	}
	floats.AddScaled(dst, a, x)
}

func (p *lstmPolicy) params() (theta, grad []float64) { return p.theta, p.grad }
func (p *lstmPolicy) zeroGrad()                       { clear(p.grad) }

// useExp routes the gates' sigmoid and tanh to package vec's four-lane
// math.Exp, the same bits (tests switch it off to compare). An episode of
// FGNAS's size took 229 us without and 182 us with it at the initial
// weights, 270 and 184 us at five times them (BenchmarkLSTMEpisode,
// BenchmarkLSTMEpisodeWide; the least of 10 interleaved runs of 400
// episodes, on the shared 2-core host).
var useExp = vec.HasExpAVX2

// nonlinear replaces the pre-activations z of the gates in g (4H) by
// sigmoid(z) = 1/(1+math.Exp(-z)) (vec.Logistic) for i, f and o and by
// tanh(z) for g.
func (p *lstmPolicy) nonlinear(g []float64) {
	n := 3 * p.h
	if useExp {
		vec.ExpMapAVX2(vec.ExpLogistic, g[:n], g[:n])
	} else {
		for j, z := range g[:n] {
			g[j] = vec.Logistic(z)
		}
	}
	tanh(g[n:], g[n:])
}

// tanh sets dst[j] = math.Tanh(src[j]) (dst may be src), four at a time
// with useExp.
func tanh(dst, src []float64) {
	if useExp {
		vec.TanhAVX2(dst, src)
		return
	}
	for j, x := range src {
		dst[j] = math.Tanh(x)
	}
}

// step returns scratch step k, grown as needed.
func (p *lstmPolicy) step(k int) *lstmStep {
	for len(p.steps) <= k {
		H, E := p.h, p.e
		p.steps = append(p.steps, lstmStep{
			x: make([]float64, E), hPrev: make([]float64, H), cPrev: make([]float64, H),
			gates: make([]float64, 4*H), c: make([]float64, H), tc: make([]float64, H), h: make([]float64, H),
		})
	}
	return &p.steps[k]
}

// run runs the controller over the active variables of g. When r is not
// nil it draws the actions into g (which must have sp.Len() slots);
// otherwise it replays g's actions. It returns the number of steps.
func (p *lstmPolicy) run(sp *Space, g []int, r *rand.Rand) int {
	H, E := p.h, p.e
	th := p.theta
	k := 0
	prevV, prevA := -1, 0
	for i := range g {
		if r != nil {
			if !sp.Active(g, i) {
				g[i] = Inactive
				continue
			}
		} else if g[i] == Inactive {
			continue
		}
		s := p.step(k)
		s.v, s.prevV, s.prevA = i, prevV, prevA
		if prevV < 0 {
			copy(s.x, th[p.start:p.start+E])
		} else {
			o := p.emb[prevV] + prevA*E
			copy(s.x, th[o:o+E])
		}
		if k == 0 {
			clear(s.hPrev)
			clear(s.cPrev)
		} else {
			copy(s.hPrev, p.steps[k-1].h)
			copy(s.cPrev, p.steps[k-1].c)
		}
		p.dots(p.zx, th[p.wx:p.wx+4*H*E], s.x, E)
		if k > 0 {
			p.dots(p.zh, th[p.wh:p.wh+4*H*H], s.hPrev, H)
		}
		for j := range 4 * H {
			z := th[p.b+j] + p.zx[j]
			if k > 0 {
				z += p.zh[j]
			}
			s.gates[j] = z
		}
		p.nonlinear(s.gates)
		for j := range H {
			in, f, gg := s.gates[j], s.gates[H+j], s.gates[3*H+j]
			s.c[j] = f*s.cPrev[j] + in*gg
		}
		tanh(s.tc, s.c)
		for j := range H {
			s.h[j] = s.gates[2*H+j] * s.tc[j]
		}
		c := sp.vars[i].Choices
		s.cLabels = c
		s.p = grow(s.p, c)
		hi := math.Inf(-1)
		p.dots(p.zo[:c], th[p.wo[i]:p.wo[i]+c*H], s.h, H)
		for a := range c {
			z := th[p.bo[i]+a] + p.zo[a]
			s.p[a] = z
			hi = max(hi, z)
		}
		sum := 0.0
		for a := range c {
			s.p[a] = math.Exp(s.p[a] - hi)
			sum += s.p[a]
		}
		for a := range c {
			s.p[a] /= sum
		}
		if r != nil {
			u := r.Float64()
			a := 0
			for ; a < c-1; a++ {
				u -= s.p[a]
				if u < 0 {
					break
				}
			}
			g[i] = a
		}
		s.a = g[i]
		prevV, prevA = i, g[i]
		k++
	}
	return k
}

func (p *lstmPolicy) sample(r *rand.Rand, sp *Space) []int {
	if p.stale {
		p.cachedKey, p.cachedN, p.stale = p.cachedKey[:0], p.cachedN[:0], false
	}
	g := make([]int, sp.Len())
	n := p.run(sp, g, r)
	// Keep this forward pass: swap the scratch into the cache.
	k := len(p.cachedKey)
	if k < len(p.cached) {
		p.steps, p.cached[k] = p.cached[k], p.steps
	} else {
		p.cached = append(p.cached, p.steps)
		p.steps = nil
	}
	p.cachedKey = append(p.cachedKey, &g[0])
	p.cachedN = append(p.cachedN, n)
	return g
}

// logProb returns log pi(g) (for tests).
func (p *lstmPolicy) logProb(sp *Space, g []int) float64 {
	n := p.run(sp, g, nil)
	lp := 0.0
	for k := range n {
		s := &p.steps[k]
		lp += math.Log(s.p[s.a])
	}
	return lp
}

// accumulate adds w * grad log pi(g) to the gradient, by backpropagation
// through time.
func (p *lstmPolicy) accumulate(sp *Space, g []int, w float64) {
	p.stale = true
	steps, n := p.steps, -1
	for k, key := range p.cachedKey {
		if key == &g[0] {
			steps, n = p.cached[k], p.cachedN[k]
			break
		}
	}
	if n < 0 {
		n = p.run(sp, g, nil)
		steps = p.steps
	}
	H, E := p.h, p.e
	th, gr := p.theta, p.grad
	p.dzs = grow(p.dzs, n*4*H)
	clear(p.dh)
	clear(p.dc)
	for k := n - 1; k >= 0; k-- {
		s := &steps[k]
		// Head: d/dlogit of w log p_a is w (onehot - p).
		for a := range s.cLabels {
			d := -w * s.p[a]
			if a == s.a {
				d += w
			}
			gr[p.bo[s.v]+a] += d
			axpy(gr[p.wo[s.v]+a*H:p.wo[s.v]+(a+1)*H], d, s.h)
			axpy(p.dh, d, th[p.wo[s.v]+a*H:p.wo[s.v]+(a+1)*H])
		}
		// Cell: h = o tanh(c), c = f c_prev + i g.
		for j := range H {
			in, f, o, gg := s.gates[j], s.gates[H+j], s.gates[2*H+j], s.gates[3*H+j]
			dc := p.dc[j] + p.dh[j]*o*(1-s.tc[j]*s.tc[j])
			p.dz[j] = dc * gg * in * (1 - in)
			p.dz[H+j] = dc * s.cPrev[j] * f * (1 - f)
			p.dz[2*H+j] = p.dh[j] * s.tc[j] * o * (1 - o)
			p.dz[3*H+j] = dc * in * (1 - gg*gg)
			p.dc[j] = dc * f // flows to c_prev
		}
		clear(p.dh)
		clear(p.dx)
		for j, dz := range p.dz {
			if dz == 0 {
				continue
			}
			axpy(p.dx, dz, th[p.wx+j*E:p.wx+(j+1)*E])
			if k > 0 { // h_prev is zero at the first step
				axpy(p.dh, dz, th[p.wh+j*H:p.wh+(j+1)*H]) // flows to h_prev
			}
		}
		copy(p.dzs[k*4*H:(k+1)*4*H], p.dz)
		o := p.start
		if s.prevV >= 0 {
			o = p.emb[s.prevV] + s.prevA*E
		}
		for q, d := range p.dx {
			gr[o+q] += d
		}
	}
	// The gates' weight gradients, row by row once every step's dz is
	// known: each element still gains its terms from the last step to the
	// first, as when they were added step by step (the same bits), but a
	// row of Wh's gradient stays in L1 across the steps instead of the
	// whole 4H x H gradient streaming through the cache once per step.
	for j := range 4 * H {
		gb, gx, gh := &gr[p.b+j], gr[p.wx+j*E:p.wx+(j+1)*E], gr[p.wh+j*H:p.wh+(j+1)*H]
		for k := n - 1; k >= 0; k-- {
			dz := p.dzs[k*4*H+j]
			if dz == 0 {
				continue
			}
			s := &steps[k]
			*gb += dz
			axpy(gx, dz, s.x)
			if k > 0 {
				axpy(gh, dz, s.hPrev)
			}
		}
	}
}
