package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"gnnsim/bench"
	"gnnsim/soc"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"gnnsim/internal/pqio"
)

// socEvalCommands are the SoC evaluation commands, eval (from the kinds'
// table) and units.
func socEvalCommands() []*cobra.Command {
	for _, k := range bench.Kinds() {
		if k.Name == "soc" {
			return []*cobra.Command{kindEvalCmd("soc"), newKindCmd(k.Extras[0])}
		}
	}
	panic("no soc kind")
}

// runSoc runs a command line under a "gnnsim soc" group made of
// socEvalCommands.
func runSoc(t *testing.T, args ...string) (string, error) {
	t.Helper()
	root := &cobra.Command{Use: "gnnsim", SilenceUsage: true, SilenceErrors: true}
	group := &cobra.Command{Use: "soc", Short: "SoC"}
	group.AddCommand(socEvalCommands()...)
	root.AddCommand(group)
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetArgs(append([]string{"soc"}, args...))
	var err error
	func() {
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("gnnsim soc %s: panic: %v\n%s", strings.Join(args, " "), r, debug.Stack())
			}
		}()
		err = root.Execute()
	}()
	return out.String(), err
}

func TestSocEvalJSON(t *testing.T) {
	out, err := runSoc(t, "eval", "--model", "vig-s", "--graph-op", "gin", "--mapping", "dla", "--precision", "fp32", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &obj); err != nil {
		t.Fatalf("not a JSON object: %v\n%s", err, out)
	}
	for _, k := range []string{"latency_ms", "energy_mj", "power_w", "transitions", "busy_ms", "units", "mapping", "dvfs"} {
		if _, ok := obj[k]; !ok {
			t.Errorf("JSON lacks %q", k)
		}
	}
	var rec soc.Report
	if err := json.Unmarshal([]byte(out), &rec); err != nil {
		t.Fatal(err)
	}
	// GIN on the DLA: Table 2 gives 39.62 ms; the calibration (MaGNAS's
	// FP32 GPU engines) keeps 15 %.
	if rec.LatencyMS < 39.62*0.85 || rec.LatencyMS > 39.62*1.15 || rec.Transitions != 0 || rec.Segments != 34 {
		t.Errorf("vig-s gin on dla: %+v", rec)
	}
}

func TestSocEvalPipelineAndParquet(t *testing.T) {
	dir := t.TempDir()
	mapFile := filepath.Join(dir, "map.txt")
	m := strings.Repeat("G,", 17) + strings.TrimSuffix(strings.Repeat("D,", 17), ",")
	if err := os.WriteFile(mapFile, []byte("# half and half\n"+m+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	pq := filepath.Join(dir, "r.parquet")
	out, err := runSoc(t, "eval", "--mapping-file", mapFile, "--dvfs", "gpu=905.25,emc=1600", "--frames", "20", "--out", pq)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"throughput", "latency p50 / p99", "utilisation dla", "memory stall", "1 (0."} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	rows, meta, err := pqio.Read[soc.Report](pq)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 || rows[0].Frames != 20 || len(rows[0].BusyMS) != 2 || meta["gnnsim.command"] != "soc eval" || !strings.Contains(meta["gnnsim.flags"], "--dvfs=gpu=905.25,emc=1600") {
		t.Errorf("Parquet rows %+v, meta %v", rows, meta)
	}
}

func TestSocUnits(t *testing.T) {
	out, err := runSoc(t, "units")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"unit gpu", "unit dla", "falls back to gpu", "1377", "1395.2", "136.5", "memory emc"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	js, err := runSoc(t, "units", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var rec soc.UnitsReport
	if err := json.Unmarshal([]byte(js), &rec); err != nil || len(rec.Units) != 2 || len(rec.Units[0].Points) != 14 || len(rec.MemPoints) != 9 {
		t.Errorf("units JSON: %v %+v", err, rec)
	}
}

func TestSocBadCommandLines(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing")
	badSpec := filepath.Join(dir, "bad.yaml")
	os.WriteFile(badSpec, []byte("units: [{name: gpu, peak_flops: -1}]\n"), 0o644)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"eval", "--graph-op", "gat"}, "--graph-op"},
		{[]string{"eval", "--model", "resnet"}, "neither a zoo model"},
		{[]string{"eval", "--mapping", "npu"}, `unknown unit "npu"`},
		{[]string{"eval", "--mapping", "G,D"}, "2 units for 34 segments"},
		{[]string{"eval", "--dvfs", "gpu=1000"}, "not an operating point"},
		{[]string{"eval", "--dvfs", "pva=1000"}, "unknown clock domain"},
		{[]string{"eval", "--power-mode", "20W"}, "unknown power mode"},
		{[]string{"eval", "--power-mode", "10W", "--dvfs", "gpu=1377"}, "exceeds power mode MODE_10W"},
		{[]string{"eval", "--precision", "fp8"}, "precision"},
		{[]string{"eval", "--mapping", "G,D"}, "segments: 0:stem"},
		{[]string{"eval", "--granularity", "row"}, "--granularity"},
		{[]string{"eval", "--mapping", "gpu", "--mapping-file", missing}, "exclude each other"},
		{[]string{"eval", "--mapping-file", missing}, "missing"},
		{[]string{"eval", "--spec", badSpec}, "bytes_per_cycle"},
		{[]string{"eval", "--table", missing + ".csv"}, "missing"},
		{[]string{"eval", "--frames", "-1"}, "--frames -1: want 0 to"},
		{[]string{"eval", "extra"}, "unknown command"},
		{[]string{"units", "--spec", missing}, "missing"},
	}
	for _, tt := range tests {
		_, err := runSoc(t, tt.args...)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("soc %s: err = %v, want one containing %q", strings.Join(tt.args, " "), err, tt.want)
		}
	}
}

// TestSocHelp: every command and flag explains itself (as TestHelp checks
// for the registered commands).
func TestSocHelp(t *testing.T) {
	for _, c := range socEvalCommands() {
		if strings.TrimSpace(c.Short) == "" || strings.TrimSpace(c.Long) == "" {
			t.Errorf("%s: missing Short or Long help", c.Name())
		}
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if strings.TrimSpace(f.Usage) == "" {
				t.Errorf("%s --%s: no usage", c.Name(), f.Name)
			}
		})
		out, err := runSoc(t, c.Name(), "--help")
		if err != nil {
			t.Fatal(err)
		}
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if !strings.Contains(out, "--"+f.Name) {
				t.Errorf("%s --help lacks --%s", c.Name(), f.Name)
			}
		})
	}
}

// TestSocEvalModelFile: the shipped GraphSAGE model file runs on the SoC
// on Cora's graph (by name): one segment per layer, soc eval and 'eval
// --unit soc' print the same, and the errors name what is missing.
func TestSocEvalModelFile(t *testing.T) {
	planetoidData(t)
	dir := testDataDir()
	args := []string{"--model", exampleSage3, "--data", "cora", "--data-dir", dir, "--mapping", "G,D,G", "--json"}
	js := mustRun(t, append([]string{"soc", "eval"}, args...)...)
	if ev := mustRun(t, append([]string{"eval", "--unit", "soc"}, args...)...); ev != js {
		t.Errorf("eval --unit soc differs from soc eval:\n%s\n%s", ev, js)
	}
	rec := decodeJSON[soc.Report](t, js, false)[0]
	if rec.Model != "sage3" || rec.Segments != 3 || rec.GraphOp != "" || rec.Mapping != "gpu,dla,gpu" || rec.Transitions < 1 || !(rec.LatencyMS > 0) {
		t.Errorf("record %+v: want sage3, 3 segments, no graph op, mapping gpu,dla,gpu with transitions, a latency", rec)
	}
	gpu := decodeJSON[soc.Report](t, mustRun(t, "soc", "eval", "--model", exampleSage3, "--data", "cora", "--data-dir", dir, "--mapping", "gpu", "--json"), false)[0]
	if !(gpu.LatencyMS > 0) || gpu.Transitions != 0 {
		t.Errorf("all-GPU record %+v", gpu)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"soc", "eval", "--model", exampleSage3}, "give the graph it runs on with --data"},
		{[]string{"soc", "eval", "--model", "vig-s", "--data", "cora"}, "a zoo model brings its own input"},
		{[]string{"soc", "eval", "--model", exampleSage3, "--data", "karate", "--data-dir", dir}, "--features"},
		{[]string{"soc", "eval", "--model", exampleSage3, "--data", "cora", "--data-dir", dir, "--mapping", "G,D"}, "layer0"},
		{[]string{"soc", "eval", "--model", exampleSage3, "--data", "cora", "--data-dir", dir, "--graph-op", "gin"}, "--graph-op"},
	} {
		if _, _, err := run(t, tt.args...); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("gnnsim %s: error %v, want %q", strings.Join(tt.args, " "), err, tt.want)
		}
	}
}
