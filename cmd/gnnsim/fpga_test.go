package main

import (
	"bytes"
	"encoding/json"
	"gnnsim/bench"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

func TestFPGAEval(t *testing.T) {
	var out bytes.Buffer
	c := fpgaCmd()
	c.SetOut(&out)
	c.SetErr(&out)
	c.SetArgs([]string{"eval", "--data", "cora", "--tiles", "8,8,8,8,8", "--bits", "2.5,2.5", "--json", "--lut", "100000", "--dsp", "10", "--latency-ms", "1"})
	if err := c.Execute(); err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	for _, k := range []string{"stages", "summed_cycles", "pipelined_cycles", "lut", "dsp", "feasible"} {
		if _, ok := got[k]; !ok {
			t.Errorf("no key %q", k)
		}
	}
	out.Reset()
	c = fpgaCmd()
	c.SetOut(&out)
	c.SetArgs([]string{"eval", "--arch", "gat/mean/elu/8x4;gat/mean/elu/7x2", "--dsp", "10"})
	if err := c.Execute(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "feasible: no (DSP") {
		t.Errorf("two ELU layers with GAT under 10 DSPs: %s", out.String())
	}
	c = fpgaCmd()
	c.SetOut(&out)
	c.SetErr(&out)
	c.SetArgs([]string{"eval", "--arch", "gcn/add/bogus/8"})
	if err := c.Execute(); err == nil {
		t.Error("bad activation accepted")
	}
}

// TestFPGAEvalSAGE prices GraphSAGE designs, from --arch and from a model
// file, and checks that the authors' model refuses them with a clear error.
func TestFPGAEvalSAGE(t *testing.T) {
	file := t.TempDir() + "/sage3.yaml"
	yaml := "name: sage3\nlayers:\n  - {kind: sage, width: 64, aggregation: mean, activation: relu}\n" +
		"  - {kind: sage, width: 64, aggregation: max, activation: relu}\n  - {kind: sage, width: 7}\n"
	if err := os.WriteFile(file, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		args []string
		err  string
	}{
		{"arch", []string{"--arch", "sage/mean/relu/64;sage/max/linear/7"}, ""},
		{"file", []string{"--arch", file}, ""},
		{"fgnas-code", []string{"--arch", file, "--model", "fgnas-code"}, "has no sage layer"},
		{"heads", []string{"--arch", "sage/mean/relu/64x2;sage/max/linear/7"}, "sage with 2 heads"},
		{"missing file", []string{"--arch", t.TempDir() + "/none.yaml"}, "--arch"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out bytes.Buffer
			cmd := fpgaCmd()
			cmd.SetOut(&out)
			cmd.SetErr(&out)
			cmd.SetArgs(append([]string{"eval", "--data", "cora", "--json"}, c.args...))
			err := cmd.Execute()
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want one containing %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got struct {
				Summed int64 `json:"summed_cycles"`
			}
			if err := json.Unmarshal(out.Bytes(), &got); err != nil || got.Summed <= 0 {
				t.Fatalf("%v, %d cycles: %s", err, got.Summed, out.String())
			}
		})
	}
}

// TestFPGAEvalOut: --out writes the object --json prints (stages as a list
// column), with the run's metadata.
func TestFPGAEvalOut(t *testing.T) {
	pq := filepath.Join(t.TempDir(), "fpga.parquet")
	out := mustRun(t, "fpga", "eval", "--data", "cora", "--lut", "1000", "--pipelined", "--json", "--out", pq)
	recs := decodeJSON[fpgaEvalRecord](t, out, false)
	if len(recs[0].Stages) != 8 || recs[0].Feasible || recs[0].Over == "" {
		t.Fatalf("2 layers x 4 stages, over 1000 LUTs expected: %+v", recs[0])
	}
	checkOut(t, pq, recs, "fpga eval", "summed_cycles", "feasible", "over")
}

// TestFPGAEvalDataPath: Cora's statistics measured from its files (the
// Planetoid set and the .npz file) equal the published ones the name
// gives, so a design prices the same either way.
func TestFPGAEvalDataPath(t *testing.T) {
	p := planetoidData(t)
	byName := mustRun(t, "fpga", "eval", "--data", "cora", "--json")
	for _, path := range []string{filepath.Join(p, "ind", "cora"), filepath.Join(p, "npz", "cora.npz")} {
		if got := mustRun(t, "fpga", "eval", "--data", path, "--json"); got != byName {
			t.Errorf("--data %s:\n%s\ndiffers from --data cora:\n%s", path, got, byName)
		}
	}
}

// fpgaCmd is the 'fpga' group as the table makes it.
func fpgaCmd() *cobra.Command {
	for _, k := range bench.CommandKinds() {
		if k.Name == "fpga" {
			return newKindGroup(k)
		}
	}
	panic("no fpga kind")
}
