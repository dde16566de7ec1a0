package predict

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gnnsim/accel"
	"gnnsim/graphs"
)

// handModel returns a LightGBM v3 text model over the base features with
// one tree: lo for V <= 100, hi above.
func handModel(lo, hi float64) string {
	names := Base.Names()
	tree := fmt.Sprintf(`Tree=0
num_leaves=2
num_cat=0
split_feature=0
split_gain=1
threshold=100.5
decision_type=2
left_child=-1
right_child=-2
leaf_value=%v %v
leaf_weight=5 5
leaf_count=5 5
internal_value=0
internal_weight=10
internal_count=10
is_linear=0
shrinkage=1

`, lo, hi)
	infos := make([]string, len(names))
	for i := range infos {
		infos[i] = "none"
	}
	infos[0] = "[10:1000]"
	return fmt.Sprintf(`tree
version=v3
num_class=1
num_tree_per_iteration=1
label_index=0
max_feature_idx=%d
objective=regression
feature_names=%s
feature_infos=%s
tree_sizes=%d

%s
end of trees

parameters:
[objective: regression]
end of parameters

pandas_categorical:null
`, len(names)-1, strings.Join(names, " "), strings.Join(infos, " "), len(tree)+1, tree)
}

// handLatency is the latency the hand-written model of configuration c
// gives: pp-b (c = 17) is the fastest.
func handLatency(c int, big bool) float64 {
	l := 1000 + 10*float64((c+7)%NumConfigs)
	if big {
		l *= 3
	}
	return l
}

// writeSidecarDir writes 24 hand-written models (predicting log cycles)
// and a sidecar edited by edit.
func writeSidecarDir(t *testing.T, edit func(*Sidecar)) string {
	t.Helper()
	dir := t.TempDir()
	s := Sidecar{Format: SidecarFormat, FeatureNames: Base.Names(), Log: true, BestFixed: "sp-c"}
	for c, name := range ConfigNames() {
		file := fmt.Sprintf("model_%02d.txt", NumConfigs-1-c) // any names, any order
		text := handModel(math.Log(handLatency(c, false)), math.Log(handLatency(c, true)))
		if err := os.WriteFile(filepath.Join(dir, file), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		s.Models = append([]SidecarModel{{Config: name, File: file}}, s.Models...)
	}
	if edit != nil {
		edit(&s)
	}
	data, err := json.MarshalIndent(&s, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, SidecarFile), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestLoadSidecar(t *testing.T) {
	p, err := LoadPredictor(writeSidecarDir(t, nil))
	if err != nil {
		t.Fatal(err)
	}
	if man := p.Manifest(); man.Variant() != "base+log" || man.Baseline != "none" || man.Models[0].Trees != 1 || man.Modes[0] != "extended" {
		t.Errorf("manifest %+v", man)
	}
	for _, tc := range []struct {
		nodes int
		big   bool
	}{{50, false}, {250, true}} {
		g, err := graphs.Generate(graphs.GenSpec{Generator: "er", Seed: 9, MinNodes: tc.nodes, MaxNodes: tc.nodes, Params: map[string]float64{"avg_degree": 4}}, 0)
		if err != nil {
			t.Fatal(err)
		}
		var out [NumConfigs]float64
		best, err := p.PredictGraph(g, 16, 16, accel.DefaultHW(), out[:])
		if err != nil {
			t.Fatal(err)
		}
		if best != 17 {
			t.Errorf("V=%d: best %s, want pp-b", tc.nodes, ConfigNames()[best])
		}
		for c, v := range out {
			if want := handLatency(c, tc.big); math.Abs(v-want) > 1e-9*want {
				t.Errorf("V=%d %s: %v cycles, want %v", tc.nodes, ConfigNames()[c], v, want)
			}
		}
	}
	other := accel.DefaultHW()
	other.PEs = 256
	var out [NumConfigs]float64
	if _, err := p.PredictGraph(mustGraph(t), 16, 16, other, out[:]); err == nil {
		t.Error("hardware the sidecar does not list was accepted")
	}
}

func mustGraph(t *testing.T) *graphs.Graph {
	t.Helper()
	g, err := graphs.Generate(graphs.GenSpec{Generator: "er", Seed: 1, MinNodes: 30, MaxNodes: 30, Params: map[string]float64{"avg_degree": 3}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestLoadSidecarErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(*Sidecar)
		want string
	}{
		{"format", func(s *Sidecar) { s.Format = "x" }, "format"},
		{"features", func(s *Sidecar) { s.FeatureNames = s.FeatureNames[1:] }, "feature_names"},
		{"full names, base models", func(s *Sidecar) { s.FeatureNames = Full.Names() }, "features"},
		{"missing config", func(s *Sidecar) { s.Models = s.Models[1:] }, "no file for"},
		{"twice", func(s *Sidecar) { s.Models[1].Config = s.Models[0].Config }, "twice"},
		{"unknown config", func(s *Sidecar) { s.Models[0].Config = "xx-z" }, "not a configuration"},
		{"escape", func(s *Sidecar) { s.Models[0].File = "../m.txt" }, "plain name"},
		{"best fixed", func(s *Sidecar) { s.BestFixed = "" }, "best_fixed"},
		{"hardware", func(s *Sidecar) { s.Hardware = []PEArray{{PEs: 1}} }, "hardware"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := LoadPredictor(writeSidecarDir(t, tc.edit))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
	if _, err := LoadPredictor(t.TempDir()); err == nil || !strings.Contains(err.Error(), SidecarFile) {
		t.Errorf("empty directory: error %v, want one naming %s", err, SidecarFile)
	}
	dir := writeSidecarDir(t, nil)
	if err := os.WriteFile(filepath.Join(dir, SidecarFile), []byte(`{"format":"gnnsim-lightgbm-sidecar/1","bogus":1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadPredictor(dir); err == nil || !strings.Contains(err.Error(), "bogus") {
		t.Errorf("unknown key: error %v", err)
	}
}

// TestSidecarDocExample checks that the base feature names of the package
// doc's example are Base.Names().
func TestSidecarDocExample(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	want := `"` + strings.Join(Base.Names(), `", "`) + `"`
	var got []string
	for _, l := range strings.Split(string(doc), "\n") {
		if i := strings.Index(l, `"feature_names": [`); i >= 0 {
			got = append(got, l[i+len(`"feature_names": [`):])
		} else if len(got) > 0 && !strings.Contains(strings.Join(got, " "), "]") {
			got = append(got, strings.TrimSpace(strings.TrimPrefix(l, "//\t")))
		}
	}
	if s := strings.TrimSuffix(strings.Join(got, " "), "],"); s != want {
		t.Errorf("doc example lists %s, want %s", s, want)
	}
}
