package seed004

import (
	"fmt"
	"path/filepath"

	"gnnsim/graphs"
	"gnnsim/nas/fgnas"
	"gnnsim/train"
)

// TrainedOracle returns the accuracy oracles of the FGNAS reproduction and commands: the
// networks trained by package train on the Planetoid files under
// dataDir/planetoid/ind with FGNAS Table 2's setting (Adam at 0.01, weight
// decay 5e-4, 1e-3 for PubMed; 200 epochs, 20 when quick), each
// architecture trained once and re-quantised per design.
func TrainedOracle(dataDir string, quick bool) (OracleFor, error) {
	return func(d fgnas.Dataset) (fgnas.Oracle, error) {
		p, err := graphs.LoadPlanetoid(filepath.Join(dataDir, "planetoid", "ind", "ind."+d.Name))
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
		return fgnas.FromTrain(o), nil
	}, nil
}
