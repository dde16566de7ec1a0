package cliflag

import (
	"errors"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// TestValuesRefuseOutOfRange: each bounded value refuses what lies
// outside its range (or is not a number) with a message naming the flag,
// and keeps what lies inside.
func TestValuesRefuseOutOfRange(t *testing.T) {
	var n int
	var x float64
	var l []string
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	Int(fs, &n, "jobs", 3, 1, 10, "jobs")
	Float(fs, &x, "util", 0.5, 0, 1, true, "load")
	List(fs, &l, "seeds", []string{"1"}, "seeds")
	for _, tc := range []struct {
		args []string
		want string // "" = accepted
	}{
		{[]string{"--jobs", "10"}, ""},
		{[]string{"--jobs", "11"}, "--jobs 11: want 1 to 10"},
		{[]string{"--jobs", "1e12"}, "--jobs 1e12: want 1 to 10"},
		{[]string{"--jobs", "abc"}, "--jobs abc: not an integer"},
		{[]string{"--util", "0"}, "--util 0: want a finite number above 0"},
		{[]string{"--util", "NaN"}, "--util NaN"},
		{[]string{"--seeds", "1,1"}, "1 given twice"},
		{[]string{"--seeds", "5,,6"}, "an empty entry"},
	} {
		err := fs.Parse(tc.args)
		if tc.want == "" {
			if err != nil {
				t.Errorf("%v: %v", tc.args, err)
			}
			continue
		}
		if err == nil || !strings.Contains(Explain(err).Error(), tc.want) {
			t.Errorf("%v: %v, want %q", tc.args, err, tc.want)
		}
	}
	if n != 10 {
		t.Errorf("--jobs 10 kept %d", n)
	}
}

// TestSeedsOrRuns: --runs counts seeds from --seed, --seeds lists them,
// and the two exclude each other.
func TestSeedsOrRuns(t *testing.T) {
	if s, err := SeedsOrRuns(nil, false, false, 3, 5, 10); err != nil || len(s) != 3 || s[0] != 5 || s[2] != 7 {
		t.Errorf("--runs 3 --seed 5: %v %v", s, err)
	}
	if s, err := SeedsOrRuns([]string{"9", " 2"}, true, false, 3, 5, 10); err != nil || len(s) != 2 || s[0] != 9 || s[1] != 2 {
		t.Errorf("--seeds 9,2: %v %v", s, err)
	}
	for _, tc := range []struct {
		list    []string
		counted bool
		want    string
	}{
		{[]string{"1"}, true, "exclude each other"},
		{[]string{"1", "2", "3"}, false, "at most 2"},
		{[]string{"x"}, false, `"x" is not a seed`},
	} {
		if _, err := SeedsOrRuns(tc.list, true, tc.counted, 1, 1, 2); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want %q", tc.list, err, tc.want)
		}
	}
}

type level int

func (l level) String() string { return [...]string{"low", "high"}[l] }

// TestParsed: a parsed flag shows its default and keeps what parses.
func TestParsed(t *testing.T) {
	l := level(1)
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	Parsed(fs, &l, "level", "level", func(s string) (level, error) {
		switch s {
		case "low":
			return 0, nil
		case "high":
			return 1, nil
		}
		return 0, errors.New("want low or high")
	})
	if d := fs.Lookup("level").DefValue; d != "high" {
		t.Errorf("default shown %q", d)
	}
	if err := fs.Parse([]string{"--level", "low"}); err != nil || l != 0 {
		t.Errorf("--level low: %v %v", l, err)
	}
	if err := fs.Parse([]string{"--level", "mid"}); err == nil || !strings.Contains(err.Error(), "want low or high") {
		t.Errorf("--level mid: %v", err)
	}
}
