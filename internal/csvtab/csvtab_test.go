package csvtab

import (
	"encoding/csv"
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
