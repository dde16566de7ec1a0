package repro

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fake is a reproduction that writes a report and one figure.
func fake(name string) Repro {
	return Repro{Name: name, Title: "Paper " + name, Run: func(_ context.Context, o Options) (*Report, error) {
		if err := os.MkdirAll(o.Out, 0o755); err != nil {
			return nil, err
		}
		for _, f := range []string{"report.md", "fig1.png"} {
			if err := os.WriteFile(filepath.Join(o.Out, f), []byte(name), 0o644); err != nil {
				return nil, err
			}
		}
		return &Report{Dir: o.Out, Report: filepath.Join(o.Out, "report.md"), Figures: []string{"fig1.png"},
			Highlights: []string{name + " is " + map[bool]string{true: "quick", false: "full"}[o.Quick]}}, nil
	}}
}

// The tour runs every reproduction in its own folder and links each
// report and figure from index.md, with paths that resolve.
func TestTour(t *testing.T) {
	out := t.TempDir()
	rs := []Repro{fake("seedA"), fake("seedB")}
	reports, err := Tour(context.Background(), rs, Options{Out: out, Seed: 4, Quick: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(reports) != 2 || reports[1].Dir != filepath.Join(out, "seedB") {
		t.Fatalf("reports %+v", reports)
	}
	index, err := os.ReadFile(filepath.Join(out, IndexFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| seedA | Paper seedA | [report.md](seedA/report.md) | [fig1.png](seedA/fig1.png) |",
		"## seedB", "- seedB is quick", "--seed 4"} {
		if !strings.Contains(string(index), want) {
			t.Errorf("index.md lacks %q:\n%s", want, index)
		}
	}
	for _, link := range []string{"seedA/report.md", "seedB/fig1.png"} {
		if _, err := os.Stat(filepath.Join(out, link)); err != nil {
			t.Errorf("link %s: %v", link, err)
		}
	}
	failing := Repro{Name: "bad", Run: func(context.Context, Options) (*Report, error) { return nil, errors.New("boom") }}
	if _, err := Tour(context.Background(), []Repro{fake("ok"), failing}, Options{Out: out}); err == nil || !strings.Contains(err.Error(), "bad: boom") {
		t.Errorf("failing reproduction: %v", err)
	}
	if _, err := Tour(context.Background(), rs, Options{}); err == nil {
		t.Error("tour without an output directory")
	}
}

func TestAll(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range All() {
		if r.Name == "" || r.Title == "" || r.Run == nil || seen[r.Name] {
			t.Errorf("bad or repeated entry %+v", r)
		}
		seen[r.Name] = true
	}
	if !seen["seed002"] {
		t.Error("seed002 is not in the tour")
	}
}

// TestSeed001WithoutData: the demo's G-CoS reproduction on a machine
// without the shared data runs Figure 8 alone and says what it skipped,
// instead of failing the whole tour.
func TestSeed001WithoutData(t *testing.T) {
	if testing.Short() {
		t.Skip("runs seed001's quick Figure 8")
	}
	out := t.TempDir()
	r, err := runSeed001(context.Background(), Options{Out: out, Seed: 1, Quick: true, DataDir: filepath.Join(out, "no-data"), Workers: 2})
	if err != nil {
		t.Fatalf("seed001 without data: %v", err)
	}
	if len(r.Highlights) == 0 || !strings.HasPrefix(r.Highlights[0], "skipped: the co-search") || !strings.Contains(r.Highlights[0], "Figure 8 only") {
		t.Errorf("highlights %q: want the skipped co-search first", r.Highlights)
	}
	if _, err := os.Stat(r.Report); err != nil {
		t.Errorf("report: %v", err)
	}
}
