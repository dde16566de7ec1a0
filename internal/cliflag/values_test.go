package cliflag

import (
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
