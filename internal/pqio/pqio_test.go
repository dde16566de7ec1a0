package pqio

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gnnsim"
)

type row struct {
	ID   int64     `parquet:"id"`
	Name string    `parquet:"name"`
	Vals []float64 `parquet:"vals,list"`
}

func TestRoundTripAndDeterminism(t *testing.T) {
	dir := t.TempDir()
	rows := make([]row, 3*RowGroupRows/2)
	for i := range rows {
		rows[i] = row{ID: int64(i), Name: "g", Vals: []float64{float64(i), 0.5}}
	}
	meta := map[string]string{"seed": "1", "spec": "x: 1", "a": "b"}
	p1, p2 := filepath.Join(dir, "a.parquet"), filepath.Join(dir, "b.parquet")
	if err := Write(p1, rows, meta); err != nil {
		t.Fatal(err)
	}
	if err := Write(p2, rows, meta); err != nil {
		t.Fatal(err)
	}
	b1, _ := os.ReadFile(p1)
	b2, _ := os.ReadFile(p2)
	if !bytes.Equal(b1, b2) {
		t.Fatal("same rows and metadata gave different bytes")
	}
	got, gm, err := Read[row](p1)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(rows) || got[len(got)-1].ID != rows[len(rows)-1].ID || got[7].Vals[0] != 7 {
		t.Fatalf("round trip mismatch: %d rows", len(got))
	}
	if gm["gnnsim.seed"] != "1" || gm[VersionKey] != gnnsim.Version {
		t.Fatalf("metadata %v", gm)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 2 {
		t.Fatalf("temp files left behind: %v", ents)
	}
}

func TestReadErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.parquet")
	os.WriteFile(bad, []byte("not parquet"), 0o644)
	if _, _, err := Read[row](bad); err == nil {
		t.Fatal("want error on garbage file")
	}
	// A tiny file that declares a 4 GB footer must fail fast, not allocate.
	huge := filepath.Join(dir, "huge.parquet")
	os.WriteFile(huge, []byte("PAR1\x00\x00\x00\x00\x00\x00\x00\xff\xff\xff\xffPAR1"), 0o644)
	if _, _, err := Read[row](huge); err == nil || !strings.Contains(err.Error(), "footer") {
		t.Fatalf("want a footer error, got %v", err)
	}
	if _, _, err := Read[row](filepath.Join(dir, "missing")); err == nil {
		t.Fatal("want error on missing file")
	}
	if err := Write(filepath.Join(dir, "nodir", "x.parquet"), []row{{}}, nil); err == nil {
		t.Fatal("want error on missing directory")
	}
}

// TestWriteStreamEqualsWrite: rows streamed in pieces of any size give the
// file Write gives for all of them at once, byte for byte (sweeps assemble
// their tables part by part and must stay byte-identical).
func TestWriteStreamEqualsWrite(t *testing.T) {
	dir := t.TempDir()
	meta := map[string]string{"gnnsim.seed": "1"}
	for _, n := range []int{0, 1, 1000, RowGroupRows, 2*RowGroupRows + 17} {
		rows := make([]row, n)
		for i := range rows {
			rows[i] = row{ID: int64(i), Name: strings.Repeat("g", i%7), Vals: []float64{float64(i), 0.5}}
		}
		want := filepath.Join(dir, "all.parquet")
		if err := Write(want, rows, meta); err != nil {
			t.Fatal(err)
		}
		wb, _ := os.ReadFile(want)
		for _, piece := range []int{1, 63, 64, 1000, RowGroupRows + 1} {
			got := filepath.Join(dir, "stream.parquet")
			err := WriteStream(got, meta, func(w *Writer[row]) error {
				for lo := 0; lo < n; lo += piece {
					if err := w.Write(rows[lo:min(lo+piece, n)]); err != nil {
						return err
					}
				}
				if w.Rows() != int64(n) {
					t.Errorf("%d rows in pieces of %d: Rows() = %d", n, piece, w.Rows())
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if gb, _ := os.ReadFile(got); !bytes.Equal(gb, wb) {
				t.Errorf("%d rows in pieces of %d: the streamed file differs from Write's", n, piece)
			}
		}
	}
	bad := filepath.Join(dir, "failed.parquet")
	if err := WriteStream(bad, meta, func(w *Writer[row]) error { return os.ErrInvalid }); err == nil {
		t.Error("a failing fill wrote its file")
	}
	if _, err := os.Stat(bad); err == nil {
		t.Error("a failing fill left a file behind")
	}
}

// TestCreatedBy: the footer names gnnsim and its version in parquet-mr's
// form, without parquet-go's empty "(build )" (issue 38 item 15).
func TestCreatedBy(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.parquet")
	if err := Write(path, []row{{ID: 1}}, nil); err != nil {
		t.Fatal(err)
	}
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got, want := f.Metadata().CreatedBy, "gnnsim version "+gnnsim.Version; got != want {
		t.Errorf("created_by %q, want %q", got, want)
	}
}

// TestMetadataKeysNamespaced: every key-value metadata key is under
// gnnsim. (issue 38 item 15: search nsga2 and seed000 wrote bare seed,
// command, problem beside gnnsim.* keys elsewhere).
func TestMetadataKeysNamespaced(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.parquet")
	meta := map[string]string{"seed": "3", "command": "search nsga2", "gnnsim.spec": "x", "quick": "true", "gnnsim.quick": "false"}
	if err := Write(path, []row{{ID: 1}}, meta); err != nil {
		t.Fatal(err)
	}
	_, got, err := Read[row](path)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"gnnsim.seed": "3", "gnnsim.command": "search nsga2", "gnnsim.spec": "x", "gnnsim.quick": "false", VersionKey: gnnsim.Version}
	if len(got) != len(want) {
		t.Errorf("metadata %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("metadata %s = %q, want %q (all: %v)", k, got[k], v, got)
		}
	}
}

// TestWriteStreamBudget: a row group ends at RowGroupRows rows or once its
// rows' sizes reach the budget, whichever comes first, whatever the
// pieces the rows come in; under the budget the file is WriteStream's.
func TestWriteStreamBudget(t *testing.T) {
	dir := t.TempDir()
	size := func(r *row) int64 { return int64(8 * len(r.Vals)) }
	for _, tc := range []struct {
		name   string
		n      int
		vals   int   // values per row: 8*vals bytes
		budget int64 // bytes per row group
		groups []int64
	}{
		{"under budget", 1000, 2, 1 << 30, []int64{1000}},
		{"rows cut first", RowGroupRows + 5, 1, 1 << 30, []int64{RowGroupRows, 5}},
		{"budget cuts", 100, 4, 32 * 10, []int64{10, 10, 10, 10, 10, 10, 10, 10, 10, 10}},
		{"budget cuts unevenly", 25, 4, 32*10 - 1, []int64{10, 10, 5}},
		{"row above budget", 3, 100, 8, []int64{1, 1, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rows := make([]row, tc.n)
			for i := range rows {
				rows[i] = row{ID: int64(i), Vals: make([]float64, tc.vals)}
			}
			var ref []byte
			for _, piece := range []int{1, 7, tc.n} {
				path := filepath.Join(dir, "b.parquet")
				err := WriteStreamBudget(path, nil, tc.budget, size, func(w *Writer[row]) error {
					for lo := 0; lo < tc.n; lo += piece {
						if err := w.Write(rows[lo:min(lo+piece, tc.n)]); err != nil {
							return err
						}
					}
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
				f, err := Open(path)
				if err != nil {
					t.Fatal(err)
				}
				var groups []int64
				for _, rg := range f.RowGroups() {
					groups = append(groups, rg.NumRows())
				}
				f.Close()
				if !slices.Equal(groups, tc.groups) {
					t.Errorf("pieces of %d: row groups %v, want %v", piece, groups, tc.groups)
				}
				data, _ := os.ReadFile(path)
				if ref == nil {
					ref = data
				} else if !bytes.Equal(data, ref) {
					t.Errorf("pieces of %d: file differs from pieces of 1", piece)
				}
			}
			if len(tc.groups) == 1 || tc.groups[0] == RowGroupRows {
				plain := filepath.Join(dir, "plain.parquet")
				if err := Write(plain, rows, nil); err != nil {
					t.Fatal(err)
				}
				if data, _ := os.ReadFile(plain); !bytes.Equal(data, ref) {
					t.Error("file differs from Write's though no group was cut by the budget")
				}
			}
		})
	}
	if err := WriteStreamBudget(filepath.Join(dir, "x.parquet"), nil, 0, size, func(*Writer[row]) error { return nil }); err == nil {
		t.Error("budget 0 accepted")
	}
}
