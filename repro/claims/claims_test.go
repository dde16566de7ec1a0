package claims

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	var l Ledger
	l.Set("a_pct", -10, -3.25, "pct", "a, with a comma")
	l.Set("b_x", math.NaN(), 1.5, "x", "")
	l.Set("a_pct", -10, -4, "pct", "replaced")
	if n := len(l.Claims()); n != 2 {
		t.Fatalf("%d rows, want 2 (Set replaces)", n)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "claims.csv")
	if err := l.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o644 {
		t.Fatalf("stat %v, mode %v; want 0644", err, st.Mode().Perm())
	}
	got, err := Check(path, []string{"a_pct", "b_x"})
	if err != nil {
		t.Fatal(err)
	}
	c, _ := got.Get("a_pct")
	if c.Measured != -4 || c.Paper != -10 || c.Note != "replaced" || c.Unit != "pct" {
		t.Errorf("a_pct read back as %+v", c)
	}
	if c, _ := got.Get("b_x"); !math.IsNaN(c.Paper) {
		t.Errorf("b_x paper %v, want NaN", c.Paper)
	}
	if _, err := Check(path, []string{"c"}); err == nil || !strings.Contains(err.Error(), "lacks c") {
		t.Errorf("missing ID: %v", err)
	}
	md := l.Markdown()
	if !strings.Contains(md, "| a_pct | -10 | -4 | pct | replaced |") || !strings.Contains(md, "| b_x | - | 1.5 | x |") {
		t.Errorf("markdown:\n%s", md)
	}
}

func TestReadBad(t *testing.T) {
	for _, tc := range []struct{ name, in, err string }{
		{"empty", "", "empty file"},
		{"no column", "claim,paper,measured,unit\n", "no column"},
		{"bad number", "claim,paper,measured,unit,note\nx,1,abc,pct,\n", "measured"},
		{"duplicate", "claim,paper,measured,unit,note\nx,1,2,pct,\nx,1,2,pct,\n", "twice"},
		{"no id", "claim,paper,measured,unit,note\n,1,2,pct,\n", "empty claim"},
	} {
		if _, err := Read(strings.NewReader(tc.in)); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.err)
		}
	}
	// NaN measured fails Check.
	var l Ledger
	l.Set("x", 1, math.NaN(), "pct", "")
	var b bytes.Buffer
	if err := l.WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "c.csv")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Check(path, []string{"x"}); err == nil {
		t.Error("NaN measured passed Check")
	}
}

func FuzzRead(f *testing.F) {
	f.Add("claim,paper,measured,unit,note\nx,1,2,pct,n\n")
	f.Fuzz(func(t *testing.T, s string) {
		l, err := Read(strings.NewReader(s))
		if err != nil {
			return
		}
		var b bytes.Buffer
		if err := l.WriteCSV(&b); err != nil {
			t.Fatal(err)
		}
	})
}

func TestOrder(t *testing.T) {
	var l Ledger
	for _, id := range []string{"x", "c", "a", "b"} {
		l.Set(id, 1, 1, "x", "")
	}
	l.Order([]string{"a", "b", "c"})
	var got []string
	for _, c := range l.Claims() {
		got = append(got, c.ID)
	}
	if strings.Join(got, ",") != "a,b,c,x" {
		t.Errorf("order %v, want a,b,c,x", got)
	}
}
