package cliflag

import (
	"strings"
	"testing"
)

// TestCutMessagePairsQuotes: only quoted pieces and long runs are cut; the
// text between two short quoted pieces stays whole (issue 38 item 12:
// `maestro: line 2: unknown d... (89 bytes)"Q"`).
func TestCutMessagePairsQuotes(t *testing.T) {
	long := strings.Repeat("x", 300)
	for _, tc := range []struct{ in, want string }{
		{`maestro: line 2: unknown directive "Dataflow" (want one of the MAESTRO keywords listed in its manual, section 3, such as Network or Layer), got "Q"`,
			`maestro: line 2: unknown directive "Dataflow" (want one of the MAESTRO keywords listed in its manual, section 3, such as Network or Layer), got "Q"`},
		{`bad "` + long + `" value`, `bad "` + Cut(long) + `" value`},
		{`a "b\"c" d`, `a "b\"c" d`},
		{`unpaired " quote ` + long, `unpaired " quote ` + Cut(long)},
	} {
		if got := CutMessage(tc.in); got != tc.want {
			t.Errorf("CutMessage(%.60q...) =\n%q\nwant\n%q", tc.in, got, tc.want)
		}
	}
}
