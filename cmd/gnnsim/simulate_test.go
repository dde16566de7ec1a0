package main

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// simGraphs writes a two-graph set for the simulate tests.
func simGraphs(t *testing.T) string {
	t.Helper()
	return genSet(t, t.TempDir(), "g.parquet", "--generator", "er", "--count", "2", "--seed", "11", "--nodes", "30:60", "--param", "avg_degree=4")
}

func TestSimulateJSON(t *testing.T) {
	set := simGraphs(t)
	all := func(list string) []string { return strings.Split(list, ",") }
	tests := []struct {
		name      string
		args      []string
		graphs    []string // graph names expected, in order
		dataflows []string
		tilings   []string
	}{
		{"all configurations", []string{"--graph", "0", "--dataflow", "all", "--tiling", "all"},
			[]string{"er_0"}, all("seq,sp,pp"), all("a,b,c,d,e,f,g,h")},
		{"default is all", []string{"--graph", "er_1"},
			[]string{"er_1"}, all("seq,sp,pp"), all("a,b,c,d,e,f,g,h")},
		{"lists, both graphs", []string{"--dataflow", "seq,pp", "--tiling", "a,c"},
			[]string{"er_0", "er_1"}, all("seq,pp"), all("a,c")},
		{"omega mode", []string{"--graph", "1", "--dataflow", "sp", "--tiling", "b", "--mode", "omega"},
			[]string{"er_1"}, all("sp"), all("b")},
		{"custom tiling", []string{"--graph", "0", "--dataflow", "pp", "--tiling", "T_Va=*,T_N=2,T_Fa=8,T_Vc=*,T_Gc=1,T_Fc=16"},
			[]string{"er_0"}, all("pp"), nil},
		{"gin layer, 256 PEs", []string{"--graph", "0", "--layer", "gin", "--pes", "256", "--F", "32", "--G", "8"},
			[]string{"er_0"}, all("seq,sp,pp"), all("a,b,c,d,e,f,g,h")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := mustRun(t, append([]string{"simulate", "--graphs", set, "--json"}, tt.args...)...)
			var recs []simRecord
			if err := json.Unmarshal([]byte(out), &recs); err != nil {
				t.Fatalf("not JSON: %v\n%s", err, out)
			}
			ntil := max(len(tt.tilings), 1)
			if want := len(tt.graphs) * len(tt.dataflows) * ntil; len(recs) != want {
				t.Fatalf("%d results, want %d", len(recs), want)
			}
			// Rows come per graph, then dataflow, then tiling, as flagged.
			i := 0
			for _, g := range tt.graphs {
				for _, d := range tt.dataflows {
					for k := range ntil {
						r := recs[i]
						i++
						if r.Graph != g || r.Dataflow != d || (tt.tilings != nil && r.Tiling != tt.tilings[k]) {
							t.Errorf("result %d is %s %s-%s, want %s %s-%v", i-1, r.Graph, r.Dataflow, r.Tiling, g, d, tt.tilings)
						}
						if r.Cycles <= 0 || r.MACs <= 0 || r.Nodes <= 0 || r.NNZ <= int64(r.Nodes) {
							t.Errorf("result %d: cycles %d, MACs %d, V %d, nnz %d: want all positive and nnz > V", i-1, r.Cycles, r.MACs, r.Nodes, r.NNZ)
						}
						if r.Utilization <= 0 || r.Utilization > 1 {
							t.Errorf("result %d: utilization %g outside (0, 1]", i-1, r.Utilization)
						}
					}
				}
			}
		})
	}
}

// TestSimulateEngines checks the documented promise that --engine fast
// gives the numbers of the event-driven engine.
func TestSimulateEngines(t *testing.T) {
	set := simGraphs(t)
	for _, mode := range []string{"omega", "extended"} {
		t.Run(mode, func(t *testing.T) {
			args := []string{"simulate", "--graphs", set, "--graph", "1", "--mode", mode, "--json"}
			decode := func(s string) []map[string]any {
				var v []map[string]any
				if err := json.Unmarshal([]byte(s), &v); err != nil {
					t.Fatal(err)
				}
				for _, r := range v {
					delete(r, "events") // the fast engine processes fewer events
				}
				return v
			}
			ev := decode(mustRun(t, append(args, "--engine", "events")...))
			fast := decode(mustRun(t, append(args, "--engine", "fast")...))
			if len(ev) != 24 || !reflect.DeepEqual(ev, fast) {
				t.Errorf("--engine fast differs from --engine events (%d vs %d results)", len(fast), len(ev))
			}
		})
	}
}

func TestSimulateTable(t *testing.T) {
	set := simGraphs(t)
	out := mustRun(t, "simulate", "--graphs", set, "--graph", "0")
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) != 25 {
		t.Fatalf("table has %d lines, want a header and 24 rows:\n%s", len(lines), out)
	}
	for _, h := range []string{"graph", "config", "cycles", "energy nJ"} {
		if !strings.Contains(lines[0], h) {
			t.Errorf("header %q lacks %q", lines[0], h)
		}
	}
	if f := strings.Fields(lines[1]); len(f) < 4 || f[0] != "er_0" || f[3] != "seq-a" {
		t.Errorf("first row %q, want er_0 ... seq-a", lines[1])
	}
}

func TestSimulateBadFlags(t *testing.T) {
	set := simGraphs(t)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"unknown tiling", []string{"--tiling", "z"}, "--tiling"},
		{"unknown tiling in list", []string{"--tiling", "a,z"}, `"z"`},
		{"zero tile", []string{"--tiling", "T_Va=0,T_N=1,T_Fa=1,T_Vc=1,T_Gc=1,T_Fc=1"}, "--tiling"},
		{"non-numeric tile", []string{"--tiling", "T_Va=x"}, "--tiling"},
		{"unknown dataflow", []string{"--dataflow", "xx"}, "--dataflow"},
		{"unknown mode", []string{"--mode", "foo"}, "--mode"},
		{"unknown engine", []string{"--engine", "foo"}, "--engine"},
		{"unknown layer", []string{"--layer", "foo"}, "--layer"},
		{"unknown effect", []string{"--disable", "foo"}, "--disable"},
		{"disable in omega mode", []string{"--mode", "omega", "--disable", "noc"}, "--disable"},
		{"zero F", []string{"--F", "0"}, "--F 0: want 1 to"},
		{"negative G", []string{"--G", "-3"}, "--G -3: want 1 to"},
		{"negative PEs", []string{"--pes", "-1"}, "--pes -1"},
		{"too many pp aggregation PEs", []string{"--pp-agg-pes", "600"}, "pp_agg_pes = 600"},
		{"graph index out of range", []string{"--graph", "7"}, "--graph 7"},
		{"unknown graph name", []string{"--graph", "nosuch"}, `--graph "nosuch"`},
		{"missing hardware file", []string{"--hw", filepath.Join(t.TempDir(), "hw.yaml")}, "hw.yaml"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, _, err := run(t, append([]string{"simulate", "--graphs", set, "--json"}, tt.args...)...)
			if err == nil {
				t.Fatalf("no error; printed:\n%s", out)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not contain %q", err, tt.want)
			}
		})
	}
	missing := filepath.Join(t.TempDir(), "missing.parquet")
	if _, _, err := run(t, "simulate", "--graphs", missing); err == nil || !strings.Contains(err.Error(), "missing.parquet") {
		t.Errorf("missing graph file: error %v, want one naming the file", err)
	}
}

// TestSimulateOut: --out writes the rows --json prints, typed, with the
// run's metadata.
func TestSimulateOut(t *testing.T) {
	set := simGraphs(t)
	pq := filepath.Join(t.TempDir(), "sim.parquet")
	out := mustRun(t, "simulate", "--graphs", set, "--dataflow", "seq,pp", "--tiling", "a,c", "--json", "--out", pq)
	recs := decodeJSON[simRecord](t, out, true)
	if len(recs) != 2*2*2 {
		t.Fatalf("%d rows, want 8", len(recs))
	}
	checkOut(t, pq, recs, "simulate", "graph", "cycles", "energy_total_pj", "utilization")
}
