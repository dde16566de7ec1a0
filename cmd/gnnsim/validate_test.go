package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gnnsim/accel/fpgaref"
	"gnnsim/accel/omegaref"
	"gnnsim/internal/pqio"
)

var validateSummary = regexp.MustCompile(`^median_abs_pct_err=\S+ p90_abs_pct_err=\S+ top1_agreement=\S+ spearman_median=\S+ rows=(\d+)$`)

func TestValidateOmega(t *testing.T) {
	dir, ok := omegaref.FindDir()
	if !ok {
		t.Skip("no STONNE-Omega reference (set GNNSIM_SHARED to the folder holding omega-reference/)")
	}
	out := mustRun(t, "validate", "omega", "--reference", dir)
	last := lastLine(out)
	m := validateSummary.FindStringSubmatch(last)
	if m == nil {
		t.Fatalf("last line %q does not match %s", last, validateSummary)
	}
	// rows counts the reference runs: the data rows of its CSV.
	f, err := os.Open(filepath.Join(dir, "omega_reference.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if rows, _ := strconv.Atoi(m[1]); rows != len(recs)-1 || rows == 0 {
		t.Errorf("rows=%d, the reference CSV has %d data rows", rows, len(recs)-1)
	}
}

// tinyReference writes a two-run reference set (the two-node graph
// ENZYMES_g19 of the shared set, whose every value omega mode reproduces)
// with its P = 256 run's pp value changed from 36 to 40, and returns its
// directory.
func tinyReference(t *testing.T) string {
	t.Helper()
	const header = "set,graph,source,V,E,F,G,tiling,P,T_Va,T_N,T_Fa,T_Vc,T_Gc,T_Fc,agg_tva1_cycles,agg_cycles,comb_cycles,seq_cycles,sp_cycles,pp_cycles,pp_cycles_safe,gb_accesses_seq,gb_accesses_sp,wall_s,status\n"
	csv := header +
		"visible,g2,TU:TEST graph_id=1,2,4,16,16,a,512,2,1,16,2,1,16,24,12,25,37,36,21911,36,420,356,0.02,ok;pp_oob\n" +
		"visible,g2,TU:TEST graph_id=1,2,4,16,16,a,256,2,1,16,2,1,16,24,12,25,37,36,21955,40,420,356,0.02,ok;pp_oob\n"
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "graphs"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "omega_reference.csv"), []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "graphs", "g2.csr"), []byte("0,2,4\n0,1,0,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestValidateOmegaJSON(t *testing.T) {
	dir := tinyReference(t)
	objs := decodeObjects(t, mustRun(t, "validate", "omega", "--reference", dir, "--json"))
	if len(objs) != 2 {
		t.Fatalf("%d objects, want one per run (2)", len(objs))
	}
	checkKeys(t, objs, []string{"graph", "source", "tiling", "P", "configs", "tiles", "values"})
	type value struct {
		Ours, Theirs int64
		Err          float64 `json:"abs_pct_err"`
	}
	wantQ := [][]string{
		{"agg", "comb", "gb_seq", "gb_sp", "seq", "sp"}, // P = 512: seq and sp
		{"agg", "comb", "pp"},                           // P = 256: pp
	}
	for i, o := range objs {
		var vals map[string]value
		if err := json.Unmarshal(o["values"], &vals); err != nil {
			t.Fatal(err)
		}
		if got := slices.Sorted(maps.Keys(vals)); !slices.Equal(got, wantQ[i]) {
			t.Errorf("run %d: quantities %v, want %v", i, got, wantQ[i])
		}
		for q, v := range vals {
			want := 0.0
			if i == 1 && q == "pp" {
				want = 10 // 36 against the altered 40
			}
			if v.Err != want || (want == 0) != (v.Ours == v.Theirs) {
				t.Errorf("run %d %s: %+v, want error %g%%", i, q, v, want)
			}
		}
	}
	var tiles map[string]int
	if err := json.Unmarshal(objs[0]["tiles"], &tiles); err != nil || tiles["T_Va"] != 2 || tiles["T_Fc"] != 16 || len(tiles) != 6 {
		t.Errorf("tiles %v (%v)", tiles, err)
	}

	// --worst 1 keeps the run that disagrees.
	objs = decodeObjects(t, mustRun(t, "validate", "omega", "--reference", dir, "--json", "--worst", "1"))
	if len(objs) != 1 || string(objs[0]["P"]) != "256" {
		t.Fatalf("--json --worst 1: %d objects, first P %s; want the P = 256 run", len(objs), objs[0]["P"])
	}
}

func TestValidateOmegaWorst(t *testing.T) {
	dir := tinyReference(t)
	out := mustRun(t, "validate", "omega", "--reference", dir, "--worst", "2")
	if !validateSummary.MatchString(lastLine(out)) {
		t.Errorf("last line %q is not the summary", lastLine(out))
	}
	// The table lists the two runs, the one that disagrees first.
	var rows []string
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "graph ") && strings.Contains(l, "worst") {
			rows = lines[i+1 : i+3]
			break
		}
	}
	if len(rows) != 2 {
		t.Fatalf("no worst-runs table in\n%s", out)
	}
	f := strings.Fields(rows[0])
	if len(f) < 7 || f[0] != "g2" || f[2] != "256" || f[3] != "pp" || f[4] != "36" || f[5] != "40" || f[6] != "10.0000" {
		t.Errorf("first row %q, want g2 a 256 pp 36 40 10.0000 ...", rows[0])
	}
	if f := strings.Fields(rows[1]); len(f) < 7 || f[2] != "512" || f[6] != "0.0000" {
		t.Errorf("second row %q, want the exact P = 512 run", rows[1])
	}
	if _, _, err := run(t, "validate", "omega", "--reference", dir, "--worst", "0"); err == nil || !strings.Contains(err.Error(), "--worst") {
		t.Errorf("--worst 0: %v, want an error naming the flag", err)
	}
}

// TestValidateOmegaOut: --out is the --json runs as a long table, one row
// per (run, quantity), with the error against the reference.
func TestValidateOmegaOut(t *testing.T) {
	dir := tinyReference(t)
	pq := filepath.Join(t.TempDir(), "v.parquet")
	mustRun(t, "validate", "omega", "--reference", dir, "--out", pq)
	rows, meta, err := pqio.Read[omegaValidateRow](pq)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rows {
		e := "null"
		if r.AbsPctErr != nil {
			e = fmt.Sprint(*r.AbsPctErr)
		}
		got = append(got, fmt.Sprintf("%d %s %d/%d %s", r.P, r.Quantity, r.Ours, r.Theirs, e))
		if r.Graph != "g2" || r.Error != "" {
			t.Errorf("row %+v", r)
		}
	}
	if len(got) != 9 || got[8] != "256 pp 36/40 10" {
		t.Fatalf("rows %v: want 6 quantities of the P = 512 run, 3 of the P = 256 one (the last pp 36 against 40: 10 %%)", got)
	}
	for i, r := range rows[:8] {
		if r.Ours != r.Theirs || r.AbsPctErr == nil || *r.AbsPctErr != 0 {
			t.Errorf("row %d %s: want exact", i, got[i])
		}
	}
	if meta["gnnsim.command"] != "validate omega" || meta["gnnsim.reference"] != dir {
		t.Errorf("metadata %v", meta)
	}
}

// TestFPGAValidateOut: --out holds four metrics per reference row, all
// exact on the shared reference (the fgnas-code model is the authors').
func TestFPGAValidateOut(t *testing.T) {
	dir, ok := fpgaref.FindDir()
	if !ok {
		t.Skip("no FGNAS reference (set GNNSIM_SHARED)")
	}
	pq := filepath.Join(t.TempDir(), "v.parquet")
	mustRun(t, "fpga", "validate", "fgnas", "--reference", dir, "--out", pq)
	rows, _, err := pqio.Read[fgnasValidateRow](pq)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := fpgaref.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 4*len(ref.Rows) {
		t.Fatalf("%d rows, want 4 metrics x %d reference rows", len(rows), len(ref.Rows))
	}
	for _, r := range rows {
		if r.Error != "" || r.Ours != r.Theirs {
			t.Fatalf("row %+v: want exact", r)
		}
	}
}
