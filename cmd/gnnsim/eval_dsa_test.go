package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gnnsim/bench"
	"gnnsim/internal/pqio"
)

// eval --unit dsa prints the row a dsa sweep writes for the same point
// (built-in and .m dataflows, a point that does not fit included), and
// its --out file holds the --json row.
func TestEvalDSAEqualsSweepRow(t *testing.T) {
	dir := t.TempDir()
	mfile := filepath.Join(dir, "mine.m")
	if err := os.WriteFile(mfile, []byte("// my dataflow\nDataflow {\n  SpatialMap(1,1) K;\n  TemporalMap(64,64) C;\n  TemporalMap(Sz(R),Sz(R)) R;\n  TemporalMap(Sz(S),Sz(S)) S;\n  TemporalMap(1,1) Y;\n  TemporalMap(1,1) X;\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	spec := filepath.Join(dir, "dsa.yaml")
	text := "name: dsa-eval\nunit: dsa\nchunk_points: 2\ndsa:\n  models: [mobilenetv2]\n  dataflows: [kcp_ws, " + strconv.Quote(mfile) +
		"]\n  pes: [64, 1024]\n  l2_bytes: [2048, 0]\n  l1_bytes: 512\n  noc_bw: 32\n  clock_mhz: 800\n"
	if err := os.WriteFile(spec, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "sweep")
	mustRun(t, "sweep", spec, "--out", out)
	rows, _, err := pqio.Read[bench.DSARow](filepath.Join(out, "runs.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 8 {
		t.Fatalf("%d rows, want 8", len(rows))
	}
	fits := 0
	for _, r := range rows {
		if r.Fits {
			fits++
		}
		args := []string{"eval", "--unit", "dsa", "--model", r.Model, "--dataflow", r.Dataflow, "--pes", strconv.FormatInt(r.PEs, 10),
			"--l1", "512", "--l2", strconv.FormatInt(r.L2Bytes, 10), "--noc", "32", "--clock", "800", "--json"}
		pq := filepath.Join(dir, "eval"+strconv.FormatInt(r.PointID, 10)+".parquet")
		var got bench.DSARow
		if err := json.Unmarshal([]byte(mustRun(t, append(args, "--out", pq)...)), &got); err != nil {
			t.Fatal(err)
		}
		got.PointID = r.PointID
		if got != r {
			t.Errorf("point %d: eval\n%+v\nsweep row\n%+v", r.PointID, got, r)
		}
		got.PointID = 0
		checkOut(t, pq, []bench.DSARow{got}, "eval")
	}
	if fits == 0 || fits == len(rows) {
		t.Errorf("%d of %d points fit: the grid should have both", fits, len(rows))
	}
}

// Bad input to eval --unit dsa is a clear error.
func TestEvalDSAErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.m")
	if err := os.WriteFile(bad, []byte("Dataflow {\n  TemporalMap(1,1) K;\n  SpatialMap(1,) C;\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"--dataflow", "kcp_ws", "--pes", "0"}, []string{"--pes 0", "want 1"}},
		{[]string{"--dataflow", "kcp_ws", "--pes", "-3"}, []string{"--pes"}},
		{[]string{"--dataflow", "kcp_ws", "--l2", "-1"}, []string{"--l2"}},
		{[]string{"--dataflow", "nosuch"}, []string{"nosuch", "kcp_ws"}},
		{[]string{"--dataflow", bad}, []string{"bad.m", "line 3"}},
		{[]string{"--dataflow", filepath.Join(dir, "gone.m")}, []string{"gone.m"}},
		{[]string{}, []string{"--dataflow"}},
		{[]string{"--dataflow", "kcp_ws", "--mapping", "gpu"}, []string{"--mapping is an option of --unit soc"}},
	} {
		_, _, err := run(t, append([]string{"eval", "--unit", "dsa", "--model", "vig-ti"}, c.args...)...)
		if err == nil {
			t.Errorf("%v: accepted", c.args)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%v: error %q does not say %q", c.args, err, w)
			}
		}
	}
	// A model file with --data is refused as a model file (the dsa path
	// takes zoo names), not as "a zoo model brings its own input".
	_, _, err := run(t, "eval", "--unit", "dsa", "--model", filepath.Join("..", "..", "bench", "testdata", "sage3.yaml"), "--data", "cora", "--dataflow", "rs")
	if err == nil || !strings.Contains(err.Error(), "takes a zoo model name") || strings.Contains(err.Error(), "brings its own input") {
		t.Errorf("dsa eval of a model file with --data: %v", err)
	}
}

// soc spec default prints the built-in spec; it parses back (tested in
// package soc) and soc eval reads it as --spec.
func TestSocSpecDefault(t *testing.T) {
	out := mustRun(t, "soc", "spec", "default")
	path := filepath.Join(t.TempDir(), "soc.yaml")
	if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	a := mustRun(t, "soc", "eval", "--model", "vig-ti", "--mapping", "gpu", "--json")
	b := mustRun(t, "soc", "eval", "--model", "vig-ti", "--mapping", "gpu", "--json", "--spec", path)
	if a != b {
		t.Errorf("soc eval with the printed spec differs from the built-in:\n%s\n%s", b, a)
	}
}
