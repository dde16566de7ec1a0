package accel

import (
	"testing"

	"gnnsim/workload"
)

// TestModelLayers: a GNN stack's activations are fused (no layer of their
// own), every other layer is kept in order with its model name, and the
// MACs of what runs are the graph layers' own.
func TestModelLayers(t *testing.T) {
	spec, err := workload.ParseModelSpec([]byte(`name: sage3
layers:
  - {kind: sage, width: 64, aggregation: mean, activation: relu}
  - {kind: sage, width: 64, aggregation: mean, activation: relu}
  - {kind: sage, width: 7}
`))
	if err != nil {
		t.Fatal(err)
	}
	m, err := spec.Build(workload.Size{Nodes: 100, NNZ: 400}, 32)
	if err != nil {
		t.Fatal(err)
	}
	ls, err := ModelLayers(m)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		name string
		f, g int
	}{{"layer0", 32, 64}, {"layer1", 64, 64}, {"layer2", 64, 7}}
	if len(ls) != len(want) {
		t.Fatalf("%d layers %+v, want %d (activations fused)", len(ls), ls, len(want))
	}
	for i, w := range want {
		if l := ls[i]; l.Name != w.name || l.Kind != workload.SAGE || l.F != w.f || l.G != w.g {
			t.Errorf("layer %d = %s %v %dx%d, want %s sage %dx%d", i, l.Name, l.Kind, l.F, l.G, w.name, w.f, w.g)
		}
		if _, err := layerWork(ls[i]); err != nil {
			t.Errorf("layer %d: %v", i, err)
		}
	}
}
