package seed001

import (
	"testing"

	accel "gnnsim/accel/gcos"
)

// TestHyGCNRedditAnchor checks the HyGCN-like baseline against the one
// published absolute figure in reach: the PyG-CPU latency of a two-layer
// GNN on Reddit that G-CoS quotes, over HyGCN's average speed-up on PyG-CPU.
// An average applied to one data set is an order of magnitude, so the
// tolerance is a factor of two either way.
func TestHyGCNRedditAnchor(t *testing.T) {
	if testing.Short() {
		t.Skip("prices Reddit's 115 M entries")
	}
	data, err := Datasets("")
	if err != nil {
		t.Fatal(err)
	}
	ds := data[len(data)-1]
	if ds.Name != "reddit" {
		t.Fatalf("last data set %s, want reddit", ds.Name)
	}
	_, archs := Fig8Models(ds.Classes)
	_, bl, err := caseLatency(ds, gcosSetup(ds, false), archs[0], accel.Default(), baselines()[:1])
	if err != nil {
		t.Fatal(err)
	}
	ms := float64(bl[0].cost.TimePS) / 1e9
	implied := PaperRedditCPUms / HyGCNOverCPU
	t.Logf("HyGCN-like, Reddit GCN: %.1f ms; implied by PyG-CPU %.3g ms / %dx: %.1f ms", ms, PaperRedditCPUms, HyGCNOverCPU, implied)
	if ms < implied/2 || ms > 2*implied {
		t.Errorf("HyGCN-like on Reddit: %.1f ms, want within 2x of %.1f ms", ms, implied)
	}
}
