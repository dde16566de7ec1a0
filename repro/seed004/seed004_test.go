package seed004

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"

	"gnnsim/accel/fpga"
	"gnnsim/nas/fgnas"
	"gnnsim/repro/claims"
)

// standIn is a cheap deterministic accuracy for testing the pipeline only.
func standIn(a fgnas.Arch, b fgnas.Bits) (float64, float64, error) {
	v := 0.6
	for i, l := range a {
		v += 0.01 * math.Log2(float64(l.Embed)*float64(l.Heads))
		if b != nil {
			v -= 0.1 * math.Exp(-float64(b[i].A.Frac+b[i].W.Frac)/2)
		}
	}
	return v, v - 0.01, nil
}

func TestRunQuick(t *testing.T) {
	dir := t.TempDir()
	oracle := func(d fgnas.Dataset) (fgnas.Oracle, error) {
		if d.Name == "pubmed" {
			return nil, errors.New("no features")
		}
		return standIn, nil
	}
	rep, err := Run(context.Background(), Options{Out: dir, Quick: true, JointEpisodes: 200, Seed: 3, Oracle: oracle, Timing: fpga.Options{Published: true}, Workers: 2, FeasibilityDraws: 3000, ScreenDraws: 500})
	if err != nil {
		t.Fatal(err)
	}
	// 2 specifications x 2 models x 3 methods; Table 4: Cora's loosest.
	if len(rep.Table3) != 2*2*3 || len(rep.Table4) != 2*3 {
		t.Fatalf("tables %d, %d", len(rep.Table3), len(rep.Table4))
	}
	for _, f := range []string{"table3.parquet", "table4.parquet", "samples.parquet", "figure3.png", "figure3.svg", "report.md", "claims.csv"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	for _, c := range rep.Table3 {
		t.Logf("%s %s %s: %s, trained %d, feasible %d/%d", c.Limits, c.Model, c.Method, c.Verdict(), c.Trained, c.Feasible, c.Samples)
	}
	// The ledger: both models' claims; the counts are always measured,
	// the differences where both methods found a design.
	var ids, counts []string
	for _, m := range []string{"fgnas-code", "gnnsim"} {
		ids = append(ids, claimIDs(m)...)
		counts = append(counts, claimIDs(m)[2])
	}
	if _, err := claims.Check(filepath.Join(dir, "claims.csv"), counts); err != nil {
		t.Fatal(err)
	}
	l, err := claims.ReadFile(filepath.Join(dir, "claims.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if m := l.Missing(ids); len(m) > 0 {
		t.Errorf("ledger lacks %v", m)
	}
	for _, c := range l.Claims() {
		t.Logf("%s: paper %v measured %v (%s)", c.ID, c.Paper, c.Measured, c.Note)
	}
	// Same seed, serial: identical tables.
	dir2 := t.TempDir()
	if _, err := Run(context.Background(), Options{Out: dir2, Quick: true, JointEpisodes: 200, Seed: 3, Oracle: oracle, Timing: fpga.Options{Published: true}, Workers: 1, FeasibilityDraws: 3000, ScreenDraws: 500}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"table3.parquet", "samples.parquet"} {
		a, _ := os.ReadFile(filepath.Join(dir, f))
		b, _ := os.ReadFile(filepath.Join(dir2, f))
		if string(a) != string(b) {
			t.Errorf("%s differs between 2 workers and 1", f)
		}
	}
}
