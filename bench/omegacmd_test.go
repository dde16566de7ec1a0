package bench

import (
	"io"
	"testing"

	"gnnsim/graphs"
	"gnnsim/workload"
)

// A long omega run on a small graph (deep, wide layers) gets one progress
// display; a short one none (issue 38 item 9: 1,024 width-2^20 layers
// ran for minutes in silence).
func TestLongRunProgress(t *testing.T) {
	g, err := graphs.FromEdges(4, []int32{0, 1, 2}, []int32{1, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	layers := func(n, width int) func(*graphs.Graph) ([]workload.Layer, error) {
		return func(*graphs.Graph) ([]workload.Layer, error) {
			ls := make([]workload.Layer, n)
			for i := range ls {
				ls[i] = workload.Layer{Kind: workload.GCN, F: width, G: width}
			}
			return ls, nil
		}
	}
	if p := LongRunProgress(io.Discard, []*graphs.Graph{g}, layers(2, 64), 24); p != nil {
		t.Error("a short run got a progress display")
	}
	p := LongRunProgress(io.Discard, []*graphs.Graph{g}, layers(1024, 1<<20), 24)
	if p == nil {
		t.Fatal("1,024 width-2^20 layers got no progress display")
	}
	p.Done()
}
