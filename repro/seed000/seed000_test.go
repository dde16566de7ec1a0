package seed000

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gnnsim/nas/magnas"
	"gnnsim/repro/claims"
)

func TestQuickRun(t *testing.T) {
	if testing.Short() {
		t.Skip("quick reproduction takes seconds")
	}
	dir := t.TempDir()
	rep, err := Run(context.Background(), Options{Out: dir, Quick: true, Seed: 1, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Findings {
		t.Log(f)
	}
	for _, f := range rep.Files {
		if st, err := os.Stat(f); err != nil || st.Size() == 0 {
			t.Errorf("%s missing or empty: %v", f, err)
		}
	}
	md, err := os.ReadFile(filepath.Join(dir, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	// The ledger: every claim ID, a finite measured value, the same table
	// at the top of the report, and every verdict row naming its claim.
	l, err := claims.Check(filepath.Join(dir, "claims.csv"), ClaimIDs)
	if err != nil {
		t.Fatal(err)
	}
	top := string(md)[:strings.Index(string(md), "## Search-space sizes")]
	for _, c := range l.Claims() {
		if !strings.Contains(top, "| "+c.ID+" | ") {
			t.Errorf("claim %s not in the report's opening table", c.ID)
		}
		t.Logf("%s: paper %v measured %v %s (%s)", c.ID, c.Paper, c.Measured, c.Unit, c.Note)
	}
	for _, g := range goals {
		c, _ := l.Get(g.ID)
		if !strings.Contains(string(md), " | "+g.ID+" | "+claims.Format(c.Paper)+" | "+claims.Format(c.Measured)+" | ") && !strings.Contains(string(md), " | "+g.ID+" | - | "+claims.Format(c.Measured)+" | ") {
			t.Errorf("verdict of %s not read from the ledger", g.ID)
		}
	}
}

// TestBadDataset: an unknown data set is a clear error before any output
// is written (issue 28: it panicked and left an empty directory).
func TestBadDataset(t *testing.T) {
	out := filepath.Join(t.TempDir(), "x")
	_, err := Run(context.Background(), Options{Out: out, Quick: true, Dataset: "foo"})
	if err == nil || !strings.Contains(err.Error(), `"foo"`) || !strings.Contains(err.Error(), "cifar100") {
		t.Fatalf("want an error naming the data set and the allowed ones, got %v", err)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("output directory created on bad input: %v", err)
	}
}

// TestTable3Properties: the constrained-transition rows are non-empty and
// within their bound, no better than the unconstrained front (each is
// weakly dominated by one of its points), and m* is on that front.
func TestTable3Properties(t *testing.T) {
	r, err := newRun(Options{Out: t.TempDir(), Quick: true, Seed: 1, Dataset: "cifar100"})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.table3(context.Background()); err != nil {
		t.Fatal(err)
	}
	t3 := r.t3
	for k := 1; k <= 2; k++ {
		if len(t3.fronts[k]) == 0 {
			t.Fatalf("<= %d transitions: empty front", k)
		}
		for _, c := range t3.fronts[k] {
			if c.Transitions > k {
				t.Errorf("<= %d transitions: front mapping with %d", k, c.Transitions)
			}
			ok := false
			for _, u := range t3.fronts[0] {
				ok = ok || (u.TimePS <= c.TimePS*(1+1e-12) && u.EnergyPJ <= c.EnergyPJ*(1+1e-12))
			}
			if !ok {
				t.Errorf("<= %d transitions: %.2f ms / %.2f mJ beats the unconstrained front", k, ms(c.TimePS), mj(c.EnergyPJ))
			}
		}
	}
	for _, sp := range []magnas.Point{t3.gpu, t3.dla} {
		if t3.ours.Score > sp.Score*(1+1e-12) {
			t.Errorf("m* score %.4f worse than a standalone's %.4f", t3.ours.Score, sp.Score)
		}
	}
	t.Logf("m*: %.2f ms / %.2f mJ, %d transitions, P %.3f (GPU %.3f, DLA %.3f)", ms(t3.ours.TimePS), mj(t3.ours.EnergyPJ), t3.ours.Transitions, t3.ours.Score, t3.gpu.Score, t3.dla.Score)
}

// TestFig9FrontsDiffer: on the heterogeneous DSAs, whose buffers refuse
// some layers, the layer-wise front differs from the block-wise one.
func TestFig9FrontsDiffer(t *testing.T) {
	r, err := newRun(Options{Out: t.TempDir(), Quick: true, Seed: 1, Dataset: "cifar100"})
	if err != nil {
		t.Fatal(err)
	}
	r.opts.Out = t.TempDir()
	if err := r.fig9(context.Background()); err != nil {
		t.Fatal(err)
	}
	f := r.fig9Fronts
	nl, nb := undominated(f[1], f[0]), undominated(f[0], f[1])
	if nl == 0 && nb == 0 {
		t.Errorf("the layer-wise and block-wise fronts are the same (%d and %d points)", len(f[1]), len(f[0]))
	}
	t.Logf("layer-wise front %d points, %d beyond block-wise; block-wise %d, %d beyond layer-wise", len(f[1]), nl, len(f[0]), nb)
}

// TestFig9CapacityMechanism: DSA-d refuses some layer; layer-wise only
// that layer leaves it, block-wise its whole block, so DSA-d's
// deployment with fallback costs less energy layer-wise.
func TestFig9CapacityMechanism(t *testing.T) {
	r, err := newRun(Options{Out: t.TempDir(), Quick: true, Seed: 1, Dataset: "cifar100"})
	if err != nil {
		t.Fatal(err)
	}
	m, err := magnas.PyramidModel(dsaArch)
	if err != nil {
		t.Fatal(err)
	}
	var e [2]float64
	for k, g := range []magnas.Granularity{magnas.BlockWise, magnas.LayerWise} {
		tb, err := r.dsa.Costs.Table(m, g)
		if err != nil {
			t.Fatal(err)
		}
		d := len(tb.Units) - 1
		if tb.Standalone(d) != nil {
			t.Fatalf("%s: %s runs every segment: the capacity checks do not bind", g, tb.Units[d])
		}
		_, e[k], _ = tb.Eval(tb.StandaloneFallback(d, 0), 0)
	}
	if !(e[1] < e[0]) {
		t.Errorf("DSA-d with fallback: layer-wise %.4g pJ, block-wise %.4g pJ: want layer-wise lower", e[1], e[0])
	}
}
