package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"gnnsim/bench"
	"gnnsim/internal/pqio"
)

// TestGcosEval: issue 27's 3-layer GraphSAGE evaluates on a fixed design;
// eval --unit gcos prints what gcos eval prints; --out holds the --json
// row; the row equals the sweep's row for the same design, model and data
// set; latency-only output says accuracy is not measured.
func TestGcosEval(t *testing.T) {
	dir := t.TempDir()
	dataDir := t.TempDir() // no Planetoid files: Cora by its published size, in eval and sweep alike
	os.WriteFile(filepath.Join(dataDir, "README"), []byte("no data\n"), 0o644)
	sage3 := writeModel(t, "sage3.yaml", sage3Layers)
	design := filepath.Join(dir, "design.yaml")
	def := mustRun(t, "gcos", "config", "default")
	// A smaller design from the printed default: 2 sub-accelerators.
	lines := strings.Split(def, "\n")
	var kept []string
	subs := 0
	for _, l := range lines {
		if strings.HasPrefix(l, "  - {pes:") {
			if subs++; subs > 2 {
				continue
			}
		}
		kept = append(kept, l)
	}
	if err := os.WriteFile(design, []byte(strings.Join(kept, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, cfg := range [][]string{nil, {"--config", design}} {
		args := append([]string{"--model", sage3, "--data", "cora", "--data-dir", dataDir}, cfg...)
		text := mustRun(t, append([]string{"gcos", "eval"}, args...)...)
		if !strings.Contains(text, "accuracy: not measured") || strings.Contains(text, "accuracy 0.000") || !strings.Contains(text, "3 layers") {
			t.Errorf("text:\n%s", text)
		}
		if got := mustRun(t, append([]string{"eval", "--unit", "gcos"}, args...)...); got != text {
			t.Errorf("eval --unit gcos differs from gcos eval:\n%s\n%s", got, text)
		}
		pq := filepath.Join(dir, "gcos.parquet")
		js := mustRun(t, append([]string{"gcos", "eval", "--json", "--out", pq}, args...)...)
		var row bench.GCoSRow
		if err := json.Unmarshal([]byte(js), &row); err != nil {
			t.Fatal(err)
		}
		pq2 := filepath.Join(dir, "eval.parquet")
		if ev := mustRun(t, append([]string{"eval", "--unit", "gcos", "--json", "--out", pq2}, args...)...); ev != js {
			t.Errorf("eval --unit gcos --json differs:\n%s\n%s", ev, js)
		}
		checkOut(t, pq2, []bench.GCoSRow{row}, "eval", "latency_ps")
		checkOut(t, pq, []bench.GCoSRow{row}, "gcos eval", "latency_ps", "s0_kernel", "macs")
		if row.Layers != 3 || row.LatencyPS <= 0 || row.MACs <= 0 {
			t.Errorf("row %+v", row)
		}

		// The sweep's row of the same point.
		configs := "[{}]"
		if cfg != nil {
			configs = fmt.Sprintf("[{file: %q}]", design)
		}
		spec := filepath.Join(dir, "gcos-sweep.yaml")
		os.WriteFile(spec, []byte(fmt.Sprintf("name: g\nunit: gcos\ngcos:\n  configs: %s\n  models: [%q]\n  data: [cora]\n  data_dir: %q\n", configs, sage3, dataDir)), 0o644)
		out := filepath.Join(dir, "sweep")
		os.RemoveAll(out)
		mustRun(t, "sweep", spec, "--out", out)
		rows, _, err := pqio.Read[bench.GCoSRow](filepath.Join(out, bench.RunsFile))
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != 1 {
			t.Fatalf("%d sweep rows", len(rows))
		}
		want := rows[0]
		want.Config, want.Model = row.Config, row.Model // the entry's text: a file name or default either way
		if !reflect.DeepEqual(want, row) {
			t.Errorf("sweep row differs from eval:\n%+v\n%+v", rows[0], row)
		}
	}
}

// TestGcosEvalErrors: bad input is a clear error naming the flag.
func TestGcosEvalErrors(t *testing.T) {
	dir := t.TempDir()
	sage3 := writeModel(t, "sage3.yaml", sage3Layers)
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte("subs: [{pes: -1, tiling: output, kernel: row, tile_m: 8, tile_k: 8, tile_n: 8}]\n"), 0o644)
	typo := filepath.Join(dir, "typo.yaml")
	os.WriteFile(typo, []byte("sub: []\n"), 0o644)
	unknown := writeModel(t, "unknown.yaml", "  - {kind: transformer, width: 8}\n")
	edge := writeModel(t, "edge.yaml", "  - {kind: edgeconv, width: 8}\n")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--model", sage3, "--config", bad}, "pes"},
		{[]string{"--model", sage3, "--config", typo}, "sub"},
		{[]string{"--model", sage3, "--data", "nope"}, "--data"},
		{[]string{"--model", unknown}, "transformer"},
		{[]string{"--model", edge}, "not supported by the template"},
		{[]string{"--model", "vig-s"}, "not a GNN stack"},
		{[]string{"--model", "nope.yaml"}, "--model"},
	} {
		_, _, err := run(t, append([]string{"gcos", "eval", "--data-dir", dir}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want one naming %q", c.args, err, c.want)
		}
	}
}
