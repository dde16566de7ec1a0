package seed001

import (
	"context"
	"fmt"
	"path/filepath"

	"gnnsim/graphs"
	nas "gnnsim/nas/gcos"
	"gnnsim/train"
	"gnnsim/workload"
)

// Oracle is a data set's accuracy: Search (validation accuracy, what the
// searches optimise, as G-CoS evaluates candidates on the validation set)
// and Report (test accuracy, what the figures show), and where the numbers
// come from.
type Oracle struct {
	Search, Report nas.AccuracyFunc
	From           string
}

// AccuracySource returns a data set's oracle.
type AccuracySource func(ctx context.Context, ds nas.Dataset) (Oracle, error)

// TrainedAccuracy trains every GNN on the CPU with package train on the
// Planetoid data under dataDir (planetoid/ind, the public split): GCN-like
// GNNs with Kipf and Welling's settings, scored attention with Velickovic
// et al.'s (train.GCNConfig, train.GATConfig), epochs 200 (quick: fewer).
// G-CoS attributes the trainer lacks map to the nearest it has (ToTrain).
func TrainedAccuracy(dataDir string, epochs int, seed uint64) AccuracySource {
	return TrainedAccuracyAt(func(ds nas.Dataset) string {
		return filepath.Join(dataDir, "planetoid", "ind", "ind."+ds.Name)
	}, epochs, seed)
}

// TrainedAccuracyAt is TrainedAccuracy on the node-classification set at
// pathOf(ds) (graphs.LoadPlanetoid: a Planetoid prefix or an .npz file).
func TrainedAccuracyAt(pathOf func(nas.Dataset) string, epochs int, seed uint64) AccuracySource {
	return func(ctx context.Context, ds nas.Dataset) (Oracle, error) {
		p, err := graphs.LoadPlanetoid(pathOf(ds))
		if err != nil {
			return Oracle{}, fmt.Errorf("seed001: %w", err)
		}
		d, err := train.NewData(p)
		if err != nil {
			return Oracle{}, fmt.Errorf("seed001: %w", err)
		}
		gcnCfg, gatCfg := train.GCNConfig(), train.GATConfig()
		gcnCfg.Seed, gatCfg.Seed = seed, seed
		if epochs > 0 {
			gcnCfg.Epochs, gatCfg.Epochs = epochs, epochs
		}
		gcnO, err := train.NewOracle(d, gcnCfg, 1)
		if err != nil {
			return Oracle{}, err
		}
		gatO, err := train.NewOracle(d, gatCfg, 1)
		if err != nil {
			return Oracle{}, err
		}
		gcnO.Cancel(ctx) // trainings in flight stop with the run
		gatO.Cancel(ctx)
		ask := func(a nas.Arch) (train.Accuracy, error) {
			if err := ctx.Err(); err != nil {
				return train.Accuracy{}, err
			}
			o := gcnO
			if a.Layers[0].Attention.Scored() || a.Layers[1].Attention.Scored() {
				o = gatO
			}
			return o.Accuracy(train.Genome{Arch: ToTrain(a)})
		}
		from := fmt.Sprintf("trained on the CPU (package train, %s public split, %d epochs, seed %d; Kipf-Welling settings, Velickovic settings for scored attention); "+
			"G-CoS's GAT-sym, COS, Linear and Gene-Linear attention train as GAT, the MLP aggregation as sum, and neighbour sampling is not applied in training (it only changes latency)",
			ds.Name, gcnCfg.Epochs, seed)
		return Oracle{
			Search: func(a nas.Arch) (float64, error) { r, err := ask(a); return r.Val, err },
			Report: func(a nas.Arch) (float64, error) { r, err := ask(a); return r.Test, err },
			From:   from,
		}, nil
	}
}

// ToTrain maps a G-CoS GNN onto the trainer's architecture: the layers
// keep their attention, aggregation and activation (one vocabulary,
// package workload) but for what the trainer lacks: every scored
// attention (GAT-sym, COS, Linear, Gene-Linear) trains as GAT, the
// nearest it has, and the MLP aggregation as sum; skip activations train
// as linear (the same map, one cache entry). The output layer's activation
// is the identity (softmax in the loss). Neighbour sampling has no
// counterpart.
func ToTrain(a nas.Arch) train.Arch {
	var t train.Arch
	for i, l := range a.Layers {
		tl := train.Layer{Hidden: l.Hidden, Heads: l.Heads, Attention: l.Attention, Aggregation: l.Aggregation, Activation: l.Activation}
		if tl.Attention.Scored() {
			tl.Attention = workload.AttGAT
		}
		if tl.Aggregation == workload.AggMLP {
			tl.Aggregation = workload.AggAdd
		}
		if tl.Activation.Identity() || i == len(a.Layers)-1 {
			tl.Activation = workload.ActLinear
		}
		if i == len(a.Layers)-1 {
			tl.Hidden = 0
		}
		t.Layers = append(t.Layers, tl)
	}
	return t
}
