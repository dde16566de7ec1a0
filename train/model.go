package train

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gnnsim/workload"
)

// Config holds the training hyperparameters.
type Config struct {
	Epochs      int     `json:"epochs"`       // full-batch steps
	LR          float64 `json:"lr"`           // Adam learning rate
	WeightDecay float64 `json:"weight_decay"` // L2 coefficient: the loss gains WeightDecay/2 * sum w^2
	// DecayAll applies the decay to the weights and attention vectors of
	// every layer (Velickovic et al.'s GAT); false applies it to the
	// first layer's weights only (Kipf and Welling's GCN). Biases never
	// decay.
	DecayAll    bool    `json:"decay_all"`
	Dropout     float64 `json:"dropout"`      // on the input of every layer, features included
	AttnDropout float64 `json:"attn_dropout"` // on GAT's coefficients
	Seed        uint64  `json:"seed"`         // initialisation and dropout streams
}

// GCNConfig is Kipf and Welling's setting (and FGNAS Table 2's for Cora
// and CiteSeer): 200 epochs, Adam at 0.01, decay 5e-4 on the first layer,
// dropout 0.5.
func GCNConfig() Config {
	return Config{Epochs: 200, LR: 0.01, WeightDecay: 5e-4, Dropout: 0.5}
}

// GATConfig is Velickovic et al.'s Cora setting in 200 epochs (the paper
// trains with patience 100 instead): Adam at 0.005, decay 5e-4 on every
// weight, dropout 0.6 on inputs and coefficients.
func GATConfig() Config {
	return Config{Epochs: 200, LR: 0.005, WeightDecay: 5e-4, DecayAll: true, Dropout: 0.6, AttnDropout: 0.6}
}

// Validate checks the ranges.
func (c Config) Validate() error {
	switch {
	case c.Epochs < 1 || c.Epochs > MaxEpochs:
		return fmt.Errorf("train: %d epochs, want 1..%d", c.Epochs, MaxEpochs)
	case !(c.LR > 0) || math.IsInf(c.LR, 0):
		return fmt.Errorf("train: learning rate %v, want a positive number", c.LR)
	case !(c.WeightDecay >= 0) || math.IsInf(c.WeightDecay, 0):
		return fmt.Errorf("train: weight decay %v, want a non-negative number", c.WeightDecay)
	case !(c.Dropout >= 0 && c.Dropout < 1) || !(c.AttnDropout >= 0 && c.AttnDropout < 1):
		return fmt.Errorf("train: dropout %v / %v, want [0, 1)", c.Dropout, c.AttnDropout)
	}
	return nil
}

// Adam's constants (Kingma and Ba; the defaults of TensorFlow's and
// PyTorch's Adam, which the reference implementations use).
const (
	adamBeta1 = 0.9
	adamBeta2 = 0.999
	adamEps   = 1e-8
)

// Stream ids of the two PCG generators drawn from Config.Seed.
const (
	streamInit    = 0x696e6974 // "init"
	streamDropout = 0x64726f70 // "drop"
)

// Model is a network being trained or trained, with all its buffers. It is
// not safe for concurrent use.
type Model struct {
	Result Result // filled by Train

	d      *Data
	arch   Arch
	cfg    Config
	layers []*layer

	p, g, best []float64 // parameters, gradients, parameters at Result.Epoch
	m1, m2     []float64 // Adam moments
	t          int       // Adam steps taken
	decay      [][2]int  // ranges of p under weight decay
	dLogits    []float64 // n x classes
	drop       *rand.Rand

	// The rows each pass computes, layer by layer: a training step those
	// the loss on the training nodes reads, the per-epoch evaluation
	// those of the validation nodes, Evaluate every row. With wholeGraph
	// (tests only) every pass computes every row, to the same results.
	trainRows, valRows, allRows []rowSet
	wholeGraph                  bool
}

// newModel lays out the parameters, allocates every buffer and
// initialises the weights (Glorot uniform, biases zero).
func newModel(d *Data, a Arch, c Config) (*Model, error) {
	if err := a.Validate(d.NumClasses); err != nil {
		return nil, err
	}
	if err := c.Validate(); err != nil {
		return nil, err
	}
	if need := MemoryEstimate(d, a); need > MaxModelMemory {
		return nil, fmt.Errorf("train: training %s on %s (%d nodes, %d features) would need about %.1f GiB, at most %d GiB: narrow the hidden layers or use fewer features",
			a, d.Name, d.NumNodes, d.NumFeatures, float64(need)/(1<<30), MaxModelMemory>>30)
	}
	m := &Model{d: d, arch: a, cfg: c, drop: rand.New(rand.NewPCG(c.Seed, streamDropout))}
	type span struct {
		dst, gdst *[]float64
		n         int
		bound     float64 // Glorot bound; 0 for a bias
		decays    bool
	}
	var spans []span
	in := d.NumFeatures
	for i, spec := range a.Layers {
		last := i == len(a.Layers)-1
		out := spec.Hidden
		if last {
			out = d.NumClasses
		}
		l := newLayer(spec, d, in, out, !last, i == 0)
		glorot := func(fanIn, fanOut int) float64 { return math.Sqrt(6 / float64(fanIn+fanOut)) }
		// A SAGE layer's in x 2out weight is two in x out matrices side
		// by side (self, neighbours), each Glorot-bounded on its own.
		spans = append(spans, span{&l.w, &l.gw, in * l.zw, glorot(in, l.width), i == 0 || c.DecayAll})
		if spec.Attention == workload.AttGAT {
			bound := glorot(spec.Heads, out) // PyG's glorot on the Heads x out attention tensor
			spans = append(spans, span{&l.attL, &l.gattL, l.width, bound, c.DecayAll},
				span{&l.attR, &l.gattR, l.width, bound, c.DecayAll})
		}
		spans = append(spans, span{&l.b, &l.gb, l.outW, 0, false})
		m.layers = append(m.layers, l)
		in = l.outW
	}
	total := 0
	for _, s := range spans {
		total += s.n
	}
	m.p, m.g, m.best = make([]float64, total), make([]float64, total), make([]float64, total)
	m.m1, m.m2 = make([]float64, total), make([]float64, total)
	m.dLogits = make([]float64, d.NumNodes*d.NumClasses)
	init := rand.New(rand.NewPCG(c.Seed, streamInit))
	off := 0
	for _, s := range spans {
		*s.dst, *s.gdst = m.p[off:off+s.n:off+s.n], m.g[off:off+s.n:off+s.n]
		for k := range *s.dst {
			(*s.dst)[k] = s.bound * (2*init.Float64() - 1)
		}
		if s.decays && c.WeightDecay > 0 {
			m.decay = append(m.decay, [2]int{off, off + s.n})
		}
		off += s.n
	}
	copy(m.best, m.p)
	m.allRows = d.fullPlan(len(a.Layers))
	m.trainRows = d.rowPlan(d.Train, len(a.Layers))
	m.valRows = d.rowPlan(d.Val, len(a.Layers))
	return m, nil
}

// rows returns the plan of a pass: p, or every row with wholeGraph.
func (m *Model) rows(p []rowSet) []rowSet {
	if m.wholeGraph {
		return m.allRows
	}
	return p
}

// dropTraining releases what only training needs (gradients, Adam
// moments, dropout scales, backward buffers), about half of a model's
// memory; Evaluate still works.
func (m *Model) dropTraining() {
	m.g, m.m1, m.m2, m.dLogits = nil, nil, nil, nil
	for _, l := range m.layers {
		l.dropTraining()
	}
}

// Bytes is the memory the model holds in its buffers and parameters.
func (m *Model) Bytes() int64 {
	n := 8 * int64(cap(m.p)+cap(m.g)+cap(m.best)+cap(m.m1)+cap(m.m2)+cap(m.dLogits))
	for _, l := range m.layers {
		n += l.bytes()
	}
	return n
}

// NumParams is the number of trainable parameters.
func (m *Model) NumParams() int { return len(m.p) }

// forward runs every layer on the rows of plan; bits, when not nil, holds
// one format per layer.
func (m *Model) forward(train bool, bits []Bits, plan []rowSet) {
	var x []float64
	for i, l := range m.layers {
		var q *Bits
		if bits != nil {
			q = &bits[i]
		}
		l.forward(m.d, x, train, q, plan[i])
		x = l.y
	}
}

// drawMasks draws fresh dropout scales (0 with probability p, else
// 1/(1-p)) for every layer input and GAT coefficient.
func (m *Model) drawMasks() {
	draw := func(s []float64, p float64) {
		if p == 0 {
			return // the scales stay 1
		}
		// Each 64-bit draw decides four entries by its 16-bit quarters, so
		// the drop probability is p rounded to a multiple of 2^-16 (0.6
		// becomes 0.600006): drawing is a tenth of a GAT epoch otherwise.
		// The choice is branch-free (a table lookup on the borrow of
		// u - cut): a data-dependent branch here mispredicts half the time.
		scales := [2]float64{1 / (1 - p), 0}
		cut := uint64(math.Round(p * (1 << 16)))
		var r uint64
		for i := range s {
			if i&3 == 0 {
				r = m.drop.Uint64()
			} else {
				r >>= 16
			}
			s[i] = scales[(r&(1<<16-1)-cut)>>63]
		}
	}
	for _, l := range m.layers {
		draw(l.inScale, m.cfg.Dropout)
		if l.Attention == workload.AttGAT {
			draw(l.aScale, m.cfg.AttnDropout)
		}
	}
}

// logits are the output layer's values, n x classes.
func (m *Model) logits() []float64 { return m.layers[len(m.layers)-1].y }

// crossEntropy returns the mean softmax cross-entropy of the logits over
// nodes; with grad set it also writes its gradient into dLogits (zero on
// other rows).
func (m *Model) crossEntropy(nodes []int32, grad bool) float64 {
	C := m.d.NumClasses
	y := m.logits()
	if grad {
		clear(m.dLogits)
	}
	inv := 1 / float64(len(nodes))
	loss := 0.0
	for _, v := range nodes {
		row := y[int(v)*C : int(v+1)*C]
		mx := math.Inf(-1)
		for _, x := range row {
			mx = max(mx, x)
		}
		sum := 0.0
		for _, x := range row {
			sum += math.Exp(x - mx)
		}
		lse := mx + math.Log(sum)
		label := int(m.d.Labels[v])
		loss -= (row[label] - lse) * inv
		if grad {
			dl := m.dLogits[int(v)*C : int(v+1)*C]
			for c, x := range row {
				dl[c] = math.Exp(x-lse) * inv
			}
			dl[label] -= inv
		}
	}
	return loss
}

// lossAndGrad runs a training forward pass and backward pass with the
// current dropout masks and returns the loss (cross-entropy on the
// training nodes plus weight decay); m.g holds its gradient.
func (m *Model) lossAndGrad() float64 {
	plan := m.rows(m.trainRows)
	m.forward(true, nil, plan)
	loss := m.crossEntropy(m.d.Train, true)
	clear(m.g)
	dy := m.dLogits
	for i := len(m.layers) - 1; i >= 0; i-- {
		l := m.layers[i]
		l.backward(m.d, dy, plan[i])
		dy = l.dx
	}
	wd := m.cfg.WeightDecay
	for _, r := range m.decay {
		for k := r[0]; k < r[1]; k++ {
			loss += wd / 2 * m.p[k] * m.p[k]
			m.g[k] += wd * m.p[k]
		}
	}
	return loss
}

// adam takes one Adam step along m.g.
func (m *Model) adam() {
	m.t++
	c1 := 1 - math.Pow(adamBeta1, float64(m.t))
	c2 := 1 - math.Pow(adamBeta2, float64(m.t))
	k := [8]float64{adamBeta1, 1 - adamBeta1, adamBeta2, 1 - adamBeta2, m.cfg.LR, c1, c2, adamEps}
	adamStep(m.p, m.g, m.m1, m.m2, &k)
}

// accuracy is the fraction of nodes whose largest logit is their label
// (the first largest on ties).
func (m *Model) accuracy(nodes []int32) float64 {
	C := m.d.NumClasses
	y := m.logits()
	hit := 0
	for _, v := range nodes {
		row := y[int(v)*C : int(v+1)*C]
		best := 0
		for c, x := range row {
			if x > row[best] {
				best = c
			}
		}
		if best == int(m.d.Labels[v]) {
			hit++
		}
	}
	return float64(hit) / float64(len(nodes))
}

// SAGEConfig is the setting of PyG's GraphSAGE examples on the Planetoid
// sets, as GCNConfig: 200 epochs, Adam at 0.01, dropout 0.5, decay 5e-4,
// here on every weight (PyG's examples pass weight_decay to every
// parameter group).
func SAGEConfig() Config {
	return Config{Epochs: 200, LR: 0.01, WeightDecay: 5e-4, DecayAll: true, Dropout: 0.5}
}

// Preset returns a reference model by name: "gcn" (GCNArch(hidden) with
// GCNConfig), "gat" (GATArch(hidden, heads, outHeads) with GATConfig) or
// "sage" (SAGEArch(2, hidden, Mean) with SAGEConfig).
func Preset(name string, hidden, heads, outHeads int) (Arch, Config, error) {
	switch name {
	case "gcn":
		return GCNArch(hidden), GCNConfig(), nil
	case "gat":
		return GATArch(hidden, heads, outHeads), GATConfig(), nil
	case "sage":
		return SAGEArch(2, hidden, workload.AggMean), SAGEConfig(), nil
	}
	return Arch{}, Config{}, fmt.Errorf("train: unknown model %q (want gcn, gat or sage)", name)
}

// MaxEpochs bounds Config.Epochs.
const MaxEpochs = 1_000_000

// MaxModelMemory bounds MemoryEstimate for one model: a model of the seed
// papers on the largest shared set (GAT 8x8 on PubMed) needs ~0.1 GiB, and
// a width read from a file must not allocate the machine away.
const MaxModelMemory = 2 << 30

// MemoryEstimate is the bytes a model of a on d allocates (parameters with
// their gradients and Adam moments, and the buffers newLayer allocates),
// computed in float64 so that absurd widths cannot overflow it.
func MemoryEstimate(d *Data, a Arch) float64 {
	n, nnz, xnnz := float64(d.NumNodes), float64(len(d.aCol)), float64(len(d.xVal))
	in := float64(d.NumFeatures)
	var words float64
	for i, l := range a.Layers {
		last := i == len(a.Layers)-1
		out := float64(l.Hidden)
		if last {
			out = float64(d.NumClasses)
		}
		h := float64(l.Heads)
		width := h * out
		outW := out
		if !last {
			outW = width
		}
		words += 5 * (in*width + outW + 2*width) // p, g, best, m1, m2
		if i == 0 {
			words += 4 * xnnz
		} else {
			words += 3*n*in + in*width
		}
		words += 3*n*width + 2*n*outW
		if l.Attention == workload.AttGAT {
			words += 4*n*h + 5*nnz*h
		}
		in = outW
	}
	words += n * float64(d.NumClasses)
	return 8 * words
}
