package main

import (
	"encoding/json"
	"os"
	"reflect"
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
