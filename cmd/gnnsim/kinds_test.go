package main

import (
	"strings"
	"testing"
)

// Every hardware kind answers gnnsim KIND eval | validate | spec where it has
// one, and each spelling from before prints the same bytes on stdout as
// the command that replaces it, naming that command on stderr.
func TestKindCommandTree(t *testing.T) {
	for _, c := range []struct {
		kind  string
		verbs []string
	}{
		{"omega", []string{"eval", "validate", "spec"}},
		{"soc", []string{"eval", "validate", "spec"}},
		{"dsa", []string{"eval", "validate"}},
		{"fpga", []string{"eval", "validate"}},
		{"gcos", []string{"eval", "spec"}},
	} {
		for _, v := range c.verbs {
			if _, _, err := run(t, c.kind, v, "--help"); err != nil {
				t.Errorf("gnnsim %s %s --help: %v", c.kind, v, err)
			}
		}
	}
	g := karateGraph(t)
	for _, c := range []struct {
		old, now, name string // name: the replacement the old spelling names ("" for none)
	}{
		{"hw default", "omega spec default", "gnnsim omega spec default"},
		{"gcos config default", "gcos spec default", "gnnsim gcos spec default"},
		{"simulate --graphs " + g + " --F 16 --G 8 --dataflow pp --tiling a,b", "omega eval --graphs " + g + " --F 16 --G 8 --dataflow pp --tiling a,b", "gnnsim omega eval"},
		{"eval --unit dsa --model vig-ti --dataflow kcp_ws --pes 256 --json", "dsa eval --model vig-ti --dataflow kcp_ws --pes 256 --json", ""},
	} {
		oldOut, oldErr, err := run(t, strings.Fields(c.old)...)
		if err != nil {
			t.Fatalf("gnnsim %s: %v", c.old, err)
		}
		nowOut, nowErr, err := run(t, strings.Fields(c.now)...)
		if err != nil {
			t.Fatalf("gnnsim %s: %v", c.now, err)
		}
		if oldOut != nowOut || oldOut == "" {
			t.Errorf("gnnsim %s and gnnsim %s print different stdout", c.old, c.now)
		}
		if c.name != "" && (!strings.Contains(oldErr, "deprecated") || !strings.Contains(oldErr, c.name)) {
			t.Errorf("gnnsim %s: stderr %q does not name its replacement %s", c.old, oldErr, c.name)
		}
		if strings.Contains(nowErr, "deprecated") {
			t.Errorf("gnnsim %s: stderr %q says deprecated", c.now, nowErr)
		}
	}
}
