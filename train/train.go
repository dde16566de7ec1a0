package train

import (
	"context"
	"math"
	"slices"

	"gnnsim/internal/par"
)

// Result is what one training run reports.
type Result struct {
	Epoch     int       // 1-based epoch of the best validation accuracy (lowest validation loss among ties)
	Val, Test float64   // accuracies at Epoch, fractions in [0, 1]
	Loss      []float64 // training loss of every epoch (cross-entropy + weight decay), before its step
	Diverged  bool      // the loss became NaN or infinite and training stopped there
}

// Train trains a network on d: each epoch draws dropout masks, takes one
// full-batch Adam step on the training nodes, then evaluates the
// validation nodes without dropout. The parameters of the epoch with the
// best validation accuracy (ties: lowest validation loss, then earliest)
// are kept for Evaluate, and that epoch's test accuracy is reported, as
// the seeds select. Everything random flows from c.Seed: equal inputs give
// equal results, bit for bit. The model returned keeps what Evaluate
// needs; the buffers only training uses are released.
//
// Each pass computes only the rows its nodes depend on (a two-layer
// network's step on Cora's 140 training nodes reads the linear transforms
// of 1,664 and 644 of the 2,708 nodes), which changes no result: see
// rowSet.
func Train(d *Data, a Arch, c Config) (*Model, error) {
	return TrainContext(context.Background(), d, a, c)
}

// TrainContext is Train stopped early when ctx is done: it checks ctx
// before every epoch and then returns ctx's error and no model.
func TrainContext(ctx context.Context, d *Data, a Arch, c Config) (*Model, error) {
	m, err := newModel(d, a, c)
	if err != nil {
		return nil, err
	}
	if err := m.train(ctx); err != nil {
		return nil, err
	}
	return m, nil
}

// epochHookKey keys the hook of WithEpochHook in a context.
type epochHookKey struct{}

// WithEpochHook returns ctx carrying f, which TrainContext (and so
// TrainSeeds) calls after every finished epoch: the counter of a progress
// display. f is called from the training goroutines, so it must be safe
// for concurrent use; it never changes a result.
func WithEpochHook(ctx context.Context, f func()) context.Context {
	return context.WithValue(ctx, epochHookKey{}, f)
}

// train runs Train's epochs on a new model.
func (m *Model) train(ctx context.Context) error {
	d, c := m.d, m.cfg
	m.Result.Loss = make([]float64, 0, c.Epochs)
	bestAcc, bestLoss := -1.0, math.Inf(1)
	hook, _ := ctx.Value(epochHookKey{}).(func())
	for epoch := 1; epoch <= c.Epochs; epoch++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		m.drawMasks()
		loss := m.lossAndGrad()
		m.Result.Loss = append(m.Result.Loss, loss)
		if math.IsNaN(loss) || math.IsInf(loss, 0) {
			m.Result.Diverged = true
			break
		}
		m.adam()
		m.forward(false, nil, m.rows(m.valRows))
		// The validation loss only breaks ties of accuracy: an epoch
		// below the best accuracy so far needs none.
		if acc := m.accuracy(d.Val); acc >= bestAcc {
			if vl := m.crossEntropy(d.Val, false); acc > bestAcc || vl < bestLoss {
				bestAcc, bestLoss = acc, vl
				m.Result.Epoch, m.Result.Val = epoch, acc
				copy(m.best, m.p)
			}
		}
		if hook != nil {
			hook()
		}
	}
	// The kept parameters on every node: the selected epoch's test
	// accuracy (and, when training diverged in its first epoch, the
	// initial network's validation accuracy).
	copy(m.p, m.best)
	m.forward(false, nil, m.allRows)
	if m.Result.Epoch == 0 {
		m.Result.Val = m.accuracy(d.Val)
	}
	m.Result.Test = m.accuracy(d.Test)
	m.dropTraining()
	return nil
}

// Evaluate returns the validation and test accuracy of the kept (best
// validation epoch) parameters, post-training quantised when bits is not
// nil: one Bits per layer, or a single one for every layer. Quantisation
// follows FGNAS's pipeline, in which a layer's four stages hand on
// fixed-point values: the layer's weights, attention vectors and bias are
// rounded to its W format, and with its A format the layer's input (the
// features in the first layer), the linear transform, the edge weights
// (GAT coefficients after the softmax, GCN normalisation, or the constant
// 1), the aggregate plus bias, and the activation's output. Softmax,
// activation functions and accumulations run in float64 between those
// points, as if the hardware had wide accumulators. With bits nil it
// reproduces Result's Val and Test.
func (m *Model) Evaluate(bits []Bits) (val, test float64, err error) {
	bits, err = expandBits(bits, len(m.layers))
	if err != nil {
		return 0, 0, err
	}
	copy(m.p, m.best)
	for i, l := range m.layers {
		if bits == nil {
			break
		}
		for _, s := range [][]float64{l.w, l.attL, l.attR, l.b} {
			bits[i].W.quantizeAll(s)
		}
	}
	m.forward(false, bits, m.allRows)
	return m.accuracy(m.d.Val), m.accuracy(m.d.Test), nil
}

// Params returns a copy of the kept parameters, layer by layer: weights
// (input x width, row-major), attention vectors (GAT), bias.
func (m *Model) Params() []float64 { return slices.Clone(m.best) }

// Run is the outcome of one seed of TrainSeeds.
type Run struct {
	Seed uint64
	Result
	// QuantVal and QuantTest are the accuracies of the kept parameters
	// quantised to the requested bits (Val and Test when there are none).
	QuantVal, QuantTest float64
}

// TrainSeeds trains one network per seed (Config.Seed replaced) on up to
// workers goroutines (<= 0: GOMAXPROCS) and evaluates each, quantised to
// bits when bits is not nil. Runs come back in seed order, identical for
// any number of workers. When ctx is done the trainings in flight stop
// at their next epoch and ctx's error is returned.
func TrainSeeds(ctx context.Context, d *Data, a Arch, c Config, bits []Bits, seeds []uint64, workers int) ([]Run, error) {
	if _, err := expandBits(bits, len(a.Layers)); err != nil {
		return nil, err
	}
	runs := make([]Run, len(seeds))
	err := par.For(len(seeds), workers, func(i int) error {
		cc := c
		cc.Seed = seeds[i]
		m, err := TrainContext(ctx, d, a, cc)
		if err != nil {
			return err
		}
		r := Run{Seed: seeds[i], Result: m.Result, QuantVal: m.Result.Val, QuantTest: m.Result.Test}
		if bits != nil {
			if r.QuantVal, r.QuantTest, err = m.Evaluate(bits); err != nil {
				return err
			}
		}
		runs[i] = r
		return nil
	})
	if err != nil {
		return nil, err
	}
	return runs, nil
}
