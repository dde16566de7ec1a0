package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gnnsim/soc"
)

// runCorun runs "gnnsim soc ARGS".
func runCorun(t *testing.T, args ...string) (string, error) {
	t.Helper()
	out, _, err := run(t, append([]string{"soc"}, args...)...)
	return out, err
}

// TestSocCorunJSON: --json is an array of objects with the documented
// keys; a run's alone_ms is what soc eval gives for its mapping; the
// co-run is never faster; --out writes corun.parquet.
func TestSocCorunJSON(t *testing.T) {
	dir := t.TempDir()
	out, err := runCorun(t, "corun", "--run", "googlenet:gpu", "--run", "resnet50:dla>gpu@30", "--json", "--out", dir)
	if err != nil {
		t.Fatal(err)
	}
	var recs []socCorunRecord
	if err := json.Unmarshal([]byte(out), &recs); err != nil {
		t.Fatalf("not a JSON array: %v\n%s", err, out)
	}
	var objs []map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &objs); err != nil || len(objs) != 2 {
		t.Fatalf("want 2 objects: %v", err)
	}
	for _, k := range []string{"model", "mapping", "alone_ms", "latency_ms", "slowdown", "busy_share", "dram_gbps", "units"} {
		if _, ok := objs[0][k]; !ok {
			t.Errorf("JSON lacks %q", k)
		}
	}
	ev, err := runCorun(t, "eval", "--model", "googlenet", "--mapping", "gpu", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var one soc.Report
	if err := json.Unmarshal([]byte(ev), &one); err != nil {
		t.Fatal(err)
	}
	if recs[0].AloneMS != one.LatencyMS {
		t.Errorf("googlenet:gpu alone %v ms, soc eval %v ms", recs[0].AloneMS, one.LatencyMS)
	}
	for _, r := range recs {
		if r.LatencyMS < r.AloneMS || r.Slowdown < 1 {
			t.Errorf("%s:%s: %v ms beside the other, %v alone", r.Model, r.Mapping, r.LatencyMS, r.AloneMS)
		}
	}
	if fi, err := os.Stat(filepath.Join(dir, "corun.parquet")); err != nil || fi.Size() == 0 {
		t.Errorf("--out: corun.parquet not written: %v", err)
	}
	// Alone, the latency is soc eval's.
	out, err = runCorun(t, "corun", "--run", "googlenet:gpu", "--json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(out), &recs); err != nil {
		t.Fatal(err)
	}
	if recs[0].LatencyMS != one.LatencyMS || recs[0].Slowdown != 1 {
		t.Errorf("googlenet:gpu alone in a co-run: %v ms (x%v), soc eval %v ms", recs[0].LatencyMS, recs[0].Slowdown, one.LatencyMS)
	}
}

// TestSocCorunErrors: bad input gets a clear error naming the problem.
func TestSocCorunErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"corun"}, "at least one"},
		{[]string{"corun", "--run", "googlenet"}, "MODEL:MAPPING"},
		{[]string{"corun", "--run", "nosuchnet:gpu"}, "neither a zoo model"},
		{[]string{"corun", "--run", "googlenet:tpu"}, "tpu"},
		{[]string{"corun", "--run", "googlenet:gpu>dla@999"}, "0..141"},
		{[]string{"corun", "--run", "googlenet:gpu>dla@-1"}, "K ="},
		{[]string{"corun", "--run", "googlenet:gpu>dla"}, "A>B@K"},
		{[]string{"corun", "--run", "googlenet:gpu>npu@3"}, "npu"},
		{[]string{"corun", "--run", "googlenet:gpu,dla"}, "blocks"},
		{[]string{"corun", "--run", "googlenet:gpu", "--min-frames", "50", "--max-frames", "10"}, "--max-frames"},
		{[]string{"corun", "--run", "googlenet:gpu", "--dvfs", "emc=5"}, "--dvfs"},
	} {
		out, err := runCorun(t, tc.args...)
		if err == nil {
			t.Errorf("%v: no error\n%s", tc.args, out)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %q lacks %q", tc.args, err, tc.want)
		}
	}
}

// TestSocCorunUnitCannotRun: a unit that cannot run a kernel (a DLA
// without a GPU fallback meets GoogleNet's softmax) is an error.
func TestSocCorunUnitCannotRun(t *testing.T) {
	spec := strings.Replace(string(soc.DefaultSpecYAML()), "    fallback: gpu\n", "", 1)
	path := filepath.Join(t.TempDir(), "nofallback.yaml")
	if err := os.WriteFile(path, []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := runCorun(t, "corun", "--spec", path, "--run", "googlenet:dla")
	if err == nil || !strings.Contains(err.Error(), "dla") {
		t.Errorf("googlenet on a DLA without fallback: %v", err)
	}
}
