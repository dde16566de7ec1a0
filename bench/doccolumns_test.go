package bench

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gnnsim/internal/pqio"
)

// The column lists in README.md and this package's doc are checked against
// the Parquet schemas the code writes (issue 17, class 10: the docs said
// labels where the file has label).

// expandColumns turns a documented list ("a, b_{x,y}, deg_q1..deg_q7")
// into column names.
func expandColumns(list string) []string {
	var out []string
	for _, tok := range regexp.MustCompile(`[A-Za-z0-9_{},.]+`).FindAllString(list, -1) {
		tok = strings.Trim(tok, ",.")
		switch tok {
		case "", "and", "the", "lists", "holding", "CSR", "node", "attributes":
			continue // prose between the names
		}
		if a, b, ok := strings.Cut(tok, ".."); ok { // deg_q1..deg_q7
			pre := strings.TrimRight(a, "0123456789")
			lo, hi := a[len(pre):], strings.TrimPrefix(b, pre)
			for i := lo[0]; i <= hi[0]; i++ {
				out = append(out, pre+string(i))
			}
			continue
		}
		out = append(out, expandBraces(tok)...)
	}
	return out
}

func expandBraces(s string) []string {
	i := strings.IndexByte(s, '{')
	if i < 0 {
		return []string{s}
	}
	j := strings.IndexByte(s[i:], '}') + i
	var out []string
	for _, alt := range strings.Split(s[i+1:j], ",") {
		out = append(out, expandBraces(s[:i]+alt+s[j+1:])...)
	}
	return out
}

// fileColumns returns the top-level columns of a Parquet file.
func fileColumns(t *testing.T, path string) []string {
	t.Helper()
	pf, err := pqio.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	var out []string
	for _, f := range pf.Schema().Fields() {
		out = append(out, f.Name())
	}
	return out
}

func sameSet(t *testing.T, where string, doc, code []string) {
	t.Helper()
	for _, c := range doc {
		if !slices.Contains(code, c) {
			t.Errorf("%s documents column %q, which the file does not have", where, c)
		}
	}
	for _, c := range code {
		if !slices.Contains(doc, c) {
			t.Errorf("%s does not document column %q", where, c)
		}
	}
}

func TestDocumentedColumns(t *testing.T) {
	dir := t.TempDir()
	if _, err := mustPlan(t, smallSpec).Run(context.Background(), dir, Options{Workers: 2}); err != nil {
		t.Fatal(err)
	}
	graphCols := fileColumns(t, filepath.Join(dir, GraphsFile))
	runCols := fileColumns(t, filepath.Join(dir, RunsFile))

	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(readme)), " ")
	m := regexp.MustCompile("`graphs\\.parquet` \\(one row per graph: ([^)]*)\\)").FindStringSubmatch(text)
	if m == nil {
		t.Fatal("README.md: no graphs.parquet column list")
	}
	sameSet(t, "README.md graphs.parquet", expandColumns(m[1]), graphCols)
	m = regexp.MustCompile("`runs\\.parquet` \\(one row per [^:]*: ([^)]*)\\)").FindStringSubmatch(text)
	if m == nil {
		t.Fatal("README.md: no runs.parquet column list")
	}
	sameSet(t, "README.md runs.parquet", expandColumns(m[1]), runCols)

	plain := docPlainLines(t)
	text = strings.Join(plain, "\n")
	m = regexp.MustCompile(`(?s)graphs\.parquet is a graph-set file.*?columns (.*?); see`).FindStringSubmatch(text)
	if m == nil {
		t.Fatal("doc.go: no graphs.parquet column list")
	}
	sameSet(t, "bench doc graphs.parquet", expandColumns(m[1]), graphCols)
	// The runs blocks: tab-indented lines, names before the description;
	// those under the heading of a kind's section are that kind's.
	runs := docRunColumns(plain)
	sameSet(t, "bench doc runs.parquet", runs[""], runCols)

	fdir := t.TempDir()
	if _, err := mustPlan(t, mustRead(t, "testdata/fpga.yaml")).Run(context.Background(), fdir, Options{Workers: 2}); err != nil {
		t.Fatal(err)
	}
	sameSet(t, "bench doc fpga runs.parquet", runs["fpga"], fileColumns(t, filepath.Join(fdir, RunsFile)))

	sdir := t.TempDir()
	if _, err := mustPlan(t, "unit: soc\nsoc: {models: [vig-ti], mappings: [all-gpu]}\n").Run(context.Background(), sdir, Options{Workers: 2}); err != nil {
		t.Fatal(err)
	}
	sameSet(t, "bench doc soc runs.parquet", runs["soc"], fileColumns(t, filepath.Join(sdir, RunsFile)))

	ddir := t.TempDir()
	if _, err := mustPlan(t, mustRead(t, "testdata/dsa.yaml")).Run(context.Background(), ddir, Options{Workers: 2}); err != nil {
		t.Fatal(err)
	}
	sameSet(t, "bench doc dsa runs.parquet", runs["dsa"], fileColumns(t, filepath.Join(ddir, RunsFile)))
}

// docRunColumns returns the documented runs columns of each unit kind:
// "" for omega's, a kind's name for those under a heading "... (unit:
// NAME)".
func docRunColumns(plain []string) map[string][]string {
	out := map[string][]string{}
	kind := ""
	head := regexp.MustCompile(`^# .*\(unit: ([a-z]+)\)`)
	for _, l := range plain {
		if strings.HasPrefix(l, "# ") {
			kind = ""
			if m := head.FindStringSubmatch(l); m != nil {
				kind = m[1]
			}
			continue
		}
		if !strings.HasPrefix(l, "\t") {
			continue
		}
		names, _, _ := strings.Cut(strings.TrimSpace(l), "  ")
		if names == "" || !regexp.MustCompile(`^[a-z_{},. 0-9]+$`).MatchString(names) {
			continue
		}
		out[kind] = append(out[kind], expandColumns(names)...)
	}
	return out
}
