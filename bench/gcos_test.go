package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"gnnsim/internal/pqio"
	"gnnsim/internal/shared"
	"gnnsim/internal/shared/sharedtest"
	"gnnsim/workload"
)

// The example spec, sharded three ways and merged, interrupted and
// resumed, writes the serial run's bytes; numbers are typed columns.
func TestGCoSSweepShardsAndResume(t *testing.T) {
	data, err := os.ReadFile("testdata/gcos.yaml")
	if err != nil {
		t.Fatal(err)
	}
	spec := string(data)
	// Its model files are named relative to its own folder (Spec.Path);
	// parsed from text, the spec has no folder, so run from there.
	t.Chdir("testdata")
	base, serial := serialPointSweep(t, spec, (1+12+12)*2*2)
	pf, err := pqio.Open(filepath.Join(serial, RunsFile))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]parquet.Kind{}
	for _, fl := range pf.Schema().Fields() {
		if fl.Leaf() {
			got[fl.Name()] = fl.Type().Kind()
		}
	}
	pf.Close()
	for col, k := range map[string]parquet.Kind{"feasible": parquet.Boolean, "cycles": parquet.Int64,
		"latency_ps": parquet.Int64, "latency_us": parquet.Double, "pes": parquet.Int64, "s4_tile_n": parquet.Int64, "s0_kernel": parquet.ByteArray,
		"hbm_gb_per_s": parquet.Double, "macs": parquet.Int64, "model": parquet.ByteArray} {
		if got[col] != k {
			t.Errorf("column %s has type %v, want %v", col, got[col], k)
		}
	}
	checkPointSweepIdentity(t, spec, base, readRunsFile(t, serial))
}

// gcosCrashSpec is a gcos sweep of many small chunks.
var gcosCrashSpec = `name: gcos-crash
unit: gcos
chunk_points: 20
gcos:
  configs:
    - {subs: [1, 2, 3, 4, 5], pes: [64, 128, 256, 512], tile_m: [8, 32, 128], tile_k: [16, 64], kernel: [inner, outer, row, column]}
  models: [testdata/sage3.yaml, testdata/gcn2.yaml]
  data: [cora]
`

// gcosSpec returns a one-data-set spec of configs on sage3.
func gcosSpec(configs string) string {
	return "unit: gcos\ngcos:\n  configs: " + configs + "\n  models: [testdata/sage3.yaml]\n  data: [cora]\n"
}

func gcosRows(t *testing.T, spec string) []GCoSRow {
	t.Helper()
	p := mustPlan(t, spec)
	ev, err := newGCoS(p.Spec)
	if err != nil {
		t.Fatal(err)
	}
	tab := &RowTable[GCoSRow]{}
	n, _ := gcosPoints(p.Spec)
	for i := range n {
		if err := ev.Evaluate(tab, Case{ID: i}); err != nil {
			t.Fatal(err)
		}
	}
	return tab.Rows
}

// More PEs in every sub-accelerator, or more HBM bandwidth, never makes a
// design slower (the template's max-plus timing, accel/gcos doc), over
// kernel modes, tilings and sub-accelerator counts, on sage3 and Cora.
func TestGCoSMorePEsOrBandwidthNeverSlower(t *testing.T) {
	for _, axis := range []struct{ name, grid string }{
		{"pes", "pes: [64, 128, 256, 512, 816]"},
		{"bandwidth", "hbm_gb_per_s: [25, 50, 115, 230, 460, 920]"},
	} {
		for _, kern := range []string{"inner", "outer", "row", "column"} {
			for _, til := range []string{"weight", "feature", "output"} {
				spec := gcosSpec(fmt.Sprintf("[{subs: [1, 3, 5], kernel: [%s], tiling: [%s], %s}]", kern, til, axis.grid))
				rows := gcosRows(t, spec)
				if len(rows) < 3*5 {
					t.Fatalf("%d rows", len(rows))
				}
				per := len(rows) / 3
				for s := range 3 {
					for i := 1; i < per; i++ {
						a, b := rows[s*per+i-1], rows[s*per+i]
						if b.LatencyPS > a.LatencyPS {
							t.Errorf("%s %s/%s, %d subs: %s %v -> %v: %d ps -> %d ps (slower)", axis.name, kern, til, a.Subs, axis.name,
								[2]any{a.S0PEs, a.HBMGBps}, [2]any{b.S0PEs, b.HBMGBps}, a.LatencyPS, b.LatencyPS)
						}
					}
				}
			}
		}
	}
}

// The MACs of a row are the model's MACs as package workload counts them
// (the first layer's input at the data set's density), on every design.
func TestGCoSMACsConserved(t *testing.T) {
	rows := gcosRows(t, gcosSpec("[{}, {subs: [1, 5], kernel: [inner, outer, row, column], allocation: [rows, columns]}]"))
	d, err := GCoSData("cora", "")
	if err != nil {
		t.Fatal(err)
	}
	spec, err := workload.ResolveModelSpec("testdata/sage3.yaml")
	if err != nil {
		t.Fatal(err)
	}
	m, err := GCoSModel(spec, &d)
	if err != nil {
		t.Fatal(err)
	}
	m.Blocks[0].Layers[0].InputDensity = d.FeatureDensity
	want, err := m.MACs()
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Blocks) != 3 {
		t.Fatalf("sage3 has %d blocks", len(m.Blocks))
	}
	for _, r := range rows {
		if r.MACs != want || r.Layers != 3 || len(r.BlockLatencyPS) != 3 || r.LatencyPS <= 0 {
			t.Errorf("design %d: %d MACs (want %d), %d layers, %d block latencies, %d ps", r.PointID, r.MACs, want, r.Layers, len(r.BlockLatencyPS), r.LatencyPS)
		}
		var sum int64
		for _, b := range r.BlockLatencyPS {
			sum += b
		}
		if sum != r.LatencyPS {
			t.Errorf("design %d: blocks sum to %d ps, total %d ps", r.PointID, sum, r.LatencyPS)
		}
	}
}

// Bad gcos blocks are errors naming the key, never a panic.
func TestGCoSSpecErrors(t *testing.T) {
	dir := t.TempDir()
	bad := dir + "/bad.yaml"
	os.WriteFile(bad, []byte("subs: [{pes: -1, tiling: output, kernel: row, tile_m: 8, tile_k: 8, tile_n: 8}]\n"), 0o644)
	edge := dir + "/edge.yaml"
	os.WriteFile(edge, []byte("layers: [{kind: edgeconv, width: 8}]\n"), 0o644)
	unknown := dir + "/unknown.yaml"
	os.WriteFile(unknown, []byte("layers: [{kind: transformer, width: 8}]\n"), 0o644)
	for _, c := range []struct{ name, yaml, key, want string }{
		{"no block", "unit: gcos\n", "gcos", "needs a gcos: block"},
		{"no configs", "unit: gcos\ngcos: {models: [testdata/sage3.yaml], data: [cora]}\n", "gcos.configs", "empty"},
		{"no models", "unit: gcos\ngcos: {configs: [{}], data: [cora]}\n", "gcos.models", "empty"},
		{"no data", "unit: gcos\ngcos: {configs: [{}], models: [testdata/sage3.yaml]}\n", "gcos.data", "empty"},
		{"unknown key", gcosSpec("[{pez: [4]}]"), "", "pez"},
		{"negative pes", gcosSpec("[{pes: [64, -4]}]"), "gcos.configs[0].pes[1]", "PEs"},
		{"zero tile", gcosSpec("[{tile_m: [0]}]"), "gcos.configs[0].tile_m[0]", "tile size"},
		{"six subs", gcosSpec("[{subs: [6]}]"), "gcos.configs[0].subs[0]", "1..5"},
		{"bad kernel", gcosSpec("[{kernel: [spiral]}]"), "gcos.configs[0].kernel[0]", "spiral"},
		{"bad bandwidth", gcosSpec("[{hbm_gb_per_s: [-1]}]"), "gcos.configs[0].hbm_gb_per_s[0]", "hbm_gb_per_s"},
		{"bad file", gcosSpec("[{file: " + bad + "}]"), "gcos.configs[0].file", "subs[0].pes"},
		{"missing file", gcosSpec("[{file: nope.yaml}]"), "gcos.configs[0].file", "nope.yaml"},
		{"bad data", "unit: gcos\ngcos: {configs: [{}], models: [testdata/sage3.yaml], data: [nope]}\n", "gcos.data[0]", "nope"},
		{"unknown layer kind", "unit: gcos\ngcos: {configs: [{}], models: [" + unknown + "], data: [cora]}\n", "gcos.models[0]", "transformer"},
		{"zoo model", "unit: gcos\ngcos: {configs: [{}], models: [vig-s], data: [cora]}\n", "gcos.models[0]", "not a GNN stack"},
		{"gcos on omega", "graphs: [{generator: er, count: 1}]\ngcos: {configs: [{}]}\n", "gcos", "only unit: gcos reads it"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, err := ParseSpec([]byte(c.yaml))
			if err == nil {
				_, err = newGCoS(s)
			}
			if err == nil || !strings.Contains(err.Error(), c.want) || (c.key != "" && !strings.Contains(err.Error(), c.key)) {
				t.Errorf("error %v, want one naming %s: %q", err, c.key, c.want)
			}
		})
	}
	// A layer kind the template has no engine for is a clear error when
	// priced, naming the kernel.
	s, err := ParseSpec([]byte("unit: gcos\ngcos: {configs: [{}], models: [" + edge + "], data: [cora]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	ev, err := newGCoS(s)
	if err != nil {
		t.Fatal(err)
	}
	if err := ev.Evaluate(&RowTable[GCoSRow]{}, Case{ID: 0}); err == nil || !strings.Contains(err.Error(), "not supported by the template") {
		t.Errorf("edgeconv on the template: %v", err)
	}
}

// The gcos section of the package doc lists exactly the columns a gcos
// sweep writes.
func TestDocumentedGCoSColumns(t *testing.T) {
	plain := docPlainLines(t)
	dir := t.TempDir()
	if _, err := mustPlan(t, gcosSpec("[{}]")).Run(context.Background(), dir, Options{Workers: 1}); err != nil {
		t.Fatal(err)
	}
	sameSet(t, "bench doc gcos runs.parquet", docRunColumns(plain)["gcos"], fileColumns(t, filepath.Join(dir, RunsFile)))
}

// FuzzGCoSSpec: the gcos: block through the spec parser and the
// evaluator's checks never panics, and a spec that passes prices its
// first point.
func FuzzGCoSSpec(f *testing.F) {
	f.Add("[{}]", "[testdata/gcn2.yaml]", "[cora]")
	f.Add("[{subs: [1, 5], pes: [1, 4096], kernel: [outer], tile_n: [1, 4096]}]", "[testdata/sage3.yaml]", "[pubmed, cora]")
	f.Add("[{tiling: [feature], allocation: [columns], hbm_gb_per_s: [0.5], clock_mhz: [1e5]}]", "[testdata/gcn2.yaml]", "[citeseer]")
	f.Fuzz(func(t *testing.T, configs, models, data string) {
		s, err := ParseSpec([]byte("unit: gcos\ngcos:\n  configs: " + configs + "\n  models: " + models + "\n  data: " + data + "\n"))
		if err != nil {
			return
		}
		for _, d := range s.GCoS.Data {
			if !strings.Contains("cora citeseer pubmed", strings.ToLower(d)) || d == "" {
				return // no graph files (nor Reddit's large profile) in a fuzz run
			}
		}
		ev, err := newGCoS(s)
		if err != nil {
			return
		}
		if err := ev.Evaluate(&RowTable[GCoSRow]{}, Case{ID: 0}); err != nil {
			t.Fatalf("first point of an accepted spec: %v", err)
		}
	})
}

// On Cora's real rows (the Planetoid files), too, more PEs in every
// sub-accelerator or more bandwidth never make a design slower.
func TestGCoSMonotoneOnRealRows(t *testing.T) {
	sharedtest.RequireData(t, "planetoid", "ind", "ind.cora.graph")
	for _, grid := range []string{"pes: [64, 256, 816, 2048]", "hbm_gb_per_s: [50, 230, 460, 920]"} {
		spec := fmt.Sprintf("unit: gcos\ngcos:\n  configs: [{subs: [1, 5], kernel: [inner, outer, row, column], %s}]\n  models: [testdata/sage3.yaml, testdata/gcn2.yaml]\n  data: [cora]\n  data_dir: %q\n", grid, shared.Data())
		rows := gcosRows(t, spec)
		// Rows of one (subs, kernel, model) in sweep order: the grid's
		// values ascending.
		last := map[string]GCoSRow{}
		for _, b := range rows {
			k := fmt.Sprint(b.Subs, b.S0Kernel, b.ModelName)
			if a, ok := last[k]; ok && b.LatencyPS > a.LatencyPS {
				t.Errorf("%s: %d subs, %s kernel, %s: %d ps -> %d ps (slower) at PEs %d -> %d, %g -> %g GB/s", grid, a.Subs, a.S0Kernel, a.ModelName,
					a.LatencyPS, b.LatencyPS, a.S0PEs, b.S0PEs, a.HBMGBps, b.HBMGBps)
			}
			last[k] = b
		}
		if rows[0].FeatureDensity == 0 || rows[0].Nodes != 2708 {
			t.Errorf("cora from disk: %+v", rows[0])
		}
	}
}

// BenchmarkGCoSRow is the per-point work of a gcos sweep: one design
// built and sage3 priced on Cora's published size.
func BenchmarkGCoSRow(b *testing.B) {
	s, err := ParseSpec([]byte(gcosSpec("[{subs: [1, 3, 5], pes: [256, 816]}]")))
	if err != nil {
		b.Fatal(err)
	}
	ev, err := newGCoS(s)
	if err != nil {
		b.Fatal(err)
	}
	tab := &RowTable[GCoSRow]{}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		tab.Rows = tab.Rows[:0]
		if err := ev.Evaluate(tab, Case{ID: i % 6}); err != nil {
			b.Fatal(err)
		}
	}
}

// docPlainLines returns the package doc's lines without their comment
// markers.
func docPlainLines(t *testing.T) []string {
	t.Helper()
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	var plain []string
	for _, l := range strings.Split(string(doc), "\n") {
		plain = append(plain, strings.TrimPrefix(strings.TrimPrefix(l, "//"), " "))
	}
	return plain
}
