package seed004

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"

	"gnnsim/graphs"
	"gnnsim/nas/fgnas"
	"gnnsim/train"
)

// TrainedOracle returns the accuracy oracles of the FGNAS reproduction and commands: the
// networks trained by package train on the Planetoid files under
// dataDir/planetoid/ind with FGNAS Table 2's setting (Adam at 0.01, weight
// decay 5e-4, 1e-3 for PubMed; 200 epochs, 20 when quick), each
// architecture trained once and re-quantised per design. At most workers
// networks train at once (<= 0: one per CPU), however many designs the
// searches ask about concurrently, and the trained networks kept for
// re-quantisation hold at most keptBytes of memory. Trainings stop when
// ctx is done.
func TrainedOracle(ctx context.Context, dataDir string, quick bool, workers int) (OracleFor, error) {
	return TrainedOracleAt(ctx, func(d fgnas.Dataset) string {
		return filepath.Join(dataDir, "planetoid", "ind", "ind."+d.Name)
	}, quick, workers)
}

// TrainedOracleAt is TrainedOracle on the node-classification set at
// pathOf(d) (graphs.LoadPlanetoid: a Planetoid prefix or an .npz file).
func TrainedOracleAt(ctx context.Context, pathOf func(fgnas.Dataset) string, quick bool, workers int) (OracleFor, error) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	return func(d fgnas.Dataset) (fgnas.Oracle, error) {
		p, err := graphs.LoadPlanetoid(pathOf(d))
		if err != nil {
			return nil, err
		}
		td, err := train.NewData(p)
		if err != nil {
			return nil, err
		}
		if got := int64(td.FeatureNNZ()); got != d.FeatureNNZ {
			return nil, fmt.Errorf("%s: %d feature non-zeros in the data, the hardware model assumes %d", d.Name, got, d.FeatureNNZ)
		}
		cfg := train.GCNConfig()
		if d.Name == fgnas.PubMed.Name {
			cfg.WeightDecay = 1e-3
		}
		if quick {
			cfg.Epochs = 20
		}
		o, err := train.NewOracle(td, cfg, 64)
		if err != nil {
			return nil, err
		}
		o.Limit(workers, keptBytes)
		o.Cancel(ctx) // trainings in flight stop with the run
		return fgnas.FromTrain(o), nil
	}, nil
}

// keptBytes bounds the memory of the trained networks an oracle keeps for
// re-quantisation: the largest network of FGNAS's space (64 x 16 GAT
// heads, then 16 output heads) keeps about 120 MB after training.
const keptBytes = 1 << 30
