package train

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"gnnsim/workload"
)

// TestRowPlansExact checks that training on the rows the loss and the
// validation nodes depend on gives, bit for bit, what passes over the
// whole graph give: every loss, the selected epoch, both accuracies, the
// kept parameters and their quantised accuracies, for every attention x
// aggregation pair, averaged and concatenated heads, dropout on inputs and
// coefficients, two and three layers.
func TestRowPlansExact(t *testing.T) {
	p := toyPlanetoid(t, 240, 16, 4, 7)
	// A split in one corner of the ring, so that the row sets are a part
	// of the graph.
	p.Train, p.Val, p.Test = nil, nil, nil
	for i := range int32(240) {
		switch {
		case i < 12:
			p.Train = append(p.Train, i)
		case i < 40:
			p.Val = append(p.Val, i)
		default:
			p.Test = append(p.Test, i)
		}
	}
	d, err := NewData(p)
	if err != nil {
		t.Fatal(err)
	}
	c := Config{Epochs: 12, LR: 0.02, WeightDecay: 5e-4, DecayAll: true, Dropout: 0.4, AttnDropout: 0.3, Seed: 5}
	bits := []Bits{{W: Fixed{Int: 2, Frac: 5}, A: Fixed{Int: 1, Frac: 4}}}
	acts := []workload.Activation{workload.ActReLU, workload.ActTanh, workload.ActSigmoid, workload.ActELU}
	k := 0
	for _, att := range []workload.Attention{workload.AttConstant, workload.AttGCN, workload.AttGAT} {
		for _, agg := range []workload.Aggregation{workload.AggAdd, workload.AggMean, workload.AggMax} {
			layers := []Layer{
				{Hidden: 3, Heads: 2, Attention: att, Aggregation: agg, Activation: acts[k%4]},
				{Heads: 1 + k%3, Attention: att, Aggregation: agg, Activation: workload.ActLinear},
			}
			if k%2 == 1 {
				layers = append([]Layer{{Hidden: 5, Heads: 1, Attention: workload.AttGCN, Aggregation: workload.AggMean, Activation: acts[(k+1)%4]}}, layers...)
			}
			k++
			a := Arch{Layers: layers}
			t.Run(fmt.Sprint(a), func(t *testing.T) {
				part, err := Train(d, a, c)
				if err != nil {
					t.Fatal(err)
				}
				if n := len(part.trainRows[0].lin); n >= d.NumNodes {
					t.Fatalf("the training pass reads all %d rows: nothing restricted", n)
				}
				whole, err := newModel(d, a, c)
				if err != nil {
					t.Fatal(err)
				}
				whole.wholeGraph = true
				if err := whole.train(context.Background()); err != nil {
					t.Fatal(err)
				}
				r, w := part.Result, whole.Result
				if !slices.Equal(r.Loss, w.Loss) || r.Epoch != w.Epoch || r.Val != w.Val || r.Test != w.Test {
					t.Errorf("restricted rows: epoch %d, val %v, test %v; whole graph: epoch %d, val %v, test %v (losses equal: %v)",
						r.Epoch, r.Val, r.Test, w.Epoch, w.Val, w.Test, slices.Equal(r.Loss, w.Loss))
				}
				if !slices.Equal(part.Params(), whole.Params()) {
					t.Error("different kept parameters")
				}
				pv, pt, _ := part.Evaluate(bits)
				wv, wt, _ := whole.Evaluate(bits)
				if pv != wv || pt != wt {
					t.Errorf("quantised: %v, %v against %v, %v", pv, pt, wv, wt)
				}
			})
		}
	}
}
