package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"gnnsim/internal/pqio"
)

// checkOut reads the Parquet file path back and checks it against the
// command's --json output decoded into T: the same rows, field by field,
// the named columns present, file mode 0644 and the run's metadata
// (command, flags, version).
func checkOut[T any](t *testing.T, path string, jsonRows []T, command string, columns ...string) {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o644 {
		t.Errorf("%s: mode %v, want 0644", path, st.Mode().Perm())
	}
	rows, meta, err := pqio.Read[T](path)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 || len(rows) != len(jsonRows) {
		t.Fatalf("Parquet holds %d rows, --json %d", len(rows), len(jsonRows))
	}
	if !reflect.DeepEqual(rows, jsonRows) {
		t.Errorf("Parquet rows differ from --json:\n%+v\n%+v", rows[0], jsonRows[0])
	}
	for _, c := range columns {
		if ok, err := pqio.HasColumn(path, c); err != nil || !ok {
			t.Errorf("no column %q (%v)", c, err)
		}
	}
	if meta["gnnsim.command"] != command || meta["gnnsim.flags"] == "" || meta[pqio.VersionKey] == "" {
		t.Errorf("metadata %v: want gnnsim.command %q, gnnsim.flags and %s", meta, command, pqio.VersionKey)
	}
}

// decodeJSON decodes out (a JSON array or object) into rows of T.
func decodeJSON[T any](t *testing.T, out string, array bool) []T {
	t.Helper()
	if array {
		var rows []T
		if err := json.Unmarshal([]byte(out), &rows); err != nil {
			t.Fatalf("not a JSON array: %v\n%s", err, out)
		}
		return rows
	}
	var row T
	if err := json.Unmarshal([]byte(out), &row); err != nil {
		t.Fatalf("not a JSON object: %v\n%s", err, out)
	}
	return []T{row}
}

// TestOutReplacesOnlyParquet: --out replaces a Parquet file (a rerun
// refreshes its result) and refuses anything else, leaving it as it was
// (issue 38 item 3: soc eval --out existing.txt overwrote it silently).
func TestOutReplacesOnlyParquet(t *testing.T) {
	dir := t.TempDir()
	pq := filepath.Join(dir, "r.parquet")
	for _, tc := range []struct {
		name, path, content string // content "" : none; "dir": a directory
		ok                  bool
	}{
		{"new file", filepath.Join(dir, "new.parquet"), "", true},
		{"text file", filepath.Join(dir, "notes.txt"), "my notes\n", false},
		{"a spec", filepath.Join(dir, "s.yaml"), "name: s\n", false},
		{"a directory", filepath.Join(dir, "d"), "dir", false},
		{"a Parquet file", pq, "", true},
		{"the same Parquet file again", pq, "", true},
	} {
		switch tc.content {
		case "":
		case "dir":
			os.Mkdir(tc.path, 0o755)
		default:
			os.WriteFile(tc.path, []byte(tc.content), 0o644)
		}
		_, _, err := run(t, "soc", "eval", "--model", "vig-ti", "--mapping", "gpu", "--out", tc.path)
		if tc.ok != (err == nil) {
			t.Errorf("%s: %v, want ok %v", tc.name, err, tc.ok)
		}
		if tc.ok {
			if err := pqio.CheckFile(tc.path); err != nil {
				t.Errorf("%s: %v", tc.name, err)
			}
			continue
		}
		if !strings.Contains(fmt.Sprint(err), tc.path) {
			t.Errorf("%s: error %v does not name the path", tc.name, err)
		}
		if tc.content != "dir" {
			if b, _ := os.ReadFile(tc.path); string(b) != tc.content {
				t.Errorf("%s: content now %q", tc.name, b)
			}
		}
	}
}
