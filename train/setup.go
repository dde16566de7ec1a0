package train

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"gnnsim/graphs"
	"gnnsim/workload"
)

// Setup is a training as the train command describes it: a reference
// model (a preset or a model file), an optional whole network, layer
// overrides and the training settings given explicitly. Its errors name
// the command's flags, the only way to set these fields.
type Setup struct {
	Model, Arch                        string // --model: gcn, gat, sage or FILE.yaml; --arch: inline or FILE.yaml
	Attention, Aggregation, Activation string // every layer's; the activation of the hidden layers only
	Hidden, Heads, OutHeads            int
	Config                             Config            // the training settings given (see Given)
	Given                              func(string) bool // whether a flag was given (hidden, epochs, lr, ...)
}

// IsModelFile reports whether a --model or --arch value names a model
// file (YAML) rather than a preset or an inline architecture.
func IsModelFile(s string) bool {
	return strings.HasSuffix(s, ".yaml") || strings.HasSuffix(s, ".yml")
}

// Network resolves the setup into the network, its training setting and
// the input width a model file gives (0: none). A model file as --model
// is the network --arch FILE gives, trained with the settings of its
// first layer's preset.
func (s Setup) Network() (Arch, Config, int, error) {
	model, archText, hidden := s.Model, s.Arch, s.Hidden
	if IsModelFile(model) {
		if archText != "" {
			return Arch{}, Config{}, 0, fmt.Errorf("--model %s and --arch: give the network one way", model)
		}
		spec, err := workload.ReadModelSpec(model)
		if err != nil {
			return Arch{}, Config{}, 0, fmt.Errorf("--model: %w", err)
		}
		archText, model = model, "gcn"
		if len(spec.Layers) > 0 {
			if k := strings.ToLower(spec.Layers[0].Kind); k == "gat" || k == "sage" {
				model = k
			}
		}
	}
	if !s.Given("hidden") {
		switch model {
		case "gat":
			hidden = 8
		case "sage":
			hidden = 64
		}
	}
	arch, preset, err := Preset(model, hidden, s.Heads, s.OutHeads)
	if err != nil {
		return arch, preset, 0, fmt.Errorf("--model: %w", err)
	}
	specFeatures := 0
	switch {
	case IsModelFile(archText):
		spec, err := workload.ReadModelSpec(archText)
		if err != nil && !strings.Contains(err.Error(), archText) {
			return arch, preset, 0, fmt.Errorf("--arch %s: %w", archText, err)
		} else if err != nil {
			return arch, preset, 0, fmt.Errorf("--arch: %w", err)
		}
		if arch, err = SpecArch(spec); err != nil {
			return arch, preset, 0, fmt.Errorf("--arch %s: %w", archText, err)
		}
		specFeatures = spec.Features
	case archText != "":
		if arch, err = ParseArch(archText); err != nil {
			return arch, preset, 0, fmt.Errorf("--arch: %w", err)
		}
	}
	if err := s.overrideLayers(arch); err != nil {
		return arch, preset, 0, err
	}
	// Training settings given explicitly override the model's.
	cfg := s.Config
	for _, x := range []struct {
		flag string
		set  func()
	}{
		{"epochs", func() { preset.Epochs = cfg.Epochs }}, {"lr", func() { preset.LR = cfg.LR }},
		{"weight-decay", func() { preset.WeightDecay = cfg.WeightDecay }}, {"decay-all", func() { preset.DecayAll = cfg.DecayAll }},
		{"dropout", func() { preset.Dropout = cfg.Dropout }}, {"attn-dropout", func() { preset.AttnDropout = cfg.AttnDropout }},
	} {
		if s.Given(x.flag) {
			x.set()
		}
	}
	return arch, preset, specFeatures, nil
}

// overrideLayers applies the attention and aggregation to every layer
// and the activation to the hidden layers.
func (s Setup) overrideLayers(a Arch) error {
	for i := range a.Layers {
		l := &a.Layers[i]
		var err error
		if s.Attention != "" {
			if l.Attention, err = ParseAttention(s.Attention); err != nil {
				return fmt.Errorf("--attention: %w", err)
			}
		}
		if s.Aggregation != "" {
			if l.Aggregation, err = ParseAggregation(s.Aggregation); err != nil {
				return fmt.Errorf("--aggregation: %w", err)
			}
		}
		if s.Activation != "" && i < len(a.Layers)-1 {
			if l.Activation, err = ParseActivation(s.Activation); err != nil {
				return fmt.Errorf("--activation: %w", err)
			}
		}
	}
	return nil
}

// Meta is the report's keys in a Parquet file's metadata: the data, the
// network, the bits, the training setting as JSON and the first seed
// trained.
func (r *Report) Meta(firstSeed uint64) (map[string]string, error) {
	config, err := json.Marshal(r.Config)
	if err != nil {
		return nil, err
	}
	return map[string]string{"gnnsim.data": r.Data, "gnnsim.arch": r.Arch, "gnnsim.bits": r.Bits, "gnnsim.config": string(config),
		"gnnsim.seed": strconv.FormatUint(firstSeed, 10)}, nil
}

// LoadData reads a node-classification set at path (a Planetoid file set
// or a gnn-benchmark .npz file) with its split: the public one of a
// Planetoid set, or for an .npz file splitTrain and splitVal nodes per
// class drawn from seed.
func LoadData(path string, splitTrain, splitVal int, seed uint64) (*Data, error) {
	p, err := graphs.LoadPlanetoid(path)
	if err != nil {
		return nil, err
	}
	if p.Train == nil {
		if err := p.SplitPerClass(splitTrain, splitVal, seed); err != nil {
			return nil, err
		}
	}
	return NewData(p)
}
