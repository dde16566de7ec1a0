package bench

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gnnsim/graphs"
	"gnnsim/hw"
	"gnnsim/internal/pqio"
	"gnnsim/workload"
)

// The spec hash of testdata/example.yaml as gnnsim wrote it before the
// layers:, model: and unit: keys existed: results of existing specs keep
// their part directories and metadata.
const exampleHash = "5dcde9c88f3684bc"

func TestSpecHashStable(t *testing.T) {
	s, data := exampleSpec(t)
	if s.Hash() != exampleHash {
		t.Errorf("example.yaml hashes to %s, want %s", s.Hash(), exampleHash)
	}
	// Naming the defaults changes nothing.
	for _, extra := range []string{"layers: [gcn]\n", "layers: [GCN]\nunit: omega\n", "unit: omega\n"} {
		s2, err := ParseSpec(append(slices.Clone(data), extra...))
		if err != nil {
			t.Fatal(err)
		}
		if s2.Hash() != exampleHash {
			t.Errorf("example.yaml + %q hashes to %s, want %s", extra, s2.Hash(), exampleHash)
		}
	}
	s3, err := ParseSpec(append(slices.Clone(data), "layers: [gcn, gin]\n"...))
	if err != nil {
		t.Fatal(err)
	}
	if s3.Hash() == exampleHash || !slices.Equal(s3.LayerKinds(), []workload.LayerKind{workload.GCN, workload.GIN}) {
		t.Errorf("layers [gcn, gin]: hash %s, kinds %v", s3.Hash(), s3.LayerKinds())
	}
}

func TestUnitKeyErrors(t *testing.T) {
	const g = "graphs:\n  - generator: er\n    count: 1\n"
	for _, c := range []struct {
		name, yaml, key, reason string
	}{
		{"unknown layer", g + "layers: [gcn, mlp]\n", "layers[1]", "unknown layer kind"},
		{"layer omega cannot run", g + "layers: [edgeconv]\n", "layers[0]", "runs gcn, gin, sage, gat layers, not edgeconv"},
		{"layer twice", g + "layers: [gin, GIN]\n", "layers[1]", "twice"},
		{"unknown unit", g + "unit: tpu\n", "unit", `unknown unit kind "tpu"`},
		{"model on omega", g + "model: vig-s\n", "model", "no registered unit kind sweeps whole models yet"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseSpec([]byte(c.yaml))
			var se *SpecError
			if !errors.As(err, &se) || se.Key != c.key || !strings.Contains(se.Reason, c.reason) {
				t.Fatalf("err = %v, want key %s mentioning %q", err, c.key, c.reason)
			}
		})
	}
}

// readRows reads a runs table of rows R.
func readRows[R any](t *testing.T, dir string) []R {
	t.Helper()
	rows, _, err := pqio.Read[R](filepath.Join(dir, RunsFile))
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// A sweep of four layer kinds writes a layer column; its GCN rows are the
// rows of the same sweep without layers:, and sharded-then-merged equals
// unsharded byte for byte.
func TestLayerSweep(t *testing.T) {
	data, err := os.ReadFile("testdata/layers.yaml")
	if err != nil {
		t.Fatal(err)
	}
	p := mustPlan(t, string(data))
	base := t.TempDir()
	whole, sharded := filepath.Join(base, "whole"), filepath.Join(base, "sharded")
	sum, err := p.Run(context.Background(), whole, Options{Workers: 2})
	if err != nil || !sum.Complete {
		t.Fatalf("%v, %+v", err, sum)
	}
	for i := range 3 {
		if _, err := p.Run(context.Background(), sharded, Options{Shard: Shard{i, 3}}); err != nil {
			t.Fatal(err)
		}
	}
	if a, b := readBoth(t, whole), readBoth(t, sharded); !bytes.Equal(a[0], b[0]) || !bytes.Equal(a[1], b[1]) {
		t.Error("sharded layer sweep differs from the unsharded one")
	}
	rows := readRows[LayerRunRow](t, whole)
	const graphs, layers, sizes, configs = 12, 4, 1, 9 // sizes: one (F, G) per graph (cycle mode)
	if len(rows) != graphs*layers*sizes*configs || sum.Runs != len(rows) {
		t.Fatalf("%d rows (summary %d), want %d", len(rows), sum.Runs, graphs*layers*sizes*configs)
	}
	perLayer := map[string][]RunRow{}
	for _, r := range rows {
		perLayer[r.Layer] = append(perLayer[r.Layer], r.RunRow)
	}
	for _, l := range []string{"gcn", "gin", "sage", "gat"} {
		if len(perLayer[l]) != graphs*sizes*configs {
			t.Errorf("layer %s: %d rows", l, len(perLayer[l]))
		}
	}
	// GIN adds a G x G GEMM to GCN's work: more MACs on every run.
	for i, r := range perLayer["gin"] {
		if g := perLayer["gcn"][i]; r.MACs <= g.MACs || r.Config != g.Config || r.GraphID != g.GraphID {
			t.Fatalf("run %d: gin %d MACs (%s), gcn %d (%s)", i, r.MACs, r.Config, g.MACs, g.Config)
		}
	}
	gcnOnly := mustPlan(t, strings.Replace(string(data), "layers: [gcn, gin, sage, gat]", "layers: [gcn]", 1))
	plain := filepath.Join(base, "plain")
	if _, err := gcnOnly.Run(context.Background(), plain, Options{}); err != nil {
		t.Fatal(err)
	}
	if got := readRows[RunRow](t, plain); !slices.Equal(got, perLayer["gcn"]) {
		t.Error("the GCN rows of the layer sweep differ from a GCN-only sweep")
	}
	f, err := pqio.Open(filepath.Join(plain, RunsFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, ok := f.Schema().Lookup("layer"); ok {
		t.Error("a GCN-only sweep has a layer column")
	}
	if _, err := ReadDataset(whole); err == nil || !strings.Contains(err.Error(), "GCN layers") {
		t.Errorf("ReadDataset of a layer sweep: %v", err)
	}
}

// roofline is a unit outside the built-in kinds: a MAC array of 256 per
// cycle at 500 MHz, 1 pJ per MAC. It stands for a later unit kind (SoC,
// FPGA, G-CoS) swept through the same hook.
var roofline = hw.NewUnitFunc("roofline", func(w hw.Work) (hw.Cost, error) {
	ks, err := w.Kernels()
	if err != nil {
		return hw.Cost{}, err
	}
	macs, _, _ := workload.Totals(ks)
	cycles := (macs + 255) / 256
	return hw.Cost{TimePS: hw.PS(cycles, 500e6), Cycles: cycles, EnergyPJ: float64(macs), MACs: macs}, nil
})

func init() {
	err := RegisterUnit(UnitSweep("roofline", func(*Spec) ([]hw.Unit, error) { return []hw.Unit{roofline}, nil }))
	if err != nil {
		panic(err)
	}
}

// A registered hw.Unit kind sweeps layers with the runner's sharding,
// resumption and merge; its rows are the unit's costs.
func TestUnitSweepHook(t *testing.T) {
	spec := `
name: roof
seed: 5
unit: roofline
graphs:
  - generator: er
    count: 9
    nodes: [10, 80]
layers: [gcn, edgeconv, mrconv]
sizes: {F: [16], G: [8, 32], mode: cross}
chunk_graphs: 2
`
	p := mustPlan(t, spec)
	base := t.TempDir()
	whole, sharded := filepath.Join(base, "whole"), filepath.Join(base, "sharded")
	sum, err := p.Run(context.Background(), whole, Options{})
	if err != nil || !sum.Complete || len(sum.Best) != 0 {
		t.Fatalf("%v, %+v", err, sum)
	}
	for i := range 2 {
		if _, err := p.Run(context.Background(), sharded, Options{Shard: Shard{i, 2}}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := Merge([]string{sharded}, filepath.Join(base, "merged")); err != nil {
		t.Fatal(err)
	}
	if a, b := readBoth(t, whole), readBoth(t, filepath.Join(base, "merged")); !bytes.Equal(a[0], b[0]) || !bytes.Equal(a[1], b[1]) {
		t.Error("sharded and merged unit sweep differs from the unsharded one")
	}
	rows := readRows[CostRow](t, whole)
	if len(rows) != 9*3*2 {
		t.Fatalf("%d rows, want %d", len(rows), 9*3*2)
	}
	gs, _, err := graphs.ReadSet(filepath.Join(whole, GraphsFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		kind, _ := workload.ParseLayerKind(r.Layer)
		ks, err := hw.LayerWork(gs[r.GraphID], workload.Layer{Kind: kind, F: int(r.F), G: int(r.G)}).Kernels()
		if err != nil {
			t.Fatal(err)
		}
		if macs, _, _ := workload.Totals(ks); r.MACs != macs || r.Unit != "roofline" || r.TimePS != r.Cycles*2000 {
			t.Fatalf("row %+v: want %d MACs at 2,000 ps per cycle", r, macs)
		}
	}
	if err := RegisterUnit(UnitSweep("roofline", nil)); err == nil {
		t.Error("a second kind named roofline was registered")
	}
	if !slices.Contains(UnitNames(), "roofline") || UnitNames()[0] != "omega" {
		t.Errorf("UnitNames() = %v", UnitNames())
	}
}
