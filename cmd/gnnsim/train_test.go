package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gnnsim/internal/pqio"
	"gnnsim/train"
)

// testDataDir is the shared data folder: GNNSIM_DATA, else ../shared/data
// beside the main checkout.
func testDataDir() string {
	if dir := os.Getenv("GNNSIM_DATA"); dir != "" {
		return dir
	}
	return filepath.Join("..", "..", "..", "shared", "data")
}

// planetoidData returns the shared Planetoid folder (env GNNSIM_DATA,
// else ../shared/data beside the repository), or skips.
func planetoidData(t *testing.T) string {
	t.Helper()
	p := filepath.Join(testDataDir(), "planetoid")
	if _, err := os.Stat(filepath.Join(p, "ind", "ind.cora.graph")); err != nil {
		t.Skipf("Planetoid data %s absent (set GNNSIM_DATA to the shared data folder): %v", p, err)
	}
	return p
}

func TestTrainCommand(t *testing.T) {
	cora := filepath.Join(planetoidData(t), "ind", "cora")
	args := []string{"train", "--data", cora, "--runs", "2", "--epochs", "20", "--bits", "w=1.5,a=2.4"}
	out := mustRun(t, args...)
	for _, want := range []string{"cora: 2708 nodes, 1433 features, 7 classes; split 140/500/1000",
		"network gcn:16x1:add:relu/gcn:0x1:add:linear", "20 epochs, Adam lr 0.01", "quantised to w=1.5,a=2.4",
		"test accuracy", "over 2 seeds; quantised"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if again := mustRun(t, append(args, "--workers", "1")...); again != out {
		t.Errorf("--workers 1 changed the output:\n%s\nvs\n%s", again, out)
	}
	js := mustRun(t, "train", "--data", cora, "--seeds", "1", "--epochs", "5", "--model", "gat",
		"--heads", "2", "--hidden", "4", "--aggregation", "mean", "--json")
	var rep map[string]json.RawMessage
	if err := json.Unmarshal([]byte(js), &rep); err != nil {
		t.Fatalf("--json output: %v\n%s", err, js)
	}
	for _, k := range []string{"data", "arch", "config", "bits", "runs", "test_mean", "test_std", "quant_test_mean", "quant_test_std"} {
		if _, ok := rep[k]; !ok {
			t.Errorf("--json lacks %q", k)
		}
	}
	if string(rep["arch"]) != `"gat:4x2:mean:elu/gat:0x1:mean:linear"` {
		t.Errorf("arch %s", rep["arch"])
	}
}

// writeModel writes a GNN stack model file of the given layer lines.
func writeModel(t *testing.T, name, layers string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte("name: m\nlayers:\n"+layers), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestTrainCommandSAGE trains GraphSAGE from --model sage and from issue
// 27's three-layer model file.
func TestTrainCommandSAGE(t *testing.T) {
	cora := filepath.Join(planetoidData(t), "ind", "cora")
	out := mustRun(t, "train", "--data", cora, "--model", "sage", "--seeds", "1", "--epochs", "5")
	for _, want := range []string{"network sage:64x1:mean:relu/sage:0x1:mean:linear", "weight decay 0.0005 (all weights)"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	file := writeModel(t, "sage3.yaml", "  - {kind: sage, width: 64, aggregation: mean, activation: relu}\n"+
		"  - {kind: sage, width: 64, aggregation: max, activation: relu}\n  - {kind: sage, width: 7}\n")
	out = mustRun(t, "train", "--data", cora, "--model", "sage", "--arch", file, "--seeds", "1", "--epochs", "5")
	if want := "network sage:64x1:mean:relu/sage:64x1:max:relu/sage:0x1:mean:linear"; !strings.Contains(out, want) {
		t.Errorf("output lacks %q:\n%s", want, out)
	}
}

func TestTrainCommandErrors(t *testing.T) {
	cora := filepath.Join(planetoidData(t), "ind", "cora")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"train"}, `required flag(s) "data" not set`},
		{[]string{"train", "--data", cora, "--model", "gin"}, "unknown model"},
		{[]string{"train", "--data", cora, "--arch", writeModel(t, "gin.yaml", "  - {kind: gin, width: 7}\n")}, "kind gin cannot be trained"},
		{[]string{"train", "--data", cora, "--arch", writeModel(t, "wide.yaml", "  - {kind: sage, width: 64}\n")}, "output layer width 64"},
		{[]string{"train", "--data", cora, "--arch", filepath.Join(t.TempDir(), "none.yaml")}, "--arch"},
		{[]string{"train", "--data", cora, "--arch", "gcn:16"}, "--arch"},
		{[]string{"train", "--data", cora, "--attention", "cos"}, "--attention"},
		{[]string{"train", "--data", cora, "--bits", "w=1.5"}, "--bits"},
		{[]string{"train", "--data", cora, "--runs", "0"}, "--runs 0"},
		{[]string{"train", "--data", cora, "--lr", "-1"}, "--lr -1: want a finite number above 0"},
		{[]string{"train", "--data", filepath.Join(planetoidData(t), "ind", "pubmed")}, "have no features"},
		{[]string{"train", "--data", filepath.Join(t.TempDir(), "cora")}, "no such file or directory"},
		{[]string{"train", "--data", t.TempDir()}, "not a node-classification set"},
		{[]string{"train", "--data", "coraa"}, "not a data set this command takes (cora, citeseer"},
		{[]string{"train", "--data", "ENZYMES"}, "without node labels"},
	} {
		if _, _, err := run(t, tc.args...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("gnnsim %s: error %v, want %q", strings.Join(tc.args, " "), err, tc.want)
		}
	}
}

// TestGraphsPlanetoid checks that 'graphs info' summarises both Planetoid
// forms and 'graphs load' writes their graphs.
func TestGraphsPlanetoid(t *testing.T) {
	dir := planetoidData(t)
	out := mustRun(t, "graphs", "info", filepath.Join(dir, "ind", "citeseer"))
	for _, want := range []string{"citeseer (planetoid:ind.citeseer)", "nodes     3327", "edges     4552",
		"features  3703", "classes   6", "unlabelled 15", "train 120, validation 500, test 1000"} {
		if !strings.Contains(out, want) {
			t.Errorf("info citeseer lacks %q:\n%s", want, out)
		}
	}
	out = mustRun(t, "graphs", "info", filepath.Join(dir, "ind", "pubmed"))
	if !strings.Contains(out, "nodes     19717") || !strings.Contains(out, "missing   ind.pubmed.allx absent") {
		t.Errorf("info pubmed:\n%s", out)
	}
	out = mustRun(t, "graphs", "info", filepath.Join(dir, "npz", "cora.npz"))
	if !strings.Contains(out, "cora (npz:cora.npz)") || !strings.Contains(out, "split     none") {
		t.Errorf("info cora.npz:\n%s", out)
	}
	pq := filepath.Join(t.TempDir(), "cora.parquet")
	for _, args := range [][]string{
		{"graphs", "load", filepath.Join(dir, "ind", "cora"), "--out", pq},
		{"graphs", "load", filepath.Join(dir, "ind", "ind.cora.x"), "--format", "planetoid", "--out", pq},
		{"graphs", "load", filepath.Join(dir, "npz", "cora.npz"), "--out", pq},
	} {
		if out := mustRun(t, args...); !strings.Contains(out, "wrote 1 graph (V 2708..2708, E 5278..5278)") {
			t.Errorf("gnnsim %s: %s", strings.Join(args, " "), out)
		}
	}
}

// TestTrainOut: --out writes the runs --json prints, one row per seed,
// with the training setting in the metadata.
func TestTrainOut(t *testing.T) {
	cora := filepath.Join(planetoidData(t), "ind", "cora")
	pq := filepath.Join(t.TempDir(), "train.parquet")
	js := mustRun(t, "train", "--data", cora, "--runs", "2", "--seed", "5", "--epochs", "5", "--bits", "w=1.5,a=2.4", "--json", "--out", pq)
	rep := decodeJSON[train.Report](t, js, false)[0]
	if len(rep.Runs) != 2 || rep.Runs[1].Seed != 6 {
		t.Fatalf("runs %+v: want seeds 5 and 6", rep.Runs)
	}
	checkOut(t, pq, rep.Runs, "train", "seed", "epoch", "val", "test", "quant_val", "quant_test")
	_, meta, err := pqio.Read[trainRunRow](pq)
	if err != nil {
		t.Fatal(err)
	}
	if meta["gnnsim.seed"] != "5" || meta["gnnsim.arch"] != rep.Arch || meta["gnnsim.bits"] != "w=1.5,a=2.4" || meta["gnnsim.data"] != rep.Data {
		t.Errorf("metadata %v", meta)
	}
}

// TestTrainSage3File: the shipped GraphSAGE model file reaches the trainer
// (its three layers, widths and activations), and --data cora by name
// trains what the Planetoid path trains.
func TestTrainSage3File(t *testing.T) {
	cora := filepath.Join(planetoidData(t), "ind", "cora")
	args := []string{"train", "--model", "sage", "--arch", exampleSage3, "--seeds", "1", "--epochs", "2", "--json"}
	js := mustRun(t, append(args, "--data", "cora", "--data-dir", testDataDir())...)
	var rep train.Report
	if err := json.Unmarshal([]byte(js), &rep); err != nil {
		t.Fatalf("--json output: %v\n%s", err, js)
	}
	if want := "sage:64x1:mean:relu/sage:64x1:mean:relu/sage:0x1:mean:linear"; rep.Arch != want || rep.Data != "cora" {
		t.Errorf("data %q arch %q, want cora and %q", rep.Data, rep.Arch, want)
	}
	if byPath := mustRun(t, append(args, "--data", cora)...); byPath != js {
		t.Errorf("--data cora and --data %s differ:\n%s\n%s", cora, js, byPath)
	}
}

// TestTrainSeedsList: --seeds is a list of seeds and --runs the count that
// --seeds N was: --seeds 5,6 trains what --runs 2 --seed 5 trains, the two
// exclude each other, and a one-seed list says N is no longer a count.
func TestTrainSeedsList(t *testing.T) {
	cora := filepath.Join(planetoidData(t), "ind", "cora")
	base := []string{"train", "--data", cora, "--epochs", "3", "--json"}
	pq := filepath.Join(t.TempDir(), "seeds.parquet")
	list := mustRun(t, append(base, "--seeds", "5,6", "--out", pq)...)
	if _, meta, err := pqio.Read[trainRunRow](pq); err != nil || meta["gnnsim.seed"] != "5" {
		t.Errorf("--seeds 5,6 --out: metadata %v, %v: want gnnsim.seed 5, the first seed trained", meta, err)
	}
	count := mustRun(t, append(base, "--runs", "2", "--seed", "5")...)
	if list != count {
		t.Errorf("--seeds 5,6 and --runs 2 --seed 5 differ:\n%s\n%s", list, count)
	}
	rep := decodeJSON[train.Report](t, list, false)[0]
	if len(rep.Runs) != 2 || rep.Runs[0].Seed != 5 || rep.Runs[1].Seed != 6 || rep.Config.Seed != 5 {
		t.Errorf("runs %+v config seed %d: want seeds 5 and 6", rep.Runs, rep.Config.Seed)
	}
	_, stderr, err := run(t, append(base, "--seeds", "7")...)
	if err != nil || !strings.Contains(stderr, "--runs 7") {
		t.Errorf("--seeds 7: err %v, stderr %q: want a note naming --runs 7", err, stderr)
	}
	for _, args := range [][]string{{"--seeds", "1,2", "--runs", "2"}, {"--seeds", "1,x"}, {"--seeds", "3,3"}} {
		if _, _, err := run(t, append(base, args...)...); err == nil || !strings.Contains(err.Error(), "--seeds") {
			t.Errorf("%v: err %v, want a --seeds error", args, err)
		}
	}
}
