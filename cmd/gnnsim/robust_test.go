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

// TestRobustRound3 runs hostile command lines of issue 28, one table per
// class: every one must be refused at once (nothing runs long here), with
// a message in the user's terms naming the flag or file and what is
// allowed.
func TestRobustRound3(t *testing.T) {
	clearShardEnv(t)
	dir := t.TempDir()
	link := func(name, to string) string {
		p := filepath.Join(dir, name)
		if err := os.Symlink(to, p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	zeroCSV, zeroNPZ, zeroYAML := link("z.csv", "/dev/zero"), link("z.npz", "/dev/zero"), link("z.yaml", "/dev/zero")
	empty := filepath.Join(dir, "empty")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	spec, err := os.ReadFile("../../soc/xavier.yaml")
	if err != nil {
		t.Fatal(err)
	}
	lowPeak := write("lowpeak.yaml", strings.Replace(string(spec), "peak_mhz: 1377", "peak_mhz: 1", 1))
	zeroTable := write("zero.csv", "block,unit,freq_mhz,latency_ms,energy_mj\nffn,gpu,1377,0,1\n")
	both := filepath.Join(dir, "both")
	if err := os.Mkdir(both, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"manifest.json", "sidecar.json"} {
		if err := os.WriteFile(filepath.Join(both, f), []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "out")
	huge := strings.Repeat("Q", 100_000)
	classes := []struct {
		class string
		cases []struct {
			args []string
			want string
		}
	}{
		{"1 bounded reads", []struct {
			args []string
			want string
		}{
			{[]string{"soc", "eval", "--mapping-file", "/dev/zero"}, "/dev/zero: not a regular file (a device)"},
			{[]string{"soc", "units", "--spec", zeroYAML}, "not a regular file (a device)"},
			{[]string{"soc", "eval", "--table", zeroCSV}, "not a regular file (a device)"},
			{[]string{"train", "--data", zeroNPZ}, "not a regular file (a device)"},
			{[]string{"repro", "seed000", "--quick", "--accuracy", zeroCSV, "--out", out}, "not a regular file (a device)"},
			{[]string{"validate", "omega", "--hw", "/dev/zero"}, "not a regular file (a device)"},
			{[]string{"sweep", zeroYAML, "--out", out}, "not a regular file (a device)"},
		}},
		{"2 bounded counts", []struct {
			args []string
			want string
		}{
			{[]string{"train", "--data", "x", "--runs", "1000000000"}, "--runs 1000000000: want 1 to 10000"},
			{[]string{"train", "--data", "x", "--hidden", "1e9"}, "--hidden 1e9: want 1 to"},
			{[]string{"repro", "seed004", "--quick", "--runs", "1e12"}, "--runs 1e12: want 0 to 1000"},
			{[]string{"search", "gcos", "--evaluations", "1e12", "--pool", "1e9"}, "--evaluations 1e12: want 1 to"},
			{[]string{"search", "gcos", "--pool", "1e9"}, "--pool 1e9: want 1 to"},
			{[]string{"search", "fgnas", "--episodes", "2e12"}, "--episodes 2e12: want 0 to"},
			{[]string{"search", "fgnas", "--method", "random", "--trained", "1e12"}, "--trained 1e12: want 0 to"},
			{[]string{"soc", "eval", "--in-flight", "1e9"}, "--in-flight 1e9: want 0 to"},
			{[]string{"soc", "eval", "--frames", "1e9"}, "--frames 1e9: want 0 to"},
			{[]string{"fpga", "eval", "--block", "1e9"}, "--block 1e9: want 1 to"},
			{[]string{"fpga", "eval", "--lut", "-1"}, "--lut -1: want 0 to"},
			{[]string{"predict", "train", "--data", dir, "--out", out, "--max-bin", "1000"}, "--max-bin 1000: want 2 to 256"},
			{[]string{"simulate", "--graphs", "x.mtx", "--F", "1e12"}, "--F 1e12: want 1 to"},
		}},
		{"4 no saturation, no NaN", []struct {
			args []string
			want string
		}{
			{[]string{"soc", "eval", "--frames", "1000000", "--interval-ms", "3e6"}, "beyond the"},
			{[]string{"soc", "eval", "--frames", "1000", "--interval-ms", "1e7"}, "--interval-ms 1e7: want a finite number"},
			{[]string{"soc", "eval", "--interval-ms", "NaN"}, "--interval-ms NaN: want a finite number"},
			{[]string{"fpga", "eval", "--latency-ms", "NaN"}, "--latency-ms NaN: want a finite number"},
			{[]string{"train", "--data", "x", "--lr", "1e308"}, "--lr 1e308: want a finite number above 0"},
			{[]string{"search", "gcos", "--lat-weight", "Inf"}, "--lat-weight Inf: want a finite number"},
			{[]string{"soc", "eval", "--table", zeroTable}, "latency_ms = 0"},
		}},
		{"5 consistency", []struct {
			args []string
			want string
		}{
			{[]string{"soc", "units", "--spec", lowPeak}, "above peak_mhz = 1"},
			{[]string{"fpga", "eval", "--bits", "0.0,0.0"}, `"0.0" has no integer or fraction bit`},
			{[]string{"train", "--data", "x", "--bits", "w=0.0,a=2.4"}, `"0.0" has no integer or fraction bit`},
			{[]string{"fpga", "eval", "--arch", "gcn/add/relu/8;;gcn/add/relu/7"}, `layer 1: architecture ""`},
			{[]string{"repro", "seed004", "--quick", "--datasets", "cora,cora"}, "--datasets cora,cora: cora given twice"},
			{[]string{"schedule", "--data", dir, "--policies", "FCFS,fcfs"}, "fcfs given twice"},
			{[]string{"repro", "seed001", "--quick", "--out", ""}, "--out: no directory named"},
			{[]string{"repro", "seed003", "--quick", "--out", ""}, "--out: no directory named"},
			{[]string{"repro", "seed004", "--quick", "--out", ""}, "--out: no directory named"},
			{[]string{"soc", "eval", "--out", ""}, "--out: no file named"},
			{[]string{"search", "gcos", "--workers", "-1"}, "--workers -1: want 0 (one per CPU) to"},
			{[]string{"train", "--data", "x", "--workers", "-3"}, "--workers -3: want 0 (one per CPU) to"},
			{[]string{"demo", "--data", empty, "--out", out}, "is an empty folder"},
			{[]string{"predict", "graph", "--models", both, "--graphs", "x.mtx", "--graph", "0"}, "holds both manifest.json"},
		}},
		{"6 messages", []struct {
			args []string
			want string
		}{
			{[]string{"repro", "seed005", "--quick"}, `unknown seed "seed005" for "gnnsim repro": want one of seed000, seed001, seed002, seed003, seed004`},
			{[]string{"train", "--data", "x", "--epochs", "abc"}, "--epochs abc: not an integer (want 1 to"},
			{[]string{"soc", "eval", "--mapping", huge}, "... (100000 bytes)"},
		}},
	}
	for _, cl := range classes {
		for _, c := range cl.cases {
			_, _, err := run(t, c.args...)
			msg := ""
			if err != nil {
				msg = cutMessage(err.Error())
			}
			if err == nil || !strings.Contains(msg, c.want) {
				t.Errorf("class %s: gnnsim %s: error %q, want one containing %q", cl.class, cut(strings.Join(c.args, " ")), cut(msg), c.want)
			}
			if len(msg) > 1000 {
				t.Errorf("class %s: gnnsim %s: %d-byte message", cl.class, cut(strings.Join(c.args, " ")), len(msg))
			}
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("%s was written by a refused command", out)
	}
	t.Setenv("GNNSIM_DATA", empty)
	if _, _, err := run(t, "repro", "seed002", "--quick", "--out", out); err == nil || !strings.Contains(err.Error(), "GNNSIM_DATA="+empty+" is an empty folder") {
		t.Errorf("GNNSIM_DATA at an empty folder: %v", err)
	}
	t.Setenv("GNNSIM_SHARED", empty)
	if _, _, err := run(t, "soc", "validate", "maestro"); err == nil || !strings.Contains(err.Error(), "GNNSIM_SHARED="+empty+" has no maestro-reference") {
		t.Errorf("GNNSIM_SHARED without the reference: %v", err)
	}
	help, _, _ := run(t, "demo", "--help")
	if strings.Contains(help, "today seed 002") || !strings.Contains(help, "seed004") {
		t.Errorf("demo --help is out of date:\n%s", help)
	}
}
