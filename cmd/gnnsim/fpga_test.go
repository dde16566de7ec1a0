package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
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
