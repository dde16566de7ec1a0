package main

import (
	"encoding/json"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"gnnsim"
	"gnnsim/accel"
	"gnnsim/dataflow"
)

func TestVersion(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		check func(t *testing.T, out string)
	}{
		{[]string{"version"}, func(t *testing.T, out string) {
			if want := "gnnsim " + gnnsim.Version + " (" + runtime.Version() + ")\n"; out != want {
				t.Errorf("printed %q, want %q", out, want)
			}
		}},
		{[]string{"version", "--json"}, func(t *testing.T, out string) {
			var v map[string]string
			if err := json.Unmarshal([]byte(out), &v); err != nil {
				t.Fatal(err)
			}
			if len(v) != 2 || v["version"] != gnnsim.Version || v["go"] != runtime.Version() {
				t.Errorf("printed %v", v)
			}
		}},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) { tc.check(t, mustRun(t, tc.args...)) })
	}
}

var configKeys = []string{"name", "inter", "tiling", "agg_pes", "comb_pes", "t_va", "t_n", "t_fa", "t_vc", "t_gc", "t_fc"}

func TestConfigs(t *testing.T) {
	for _, tc := range []struct {
		V, F, G, pes int
	}{{1000, 16, 16, 512}, {37, 128, 7, 64}, {5, 1, 1, 2}} {
		args := []string{"configs", "--V", itoa(tc.V), "--F", itoa(tc.F), "--G", itoa(tc.G), "--pes", itoa(tc.pes)}
		objs := decodeObjects(t, mustRun(t, append(args, "--json")...))
		checkKeys(t, objs, configKeys)
		want, err := dataflow.All(dataflow.Dims{V: tc.V, F: tc.F, G: tc.G}, tc.pes, 0)
		if err != nil {
			t.Fatal(err)
		}
		var got []dataflow.ConfigRow
		raw, _ := json.Marshal(objs)
		if err := json.Unmarshal(raw, &got); err != nil {
			t.Fatal(err)
		}
		if len(got) != dataflow.NumConfigs {
			t.Fatalf("%v: %d configurations, want %d", args, len(got), dataflow.NumConfigs)
		}
		for i, g := range got {
			w := want[i]
			if g.Name != w.Name() || g.Va != w.Tiles.Va || g.N != w.Tiles.N || g.Fa != w.Tiles.Fa || g.Vc != w.Tiles.Vc || g.Gc != w.Tiles.Gc || g.Fc != w.Tiles.Fc {
				t.Errorf("%v: row %d = %+v, want %s %s", args, i, g, w.Name(), w.Tiles)
			}
			// Physical bound: no phase uses more PEs than it has.
			if g.Va*g.N*g.Fa > g.AggPEs || g.Vc*g.Gc*g.Fc > g.CombPEs || g.AggPEs > tc.pes || g.CombPEs > tc.pes {
				t.Errorf("%v: %s uses more PEs than it has: %+v", args, g.Name, g)
			}
		}
		table := strings.Split(strings.TrimSpace(mustRun(t, args...)), "\n")
		if len(table) != 1+dataflow.NumConfigs || !strings.Contains(table[1], "seq-a") || !strings.Contains(table[24], "pp-h") {
			t.Errorf("%v: table of %d lines:\n%s", args, len(table), strings.Join(table, "\n"))
		}
	}
	if _, _, err := run(t, "configs", "--pes", "0"); err == nil {
		t.Error("configs --pes 0 succeeded")
	}
}

func TestHWDefault(t *testing.T) {
	out := mustRun(t, "hw", "default")
	h, err := accel.ParseHW([]byte(out))
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if h != accel.DefaultHW() {
		t.Errorf("parsed back %+v, want DefaultHW %+v", h, accel.DefaultHW())
	}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if !strings.Contains(l, " # ") {
			t.Errorf("line %q has no comment", l)
		}
	}
	if _, _, err := run(t, "hw", "bogus"); err == nil {
		t.Error("hw bogus succeeded")
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
