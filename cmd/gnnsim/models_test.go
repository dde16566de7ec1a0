package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gnnsim/soc"
	"gnnsim/workload"
)

func TestModels(t *testing.T) {
	out := mustRun(t, "models")
	for _, name := range []string{"vig-s", "googlenet", "alexnet", "vgg16", "resnet50", "resnet101", "mobilenetv2"} {
		if !strings.Contains(out, "\n"+name+" ") {
			t.Errorf("models lacks %s:\n%s", name, out)
		}
	}
	var rows []workload.ZooRow
	if err := json.Unmarshal([]byte(mustRun(t, "models", "--json")), &rows); err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if r.Name == "resnet50" && (r.GMACs < 4.08 || r.GMACs > 4.10) {
			t.Errorf("resnet50: %.3f GMACs", r.GMACs)
		}
	}
}

func TestModelsShow(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "sage3.yaml")
	os.WriteFile(file, []byte("name: sage3\nlayers:\n  - {kind: sage, width: 64, aggregation: mean, activation: relu}\n  - {kind: sage, width: 64, aggregation: mean, activation: relu}\n  - {kind: sage, width: 7}\n"), 0o644)
	out := mustRun(t, "models", "show", file)
	if !strings.Contains(out, "model sage3: 3 blocks, 5 layers") || !strings.Contains(out, "layer0,layer1,layer2") {
		t.Errorf("show sage3:\n%s", out)
	}
	var m soc.ModelDescription
	if err := json.Unmarshal([]byte(mustRun(t, "models", "show", "googlenet", "--granularity", "layer", "--json")), &m); err != nil {
		t.Fatal(err)
	}
	if len(m.Segments) != 141 || len(m.Blocks) != 13 || m.Blocks[1].Layers[0].Name != "inception_3a/1x1" || m.Blocks[1].Layers[0].Grid != "28x28" {
		t.Errorf("show googlenet: %d segments, %d blocks, first module layer %+v", len(m.Segments), len(m.Blocks), m.Blocks[1].Layers[0])
	}
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte("layers: [{kind: lstm, width: 8}]\n"), 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"models", "show", "resnet34"}, "neither a zoo model"},
		{[]string{"models", "show", bad}, "layers[0].kind"},
		{[]string{"models", "show", file, "--nodes", "-3"}, "--nodes"},
		{[]string{"models", "show", "vig-s", "--granularity", "row"}, "--granularity"},
		{[]string{"models", "extra"}, "unknown command"},
	} {
		if _, _, err := run(t, tc.args...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want an error containing %q", tc.args, err, tc.want)
		}
	}
}
