package workload

import (
	"strings"
	"testing"
)

func TestLayerKindRoundTrip(t *testing.T) {
	for k := GCN; k <= lastKind; k++ {
		got, err := ParseLayerKind(strings.ToUpper(k.String()))
		if err != nil || got != k {
			t.Errorf("ParseLayerKind(%q) = %v, %v; want %v", strings.ToUpper(k.String()), got, err, k)
		}
	}
	for _, bad := range []string{"", "gcn2", "graphsage"} {
		if _, err := ParseLayerKind(bad); err == nil {
			t.Errorf("ParseLayerKind(%q) succeeded", bad)
		}
	}
	if LayerKind(0).Valid() || (lastKind + 1).Valid() || !Concat.Valid() || SAGEMax.Graph() {
		t.Error("kinds 0 and lastKind+1 should be invalid, concat valid, sage-max no graph-job kind")
	}
}

func TestJobValidate(t *testing.T) {
	ok := Job{ID: 1, Nodes: 4, Edges: 6, F: 16, G: 8, Kind: GCN, GraphIndex: -1}
	if err := ok.Validate(); err != nil {
		t.Fatalf("valid job rejected: %v", err)
	}
	tests := []struct {
		name string
		mod  func(*Job)
		want string
	}{
		{"no nodes", func(j *Job) { j.Nodes = 0 }, "nodes"},
		{"negative edges", func(j *Job) { j.Edges = -1 }, "edges"},
		{"too many edges", func(j *Job) { j.Edges = 7 }, "complete graph"},
		{"zero f", func(j *Job) { j.F = 0 }, "f ="},
		{"huge g", func(j *Job) { j.G = MaxFeatures + 1 }, "g ="},
		{"no kind", func(j *Job) { j.Kind = 0 }, "kind"},
		{"negative arrival", func(j *Job) { j.Arrival = -5 }, "arrival"},
		{"bad graph index", func(j *Job) { j.GraphIndex = -2 }, "graph index"},
	}
	for _, tt := range tests {
		j := ok
		tt.mod(&j)
		err := j.Validate()
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: Validate() = %v, want error containing %q", tt.name, err, tt.want)
		}
	}
	if err := ValidateAll([]Job{ok, ok}); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Errorf("duplicate ids: %v", err)
	}
}

type fakeGraph struct{ v, e int }

func (g fakeGraph) NumNodes() int { return g.v }
func (g fakeGraph) NumEdges() int { return g.e }

func TestFromGraphAndResolve(t *testing.T) {
	j := FromGraph(7, "cora", fakeGraph{2708, 5278}, 1433, 16, GCN)
	if j.Nodes != 2708 || j.Edges != 5278 || j.Graph != "cora" || j.GraphIndex != -1 || j.Validate() != nil {
		t.Fatalf("FromGraph = %+v", j)
	}
	jobs := []Job{
		{ID: 1, Graph: "a", F: 4, G: 4, Kind: GIN, GraphIndex: -1},
		{ID: 2, Nodes: 3, Edges: 2, F: 4, G: 4, Kind: GIN, GraphIndex: -1},
	}
	lookup := func(name string) (int64, int64, int, bool) {
		if name == "a" {
			return 10, 9, 3, true
		}
		return 0, 0, 0, false
	}
	if err := Resolve(jobs, lookup); err != nil {
		t.Fatal(err)
	}
	if jobs[0].Nodes != 10 || jobs[0].Edges != 9 || jobs[0].GraphIndex != 3 || jobs[1].Nodes != 3 {
		t.Errorf("Resolve gave %+v", jobs)
	}
	bad := []Job{{ID: 3, Graph: "b", F: 4, G: 4, Kind: GIN}}
	if err := Resolve(bad, lookup); err == nil || !strings.Contains(err.Error(), `"b"`) {
		t.Errorf("unknown graph: %v", err)
	}
}
