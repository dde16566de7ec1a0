package workload

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const sage3 = `name: sage3
layers:
  - {kind: sage, width: 64, aggregation: mean, activation: relu}
  - {kind: sage, width: 64, aggregation: mean, activation: relu}
  - {kind: sage, width: 7}
`

var cora = Size{Nodes: 2708, NNZ: 10556}

// TestModelSpecSage3 checks the example: three SAGE blocks with
// ReLUs after the first two, 1433 -> 64 -> 64 -> 7, and the MACs of the
// layers GNN builds for the same widths (the ReLUs add none).
func TestModelSpecSage3(t *testing.T) {
	s, err := ParseModelSpec([]byte(sage3))
	if err != nil {
		t.Fatal(err)
	}
	m, err := s.Build(cora, 1433)
	if err != nil {
		t.Fatal(err)
	}
	if m.Name != "sage3" || len(m.Blocks) != 3 {
		t.Fatalf("model %s with %d blocks, want sage3 with 3", m.Name, len(m.Blocks))
	}
	kinds := ""
	for _, b := range m.Blocks {
		for _, l := range b.Layers {
			kinds += l.Kind.String() + " "
		}
	}
	if kinds != "sage act sage act sage " {
		t.Errorf("layers %q", kinds)
	}
	ref, err := GNN(SAGE, cora, []int{1433, 64, 64, 7})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := m.MACs()
	want, _ := ref.MACs()
	if got != want {
		t.Errorf("MACs %d, GNN's %d", got, want)
	}
	if _, err := m.Graph(); err != nil {
		t.Error(err)
	}
}

// TestModelSpecForms checks the other forms: GAT heads (the last layer
// averages), SAGE max, k-NN EdgeConv, features from the file, and zoo
// models with a graph op.
func TestModelSpecForms(t *testing.T) {
	tests := []struct {
		name, yaml string
		features   int
		check      func(t *testing.T, m Model)
	}{
		{"gat heads", "layers: [{kind: gat, width: 8, heads: 8, activation: elu}, {kind: gat, width: 7, heads: 1}]", 1433,
			func(t *testing.T, m Model) {
				l0, l1 := m.Blocks[0].Layers[0], m.Blocks[1].Layers[0]
				if l0.OutWidth() != 64 || l1.F != 64 || !l1.Last || l0.Last {
					t.Errorf("gat layers %+v, %+v", l0, l1)
				}
			}},
		{"sage max", "layers: [{kind: SAGE, width: 16, aggregation: max}]", 100,
			func(t *testing.T, m Model) {
				if k := m.Blocks[0].Layers[0].Kind; k != SAGEMax {
					t.Errorf("kind %s, want sage-max", k)
				}
			}},
		{"knn edgeconv", "features: 3\nlayers: [{kind: edgeconv, width: 64, k: 20}, {kind: fc, width: 40}]", 999,
			func(t *testing.T, m Model) {
				ls := m.Blocks[0].Layers
				if len(ls) != 2 || ls[0].Kind != KNN || ls[1].K != 20 || ls[0].F != 3 {
					t.Errorf("layers %+v", ls)
				}
			}},
		{"zoo with graph op", "name: mine\nzoo: vig-s\ngraph_op: gin", 0,
			func(t *testing.T, m Model) {
				if m.Name != "mine" || m.Blocks[1].Layers[3].Kind != GIN {
					t.Errorf("model %s, grapher op %s", m.Name, m.Blocks[1].Layers[3].Kind)
				}
			}},
		{"zoo cnn", "zoo: GoogleNet", 0,
			func(t *testing.T, m Model) {
				if macs, _ := m.MACs(); macs != 1582671872 {
					t.Errorf("googlenet MACs %d", macs)
				}
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := ParseModelSpec([]byte(tc.yaml))
			if err != nil {
				t.Fatal(err)
			}
			m, err := s.Build(cora, tc.features)
			if err != nil {
				t.Fatal(err)
			}
			tc.check(t, m)
		})
	}
}

// TestModelSpecInvalid checks that bad files are refused with an error
// naming the key.
func TestModelSpecInvalid(t *testing.T) {
	tests := []struct{ name, yaml, want string }{
		{"empty", "", "empty"},
		{"unknown key", "name: x\nlayer: []", "layer"},
		{"unknown kind", "layers: [{kind: transformer, width: 8}]", "layers[0].kind"},
		{"float width", "layers: [{kind: gcn, width: 8.5}]", "width"},
		{"zero width", "layers: [{kind: gcn}]", "layers[0].width"},
		{"huge width", "layers: [{kind: gcn, width: 99999999}]", "layers[0].width"},
		{"heads on gcn", "layers: [{kind: gcn, width: 8, heads: 4}]", "heads"},
		{"zero heads (issue 38: read as 1)", "layers: [{kind: gat, width: 8, heads: 0}]", "heads"},
		{"bad aggregation", "layers: [{kind: sage, width: 8, aggregation: lstm}]", "aggregation"},
		{"aggregation of fc", "layers: [{kind: fc, width: 8, aggregation: mean}]", "aggregate nothing"},
		{"bad activation", "layers: [{kind: gcn, width: 8, activation: swishy}]", "activation"},
		{"k on gcn", "layers: [{kind: gcn, width: 8, k: 9}]", "k-NN"},
		{"zoo and layers", "zoo: vig-s\nlayers: [{kind: gcn, width: 8}]", "takes no layers"},
		{"nothing", "name: x", "at least one layer"},
		{"unknown zoo", "zoo: resnet34", "unknown model"},
		{"graph op on cnn", "zoo: alexnet\ngraph_op: gin", "no Graphers"},
		{"bad graph op", "zoo: vig-s\ngraph_op: gcn", "graph op"},
		{"graph op on stack", "graph_op: gin\nlayers: [{kind: gcn, width: 8}]", "graph_op"},
		{"features on zoo", "zoo: vig-s\nfeatures: 3", "features"},
		{"not a mapping", "- a\n- b", "model file"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseModelSpec([]byte(tc.yaml))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("ParseModelSpec = %v, want an error containing %q", err, tc.want)
			}
		})
	}
	s, err := ParseModelSpec([]byte("layers: [{kind: gcn, width: 8}]"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Build(cora, 0); err == nil || !strings.Contains(err.Error(), "input width") {
		t.Errorf("Build without features = %v", err)
	}
	if _, err := s.Build(Size{Nodes: -1}, 8); err == nil {
		t.Error("Build on -1 nodes succeeded")
	}
}

// TestReadModelSpec checks file reading: a zoo name or a path, the size
// cap, and a missing file.
func TestReadModelSpec(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "sage3.yaml")
	if err := os.WriteFile(good, []byte(sage3), 0o644); err != nil {
		t.Fatal(err)
	}
	if s, err := ResolveModelSpec(good); err != nil || s.Name != "sage3" {
		t.Errorf("ResolveModelSpec(file) = %+v, %v", s, err)
	}
	if s, err := ResolveModelSpec("ResNet50"); err != nil || s.Zoo != "resnet50" {
		t.Errorf("ResolveModelSpec(ResNet50) = %+v, %v", s, err)
	}
	big := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(big, []byte("name: "+strings.Repeat("x", MaxModelFileBytes)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadModelSpec(big); err == nil || !strings.Contains(err.Error(), "at most") {
		t.Errorf("oversized file: %v", err)
	}
	if _, err := ResolveModelSpec(filepath.Join(dir, "none.yaml")); err == nil || !strings.Contains(err.Error(), "neither a zoo model") {
		t.Errorf("missing file: %v", err)
	}
}

// FuzzParseModelSpec checks that no input makes parsing or building panic,
// and that what parses builds or fails with an error.
func FuzzParseModelSpec(f *testing.F) {
	for _, s := range []string{sage3, "zoo: vig-ti\ngraph_op: edge", "layers: [{kind: gat, width: 8, heads: 8}]",
		"layers: [{kind: mrconv, width: 8, k: 3}]", "features: 3\nlayers: [{kind: fc, width: 2}]", "zoo: alexnet", "a: [", "layers: 7"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ParseModelSpec(data)
		if err != nil {
			return
		}
		if s.Zoo != "" {
			return // the zoo builds are tested elsewhere and cost milliseconds
		}
		m, err := s.Build(Size{Nodes: 50, NNZ: 200}, 16)
		if err != nil {
			return
		}
		if _, err := m.Graph(); err != nil {
			t.Errorf("built model is no valid graph: %v", err)
		}
	})
}
