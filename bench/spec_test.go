package bench

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseSpecErrors(t *testing.T) {
	cases := []struct {
		name, yaml, key string
	}{
		{"empty graphs", "seed: 1\ngraphs: []\n", "graphs"},
		{"no source", "graphs:\n  - count: 3\n", "graphs[0]"},
		{"both", "graphs:\n  - generator: er\n    path: x\n    count: 1\n", "graphs[0]"},
		{"zero count", "graphs:\n  - generator: er\n", "graphs[0].count"},
		{"negative count", "graphs:\n  - generator: er\n    count: -2\n", "graphs[0].count"},
		{"bad range", "graphs:\n  - generator: er\n    count: 2\n    nodes: [5, 3]\n", "graphs[0].nodes"},
		{"bad format", "graphs:\n  - path: x\n    format: gml\n", "graphs[0].format"},
		{"zero F", "graphs:\n  - generator: er\n    count: 1\nsizes:\n  F: [0]\n", "sizes.F"},
		{"bad size mode", "graphs:\n  - generator: er\n    count: 1\nsizes:\n  mode: zip\n", "sizes.mode"},
		{"bad mode", "graphs:\n  - generator: er\n    count: 1\nmode: fast\n", "mode"},
		{"negative pes", "graphs:\n  - generator: er\n    count: 1\nhardware:\n  - pes: -1\n", "hardware[0].pes"},
		{"empty", "", "(file)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseSpec([]byte(c.yaml))
			var se *SpecError
			if !errors.As(err, &se) {
				t.Fatalf("want SpecError for key %s, got %v", c.key, err)
			}
			if se.Key != c.key {
				t.Fatalf("key = %q, want %q (%v)", se.Key, c.key, err)
			}
		})
	}
	if _, err := ParseSpec([]byte("graphs:\n  - generator: er\n    count: 1\n    cuont: 2\n")); err == nil || !strings.Contains(err.Error(), "cuont") {
		t.Fatalf("unknown key not reported: %v", err)
	}
}

// exampleSpec parses testdata/example.yaml and returns it with its text.
func exampleSpec(t *testing.T) (*Spec, []byte) {
	t.Helper()
	data, err := os.ReadFile("testdata/example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s, err := ParseSpec(data)
	if err != nil {
		t.Fatal(err)
	}
	return s, data
}

func TestExampleSpecParses(t *testing.T) {
	s, data := exampleSpec(t)
	if s.Hash() != s.Hash() || s.Hash() == "" {
		t.Fatal("hash not stable")
	}
	s2, _ := ParseSpec(data)
	s2.Seed++
	if s2.Hash() == s.Hash() {
		t.Fatal("hash ignores the seed")
	}
}

func TestShard(t *testing.T) {
	for _, bad := range []string{"", "1", "a/b", "2/2", "-1/3", "0/0"} {
		if _, err := ParseShard(bad); err == nil {
			t.Errorf("ParseShard(%q) accepted", bad)
		}
	}
	s, err := ParseShard("1/3")
	if err != nil || !s.Owns(4) || s.Owns(3) {
		t.Fatalf("1/3: %v %v", s, err)
	}
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	s, ok, err := ShardFromEnv(env(map[string]string{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "3", "SLURM_ARRAY_TASK_MIN": "1"}))
	if !ok || err != nil || s != (Shard{2, 3}) {
		t.Fatalf("slurm: %v %v %v", s, ok, err)
	}
	s, ok, err = ShardFromEnv(env(map[string]string{"JOB_COMPLETION_INDEX": "0", "GNNSIM_SHARD_COUNT": "4"}))
	if !ok || err != nil || s != (Shard{0, 4}) {
		t.Fatalf("k8s: %v %v %v", s, ok, err)
	}
	if _, ok, err = ShardFromEnv(env(map[string]string{"JOB_COMPLETION_INDEX": "0"})); !ok || err == nil {
		t.Fatal("k8s without count accepted")
	}
	if _, ok, _ = ShardFromEnv(env(nil)); ok {
		t.Fatal("no env, but a shard")
	}
}

// Bad specs that parse fail while planning, before any simulation, naming
// the key and the reason.
func TestNewPlanErrors(t *testing.T) {
	cases := []struct {
		name, yaml, key, reason string
	}{
		{"unknown generator", "graphs:\n  - generator: nope\n    count: 2\n", "graphs[0]", "nope"},
		{"bad generator param", "graphs:\n  - generator: er\n    count: 2\n    params: {p: 2}\n", "graphs[0]", "p"},
		{"unreadable file", "graphs:\n  - path: /nonexistent/graph.mtx\n", "graphs[0]", "nonexistent"},
		{"unknown preset", "graphs:\n  - generator: graphlaxy\n    preset: huge\n", "graphs[0]", "huge"},
		{"unknown tiling", "graphs:\n  - generator: er\n    count: 1\nconfigurations:\n  tilings: [z]\n", "configurations.tilings[0]", "z"},
		{"impossible tiling", "graphs:\n  - generator: er\n    count: 1\nconfigurations:\n  custom: [\"T_Va=4,T_N=64,T_Fa=16,T_Vc=1,T_Gc=1,T_Fc=16\"]\n", "configurations", "PE"},
		{"unknown dataflow", "graphs:\n  - generator: er\n    count: 1\nconfigurations:\n  dataflows: [fused]\n", "configurations.dataflows[0]", "fused"},
		{"missing hw file", "graphs:\n  - generator: er\n    count: 1\nhardware:\n  - file: /nonexistent/hw.yaml\n", "hardware[0].file", "nonexistent"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := ParseSpec([]byte(c.yaml))
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			_, err = NewPlan(s)
			var se *SpecError
			if !errors.As(err, &se) {
				t.Fatalf("want SpecError for key %s, got %v", c.key, err)
			}
			if se.Key != c.key || !strings.Contains(strings.ToLower(se.Reason), strings.ToLower(c.reason)) {
				t.Fatalf("got key %q reason %q, want key %q mentioning %q", se.Key, se.Reason, c.key, c.reason)
			}
		})
	}
}

// TestParseSpecRefusesCoercions: values that were silently truncated,
// wrapped or replaced by defaults (issue 17, class 7) are errors naming the
// key, and sizes beyond the documented limits (class 3) are refused before
// any work.
func TestParseSpecRefusesCoercions(t *testing.T) {
	const src = "graphs:\n  - generator: er\n    count: 1\n"
	cases := []struct {
		name, yaml, want string
	}{
		{"fractional seed", "seed: 1.5\n" + src, "seed"},
		{"seed above 2^64", "seed: 18446744073709551616\n" + src, "seed"},
		{"fractional pes", src + "hardware:\n  - pes: 256.7\n", "hardware[0].pes"},
		{"zero pes", src + "hardware:\n  - pes: 0\n", "hardware[0].pes"},
		{"zero DRAM bandwidth", src + "hardware:\n  - dram_bytes_per_cycle: 0\n", "hardware[0].dram_bytes_per_cycle"},
		{"negative DRAM bandwidth", src + "hardware:\n  - dram_bytes_per_cycle: -4\n", "hardware[0].dram_bytes_per_cycle"},
		{"zero nodes", "graphs:\n  - generator: er\n    count: 1\n    nodes: [0, 0]\n", "graphs[0].nodes"},
		{"fractional count", "graphs:\n  - generator: er\n    count: 2.5\n", "graphs[0].count"},
		{"escaping name", "name: ../../escape\n" + src, "name"},
		{"name with separator", "name: a/b\n" + src, "name"},
		{"dot name", "name: ..\n" + src, "name"},
		{"huge F", src + "sizes:\n  F: [1000000000]\n", "sizes.F"},
		{"huge count", "graphs:\n  - generator: er\n    count: 1000000000000\n", "graphs[0].count"},
		{"too many chunks", "graphs:\n  - generator: er\n    count: 2000000\nchunk_graphs: 1\n", "chunk_graphs"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := ParseSpec([]byte(c.yaml))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("ParseSpec = %+v, %v; want an error naming %s", s, err, c.want)
			}
		})
	}
	s, err := ParseSpec([]byte("name: ok-1.2_x\nseed: 18446744073709551615\n" + src + "hardware:\n  - pes: 256\n"))
	if err != nil || s.Seed != 1<<64-1 || *s.HW[0].PEs != 256 {
		t.Fatalf("valid spec: %+v, %v", s, err)
	}
}

// Every example spec under testdata plans from the repository root, from
// its own folder and from an unrelated folder alike: relative paths are
// taken from the spec file's folder (Spec.Path). The gcos example, whose
// model files sit beside it, runs to the same bytes from two folders.
func TestSpecPathsFromAnyFolder(t *testing.T) {
	specs, err := filepath.Glob("testdata/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	abs := make([]string, 0, len(specs))
	for _, p := range specs {
		if s, err := ParseSpec([]byte(mustRead(t, p))); err != nil || s == nil {
			continue // a model file (sage3.yaml, gcn2.yaml), not a sweep spec
		}
		a, err := filepath.Abs(p)
		if err != nil {
			t.Fatal(err)
		}
		abs = append(abs, a)
	}
	if len(abs) < 5 {
		t.Fatalf("found %d sweep specs under testdata, want the examples of every kind", len(abs))
	}
	repo, elsewhere := filepath.Dir(filepath.Dir(filepath.Dir(abs[0]))), t.TempDir()
	run := func(dir, spec string) []byte {
		t.Chdir(dir)
		s, err := LoadSpec(spec)
		if err != nil {
			t.Fatalf("from %s: %v", dir, err)
		}
		p, err := NewPlan(s)
		if err != nil {
			t.Fatalf("from %s: %s: %v", dir, spec, err)
		}
		if filepath.Base(spec) != "gcos.yaml" {
			return nil
		}
		out := filepath.Join(t.TempDir(), "out")
		if _, err := p.Run(context.Background(), out, Options{Workers: 2}); err != nil {
			t.Fatal(err)
		}
		return readRunsFile(t, out)
	}
	for _, spec := range abs {
		rel, err := filepath.Rel(repo, spec)
		if err != nil {
			t.Fatal(err)
		}
		a := run(repo, rel) // the repository root, as the README runs it
		b := run(elsewhere, spec)
		if !bytes.Equal(a, b) {
			t.Errorf("%s: runs.parquet differs between the repository root and %s", rel, elsewhere)
		}
	}
}
