package main

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"gnnsim/accel/omegaref"
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
