package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBadOutputsAndSizes runs command lines a hostile tester found (issue
// 17, classes 1/2, 3 and 7): each must fail at once, before any work, with
// a message naming the flag (or the spec key), and write nothing.
func TestBadOutputsAndSizes(t *testing.T) {
	clearShardEnv(t)
	dir := t.TempDir()
	spec := writeSpec(t, dir, 4, 2)
	existing := filepath.Join(dir, "adir")
	if err := os.Mkdir(existing, 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "afile")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "no", "such", "g.parquet")
	gen := []string{"graphs", "gen", "--generator", "er", "--count", "3"}
	cases := []struct {
		args []string
		want string
	}{
		{append(gen, "--out", "/dev/null"), "--out: /dev/null is not a regular file"},
		{append(gen, "--out", ""), "--out: no file named"},
		{append(gen, "--out", existing), "--out: " + existing + " is a directory"},
		{append(gen, "--out", missing), "--out: cannot write " + missing + ": directory"},
		{[]string{"graphs", "gen", "--generator", "er", "--count", "2000000", "--out", filepath.Join(dir, "g.parquet")}, "--count 2000000"},
		{[]string{"graphs", "gen", "--generator", "knn", "--nodes", "10000000", "--out", filepath.Join(dir, "g.parquet")}, "--nodes 10000000: at most 20000 nodes for knn"},
		{[]string{"graphs", "load", "x.mtx", "--out", "/dev/null"}, "--out: /dev/null"},
		{[]string{"search", "nsga2", "--problem", "zdt1", "--pop", "100000000"}, "--pop 100000000"},
		{[]string{"search", "nsga2", "--problem", "zdt1", "--generations", "1000000", "--pop", "1000"}, "evaluations, above the limit"},
		{[]string{"search", "nsga2", "--problem", "zdt1", "--out", "/dev/null"}, "--out: /dev/null"},
		{[]string{"search", "nsga2", "--problem", "zdt1", "--workers", "-3"}, "--workers -3"},
		{[]string{"schedule", "--data", dir, "--jobs", "100000000000"}, "--jobs 100000000000"},
		{[]string{"schedule", "--data", dir, "--utilisation", "0"}, "--utilisation 0"},
		{[]string{"schedule", "--data", dir, "--shape", "1"}, "--shape 1"},
		{[]string{"schedule", "--data", dir, "--workers", "-3"}, "--workers -3"},
		{[]string{"schedule", "--data", dir, "--out", file}, "--out " + file + ": not a directory"},
		{[]string{"sweep", spec, "--workers", "-3", "--out", filepath.Join(dir, "s")}, "--workers -3"},
		{[]string{"sweep", spec, "--out", "/dev/null"}, "--out /dev/null: not a directory"},
		{[]string{"sweep", spec, "--out", ""}, "--out: no directory named"},
		{[]string{"sweep", spec, "--out", filepath.Join(file, "sub")}, "is not a directory"},
		{[]string{"dataset", "graphlaxy", "--preset", "small", "--out", file}, "--out " + file + ": not a directory"},
		{[]string{"merge", existing, "--out", "/dev/null"}, "--out /dev/null: not a directory"},
		{[]string{"demo", "--out", file}, "--out " + file + ": not a directory"},
		{[]string{"demo", "--workers", "-1", "--out", filepath.Join(dir, "demo")}, "--workers -1"},
		{[]string{"repro", "seed002", "--quick", "--out", "/dev/null"}, "--out /dev/null: not a directory"},
		{[]string{"predict", "train", "--data", dir, "--out", file}, "--out " + file + ": not a directory"},
		{[]string{"predict", "train", "--data", dir, "--out", filepath.Join(dir, "m"), "--workers", "-3"}, "--workers -3"},
		{[]string{"predict", "eval", "--models", dir, "--data", dir, "--parquet", "/dev/null"}, "--parquet: /dev/null"},
		{[]string{"predict", "eval", "--models", dir, "--data", dir, "--markdown", existing}, "--markdown: " + existing + " is a directory"},
		{[]string{"predict", "ablation", "--data", dir, "--out", "/dev/null"}, "--out /dev/null: not a directory"},
		{[]string{"simulate", "--graphs", "x.mtx", "--pes", "0"}, "--pes 0"},
	}
	for _, c := range cases {
		_, _, err := run(t, c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("gnnsim %s: error %v, want one containing %q", strings.Join(c.args, " "), err, c.want)
		}
	}
	for _, p := range []string{filepath.Join(dir, "g.parquet"), filepath.Join(dir, "s"), filepath.Join(dir, "demo"), filepath.Join(dir, "m"), filepath.Join(dir, "no")} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s was written by a refused command", p)
		}
	}
}

// TestSpecNameEscapes: a spec name cannot write outside results/ (issue
// 17, class 7).
func TestSpecNameEscapes(t *testing.T) {
	clearShardEnv(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "evil.yaml")
	if err := os.WriteFile(path, []byte("name: ../../escape\ngraphs:\n  - generator: er\n    count: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	if _, _, err := run(t, "sweep", path); err == nil || !strings.Contains(err.Error(), "name") {
		t.Fatalf("sweep with name ../../escape: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "..", "escape")); err == nil {
		t.Fatal("the sweep wrote outside results/")
	}
}

// TestPredictGraphExtrapolation: a graph and F, G far outside what the
// models were trained on get a warning naming the features, or a refusal;
// never a silent impossible latency such as "0 cycles" (issue 17, class 5).
func TestPredictGraphExtrapolation(t *testing.T) {
	clearShardEnv(t)
	data := tinySweep(t, tinySweepSize)
	models := trainModels(t, data)
	gs := filepath.Join(data, "graphs.parquet")
	for _, fg := range [][2]string{{"1000000", "1000000"}, {"1", "1"}} {
		out, errOut, err := run(t, "predict", "graph", "--models", models, "--graphs", gs, "--graph", "3", "--F", fg[0], "--G", fg[1])
		switch {
		case err != nil:
			if !strings.Contains(err.Error(), "outside") {
				t.Errorf("F=%s G=%s: refused without naming the features: %v", fg[0], fg[1], err)
			}
		case !strings.Contains(errOut, "extrapolating") || !strings.Contains(errOut, "outside the trained"):
			t.Errorf("F=%s G=%s: no extrapolation warning (stderr %q)", fg[0], fg[1], errOut)
		case strings.Contains(out, " 0 cycles"):
			t.Errorf("F=%s G=%s: printed an impossible latency:\n%s", fg[0], fg[1], out)
		}
	}
	// Inside the training range: no warning.
	if _, errOut, err := run(t, "predict", "graph", "--models", models, "--graphs", gs, "--graph", "3", "--F", "32", "--G", "16"); err != nil || strings.Contains(errOut, "extrapolating") {
		t.Errorf("in range: %v, stderr %q", err, errOut)
	}
}
