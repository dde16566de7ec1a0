package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestSearchGcosHardwareOnly(t *testing.T) {
	c := searchGcosCmd()
	var out bytes.Buffer
	c.SetOut(&out)
	c.SetErr(&out)
	c.SetArgs([]string{"--dataset", "pubmed", "--model", "gcn", "--evaluations", "30", "--pool", "10", "--top", "2", "--data", t.TempDir()})
	if err := c.Execute(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "pubmed: 30 evaluations") || !strings.Contains(out.String(), "2. fitness") {
		t.Errorf("output:\n%s", out.String())
	}
	for _, args := range [][]string{{"--dataset", "nope"}, {"--model", "nope"}, {"--lat-weight", "2"}, {"--dataset", "reddit"}} {
		c := searchGcosCmd()
		c.SetOut(&out)
		c.SetErr(&out)
		c.SetArgs(append(args, "--data", t.TempDir()))
		if err := c.Execute(); err == nil {
			t.Errorf("%v: no error", args)
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
