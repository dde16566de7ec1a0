package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gnnsim/nas/magnas"
	"gnnsim/soc"
	"gnnsim/workload"
)

// MaGNAS Table 2 with 'soc eval --profile magnas': every ViG-S row on
// each unit equals what 'repro seed000' reports (magnas.SoCPlatform on
// soc.MaGNAS at MaxN) and lies within 15 % of the paper's figures; 'soc
// spec magnas' printed to a file and read back with --spec gives the same.
func TestSocEvalProfileMaGNAS(t *testing.T) {
	// MaGNAS Table 2: GPU ms, DLA ms, GPU mJ, DLA mJ.
	paper := map[string][4]float64{
		"mrconv": {25.28, 40.11, 459.44, 224.41}, "edgeconv": {33.74, 62.11, 770.36, 323.70},
		"gin": {22.49, 39.62, 429.07, 214.35}, "sage": {29.57, 57.77, 623.76, 263.48},
	}
	p, err := magnas.SoCPlatform("xavier-soc", soc.MaGNAS(), magnas.XavierTable1Domains())
	if err != nil {
		t.Fatal(err)
	}
	spec := mustRun(t, "soc", "spec", "magnas")
	file := filepath.Join(t.TempDir(), "magnas.yaml")
	if err := os.WriteFile(file, []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, op := range []string{"mrconv", "edgeconv", "gin", "sage"} {
		kind, err := workload.ParseViGOp(op)
		if err != nil {
			t.Fatal(err)
		}
		m, err := workload.ViG("s", kind)
		if err != nil {
			t.Fatal(err)
		}
		for u, unit := range []string{"gpu", "dla"} {
			mp := make([]int, len(m.Blocks))
			for i := range mp {
				mp[i] = u
			}
			want, err := p.EvaluateModel(m, mp, p.Setting(p.MaxN()))
			if err != nil {
				t.Fatal(err)
			}
			for _, src := range [][]string{{"--profile", "magnas"}, {"--spec", file}} {
				out, err := runSoc(t, append([]string{"eval", "--model", "vig-s", "--graph-op", op, "--mapping", unit, "--json"}, src...)...)
				if err != nil {
					t.Fatalf("%s %s %v: %v", op, unit, src, err)
				}
				var rec soc.Report
				if err := json.Unmarshal([]byte(out), &rec); err != nil {
					t.Fatal(err)
				}
				ms, mj := float64(want.TimePS)*1e-9, want.EnergyPJ*1e-9
				if math.Abs(rec.LatencyMS/ms-1) > 1e-9 || math.Abs(rec.EnergyMJ/mj-1) > 1e-9 {
					t.Errorf("%s on %s %v: %.4f ms %.4f mJ, repro seed000's %.4f ms %.4f mJ", op, unit, src, rec.LatencyMS, rec.EnergyMJ, ms, mj)
				}
				pw := paper[op]
				if math.Abs(rec.LatencyMS/pw[u]-1) > 0.15 || math.Abs(rec.EnergyMJ/pw[2+u]-1) > 0.15 {
					t.Errorf("%s on %s: %.2f ms %.2f mJ, Table 2 %.2f ms %.2f mJ (> 15 %%)", op, unit, rec.LatencyMS, rec.EnergyMJ, pw[u], pw[2+u])
				}
			}
		}
	}
	if _, err := runSoc(t, "eval", "--profile", "magnas", "--spec", file, "--model", "vig-s"); err == nil || !strings.Contains(err.Error(), "exclude") {
		t.Errorf("--profile with --spec: %v", err)
	}
	if _, err := runSoc(t, "eval", "--profile", "tx9", "--model", "vig-s"); err == nil || !strings.Contains(err.Error(), "magnas") {
		t.Errorf("unknown profile: %v", err)
	}
	if out, err := runSoc(t, "units", "--profile", "magnas"); err != nil || !strings.Contains(out, "gpu") {
		t.Errorf("soc units --profile magnas: %v\n%s", err, out)
	}
}
