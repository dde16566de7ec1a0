package predict

import "gnnsim/predict/gbdt"

// Variant names the feature set and target as seed 002's Table 4 does:
// "base", "base+features", "base+log" or "base+features+log".
func Variant(fs FeatureSet, log bool) string {
	v := "base"
	if fs == Full {
		v += "+features"
	}
	if log {
		v += "+log"
	}
	return v
}

// ManifestFile is the name of the manifest in a model directory.
const ManifestFile = "manifest.json"

// ManifestFormat identifies the manifest layout.
const ManifestFormat = "gnnsim-latency-models/1"

// Manifest describes a model directory: what the 24 models take and
// predict, what they were trained on, and the choices evaluation needs
// (split seed, best fixed configurations).
type Manifest struct {
	Format        string `json:"format"`
	GnnsimVersion string `json:"gnnsim_version"`
	Features      string `json:"features"` // base | full
	Log           bool   `json:"log"`      // models output log(cycles)
	// Baseline is "none" (the model files are the whole models) or
	// "loglinear" (Linear holds what the predictor adds to the trees).
	Baseline     string          `json:"baseline"`
	Linear       *LinearBaseline `json:"linear,omitempty"`
	Target       string          `json:"target"` // always "cycles"
	FeatureNames []string        `json:"feature_names"`
	// Models lists the configurations in ConfigNames order with their files
	// (relative to the directory).
	Models []ModelEntry `json:"models"`
	// Hardware lists the hardware points of the training samples; the
	// predictor refuses others, whose tile sizes it never saw.
	Hardware []PEArray `json:"hardware"`
	Modes    []string  `json:"modes"` // accelerator models of the labels
	// BestFixed is the configuration with the least total latency over the
	// whole training split; data sets not trained on are compared with it.
	BestFixed string        `json:"best_fixed"`
	SplitSeed uint64        `json:"split_seed"`
	TrainedOn []DatasetInfo `json:"trained_on"`
	Params    gbdt.Params   `json:"params"`
}

// ModelEntry is one configuration's model file.
type ModelEntry struct {
	Config string `json:"config"`
	File   string `json:"file"`
	Trees  int    `json:"trees"`
}

// DatasetInfo records a data set a predictor was trained on.
type DatasetInfo struct {
	Name   string `json:"name"`
	Graphs int    `json:"graphs"` // distinct graphs (the split is by graph)
	Train  int    `json:"train_samples"`
	Valid  int    `json:"valid_samples"`
	Test   int    `json:"test_samples"`
	// BestFixed is the configuration with the least total latency over the
	// set's own training split: its test split is compared with it.
	BestFixed string `json:"best_fixed"`
}

// Variant returns the Table 4 name of the models.
func (m *Manifest) Variant() string {
	fs, _ := ParseFeatureSet(m.Features)
	return Variant(fs, m.Log)
}

func (m *Manifest) trained(dataset string) (DatasetInfo, bool) {
	for _, d := range m.TrainedOn {
		if d.Name == dataset {
			return d, true
		}
	}
	return DatasetInfo{}, false
}
