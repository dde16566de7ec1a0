package seed002

import (
	"strings"
	"testing"

	"gnnsim/sched"
)

// TestPolicyAxes: the y axis names the unit the times were in, and the x
// axis explains the "*" only when some bar carries it (issue 38 item 16:
// the SoC path's figure said "cycles / cycles" for ps and explained a "*"
// no bar had).
func TestPolicyAxes(t *testing.T) {
	ok := []sched.Metrics{{Policy: "FCFS", Feasible: true}, {Policy: "EFT", Feasible: true}}
	some := []sched.Metrics{{Policy: "FCFS", Feasible: true}, {Policy: "SJF-Truth", Feasible: false}}
	for _, tc := range []struct {
		unit string
		mean []sched.Metrics
		star bool
	}{{"ps", ok, false}, {"cycles", some, true}, {"ps", some, true}} {
		x, y := policyAxes(tc.unit, tc.mean)
		if strings.Contains(x, "*") != tc.star {
			t.Errorf("%s %v: x axis %q", tc.unit, tc.mean, x)
		}
		if !strings.Contains(y, "("+tc.unit+" / "+tc.unit+")") {
			t.Errorf("%s: y axis %q", tc.unit, y)
		}
	}
}
