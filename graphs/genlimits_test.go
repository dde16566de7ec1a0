package graphs

import (
	"strings"
	"testing"
)

// TestSetRequest: ranges and parameters are read into the spec; counts
// and sizes past the generator's limits are refused naming the flag.
func TestSetRequest(t *testing.T) {
	s := GenSpec{Generator: "er", Count: 3}
	if err := s.SetRequest("10:20", "", []string{"p=0.1"}); err != nil || s.MinNodes != 10 || s.MaxNodes != 20 || s.Params["p"] != 0.1 {
		t.Fatalf("%+v: %v", s, err)
	}
	for _, tc := range []struct {
		spec         GenSpec
		nodes, edges string
		want         string
	}{
		{GenSpec{Generator: "er", Count: 0}, "", "", "--count 0: want 1 to 1000000"},
		{GenSpec{Generator: "knn", Count: 1}, "30000", "", "--nodes 30000: at most 20000 nodes for knn"},
		{GenSpec{Generator: "er", Count: 1}, "", "1:200000000", "--edges 1:200000000: at most"},
		{GenSpec{Generator: "er", Count: 1}, "0:5", "", "--nodes:"},
	} {
		if err := tc.spec.SetRequest(tc.nodes, tc.edges, nil); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v %q %q: %v, want %q", tc.spec, tc.nodes, tc.edges, err, tc.want)
		}
	}
	if f, err := ParseFormat("mtx"); err != nil || f != FormatMTX {
		t.Errorf("mtx: %v %v", f, err)
	}
	if _, err := ParseFormat("xml"); err == nil || !strings.Contains(err.Error(), `--format "xml"`) {
		t.Errorf("xml: %v", err)
	}
}
