package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gnnsim/accel"
	"gnnsim/accel/fpgaref"
	"gnnsim/accel/omegaref"
	"gnnsim/nas/fgnas"
	"gnnsim/soc"
)

// The rows eval --json prints, as the tests decode them.
type (
	simRecord        = accel.Record
	fpgaEvalRecord   = fgnas.EvalRecord
	omegaValidateRow = omegaref.LongRow
	fgnasValidateRow = fpgaref.LongRow
	socCorunRecord   = soc.CoRunRecord
)

// karateGraph is the Matrix Market karate club graph of the shared data.
func karateGraph(t *testing.T) string {
	t.Helper()
	p := filepath.Join(testDataDir(), "matrix-market", "karate.mtx")
	if _, err := os.Stat(p); err != nil {
		t.Skipf("%s absent (set GNNSIM_DATA to the shared data folder): %v", p, err)
	}
	return p
}

// sage3Layers is issue 27's three-layer GraphSAGE, hidden 64.
const sage3Layers = `  - {kind: sage, width: 64, aggregation: mean, activation: relu}
  - {kind: sage, width: 64, aggregation: mean, activation: relu}
  - {kind: sage, width: 7}
`

// TestEvalEqualsUnitCommand checks that eval prints byte for byte what the
// unit's own command prints for the same model and setting.
func TestEvalEqualsUnitCommand(t *testing.T) {
	gcn2 := writeModel(t, "gcn2.yaml", "  - {kind: gcn, width: 8, activation: relu}\n  - {kind: gcn, width: 7}\n")
	gcn2relu := writeModel(t, "gcn2relu.yaml", "  - {kind: gcn, width: 8, activation: relu}\n  - {kind: gcn, width: 7, activation: relu}\n")
	tests := []struct {
		name       string
		eval, orig []string
		graph      bool // needs karate.mtx, appended to both
	}{
		{"soc vig-s gpu",
			[]string{"eval", "--unit", "soc", "--model", "vig-s", "--mapping", "gpu", "--json"},
			[]string{"soc", "eval", "--model", "vig-s", "--mapping", "gpu", "--json"}, false},
		{"soc text, dvfs, layers",
			[]string{"eval", "--unit", "soc", "--model", "pvig-ti", "--mapping", "dla", "--dvfs", "emc=1600", "--layers"},
			[]string{"soc", "eval", "--model", "pvig-ti", "--mapping", "dla", "--dvfs", "emc=1600", "--layers"}, false},
		{"fpga cora design",
			[]string{"eval", "--unit", "fpga", "--model", gcn2, "--data", "cora", "--json"},
			[]string{"fpga", "eval", "--data", "cora", "--arch", "gcn/add/relu/8;gcn/add/none/7", "--json"}, false},
		{"fpga citeseer, tiles and bits",
			[]string{"eval", "--unit", "fpga", "--model", gcn2relu, "--data", "citeseer", "--tiles", "4,4,4,4,4", "--bits", "4.4,4.4", "--cost-model", "fgnas-code"},
			[]string{"fpga", "eval", "--data", "citeseer", "--arch", gcn2relu, "--tiles", "4,4,4,4,4", "--bits", "4.4,4.4", "--model", "fgnas-code"}, false},
		{"omega one gcn layer",
			[]string{"eval", "--unit", "omega", "--model", writeModel(t, "gcn1.yaml", "  - {kind: gcn, width: 16}\n"), "--features", "32", "--json", "--graph"},
			[]string{"simulate", "--F", "32", "--G", "16", "--json", "--graphs"}, true},
		{"omega sage, pp, mode omega",
			[]string{"eval", "--unit", "omega", "--model", writeSpecFile(t, "sage1.yaml", "name: s\nfeatures: 48\nlayers:\n  - {kind: sage, width: 8}\n"), "--dataflow", "pp", "--tiling", "a,c", "--mode", "omega", "--data"},
			[]string{"simulate", "--layer", "sage", "--F", "48", "--G", "8", "--dataflow", "pp", "--tiling", "a,c", "--mode", "omega", "--graphs"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			eval, orig := tt.eval, tt.orig
			if tt.graph {
				g := karateGraph(t)
				eval, orig = append(eval, g), append(orig, g)
			}
			got, want := mustRun(t, eval...), mustRun(t, orig...)
			if got != want {
				t.Errorf("gnnsim %s\n%s\ndiffers from gnnsim %s\n%s", strings.Join(eval, " "), got, strings.Join(orig, " "), want)
			}
		})
	}
}

// writeSpecFile writes a whole model file.
func writeSpecFile(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestEvalSAGE3 evaluates issue 27's three-layer GraphSAGE on the FPGA:
// three layers of four stages, and the same design as fpga eval --arch
// FILE prices.
func TestEvalSAGE3(t *testing.T) {
	sage3 := writeModel(t, "sage3.yaml", sage3Layers)
	got := mustRun(t, "eval", "--unit", "fpga", "--model", sage3, "--json")
	if want := mustRun(t, "fpga", "eval", "--data", "cora", "--arch", sage3, "--json"); got != want {
		t.Errorf("eval --unit fpga differs from fpga eval --arch:\n%s\n%s", got, want)
	}
	if n := strings.Count(got, `"stage"`); n != 12 {
		t.Errorf("%d stages, want 3 layers x 4", n)
	}
	// The soc path runs a model file on a graph: without one it says so
	// (TestSocEvalModelFile runs it).
	_, _, err := run(t, "eval", "--unit", "soc", "--model", sage3)
	if err == nil || !strings.Contains(err.Error(), "give the graph it runs on with --data") {
		t.Errorf("soc with a model file: %v", err)
	}
}

func TestEvalBadInput(t *testing.T) {
	bad := writeModel(t, "bad.yaml", "  - {kind: lstm, width: 4}\n")
	sage3 := writeModel(t, "sage3.yaml", sage3Layers)
	tests := []struct {
		name string
		args []string
		want []string // substrings of the error
	}{
		{"unknown unit", []string{"--unit", "gpu", "--model", "vig-s"}, []string{`--unit "gpu"`, "omega, soc, fpga"}},
		{"missing model file", []string{"--unit", "fpga", "--model", filepath.Join(t.TempDir(), "none.yaml")}, []string{"none.yaml", "neither a zoo model"}},
		{"unknown kind", []string{"--unit", "fpga", "--model", bad}, []string{"layers[0].kind", `"lstm"`}},
		{"fpga with a CNN", []string{"--unit", "fpga", "--model", "alexnet"}, []string{"layer conv1 (conv)", "no FPGA pipeline"}},
		{"fpga with a ViG", []string{"--unit", "fpga", "--model", "vig-s"}, []string{"layer stem/0:conv"}},
		{"omega without a graph", []string{"--unit", "omega", "--model", sage3}, []string{"--graph PATH or --data NAME|PATH"}},
		{"unit option of another unit", []string{"--unit", "soc", "--model", "vig-s", "--tiles", "8,8,8,8,8"}, []string{"--tiles", "--unit fpga"}},
		{"fpga data folder", []string{"--unit", "fpga", "--model", sage3, "--data", t.TempDir()}, []string{"not a node-classification set"}},
		{"unknown data name", []string{"--unit", "fpga", "--model", sage3, "--data", "corra"}, []string{`--data "corra"`, "not a data set this command takes (cora, citeseer, pubmed, reddit"}},
		{"omega data without files", []string{"--unit", "omega", "--model", sage3, "--data", "reddit"}, []string{"--data reddit", "published statistics"}},
		{"fpga reddit", []string{"--unit", "fpga", "--model", sage3, "--data", "reddit"}, []string{"cora, citeseer and pubmed"}},
		{"graph and data", []string{"--unit", "omega", "--model", sage3, "--graph", "a", "--data", "b"}, []string{"exclude each other"}},
		{"missing model", []string{"--unit", "soc"}, []string{`"model"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := run(t, append([]string{"eval"}, tt.args...)...)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

// TestEvalOmegaNamesLayer: the Omega model refuses a layer it does not
// model by its name, as models show prints it (an activation before it is
// fused, not refused).
func TestEvalOmegaNamesLayer(t *testing.T) {
	g := karateGraph(t)
	for _, tt := range []struct{ model, want string }{
		{"vig-s", "layer stem/0:conv"},
		{writeModel(t, "fc.yaml", "  - {kind: gcn, width: 8, activation: relu}\n  - {kind: fc, width: 4}\n"), "layer layer1: accel: fc layers are not modelled"},
	} {
		_, _, err := run(t, "eval", "--unit", "omega", "--model", tt.model, "--graph", g)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("omega %s: error %v, want it to name %q", tt.model, err, tt.want)
		}
	}
}

// TestEvalHelp: --help names every flag's unit and every output field.
func TestEvalHelp(t *testing.T) {
	out := mustRun(t, "eval", "--help")
	for _, w := range []string{"--unit", "--model", "--graph", "--data", "--features", "--json",
		"--mapping", "--dvfs", "--tiles", "--bits", "--cost-model", "--dataflow", "--tiling", "--hw", "--spec",
		"cycles", "latency_ms", "summed_cycles", "feasible", "busy_ms"} {
		if !strings.Contains(out, w) {
			t.Errorf("eval --help lacks %q", w)
		}
	}
}

// exampleSage3 is the shipped 3-layer GraphSAGE model file (issue 27).
const exampleSage3 = "../../examples/sage3.yaml"

// TestEvalSage3Out evaluates the shipped GraphSAGE model file on omega
// (its activations fused, one row per sage layer) and fpga, by data set
// name, and checks that --out writes what --json prints.
func TestEvalSage3Out(t *testing.T) {
	karateGraph(t) // skips without the shared data
	dir := t.TempDir()
	pq := filepath.Join(dir, "omega.parquet")
	js := mustRun(t, "eval", "--unit", "omega", "--model", exampleSage3, "--data", "karate", "--data-dir", testDataDir(),
		"--features", "16", "--dataflow", "seq", "--tiling", "a", "--json", "--out", pq)
	recs := decodeJSON[simRecord](t, js, true)
	var got []string
	for _, r := range recs {
		got = append(got, fmt.Sprintf("%s %s %dx%d", r.Graph, r.Layer, r.F, r.G))
		if r.Cycles <= 0 {
			t.Errorf("%s: %d cycles", r.Layer, r.Cycles)
		}
	}
	if want := []string{"karate sage 16x64", "karate sage 64x64", "karate sage 64x7"}; !slices.Equal(got, want) {
		t.Errorf("omega rows %v, want %v (activations fused, no rows)", got, want)
	}
	checkOut(t, pq, recs, "eval", "layer", "cycles")
	if byPath := mustRun(t, "eval", "--unit", "omega", "--model", exampleSage3, "--graph", karateGraph(t),
		"--features", "16", "--dataflow", "seq", "--tiling", "a", "--json"); byPath != js {
		t.Errorf("--data karate and --graph %s differ", karateGraph(t))
	}

	pq = filepath.Join(dir, "fpga.parquet")
	js = mustRun(t, "eval", "--unit", "fpga", "--model", exampleSage3, "--data", "cora", "--json", "--out", pq)
	frecs := decodeJSON[fpgaEvalRecord](t, js, false)
	if len(frecs[0].Stages) != 12 || frecs[0].Data != "cora" {
		t.Fatalf("3 layers x 4 stages on cora expected: %+v", frecs[0])
	}
	checkOut(t, pq, frecs, "eval", "summed_cycles", "feasible")
}

// TestEvalOmegaDataFeatures: on a node-classification set named by --data
// the stack's input width is the set's features (Cora: 1,433), as on the
// soc and fpga paths; --features overrides it.
func TestEvalOmegaDataFeatures(t *testing.T) {
	planetoidData(t)
	args := []string{"eval", "--unit", "omega", "--model", exampleSage3, "--data", "cora", "--data-dir", testDataDir(),
		"--dataflow", "seq", "--tiling", "a", "--engine", "fast", "--json"}
	for _, tt := range []struct {
		extra []string
		f     int
	}{{nil, 1433}, {[]string{"--features", "32"}, 32}} {
		recs := decodeJSON[simRecord](t, mustRun(t, append(args, tt.extra...)...), true)
		if len(recs) != 3 || recs[0].F != tt.f || recs[0].Graph != "cora" || recs[0].Nodes != 2708 {
			t.Errorf("%v: %d rows, first %+v; want 3 on cora with F = %d", tt.extra, len(recs), recs[0], tt.f)
		}
	}
}
