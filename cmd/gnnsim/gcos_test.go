package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSearchGcosHardwareOnly(t *testing.T) {
	c := searchGcosCmd()
	var out bytes.Buffer
	c.SetOut(&out)
	c.SetErr(&out)
	c.SetArgs([]string{"--data", "pubmed", "--model", "gcn", "--evaluations", "30", "--pool", "10", "--top", "2", "--data-dir", t.TempDir()})
	if err := c.Execute(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "pubmed: 30 evaluations") || !strings.Contains(out.String(), "2. fitness") {
		t.Errorf("output:\n%s", out.String())
	}
	old := t.TempDir() // the old --data: the data folder
	if err := os.Mkdir(filepath.Join(old, "planetoid"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--data", "nope"}, "not a data set this command takes"},
		{[]string{"--dataset", "nope"}, "not a data set this command takes"},
		{[]string{"--model", "nope"}, "--model"},
		{[]string{"--lat-weight", "2"}, "--lat-weight"},
		{[]string{"--data", "reddit"}, "no labels here"},
		{[]string{"--data", "ENZYMES"}, "without node labels"},
		{[]string{"--data", old}, "give it as --data-dir"},
		{[]string{"--data", "cora", "--dataset", "citeseer"}, "old name of --data"},
	} {
		c := searchGcosCmd()
		c.SetOut(&out)
		c.SetErr(&out)
		c.SetArgs(append(tt.args, "--data-dir", t.TempDir()))
		if err := c.Execute(); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: error %v, want %q", tt.args, err, tt.want)
		}
	}
}

func TestReproSeed001Help(t *testing.T) {
	c := reproSeed001Cmd()
	var out bytes.Buffer
	c.SetOut(&out)
	c.SetArgs([]string{"--help"})
	if err := c.Execute(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "--quick") {
		t.Errorf("help:\n%s", out.String())
	}
}

// TestSearchGcosOut: --out writes the designs --json prints; a
// latency-only search leaves accuracy null and prints "not measured".
func TestSearchGcosOut(t *testing.T) {
	pq := filepath.Join(t.TempDir(), "gcos.parquet")
	args := []string{"search", "gcos", "--data", "pubmed", "--model", "gcn", "--evaluations", "30", "--pool", "10", "--top", "3"}
	js := mustRun(t, append(args, "--json", "--out", pq)...)
	rows := decodeJSON[gcosTopRow](t, js, true)
	if len(rows) != 3 || rows[0].Rank != 1 || rows[0].Fitness < rows[2].Fitness {
		t.Fatalf("top 3, best first: %+v", rows)
	}
	for _, r := range rows {
		if r.Accuracy != nil || r.LatencyPS <= 0 || r.Subs < 1 {
			t.Errorf("latency-only row %+v: want accuracy null, a latency and sub-accelerators", r)
		}
	}
	checkOut(t, pq, rows, "search gcos", "rank", "fitness", "accuracy", "latency_ps", "gnn", "accelerator")
	if text := mustRun(t, args...); !strings.Contains(text, "accuracy not measured") || strings.Contains(text, "accuracy 0.000") {
		t.Errorf("latency-only text output:\n%s", text)
	}
}
