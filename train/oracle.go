package train

import (
	"context"
	"fmt"
	"sync"
)

// Genome is what a search asks the oracle about: an architecture and,
// optionally, fixed-point formats (nil: float; one per layer, or one for
// all layers).
type Genome struct {
	Arch Arch
	Bits []Bits
}

// Key is the genome's canonical text: the architecture's String, then
// "|" and the per-layer formats (a single format written out for every
// layer), empty for float. Genomes with equal keys are the same network.
func (g Genome) Key() (string, error) {
	bits, err := expandBits(g.Bits, len(g.Arch.Layers))
	if err != nil {
		return "", err
	}
	return g.Arch.String() + "|" + bitsKey(bits), nil
}

// Accuracy is the oracle's answer for a genome: validation and test
// accuracy of the network trained in float and then quantised to the
// genome's bits (equal to the float ones for a float genome), and the
// selected epoch.
type Accuracy struct {
	Val, Test           float64 // quantised (the genome's accuracy)
	FloatVal, FloatTest float64 // before quantisation
	Epoch               int
}

// Oracle answers "how accurate is this network" for a search: it trains
// each architecture once, with one Config and seed, keeps the trained
// network for the genomes that differ only in their bits, and caches every
// answer by the genome's Key. It is safe for concurrent use: concurrent
// questions about the same genome (or architecture) wait for one training
// rather than start their own. Answers depend only on the data, the Config
// and the genome, never on the order or concurrency of the questions.
type Oracle struct {
	d         *Data
	cfg       Config
	maxModels int
	maxBytes  int64           // bound on the kept networks' memory; 0: none
	trainers  chan struct{}   // one token per training allowed at once; nil: no bound
	ctx       context.Context // stops trainings (Cancel); nil: never

	mu      sync.Mutex
	bytes   int64 // memory of the finished networks kept
	results map[string]*flight[Accuracy]
	models  map[string]*modelEntry
	// parked holds the trained parameters of networks evicted from
	// models, under the same byte bound: a later genome of the same
	// architecture rebuilds the network's buffers around them (the same
	// answers) instead of training it again.
	parked      map[string]*parkedModel
	parkedBytes int64
	tick        uint64 // use counter for the model cache's LRU order
	trainings   int
}

// flight is one computation other goroutines may wait for.
type flight[T any] struct {
	done chan struct{}
	val  T
	err  error
}

// modelEntry is a trained (or training) network; mu serialises the
// evaluations that reuse its buffers.
type parkedModel struct {
	best    []float64
	result  Result
	lastUse uint64
}

func (p *parkedModel) bytes() int64 { return 8 * int64(cap(p.best)) }

type modelEntry struct {
	flight[*Model]
	mu      sync.Mutex
	lastUse uint64
	bytes   int64 // the model's memory once trained (o.mu)
}

// NewOracle returns an oracle training with c on d. It keeps up to
// maxModels trained networks (at least 1) for re-quantisation, least
// recently used out first; a network evicted and asked for again is
// retrained, to the same parameters.
func NewOracle(d *Data, c Config, maxModels int) (*Oracle, error) {
	if d == nil {
		return nil, fmt.Errorf("train: oracle without data")
	}
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return &Oracle{d: d, cfg: c, maxModels: max(maxModels, 1),
		results: map[string]*flight[Accuracy]{}, models: map[string]*modelEntry{}, parked: map[string]*parkedModel{}}, nil
}

// Limit bounds the oracle's resources; call it before the first question.
// At most trainers networks train at once (<= 0: no bound), so that a
// search may ask about many genomes concurrently without running more
// trainings than there are cores; questions answered from the cache never
// wait for a training slot. The networks kept for re-quantisation use at
// most maxBytes of memory (<= 0: no bound besides maxModels); the least
// recently used go first, and one larger than the bound is not kept. A
// network dropped that way keeps its trained parameters (a tenth of its
// memory or less), parked under a second maxBytes bound, and a later
// genome of its architecture rebuilds the network around them instead of
// training it again (in Table 3's full run, about 150 of 2,700
// trainings). Neither bound changes an answer.
func (o *Oracle) Limit(trainers int, maxBytes int64) {
	o.trainers = nil
	if trainers > 0 {
		o.trainers = make(chan struct{}, trainers)
	}
	o.maxBytes = max(maxBytes, 0)
}

// Cancel makes the oracle's trainings, running and future, stop when ctx
// is done (at their next epoch); the questions waiting on them then fail
// with ctx's error. Call it before the first question.
func (o *Oracle) Cancel(ctx context.Context) { o.ctx = ctx }

// Accuracy returns the genome's accuracies, training if no answer is
// cached. An invalid genome gives an error (cached like an answer).
func (o *Oracle) Accuracy(g Genome) (Accuracy, error) {
	key, err := g.Key()
	if err != nil {
		return Accuracy{}, err
	}
	o.mu.Lock()
	if f, ok := o.results[key]; ok {
		o.mu.Unlock()
		<-f.done
		return f.val, f.err
	}
	f := &flight[Accuracy]{done: make(chan struct{})}
	o.results[key] = f
	o.mu.Unlock()
	f.val, f.err = o.compute(g)
	close(f.done)
	return f.val, f.err
}

// Trainings is the number of networks trained so far.
func (o *Oracle) Trainings() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.trainings
}

func (o *Oracle) compute(g Genome) (Accuracy, error) {
	e, err := o.model(g.Arch)
	if err != nil {
		return Accuracy{}, err
	}
	m := e.val
	a := Accuracy{FloatVal: m.Result.Val, FloatTest: m.Result.Test, Epoch: m.Result.Epoch}
	a.Val, a.Test = a.FloatVal, a.FloatTest
	if g.Bits != nil {
		e.mu.Lock()
		a.Val, a.Test, err = m.Evaluate(g.Bits)
		e.mu.Unlock()
	}
	return a, err
}

// model returns the trained network of arch, training it (once, however
// many goroutines ask) when the cache lacks it.
func (o *Oracle) model(arch Arch) (*modelEntry, error) {
	key := arch.String()
	o.mu.Lock()
	o.tick++
	if e, ok := o.models[key]; ok {
		e.lastUse = o.tick
		o.mu.Unlock()
		<-e.done
		return e, e.err
	}
	e := &modelEntry{flight: flight[*Model]{done: make(chan struct{})}, lastUse: o.tick}
	o.models[key] = e
	pm, rebuild := o.parked[key]
	if rebuild {
		delete(o.parked, key)
		o.parkedBytes -= pm.bytes()
	} else {
		o.trainings++
	}
	o.evict()
	o.mu.Unlock()
	if rebuild {
		e.val, e.err = o.rebuild(arch, pm)
		return o.finish(e)
	}
	ctx := o.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	if o.trainers != nil {
		select {
		case o.trainers <- struct{}{}:
			e.val, e.err = TrainContext(ctx, o.d, arch, o.cfg)
			<-o.trainers
		case <-ctx.Done():
			e.err = ctx.Err()
		}
	} else {
		e.val, e.err = TrainContext(ctx, o.d, arch, o.cfg)
	}
	return o.finish(e)
}

// finish files a network that finished training or rebuilding.
func (o *Oracle) finish(e *modelEntry) (*modelEntry, error) {
	o.mu.Lock()
	if e.err == nil {
		e.bytes = e.val.Bytes()
		o.bytes += e.bytes
	}
	close(e.done)
	o.evict()
	o.mu.Unlock()
	return e, e.err
}

// rebuild returns a trained network of arch from its parked parameters:
// new buffers, the kept parameters and the training's Result, as Train
// left it (Evaluate starts from the kept parameters alone).
func (o *Oracle) rebuild(arch Arch, pm *parkedModel) (*Model, error) {
	m, err := newModel(o.d, arch, o.cfg)
	if err != nil {
		return nil, err
	}
	copy(m.best, pm.best)
	copy(m.p, pm.best)
	m.Result = pm.result
	m.dropTraining()
	return m, nil
}

// evict drops least recently used finished networks beyond maxModels or
// maxBytes (o.mu held), parking their parameters when a byte bound is
// set. Networks still training are never dropped; the caller that asked
// for a network holds it until it is done with it.
func (o *Oracle) evict() {
	for len(o.models) > o.maxModels || o.maxBytes > 0 && o.bytes > o.maxBytes {
		var oldest string
		var min uint64
		for k, e := range o.models {
			select {
			case <-e.done:
			default:
				continue
			}
			if oldest == "" || e.lastUse < min {
				oldest, min = k, e.lastUse
			}
		}
		if oldest == "" {
			return
		}
		e := o.models[oldest]
		o.bytes -= e.bytes
		delete(o.models, oldest)
		if e.err == nil && o.maxBytes > 0 {
			pm := &parkedModel{best: e.val.best, result: e.val.Result, lastUse: e.lastUse}
			o.parked[oldest] = pm
			o.parkedBytes += pm.bytes()
		}
	}
	// Parked parameters beyond the bound go, least recently used first.
	for o.maxBytes > 0 && o.parkedBytes > o.maxBytes {
		var oldest string
		var min uint64
		for k, pm := range o.parked {
			if oldest == "" || pm.lastUse < min {
				oldest, min = k, pm.lastUse
			}
		}
		o.parkedBytes -= o.parked[oldest].bytes()
		delete(o.parked, oldest)
	}
}
