package csvtab

import (
	"encoding/csv"
	"errors"
	"strings"
	"testing"
)

func TestReadHeaderAndEach(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		need     []string
		lines    []int
		err      string
	}{
		{"ok", " a ,b\n1,2\n3,4\n", []string{"a", "b"}, []int{2, 3}, ""},
		{"quoted newline keeps lines", "a,b\n\"x\ny\",2\n3,4\n", []string{"a"}, []int{2, 4}, ""},
		{"empty", "", nil, nil, "empty file"},
		{"missing", "a,b\n", []string{"c"}, nil, `no column "c"`},
		{"ragged", "a,b\n1\n", []string{"a"}, nil, "wrong number of fields"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cr := csv.NewReader(strings.NewReader(tc.in))
			col, err := ReadHeader(cr, tc.need)
			var lines []int
			if err == nil {
				if col["a"] != 0 {
					t.Errorf("column a at %d, want 0", col["a"])
				}
				_, err = Each(cr, func(_ []string, line int) error { lines = append(lines, line); return nil })
			}
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || len(lines) != len(tc.lines) {
				t.Fatalf("lines %v, err %v; want %v", lines, err, tc.lines)
			}
			for i := range lines {
				if lines[i] != tc.lines[i] {
					t.Errorf("lines %v, want %v", lines, tc.lines)
				}
			}
		})
	}
}

func TestRows(t *testing.T) {
	parse := func(rec []string, col Columns, _ int) (string, error) {
		if rec[col["b"]] == "bad" {
			return "", errors.New("bad b")
		}
		return rec[col["a"]], nil
	}
	for _, tc := range []struct {
		in, want, err string
	}{
		{"a,b\nx,1\ny,2\n", "x,y", ""},
		{"a,b\n", "", "no rows"},
		{"a,b\nx,1\ny,bad\n", "", "line 3: bad b"},
		{"b\n1\n", "", `no column "a"`},
	} {
		got, err := Rows(strings.NewReader(tc.in), []string{"a", "b"}, parse)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: error %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || strings.Join(got, ",") != tc.want {
			t.Errorf("%q: %v, %v; want %s", tc.in, got, err, tc.want)
		}
	}
}
