package predict

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"gnnsim/accel"
)

// SidecarFile is the file that describes a directory of LightGBM models
// trained outside gnnsim (one without a manifest.json).
const SidecarFile = "sidecar.json"

// SidecarFormat identifies the sidecar layout.
const SidecarFormat = "gnnsim-lightgbm-sidecar/1"

// Sidecar describes LightGBM v2/v3 text models trained outside gnnsim so
// that LoadPredictor can use them: which file holds which configuration's
// model, the feature columns the models take, and their target. The
// models must take the columns of one of gnnsim's feature sets in order
// (FeatureSet.Names; the features are computed here, so a model trained on
// other columns cannot be fed), and be whole models: gnnsim adds no
// baseline to their output.
type Sidecar struct {
	Format string `json:"format"` // SidecarFormat
	// FeatureNames are the models' columns in order: Base.Names() or
	// Full.Names().
	FeatureNames []string `json:"feature_names"`
	// Log says the models predict log(cycles) (the predictor returns exp
	// of their output); false: cycles.
	Log bool `json:"log"`
	// Models names the file (inside the directory) of each of the 24
	// configurations, in any order, each once.
	Models []SidecarModel `json:"models"`
	// BestFixed is the configuration 'eval' compares the predicted choice
	// with: the one with the least total latency on the models' training
	// data.
	BestFixed string `json:"best_fixed"`
	// Hardware lists the PE arrays the models were trained on (default:
	// accel.DefaultHW's 512 PEs, half for pp aggregation); others are
	// refused.
	Hardware []PEArray `json:"hardware,omitempty"`
	// Modes are the accelerator models of the training labels (default
	// "extended"); 'eval' warns on data with other labels.
	Modes []string `json:"modes,omitempty"`
}

// SidecarModel is one configuration's model file.
type SidecarModel struct {
	Config string `json:"config"` // "seq-a" .. "pp-h"
	File   string `json:"file"`
}

// manifest turns the sidecar into the manifest of its directory.
func (s *Sidecar) manifest() (Manifest, error) {
	if s.Format != SidecarFormat {
		return Manifest{}, fmt.Errorf("format %q, want %q", s.Format, SidecarFormat)
	}
	var fs FeatureSet
	switch {
	case slices.Equal(s.FeatureNames, Base.Names()):
		fs = Base
	case slices.Equal(s.FeatureNames, Full.Names()):
		fs = Full
	default:
		return Manifest{}, fmt.Errorf("feature_names %v are neither the base set %v nor the full set (base + %v)",
			s.FeatureNames, Base.Names(), Full.Names()[len(Base.Names()):])
	}
	names := ConfigNames()
	files := make([]string, NumConfigs)
	for _, m := range s.Models {
		c := slices.Index(names, m.Config)
		switch {
		case c < 0:
			return Manifest{}, fmt.Errorf("models: %q is not a configuration (%s)", m.Config, strings.Join(names, " "))
		case files[c] != "":
			return Manifest{}, fmt.Errorf("models: %s given twice", m.Config)
		case m.File == "":
			return Manifest{}, fmt.Errorf("models: %s has no file", m.Config)
		}
		files[c] = m.File
	}
	man := Manifest{
		Format: ManifestFormat, Features: fs.String(), Log: s.Log, Baseline: NoBaseline.String(),
		Target: "cycles", FeatureNames: s.FeatureNames, BestFixed: s.BestFixed,
		Hardware: s.Hardware, Modes: s.Modes,
	}
	for c, f := range files {
		if f == "" {
			return Manifest{}, fmt.Errorf("models: no file for %s (all %d configurations are needed)", names[c], NumConfigs)
		}
		man.Models = append(man.Models, ModelEntry{Config: names[c], File: f})
	}
	if len(man.Hardware) == 0 {
		man.Hardware = []PEArray{PEArrayOf(accel.DefaultHW())}
	}
	for i := range man.Hardware {
		man.Hardware[i] = man.Hardware[i].resolved()
	}
	if len(man.Modes) == 0 {
		man.Modes = []string{"extended"}
	}
	return man, nil
}

// loadSidecar loads a directory described by a sidecar.json.
func loadSidecar(dir string) (*Predictor, error) {
	path := filepath.Join(dir, SidecarFile)
	var s Sidecar
	if err := readJSONFile(path, &s); err != nil {
		return nil, err
	}
	man, err := s.manifest()
	if err != nil {
		return nil, fmt.Errorf("predict: %s: %w", path, err)
	}
	p, err := newPredictor(dir, path, man)
	if err != nil {
		return nil, err
	}
	for c, m := range p.models {
		p.man.Models[c].Trees = m.NumTrees()
	}
	return p, nil
}
