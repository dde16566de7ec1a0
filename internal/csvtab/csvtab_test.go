package csvtab

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestOpenNeedEach(t *testing.T) {
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
		{"ragged", "a,b\n1\n", []string{"a"}, nil, "t.csv: record on line 2: wrong number of fields"},
		{"comment", "# c\na,b\n# d\n1,2\n", []string{"b"}, []int{4}, ""},
		{"fn error", "a,b\nstop,2\n", []string{"a"}, nil, "stop at 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var lines []int
			tab, err := Open(strings.NewReader(tc.in), Options{Comment: '#', Name: "t.csv"})
			if err == nil {
				var col Columns
				if col, err = tab.Need(tc.need, false); err == nil {
					if col["a"] != 0 {
						t.Errorf("column a at %d, want 0", col["a"])
					}
					_, err = tab.Each(func(rec []string, line int) error {
						if rec[0] == "stop" {
							return fmt.Errorf("stop at %d", line)
						}
						lines = append(lines, line)
						return nil
					})
				}
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

func TestPositions(t *testing.T) {
	known := []string{"model", "arrival", "nodes"}
	for _, c := range []struct {
		name   string
		header []string
		fold   bool
		want   []int
		err    string
	}{
		{"all, reordered", []string{"nodes", " model ", "arrival"}, false, []int{1, 2, 0}, ""},
		{"optional absent", []string{"arrival"}, false, []int{-1, 0, -1}, ""},
		{"byte-order mark", []string{"\ufeffmodel", "arrival"}, false, []int{0, 1, -1}, ""},
		{"folded", []string{"MODEL", "Arrival"}, true, []int{0, 1, -1}, ""},
		{"case kept without fold", []string{"MODEL"}, false, nil, `unknown column "MODEL" (known: model, arrival, nodes)`},
		{"twice", []string{"model", "model"}, false, nil, `column "model" appears twice`},
	} {
		got, err := Positions(c.header, known, c.fold)
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("%s: error %v, want %q", c.name, err, c.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, %v; want %v", c.name, got, err, c.want)
		}
	}
	idx := []int{1, -1, 5}
	rec := []string{"a", " b ", ""}
	for col, want := range []struct {
		s  string
		ok bool
	}{{"b", true}, {"", false}, {"", false}} {
		if s, ok := Cell(rec, idx, col); s != want.s || ok != want.ok {
			t.Errorf("Cell(col %d) = %q, %v; want %q, %v", col, s, ok, want.s, want.ok)
		}
	}
}

func TestWriteRoundTrip(t *testing.T) {
	var b strings.Builder
	rows := [][]string{{"1", "x,y"}, {"2", "q\"uote"}}
	if err := Write(&b, []string{"a", "b"}, len(rows), func(i int) []string { return rows[i] }); err != nil {
		t.Fatal(err)
	}
	got, err := Rows(strings.NewReader(b.String()), []string{"a", "b"}, func(rec []string, col Columns, _ int) ([]string, error) {
		return []string{rec[col["a"]], rec[col["b"]]}, nil
	})
	if err != nil || !slices.EqualFunc(got, rows, slices.Equal) {
		t.Fatalf("read back %q, %v; want %q", got, err, rows)
	}
}
