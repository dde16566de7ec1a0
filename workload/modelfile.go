package workload

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"gnnsim/internal/boundedio"
	"gnnsim/internal/strictyaml"
)

// ModelSpec is a model description, as a YAML file gives it: either a GNN
// stack, layer by layer,
//
//	name: sage3
//	features: 1433          # input width (optional: else the graph's)
//	layers:
//	  - {kind: sage, width: 64, aggregation: mean, activation: relu}
//	  - {kind: sage, width: 64, aggregation: mean, activation: relu}
//	  - {kind: sage, width: 7}
//
// or a zoo model with overrides,
//
//	name: vig-s-gin
//	zoo: vig-s
//	graph_op: gin           # the Graphers' op (ViG and Pyramid ViG only)
//
// A layer's kind is gcn, gin, sage, gat, edgeconv, mrconv or fc; width is
// its output width (per head for gat); heads (gat only) its attention
// heads, concatenated except on the last layer, which averages them;
// aggregation the neighbour reduction, where the kind has a choice (sage:
// mean or max; every other kind accepts only its own: gcn, gin and gat
// sum, edgeconv and mrconv max); k (edgeconv, mrconv) builds a k-nearest-
// neighbour graph over the layer's input first, as DGCNN does, instead of
// aggregating over the given graph; activation (relu, relu6, elu, gelu,
// leaky_relu, sigmoid, tanh; none or absent for none) adds an
// element-wise Act layer after it. Every layer is a block of its own, as
// GNN builds them.
type ModelSpec struct {
	Name     string      `yaml:"name"`
	Zoo      string      `yaml:"zoo"`
	GraphOp  string      `yaml:"graph_op"`
	Features int         `yaml:"features"`
	Layers   []LayerSpec `yaml:"layers"`
}

// LayerSpec is one layer of a ModelSpec's GNN stack.
type LayerSpec struct {
	Kind        string `yaml:"kind"`
	Width       int    `yaml:"width"`
	Heads       *int   `yaml:"heads"` // absent: 1; 0 is refused
	Aggregation string `yaml:"aggregation"`
	Activation  string `yaml:"activation"`
	K           int    `yaml:"k"`
}

// HeadCount returns the layer's heads: 1 when the key is absent.
func (l LayerSpec) HeadCount() int {
	if l.Heads == nil {
		return 1
	}
	return *l.Heads
}

// MaxModelFileBytes bounds a model file: a GNN stack of thousands of layers
// fits in far less.
const MaxModelFileBytes = 1 << 20

// MaxSpecLayers bounds a GNN stack's layers.
const MaxSpecLayers = 1024

// specKinds are the layer kinds a GNN stack may name, with the
// aggregations each accepts (the first is the default).
var specKinds = map[string]struct {
	aggs []string
}{
	"gcn":      {[]string{"sum"}},
	"gin":      {[]string{"sum"}},
	"sage":     {[]string{"mean", "max"}},
	"gat":      {[]string{"sum"}},
	"edgeconv": {[]string{"max"}},
	"mrconv":   {[]string{"max"}},
	"fc":       {nil},
}

// specActivations are the activations a GNN stack may name (all priced
// alike: one element-wise operation per output).
var specActivations = []string{"none", "relu", "relu6", "elu", "gelu", "leaky_relu", "sigmoid", "tanh"}

// ParseModelSpec decodes and checks a model description. Unknown keys,
// non-integer widths and every inconsistency (layers beside zoo, a kind or
// aggregation a layer cannot take) are errors naming the key.
func ParseModelSpec(data []byte) (*ModelSpec, error) {
	if len(data) > MaxModelFileBytes {
		return nil, fmt.Errorf("workload: model file of %d bytes, want at most %d", len(data), MaxModelFileBytes)
	}
	var s ModelSpec
	if err := strictyaml.Decode(data, &s); err != nil {
		if errors.Is(err, strictyaml.ErrEmpty) {
			return nil, errors.New("workload: model file: empty")
		}
		return nil, fmt.Errorf("workload: model file: %w", err)
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return &s, nil
}

// ReadModelSpec reads a model description file (at most MaxModelFileBytes).
func ReadModelSpec(path string) (*ModelSpec, error) {
	f, err := boundedio.Open(path, boundedio.Spec)
	if err != nil {
		return nil, fmt.Errorf("workload: model file: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxModelFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("workload: model file %s: %w", path, err)
	}
	s, err := ParseModelSpec(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// ResolveModelSpec reads ref as a zoo model name (one of ModelNames, case
// ignored) or, failing that, as the path of a model file: the form every
// command that takes a model accepts.
func ResolveModelSpec(ref string) (*ModelSpec, error) {
	if slices.Contains(ModelNames(), strings.ToLower(ref)) {
		return &ModelSpec{Name: strings.ToLower(ref), Zoo: strings.ToLower(ref)}, nil
	}
	if _, err := os.Stat(ref); err != nil {
		return nil, fmt.Errorf("workload: %q is neither a zoo model (%s) nor a readable model file: %w", ref, strings.Join(ModelNames(), ", "), err)
	}
	return ReadModelSpec(ref)
}

// Validate reports the first problem with s.
func (s *ModelSpec) Validate() error {
	fail := func(key, format string, args ...any) error {
		return fmt.Errorf("workload: model file: %s: %s", key, fmt.Sprintf(format, args...))
	}
	switch {
	case s.Zoo != "" && len(s.Layers) > 0:
		return fail("layers", "a zoo model (zoo: %s) takes no layers", s.Zoo)
	case s.Zoo == "" && len(s.Layers) == 0:
		return fail("layers", "want a zoo model (zoo:) or at least one layer")
	case len(s.Layers) > MaxSpecLayers:
		return fail("layers", "%d layers, want at most %d", len(s.Layers), MaxSpecLayers)
	case s.Features < 0 || s.Features > MaxFeatures:
		return fail("features", "%d, want 1..%d (or absent: the graph's)", s.Features, MaxFeatures)
	}
	if s.Zoo != "" {
		if !slices.Contains(ModelNames(), strings.ToLower(s.Zoo)) {
			return fail("zoo", "unknown model %q (want one of %s)", s.Zoo, strings.Join(ModelNames(), ", "))
		}
		if s.Features != 0 {
			return fail("features", "a zoo model fixes its input")
		}
		if s.GraphOp != "" {
			if _, err := ParseViGOp(s.GraphOp); err != nil {
				return fail("graph_op", "%v", err)
			}
			if !s.vig() {
				return fail("graph_op", "model %s has no Graphers", s.Zoo)
			}
		}
		return nil
	}
	if s.GraphOp != "" {
		return fail("graph_op", "only a zoo ViG takes a graph op (the layers name their kinds)")
	}
	for i, l := range s.Layers {
		key := fmt.Sprintf("layers[%d]", i)
		k, ok := specKinds[strings.ToLower(l.Kind)]
		switch {
		case !ok:
			return fail(key+".kind", "%q, want one of gcn, gin, sage, gat, edgeconv, mrconv, fc", l.Kind)
		case l.Width <= 0 || l.Width > MaxFeatures:
			return fail(key+".width", "%d, want 1..%d", l.Width, MaxFeatures)
		case l.Heads != nil && (*l.Heads < 1 || *l.Heads > 64):
			return fail(key+".heads", "%d, want 1..64 (leave the key out for 1)", *l.Heads)
		case l.Heads != nil && *l.Heads > 1 && !strings.EqualFold(l.Kind, "gat"):
			return fail(key+".heads", "%s layers have no heads", l.Kind)
		case l.K < 0 || l.K > 1<<16:
			return fail(key+".k", "%d, want 1..%d", l.K, 1<<16)
		case l.K > 0 && !strings.EqualFold(l.Kind, "edgeconv") && !strings.EqualFold(l.Kind, "mrconv"):
			return fail(key+".k", "only edgeconv and mrconv build a k-NN graph")
		case l.Aggregation != "" && !slices.Contains(k.aggs, strings.ToLower(l.Aggregation)):
			if len(k.aggs) == 0 {
				return fail(key+".aggregation", "%s layers aggregate nothing", l.Kind)
			}
			return fail(key+".aggregation", "%q, want %s for %s", l.Aggregation, strings.Join(k.aggs, " or "), l.Kind)
		case l.Activation != "" && !slices.Contains(specActivations, strings.ToLower(l.Activation)):
			return fail(key+".activation", "%q, want one of %s", l.Activation, strings.Join(specActivations, ", "))
		}
	}
	return nil
}

// vig reports whether s names a ViG or Pyramid ViG of the zoo.
func (s *ModelSpec) vig() bool {
	z := strings.ToLower(s.Zoo)
	return strings.HasPrefix(z, "vig-") || strings.HasPrefix(z, "pvig-")
}

// NeedsGraph reports whether Build needs a graph: a GNN stack does, a zoo
// model brings its own input.
func (s *ModelSpec) NeedsGraph() bool { return s.Zoo == "" }

// Build returns the model s describes. A GNN stack runs on graph in with
// input width s.Features, or features when the file gives none; a zoo
// model ignores both.
func (s *ModelSpec) Build(in Size, features int) (Model, error) {
	if err := s.Validate(); err != nil {
		return Model{}, err
	}
	if s.Zoo != "" {
		var op LayerKind
		if s.GraphOp != "" {
			op, _ = ParseViGOp(s.GraphOp) // checked by Validate
		}
		m, err := LookupModel(s.Zoo, op)
		if err != nil {
			return Model{}, err
		}
		if s.Name != "" {
			m.Name = s.Name
		}
		return m, nil
	}
	if s.Features > 0 {
		features = s.Features
	}
	if features <= 0 || features > MaxFeatures {
		return Model{}, fmt.Errorf("workload: model %s: input width %d, want 1..%d (features: in the file, or the graph's)", s.Name, features, MaxFeatures)
	}
	if err := in.Validate(); err != nil {
		return Model{}, fmt.Errorf("workload: model %s: %w", s.Name, err)
	}
	name := s.Name
	if name == "" {
		name = fmt.Sprintf("gnn-%d", len(s.Layers))
	}
	m := Model{Name: name}
	f := features
	for i, ls := range s.Layers {
		l := Layer{F: f, G: ls.Width, Name: fmt.Sprintf("layer%d", i)}
		if ls.Heads != nil { // absent stays 0, as Layer has always read it
			l.Heads = *ls.Heads
		}
		switch strings.ToLower(ls.Kind) {
		case "gcn":
			l.Kind = GCN
		case "gin":
			l.Kind = GIN
		case "sage":
			l.Kind = SAGE
			if strings.EqualFold(ls.Aggregation, "max") {
				l.Kind = SAGEMax
			}
		case "gat":
			l.Kind = GAT
			l.Last = i == len(s.Layers)-1
		case "edgeconv":
			l.Kind, l.K = EdgeConv, ls.K
		case "mrconv":
			l.Kind, l.K = MRConv, ls.K
		case "fc":
			l.Kind = FC
		}
		var layers []Layer
		if l.K > 0 {
			knn := Layer{Kind: KNN, F: f, G: f, K: l.K, Name: l.Name + ".knn"}
			layers = append(layers, knn)
		}
		layers = append(layers, l)
		if a := strings.ToLower(ls.Activation); a != "" && a != "none" {
			w := l.OutWidth()
			layers = append(layers, Layer{Kind: Act, F: w, G: w, Name: l.Name + "." + a})
		}
		b := Block{Name: l.Name, Kind: GNNLayer, In: in, Layers: layers}
		if _, err := b.Kernels(); err != nil {
			return Model{}, fmt.Errorf("workload: model %s: %w", name, err)
		}
		m.Blocks = append(m.Blocks, b)
		f = l.OutWidth()
	}
	return m, nil
}

// ParseViGOp reads the graph op of a ViG's Graphers: the short names mr and
// edge, or the kind names mrconv, edgeconv, gin and sage (case ignored).
func ParseViGOp(s string) (LayerKind, error) {
	switch strings.ToLower(s) {
	case "mr", "max-relative":
		return MRConv, nil
	case "edge":
		return EdgeConv, nil
	}
	k, err := ParseLayerKind(s)
	if err == nil && slices.Contains(ViGOps(), k) {
		return k, nil
	}
	return 0, fmt.Errorf("unknown graph op %q (want mr, edge, gin or sage)", s)
}
