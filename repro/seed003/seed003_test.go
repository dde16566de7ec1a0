package seed003

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gnnsim/internal/pqio"
	"gnnsim/repro/claims"
)

func dataDir(t *testing.T) string {
	d := os.Getenv("GNNSIM_DATA")
	if d == "" {
		d = filepath.Join("..", "..", "..", "shared", "data")
	}
	if _, err := os.Stat(filepath.Join(d, "hadas")); err != nil {
		t.Skipf("HADAS curves absent under %s", d)
	}
	return d
}

func TestQuickRun(t *testing.T) {
	if testing.Short() {
		t.Skip("quick reproduction")
	}
	d := dataDir(t)
	out := t.TempDir()
	rep, err := Run(context.Background(), Options{Out: out, Quick: true, Seed: 1, Workers: 2, DataDir: d})
	if err != nil {
		t.Fatal(err)
	}
	own := false
	for _, f := range rep.Findings {
		t.Log(f)
		own = own || strings.Contains(f, "each backbone's own")
	}
	if !own { // the zero Options (the demo's) must derive each backbone's rho, not take rho = 0
		t.Error("zero-value Options did not derive each backbone's overlap from its curve")
	}
	rows, _, err := pqio.Read[Row](filepath.Join(out, RowsFile))
	if err != nil || len(rows) != rep.Rows || len(rows) == 0 {
		t.Fatalf("rows: %d read, %d reported, %v", len(rows), rep.Rows, err)
	}
	ms, _, err := pqio.Read[MetricRow](filepath.Join(out, MetricsFile))
	if err != nil || len(ms) == 0 {
		t.Fatalf("metrics: %d, %v", len(ms), err)
	}
	for _, f := range []string{"report.md", "fig5.png", "fig6.png", "fig7.png", SweepFile} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
	// The ledger: every claim, finite, at the report's top, and every
	// verdict row read from it.
	l, err := claims.Check(filepath.Join(out, "claims.csv"), ClaimIDs)
	if err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	top := string(md)[:strings.Index(string(md), "## Table III")]
	for _, c := range l.Claims() {
		t.Logf("%s: paper %v measured %v (%s)", c.ID, c.Paper, c.Measured, c.Note)
		if !strings.Contains(top, "| "+c.ID+" | ") {
			t.Errorf("claim %s not in the report's opening table", c.ID)
		}
		if !strings.Contains(string(md), " | "+c.ID+" | "+claims.Format(c.Paper)+" | "+claims.Format(c.Measured)+" | ") {
			t.Errorf("no verdict row of %s with the ledger's figures", c.ID)
		}
	}
	// Same seed, same bytes.
	out2 := t.TempDir()
	if _, err := Run(context.Background(), Options{Out: out2, Quick: true, Seed: 1, Workers: 1, DataDir: d}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{RowsFile, MetricsFile, SweepFile, "claims.csv"} {
		a, _ := os.ReadFile(filepath.Join(out, f))
		b, _ := os.ReadFile(filepath.Join(out2, f))
		if string(a) != string(b) {
			t.Errorf("%s differs between runs with 2 and 1 workers", f)
		}
	}
}

func TestWithoutData(t *testing.T) {
	out := t.TempDir()
	rep, err := Run(context.Background(), Options{Out: out, Quick: true, DataDir: filepath.Join(out, "nowhere")})
	if err != nil || len(rep.Findings) != 1 {
		t.Fatalf("%v, %v", rep, err)
	}
}

func ptr(x float64) *float64 { return &x }

func TestBadOptions(t *testing.T) {
	d := dataDir(t)
	for _, o := range []Options{
		{Platform: "orin"},
		{Platform: "tx2", Overlap: ptr(1.5)},
	} {
		o.Out, o.Quick, o.DataDir = t.TempDir(), true, d
		if _, err := Run(context.Background(), o); err == nil {
			t.Errorf("%+v accepted", o)
		}
	}
}

// BenchmarkQuick is 'gnnsim repro seed003 --quick' (the demo's run).
func BenchmarkQuick(b *testing.B) {
	d := os.Getenv("GNNSIM_DATA")
	if d == "" {
		d = filepath.Join("..", "..", "..", "shared", "data")
	}
	if _, err := os.Stat(filepath.Join(d, "hadas")); err != nil {
		b.Skip("HADAS curves absent")
	}
	out := b.TempDir()
	for b.Loop() {
		if _, err := Run(context.Background(), Options{Out: out, Quick: true, Seed: 1, Workers: 2, DataDir: d}); err != nil {
			b.Fatal(err)
		}
	}
}
