package main

import (
	"strings"
	"testing"
)

// TestEmptyDataRefused: --data "" is refused in every command that has
// the flag, never read as the command's default data set (issue 38 item
// 11: eval --unit gcos|fpga --data "" priced cora).
func TestEmptyDataRefused(t *testing.T) {
	for _, args := range [][]string{
		{"eval", "--unit", "gcos", "--model", "../../examples/sage3.yaml", "--data", ""},
		{"eval", "--unit", "fpga", "--model", "../../examples/sage3.yaml", "--data", " "},
		{"gcos", "eval", "--model", "../../examples/sage3.yaml", "--data", ""},
		{"fpga", "eval", "--data", ""},
	} {
		_, _, err := run(t, args...)
		if err == nil || !strings.Contains(err.Error(), "--data is empty") {
			t.Errorf("%v: %v", args, err)
		}
	}
}

// TestDocsMatchBehaviour: what --help and the example specs offer is
// accepted (issue 38 item 13): fpga eval --help no longer offers float
// bits; gcos eval --help lists only the names it takes; repro seed000
// --quick writes to its own folder.
func TestDocsMatchBehaviour(t *testing.T) {
	out, _, _ := run(t, "fpga", "eval", "--help")
	if strings.Contains(out, "0.0,0.0") {
		t.Error("fpga eval --help offers --bits 0.0,0.0, which is refused")
	}
	out, _, _ = run(t, "gcos", "eval", "--help")
	if strings.Contains(out, "karate") {
		t.Error("gcos eval --help lists karate, which gcos eval refuses")
	}
	out, _, _ = run(t, "repro", "seed000", "--help")
	if !strings.Contains(out, "results/seed000-quick") {
		t.Error("repro seed000 --help: --quick does not name its own folder")
	}
}

// TestSocEvalCNNGraphOp: soc eval's row of a CNN says graph_op none, as a
// soc sweep's rows do, and --graph-op none is taken for a CNN, refused
// for a ViG (issue 38 item 11).
func TestSocEvalCNNGraphOp(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string // graph_op, or "" for an error
	}{
		{[]string{"--model", "googlenet"}, "none"},
		{[]string{"--model", "googlenet", "--graph-op", "none"}, "none"},
		{[]string{"--model", "vig-ti"}, "mrconv"},
		{[]string{"--model", "vig-ti", "--graph-op", "none"}, ""},
	} {
		out, _, err := run(t, append([]string{"soc", "eval", "--mapping", "gpu", "--json"}, tc.args...)...)
		if tc.want == "" {
			if err == nil {
				t.Errorf("%v: no error", tc.args)
			}
			continue
		}
		if err != nil || !strings.Contains(out, `"graph_op": "`+tc.want+`"`) {
			t.Errorf("%v: %v\n%s", tc.args, err, out)
		}
	}
}

// TestMessagesNameTheInput: a bad --arch model file is named in train's
// error; a Parquet trace on the SoC path says the path takes CSV traces
// rather than failing as CSV (issue 38 item 12).
func TestMessagesNameTheInput(t *testing.T) {
	bad := writeSpecFile(t, "bad-arch.yaml", "layers: [{kind: gcn, width: 0}]\n")
	_, _, err := run(t, "train", "--data", "cora", "--arch", bad, "--seeds", "1", "--epochs", "1")
	if err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("train --arch %s: %v, want the file named", bad, err)
	}
	pq := writeSpecFile(t, "trace.parquet", "PAR1")
	_, _, err = run(t, "schedule", "--job-models", "googlenet", "--arrivals", pq)
	if err == nil || !strings.Contains(err.Error(), "CSV traces") {
		t.Errorf("SoC path with a Parquet trace: %v", err)
	}
}
