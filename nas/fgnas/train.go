package fgnas

import (
	"fmt"

	"gnnsim/train"
)

// TrainArch returns the train package's form of a: the same layers, the
// last one writing the classes (heads averaged).
func TrainArch(a Arch) train.Arch {
	var t train.Arch
	for i, l := range a {
		tl := train.Layer{Hidden: l.Embed, Heads: l.Heads, Attention: l.Attn, Aggregation: l.Aggr, Activation: l.Act}
		if i == len(a)-1 {
			tl.Hidden = 0
		}
		t.Layers = append(t.Layers, tl)
	}
	return t
}

// TrainBits returns the train package's form of b (nil stays nil: float).
func TrainBits(b Bits) []train.Bits {
	if b == nil {
		return nil
	}
	out := make([]train.Bits, len(b))
	for i, p := range b {
		out[i] = train.Bits{W: train.Fixed{Int: p.W.Int, Frac: p.W.Frac}, A: train.Fixed{Int: p.A.Int, Frac: p.A.Frac}}
	}
	return out
}

// FromTrain adapts a train.Oracle (trained once per architecture, cached
// by genome, safe for concurrent use) to an Oracle.
func FromTrain(o *train.Oracle) Oracle {
	return func(a Arch, b Bits) (float64, float64, error) {
		acc, err := o.Accuracy(train.Genome{Arch: TrainArch(a), Bits: TrainBits(b)})
		if err != nil {
			return 0, 0, fmt.Errorf("fgnas: %w", err)
		}
		return acc.Val, acc.Test, nil
	}
}
