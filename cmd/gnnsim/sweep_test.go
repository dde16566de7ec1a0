package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gnnsim/bench"
	"gnnsim/internal/pqio"
)

// clearShardEnv keeps a surrounding Slurm or Kubernetes job from sharding
// the test sweeps.
func clearShardEnv(t *testing.T) {
	for _, k := range []string{"SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT", "SLURM_ARRAY_TASK_MIN", "JOB_COMPLETION_INDEX", "GNNSIM_SHARD_COUNT"} {
		t.Setenv(k, "")
	}
}

// writeSpec writes the spec of a tiny sweep of n ER graphs in chunks of
// chunk graphs and returns its path.
func writeSpec(t *testing.T, dir string, n, chunk int) string {
	t.Helper()
	spec := fmt.Sprintf(`name: tiny
seed: 3
graphs:
  - generator: er
    count: %d
    nodes: [20, 60]
    params: {avg_degree: 4}
chunk_graphs: %d
`, n, chunk)
	path := filepath.Join(dir, "tiny.yaml")
	if err := os.WriteFile(path, []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// tinySweep runs a sweep of n graphs and returns its output directory.
func tinySweep(t *testing.T, n int) string {
	t.Helper()
	clearShardEnv(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "sweep")
	mustRun(t, "sweep", writeSpec(t, dir, n, 8), "--out", out, "--workers", "2")
	return out
}

var sweepSummary = regexp.MustCompile(`^graphs=(\d+) runs=(\d+) wall_s=(\S+) out=(.+)$`)

// checkSummary checks the last line of a sweep or merge.
func checkSummary(t *testing.T, stdout string, graphs int, out string) {
	t.Helper()
	last := lastLine(stdout)
	m := sweepSummary.FindStringSubmatch(last)
	if m == nil {
		t.Fatalf("last line %q does not match %s", last, sweepSummary)
	}
	if g, _ := strconv.Atoi(m[1]); g != graphs {
		t.Errorf("graphs=%s, want %d", m[1], graphs)
	}
	if r, _ := strconv.Atoi(m[2]); r != 24*graphs {
		t.Errorf("runs=%s, want 24 x %d = %d", m[2], graphs, 24*graphs)
	}
	if w, err := strconv.ParseFloat(m[3], 64); err != nil || w < 0 {
		t.Errorf("wall_s=%s is not a duration in seconds", m[3])
	}
	if m[4] != out {
		t.Errorf("out=%s, want %s", m[4], out)
	}
}

func TestSweepShardMerge(t *testing.T) {
	clearShardEnv(t)
	tests := []struct {
		graphs, chunk, shards int
	}{
		{graphs: 1, chunk: 4, shards: 1},
		{graphs: 10, chunk: 4, shards: 2}, // 3 chunks, shard 0 takes two
		{graphs: 9, chunk: 2, shards: 3},  // 5 chunks
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%d graphs in %d shards", tt.graphs, tt.shards), func(t *testing.T) {
			dir := t.TempDir()
			spec := writeSpec(t, dir, tt.graphs, tt.chunk)
			whole := filepath.Join(dir, "whole")
			checkSummary(t, mustRun(t, "sweep", spec, "--out", whole, "--workers", "2"), tt.graphs, whole)

			var shards []string
			for i := range tt.shards {
				d := filepath.Join(dir, fmt.Sprintf("shard%d", i))
				out := mustRun(t, "sweep", spec, "--out", d, "--workers", "1", "--shard", fmt.Sprintf("%d/%d", i, tt.shards))
				if tt.shards > 1 && !strings.HasPrefix(lastLine(out), fmt.Sprintf("shard %d/%d done", i, tt.shards)) {
					t.Errorf("shard %d printed %q", i, lastLine(out))
				}
				shards = append(shards, d)
			}
			merged := filepath.Join(dir, "merged")
			checkSummary(t, mustRun(t, append([]string{"merge", "--out", merged}, shards...)...), tt.graphs, merged)
			sameFiles(t, whole, merged, "graphs.parquet", "runs.parquet")

			if tt.shards > 1 {
				// One shard alone is not the whole sweep.
				_, _, err := run(t, "merge", "--out", filepath.Join(dir, "part"), shards[0])
				if err == nil || !strings.Contains(err.Error(), "chunk") {
					t.Errorf("merge of one shard of %d: error %v, want one naming the missing chunk", tt.shards, err)
				}
			}

			// A rerun resumes every chunk and changes nothing.
			out := mustRun(t, "sweep", spec, "--out", whole)
			if !strings.Contains(out, "resumed: ") {
				t.Errorf("rerun did not resume:\n%s", out)
			}
			checkSummary(t, out, tt.graphs, whole)
			sameFiles(t, whole, merged, "graphs.parquet", "runs.parquet")
		})
	}
}

func TestSweepBadShard(t *testing.T) {
	clearShardEnv(t)
	dir := t.TempDir()
	spec := writeSpec(t, dir, 2, 1)
	for _, sh := range []string{"3/2", "x", "0/0", "-1/2"} {
		_, _, err := run(t, "sweep", spec, "--out", filepath.Join(dir, "out"), "--shard", sh)
		if err == nil || !strings.Contains(err.Error(), strconv.Quote(sh)) {
			t.Errorf("--shard %s: error %v, want one quoting the shard", sh, err)
		}
	}
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("name: bad\nbogus_key: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := run(t, "sweep", bad, "--out", filepath.Join(dir, "out")); err == nil || !strings.Contains(err.Error(), "bogus_key") {
		t.Errorf("spec with an unknown key: error %v, want one naming the key", err)
	}
}

// The layer-kind example spec runs through 'gnnsim sweep': GCN, GIN, SAGE
// and GAT rows, each configuration of each graph, in a layer column; a
// model: key is refused with the reason.
func TestSweepLayers(t *testing.T) {
	clearShardEnv(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "layers")
	stdout := mustRun(t, "sweep", filepath.Join("..", "..", "bench", "testdata", "layers.yaml"), "--out", out, "--shard", "0/1")
	m := sweepSummary.FindStringSubmatch(lastLine(stdout))
	if m == nil || m[1] != "12" || m[2] != strconv.Itoa(12*4*9) {
		t.Fatalf("summary %q, want 12 graphs and %d runs", lastLine(stdout), 12*4*9)
	}
	rows, _, err := pqio.Read[bench.LayerRunRow](filepath.Join(out, bench.RunsFile))
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, r := range rows {
		count[r.Layer]++
	}
	for _, l := range []string{"gcn", "gin", "sage", "gat"} {
		if count[l] != 12*9 {
			t.Errorf("%d %s rows, want %d", count[l], l, 12*9)
		}
	}
	spec := filepath.Join(dir, "model.yaml")
	if err := os.WriteFile(spec, []byte("name: m\ngraphs:\n  - generator: er\n    count: 1\nmodel: vig-s\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := run(t, "sweep", spec, "--out", filepath.Join(dir, "m")); err == nil || !strings.Contains(err.Error(), "no registered unit kind sweeps whole models") {
		t.Errorf("model: key: error %v", err)
	}
}

// 'dataset' labels in seed 002's mode by default, the mode of 'repro
// seed002' (one default, bench.DatasetMode), so 'predict train' on its
// output learns the reproduction's labels; --F and --G set the sizes.
func TestDatasetDefaultsAndSizes(t *testing.T) {
	clearShardEnv(t)
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		mode string
		f, g []int64
	}{
		{nil, bench.DatasetMode, []int64{16, 32, 64}, []int64{16, 32}},
		{[]string{"--F", "512,64", "--G", "16", "--mode", "extended"}, "extended", []int64{512, 64}, []int64{16}},
	} {
		out := filepath.Join(dir, strconv.Itoa(len(c.args)))
		mustRun(t, append([]string{"dataset", "graphlaxy", "--preset", "small", "--out", out, "--quiet"}, c.args...)...)
		rows, _, err := pqio.Read[bench.RunRow](filepath.Join(out, bench.RunsFile))
		if err != nil {
			t.Fatal(err)
		}
		seenF, seenG := map[int64]bool{}, map[int64]bool{}
		for _, r := range rows {
			if r.Mode != c.mode {
				t.Fatalf("%v: mode %q, want %q", c.args, r.Mode, c.mode)
			}
			seenF[r.F], seenG[r.G] = true, true
		}
		if len(seenF) != len(c.f) || len(seenG) != len(c.g) {
			t.Errorf("%v: F %v, G %v; want %v, %v", c.args, seenF, seenG, c.f, c.g)
		}
		for _, f := range c.f {
			if !seenF[f] {
				t.Errorf("%v: no run with F=%d", c.args, f)
			}
		}
	}
	_, _, err := run(t, "dataset", "graphlaxy", "--preset", "small", "--out", filepath.Join(dir, "bad"), "--F", "0")
	if err == nil || !strings.Contains(err.Error(), "--F 0") {
		t.Errorf("--F 0: error %v", err)
	}
	_, _, err = run(t, "repro", "seed002", "--quick", "--out", filepath.Join(dir, "r"), "--G", "100000000")
	if err == nil || !strings.Contains(err.Error(), "--G 100000000") {
		t.Errorf("repro --G 100000000: error %v", err)
	}
}

// An fpga sweep's row is what 'fpga eval --json' prints for the same
// design and options, with the summed and with the pipelined timing; the
// example spec runs through 'gnnsim sweep', sharded and merged.
func TestSweepFPGAEqualsEval(t *testing.T) {
	clearShardEnv(t)
	for _, c := range []struct {
		name, opts string
		flags      []string
	}{
		{"summed", "", nil},
		{"pipelined", "  pipelined: true\n", []string{"--pipelined"}},
		{"fgnas-code", "  model: fgnas-code\n", []string{"--model", "fgnas-code"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			const arch, tiles, bits = "gat/mean/elu/8x2;gcn/add/relu/7", "4,8,2,4,4;8,8,8,8,8", "1.3,2.4"
			spec := fmt.Sprintf("name: one\nunit: fpga\nfpga:\n  data: citeseer\n  archs: [%q]\n  tiles: [%q]\n  bits: [%q]\n  latency_ms: 0.5\n  lut: 20000\n  dsp: 40\n%s",
				arch, tiles, bits, c.opts)
			path := filepath.Join(dir, "one.yaml")
			if err := os.WriteFile(path, []byte(spec), 0o644); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, "out")
			if got := lastLine(mustRun(t, "sweep", path, "--out", out)); !strings.HasPrefix(got, "points=1 runs=1 ") {
				t.Fatalf("summary %q", got)
			}
			rows, _, err := pqio.Read[bench.FPGARow](filepath.Join(out, bench.RunsFile))
			if err != nil || len(rows) != 1 {
				t.Fatalf("%d rows, %v", len(rows), err)
			}
			r := rows[0]
			args := append([]string{"fpga", "eval", "--data", "citeseer", "--arch", arch, "--tiles", tiles, "--bits", bits,
				"--latency-ms", "0.5", "--lut", "20000", "--dsp", "40", "--json"}, c.flags...)
			var e struct {
				SummedCycles, PipelinedCycles int64
				LatencyMS                     float64
				LUT, FF, DSP, BRAM18          int64
				Feasible                      bool
				Over                          string
			}
			var obj map[string]json.RawMessage
			if err := json.Unmarshal([]byte(mustRun(t, args...)), &obj); err != nil {
				t.Fatal(err)
			}
			for k, dst := range map[string]any{"summed_cycles": &e.SummedCycles, "pipelined_cycles": &e.PipelinedCycles, "latency_ms": &e.LatencyMS,
				"lut": &e.LUT, "ff": &e.FF, "dsp": &e.DSP, "bram18": &e.BRAM18, "feasible": &e.Feasible} {
				if err := json.Unmarshal(obj[k], dst); err != nil {
					t.Fatalf("fpga eval key %s: %v", k, err)
				}
			}
			if o, ok := obj["over"]; ok {
				json.Unmarshal(o, &e.Over)
			}
			wantPipe := int64(0) // the sweep computes it only when it judges on it
			if c.opts == "  pipelined: true\n" {
				wantPipe = e.PipelinedCycles
			}
			if r.SummedCycles != e.SummedCycles || r.PipelinedCycles != wantPipe || float64(r.LatencyPS)*1e-9 != e.LatencyMS ||
				r.LUT != e.LUT || r.FF != e.FF || r.DSP != e.DSP || r.BRAM18 != e.BRAM18 || r.Feasible != e.Feasible || r.Over != e.Over {
				t.Fatalf("sweep row %+v\ndiffers from fpga eval %+v", r, e)
			}
			if r.Data != "citeseer" || r.Arch != arch || r.L0Heads != 2 || r.L0TOut != 8 || r.L1TIn != 8 || r.L0AInt != 2 || r.L1WFrac != 3 {
				t.Fatalf("row genes %+v", r)
			}
		})
	}

	// The example spec: 3 shards merged equal one run.
	checkShardedSweep(t, "../../bench/testdata/fpga.yaml", "points=36 runs=36 ")
}

// checkShardedSweep runs the design-point sweep of spec whole and as 3
// shards into one directory, merges these (the summary starting with
// summary) and checks the runs tables are byte-identical.
func checkShardedSweep(t *testing.T, spec, summary string) {
	t.Helper()
	dir := t.TempDir()
	spec, _ = filepath.Abs(spec)
	whole := filepath.Join(dir, "whole")
	mustRun(t, "sweep", spec, "--out", whole)
	shared := filepath.Join(dir, "shared")
	for i := range 3 {
		mustRun(t, "sweep", spec, "--out", shared, "--shard", fmt.Sprintf("%d/3", i))
	}
	merged := filepath.Join(dir, "merged")
	if got := lastLine(mustRun(t, "merge", shared, "--out", merged)); !strings.HasPrefix(got, summary) {
		t.Fatalf("merge summary %q", got)
	}
	sameFiles(t, whole, merged, bench.RunsFile)
}
