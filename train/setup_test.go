package train

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSetupNetwork: the presets' hidden widths apply unless given, the
// layer overrides reach every layer (the activation the hidden ones only),
// given training settings override the preset's, and a model file as
// --model takes its first layer's preset and excludes --arch.
func TestSetupNetwork(t *testing.T) {
	none := func(string) bool { return false }
	file := filepath.Join(t.TempDir(), "s.yaml")
	if err := os.WriteFile(file, []byte("layers:\n  - {kind: sage, width: 32}\n  - {kind: sage, width: 7}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	a, c, _, err := Setup{Model: "gat", Hidden: 16, Heads: 8, OutHeads: 1, Given: none}.Network()
	if err != nil || a.Layers[0].Hidden != 8 {
		t.Errorf("gat: hidden %v (%v), want the preset's 8", a, err)
	}
	given := func(f string) bool { return f == "epochs" }
	_, c2, _, err := Setup{Model: "gcn", Hidden: 16, Heads: 1, OutHeads: 1, Config: Config{Epochs: 7}, Given: given}.Network()
	if err != nil || c2.Epochs != 7 || c.Epochs == 7 {
		t.Errorf("--epochs 7: %d (%v); preset %d", c2.Epochs, err, c.Epochs)
	}
	a, _, _, err = Setup{Model: "gcn", Hidden: 16, Heads: 1, OutHeads: 1, Activation: "tanh", Aggregation: "max", Given: none}.Network()
	if err != nil || a.Layers[0].Activation.String() != "tanh" || a.Layers[1].Activation.String() == "tanh" || a.Layers[1].Aggregation.String() != "max" {
		t.Errorf("overrides: %v (%v)", a, err)
	}
	a, _, _, err = Setup{Model: file, Hidden: 16, Heads: 1, OutHeads: 1, Given: none}.Network()
	if err != nil || len(a.Layers) != 2 || a.Layers[0].Hidden != 32 {
		t.Errorf("--model FILE: %v (%v)", a, err)
	}
	if _, _, _, err := (Setup{Model: file, Arch: "gcn:16x1:add:relu/gcn:0x1:add:linear", Given: none}).Network(); err == nil || !strings.Contains(err.Error(), "one way") {
		t.Errorf("--model FILE with --arch: %v", err)
	}
}
