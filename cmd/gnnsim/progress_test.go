package main

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"gnnsim/bench"
)

var sweepJSONKeys = []string{"graphs", "points", "runs", "chunks", "chunks_done", "chunks_computed", "chunks_reused", "complete", "best", "skipped", "removed", "out"}

// progressDone is the last progress line of a sweep whose stderr is not a
// terminal (here a buffer).
var progressDone = regexp.MustCompile(`(?m)^sweep 12/12 graphs \(100\.0%\) \d+\.\d graphs/s ETA 0s; done in \S+$`)

// TestSweepProgressAndJSON runs sweeps with stderr not a terminal: progress
// comes as plain lines with rate and ETA (none with --quiet), and --json
// prints a summary without wall-clock time, the same on a rerun.
func TestSweepProgressAndJSON(t *testing.T) {
	clearShardEnv(t)
	t.Setenv("GNNSIM_PROGRESS", "")
	for _, tc := range []struct {
		name    string
		flags   []string
		quiet   bool
		jsonOut bool
	}{
		{"text", nil, false, false},
		{"quiet", []string{"--quiet"}, true, false},
		{"json", []string{"--json"}, false, true},
		{"json quiet", []string{"--json", "--quiet"}, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "sweep")
			args := append([]string{"sweep", writeSpec(t, dir, 12, 4), "--out", out, "--workers", "2"}, tc.flags...)
			stdout, stderr, err := run(t, args...)
			if err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
			if strings.Contains(stderr, "\r") {
				t.Errorf("carriage return on a non-terminal stderr: %q", stderr)
			}
			if tc.quiet == progressDone.MatchString(stderr) {
				t.Errorf("quiet=%v, stderr:\n%s", tc.quiet, stderr)
			}
			if !tc.jsonOut {
				checkSummary(t, stdout, 12, out)
				return
			}
			if !regexp.MustCompile(`(?m)^wall_s=\d+\.\d\d$`).MatchString(stderr) {
				t.Errorf("no wall_s line on stderr:\n%s", stderr)
			}
			var obj map[string]json.RawMessage
			if err := json.Unmarshal([]byte(stdout), &obj); err != nil {
				t.Fatalf("%v\n%s", err, stdout)
			}
			checkKeys(t, []map[string]json.RawMessage{obj}, sweepJSONKeys)
			var sum bench.SummaryReport
			if err := json.Unmarshal([]byte(stdout), &sum); err != nil {
				t.Fatal(err)
			}
			if sum.Graphs != 12 || sum.Runs != 24*12 || sum.Chunks != 3 || sum.ChunksComputed != 3 || !sum.Complete || sum.Out != out {
				t.Errorf("summary %+v", sum)
			}
			// A rerun reuses every chunk and reports the same dataset.
			again, _, err := run(t, args...)
			if err != nil {
				t.Fatal(err)
			}
			var sum2 bench.SummaryReport
			if err := json.Unmarshal([]byte(again), &sum2); err != nil {
				t.Fatal(err)
			}
			if sum2.Graphs != sum.Graphs || sum2.Runs != sum.Runs || sum2.ChunksReused != 3 || sum2.ChunksComputed != 0 {
				t.Errorf("rerun summary %+v", sum2)
			}
		})
	}
}
