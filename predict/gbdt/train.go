package gbdt

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
)

// pcgStream is the second PCG word of the trainer's generator; the first is
// Params.Seed.
const pcgStream = 0x6762_6474_7072_6564 // "gbdtpred"

// Train fits a gradient-boosted regression ensemble to train with the L2
// loss, starting from the mean target (boost from average). valid, if not
// nil, is evaluated after every round and drives early stopping; it must have
// the same features as train. Bins are cut from train only.
//
// Training is deterministic: equal inputs and Params give the same model,
// whatever Params.Workers is.
func Train(train, valid *Dataset, p Params) (*Model, error) {
	if err := checkTrainInputs(train, valid, p); err != nil {
		return nil, err
	}
	l := newLearner(train.X, p)
	m := newModel(train, l, p)

	y := train.Y
	n := len(y)
	init := 0.0
	for _, v := range y {
		init += v
	}
	init /= float64(n)
	m.Log.InitScore = init

	scores := slices.Repeat([]float64{init}, n)
	var vscores []float64
	if valid != nil {
		vscores = slices.Repeat([]float64{init}, len(valid.Y))
	}

	rng := rand.New(rand.NewPCG(p.Seed, pcgStream))
	bagging := p.BaggingFraction < 1 && p.BaggingFreq > 0
	bag := make([]int32, n)
	for i := range bag {
		bag[i] = int32(i)
	}
	rowPerm := slices.Clone(bag)
	featPerm := slices.Clone(l.splittable)
	feats := slices.Clone(l.splittable)

	bestL2, best := 0.0, -1
	for it := 0; it < p.NumIterations; it++ {
		for i := range l.grad {
			l.grad[i] = scores[i] - y[i]
		}
		if bagging && it%p.BaggingFreq == 0 {
			bag = sampleSorted(rng, rowPerm, fractionCount(p.BaggingFraction, n), bag[:0])
		}
		if p.FeatureFraction < 1 && len(featPerm) > 0 {
			feats = sampleSorted(rng, featPerm, fractionCount(p.FeatureFraction, len(featPerm)), feats[:0])
		}
		t, nodeBin := l.grow(bag, feats)
		if t.numLeaves() == 1 {
			// Like LightGBM: no split at all ends training; if it happens in
			// the first round the model is the constant average.
			m.Log.NoMoreSplits = true
			if it == 0 {
				t.leafValue[0] = init
				t.shrinkage = 1
				m.trees = append(m.trees, t)
				m.Log.TrainL2 = append(m.Log.TrainL2, meanSquaredError(scores, y))
				if valid != nil {
					m.Log.ValidL2 = append(m.Log.ValidL2, meanSquaredError(vscores, valid.Y))
				}
				m.Log.BestIteration = 1
				return m, nil
			}
			break
		}
		t.shrink(p.LearningRate)
		l.addScores(&t, nodeBin, bag, scores)
		m.trees = append(m.trees, t)
		m.Log.TrainL2 = append(m.Log.TrainL2, meanSquaredError(scores, y))
		if valid == nil {
			continue
		}
		for i, x := range valid.X {
			vscores[i] += t.leafValue[t.leaf(x)]
		}
		l2 := meanSquaredError(vscores, valid.Y)
		m.Log.ValidL2 = append(m.Log.ValidL2, l2)
		if best < 0 || l2 < bestL2 {
			bestL2, best = l2, it
		}
		if p.EarlyStoppingRound > 0 && it-best >= p.EarlyStoppingRound {
			m.Log.StoppedEarly = true
			break
		}
	}
	if p.EarlyStoppingRound > 0 && best >= 0 {
		// Keep the best round even when training ended for another reason,
		// as LightGBM's Python package saves best_iteration.
		m.trees = m.trees[:best+1]
	}
	m.Log.BestIteration = len(m.trees)
	m.trees[0].addBias(init)
	return m, nil
}

// checkTrainInputs refuses parameters and data sets Train cannot use:
// invalid Params, a missing or malformed training set, a validation set
// of another width, or early stopping without a validation set. It runs
// before any allocation so that bad input costs nothing.
func checkTrainInputs(train, valid *Dataset, p Params) error {
	if err := p.Validate(); err != nil {
		return err
	}
	if train == nil {
		return errors.New("gbdt: no training set")
	}
	if err := train.validate("training"); err != nil {
		return err
	}
	nf := train.NumFeatures()
	if valid != nil {
		if err := valid.validate("validation"); err != nil {
			return err
		}
		if valid.NumFeatures() != nf {
			return fmt.Errorf("gbdt: validation set has %d features, training set %d", valid.NumFeatures(), nf)
		}
	} else if p.EarlyStoppingRound > 0 {
		return errors.New("gbdt: early_stopping_round needs a validation set")
	}
	return nil
}

// newModel returns a model without trees: the feature names of train (or
// LightGBM's defaults) and each feature's training range from l's bin
// mappers, which the file's feature_infos line records. It is the file's
// header, whatever the trees, so it is built before boosting starts.
func newModel(train *Dataset, l *learner, p Params) *Model {
	nf := train.NumFeatures()
	names := train.FeatureNames
	if names == nil {
		names = defaultFeatureNames(nf)
	}
	m := &Model{
		featureNames: slices.Clone(names),
		featureInfos: make([]string, nf),
		params:       p,
	}
	for f, bm := range l.mappers {
		if bm.numBins() < 2 {
			m.featureInfos[f] = "none" // LightGBM's mark of a feature it cannot split on
		} else {
			m.featureInfos[f] = "[" + formatFloat(bm.min) + ":" + formatFloat(bm.max) + "]"
		}
	}
	return m
}

// shrink multiplies the tree's outputs by the learning rate, as LightGBM's
// Tree::Shrinkage, so leaf values in the file are final.
func (t *tree) shrink(rate float64) {
	for i := range t.leafValue {
		t.leafValue[i] *= rate
	}
	for i := range t.internalValue {
		t.internalValue[i] *= rate
	}
	t.shrinkage = rate
}

func meanSquaredError(pred, y []float64) float64 {
	s := 0.0
	for i, p := range pred {
		d := p - y[i]
		s += d * d
	}
	return s / float64(len(y))
}

// fractionCount is LightGBM's rounding of a sampled count, at least 1.
func fractionCount(frac float64, n int) int {
	k := int(frac*float64(n) + 0.5)
	return max(1, min(k, n))
}

// sampleSorted draws k distinct elements of perm with a partial Fisher-Yates
// shuffle (perm is left permuted, which is fine: the next draw starts from
// it deterministically) and appends them to dst in increasing order.
func sampleSorted[T int | int32](rng *rand.Rand, perm []T, k int, dst []T) []T {
	n := len(perm)
	for i := 0; i < k; i++ {
		j := i + rng.IntN(n-i)
		perm[i], perm[j] = perm[j], perm[i]
	}
	dst = append(dst, perm[:k]...)
	slices.Sort(dst)
	return dst
}
