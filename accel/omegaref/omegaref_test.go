package omegaref

import (
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"gnnsim/accel"
)

const header = "set,graph,source,V,E,F,G,tiling,P,T_Va,T_N,T_Fa,T_Vc,T_Gc,T_Fc,agg_tva1_cycles,agg_cycles,comb_cycles,seq_cycles,sp_cycles,pp_cycles,pp_cycles_safe,gb_accesses_seq,gb_accesses_sp,wall_s,status\n"

// A two-node graph (one edge) in both P rows of tiling a: the values are
// those of the reference set's ENZYMES_g19.
const tiny = header +
	"visible,g2,\"TU:TEST graph_id=1 (a, b)\",2,4,16,16,a,512,2,1,16,2,1,16,24,12,25,37,36,21911,36,420,356,0.02,ok;pp_oob\n" +
	"visible,g2,\"TU:TEST graph_id=1 (a, b)\",2,4,16,16,a,256,2,1,16,2,1,16,24,12,25,37,36,21955,36,420,356,0.02,ok;pp_oob\n"

func writeSet(t *testing.T, csv, csr string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "graphs"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "omega_reference.csv"), []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "graphs", "g2.csr"), []byte(csr), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestLoadAndScoreTiny(t *testing.T) {
	dir := writeSet(t, tiny, "0,2,4\n0,1,0,1\n")
	ref, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(ref.Runs) != 2 || ref.Runs[0].Category() != "TU:TEST" || !ref.Runs[0].OOB() || ref.WallSeconds() != 0.04 {
		t.Fatalf("loaded %+v", ref.Runs)
	}
	rep := Score(ref, accel.DefaultHW(), accel.Options{Mode: accel.Omega})
	if len(rep.Failures) != 0 {
		t.Fatal(rep.Failures)
	}
	// Every quantity of this graph is reproduced exactly.
	for _, q := range Quantities {
		if s := rep.ByQuantity[q]; s.Max != 0 || s.Exact != s.N {
			t.Errorf("%s: %d of %d exact, max error %.2f%%", q, s.Exact, s.N, s.Max)
		}
	}
	if len(rep.Results) != 2 || rep.Results[1].Values["pp"].Theirs != 36 || len(rep.Results[0].Configs) != 2 {
		t.Errorf("per-run results %+v", rep.Results)
	}
	if w := rep.Worst(5); len(w) != 2 || w[0].Graph != "g2" {
		t.Errorf("Worst(5) = %+v", w)
	}
	if rep.GB.Max != 0 {
		t.Errorf("global-buffer accesses differ: %.2f%%", rep.GB.Max)
	}
	var b strings.Builder
	if err := rep.Write(&b); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	last := lines[len(lines)-1]
	re := regexp.MustCompile(`^median_abs_pct_err=\d+\.\d+ p90_abs_pct_err=\d+\.\d+ top1_agreement=\d+\.\d+ spearman_median=-?\d+\.\d+ rows=2$`)
	if !re.MatchString(last) || last != rep.LastLine() {
		t.Errorf("last line %q", last)
	}
}

func TestReadErrors(t *testing.T) {
	bad := []struct{ csv, csr, want string }{
		{"set,graph\nx,y\n", "0,1\n0\n", "no column"},
		{header, "0,1\n0\n", "no runs"},
		{strings.Replace(tiny, ",16,16,a,512", ",x,16,a,512", 1), "0,2,4\n0,1,0,1\n", "not an integer"},
		{strings.Replace(tiny, "0.02,ok;pp_oob\nvisible", "nan,ok;pp_oob\nvisible", 1), "0,2,4\n0,1,0,1\n", "not a number"},
		{strings.Replace(tiny, ",g2,", ",../g2,", 1), "0,2,4\n0,1,0,1\n", "bad graph name"},
		{tiny, "0,2,4\n0,1,0\n", "last row pointer"},
		{tiny, "0,2,4\n0,1,0,7\n", "omegaref"},            // id out of range
		{tiny, "0,1,2\n1,0\n", "self-loop"},               // no diagonal
		{tiny, "0,2,4\n0,-1,0,1\n", "not a non-negative"}, // negative id
		{tiny, "0,1\n0\n", "table says"},                  // wrong size
		{tiny, "0,2,4\n0,1,0,1\n9\n", "want two lines"},   // extra line
		{strings.Replace(tiny, ",2,4,16,16,a,512", ",0,4,16,16,a,512", 1), "0,2,4\n0,1,0,1\n", "must be positive"},
	}
	for _, b := range bad {
		dir := writeSet(t, b.csv, b.csr)
		if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("csv %.40q csr %q: %v, want %q", b.csv, b.csr, err, b.want)
		}
	}
	if _, err := Load(t.TempDir()); err == nil {
		t.Error("missing directory contents accepted")
	}
}

func TestStatsHelpers(t *testing.T) {
	x := []float64{1, 2, 3, 4}
	if q := quantile(x, 0.5); q != 2.5 {
		t.Errorf("median %v", q)
	}
	if q := quantile(x, 0.9); math.Abs(q-3.7) > 1e-12 {
		t.Errorf("p90 %v", q)
	}
	if r := spearman([]int64{1, 2, 3}, []int64{10, 20, 30}); math.Abs(r-1) > 1e-12 {
		t.Errorf("spearman %v", r)
	}
	if r := spearman([]int64{1, 2, 3}, []int64{30, 20, 10}); math.Abs(r+1) > 1e-12 {
		t.Errorf("spearman reversed %v", r)
	}
	if r := ranks([]int64{5, 1, 5, 2}); r[0] != 3.5 || r[2] != 3.5 || r[1] != 1 || r[3] != 2 {
		t.Errorf("ranks %v", r)
	}
	if argmin([]int64{3, 1, 1}) != 1 {
		t.Error("argmin tie")
	}
	if pctErr(5, 4) != 25 {
		t.Error("pctErr")
	}
}
