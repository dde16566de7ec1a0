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
	"gnnsim/soc"
)

// A soc sweep's row is what 'soc eval --json' and 'eval --unit soc --json'
// print for the row's model, graph op, granularity, mapping, clocks and
// power mode; the example spec runs through 'gnnsim sweep', sharded and
// merged byte-identical to one run.
func TestSweepSocEqualsEval(t *testing.T) {
	clearShardEnv(t)
	for _, c := range []struct {
		name, model, block string
		rows               int
	}{
		{"dvfs grid", "vig-ti", "  models: [vig-ti]\n  mappings: [all-gpu, graphers-on-dla, {random: {count: 1, seed: 3}}]\n  dvfs: {gpu: [522.75, 1377], emc: [1065.6], cpu: [1190.4]}\n", 3 * 2},
		{"power modes", "vig-ti", "  models: [vig-ti]\n  graph_ops: [gin]\n  granularity: layer\n  mappings: [dla, all-gpu]\n  power_modes: [MAXN, 10W]\n  dvfs: {emc: [800]}\n", 2 * 2},
		{"fp32 cnn", "resnet50", "  models: [resnet50]\n  precision: fp32\n  mappings: [all-dla]\n", 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "soc.yaml")
			if err := os.WriteFile(path, []byte("name: one\nunit: soc\nsoc:\n"+c.block), 0o644); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, "out")
			if got := lastLine(mustRun(t, "sweep", path, "--out", out)); !strings.HasPrefix(got, fmt.Sprintf("points=%d runs=%d ", c.rows, c.rows)) {
				t.Fatalf("summary %q", got)
			}
			rows, _, err := pqio.Read[bench.SocRow](filepath.Join(out, bench.RunsFile))
			if err != nil || len(rows) != c.rows {
				t.Fatalf("%d rows, %v", len(rows), err)
			}
			for i, r := range rows {
				flags := []string{"--model", c.model, "--graph-op", r.GraphOp, "--granularity", r.Granularity,
					"--mapping", r.Mapping, "--dvfs", r.DVFS, "--json"}
				if r.PowerMode != "" {
					flags = append(flags, "--power-mode", r.PowerMode)
				}
				if strings.Contains(c.block, "fp32") {
					flags = append(flags, "--precision", "fp32")
				}
				for _, cmd := range [][]string{{"soc", "eval"}, {"eval", "--unit", "soc"}} {
					args := append(append([]string(nil), cmd...), flags...)
					var e soc.Report
					if err := json.Unmarshal([]byte(mustRun(t, args...)), &e); err != nil {
						t.Fatal(err)
					}
					got := soc.Report{Model: r.Model, GraphOp: r.GraphOp, SoC: r.SoC, Granularity: r.Granularity, Segments: int(r.Segments),
						Mapping: r.Mapping, DVFS: r.DVFS, LatencyMS: r.LatencyMS, EnergyMJ: r.EnergyMJ, PowerW: r.PowerW,
						Transitions: int(r.Transitions), TransferMS: r.TransferMS, DRAMBytes: r.DRAMBytes, Units: r.Units, BusyMS: r.BusyMS,
						PowerMode: r.PowerMode, PlatformMJ: r.PlatformMJ}
					if !reflect.DeepEqual(got, e) {
						t.Fatalf("row %d: sweep %+v\ndiffers from %s %+v", i, got, strings.Join(cmd, " "), e)
					}
				}
			}
		})
	}

	// The example spec (1,008 points): 3 shards merged equal one run.
	checkShardedSweep(t, "../../bench/testdata/soc.yaml", "points=1008 runs=1008 ")
}
