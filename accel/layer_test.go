package accel

import (
	"strings"
	"testing"

	"gnnsim/hw"
	"gnnsim/workload"
)

// gcn returns a GCN layer with F input and G output features.
func gcn(F, G int) workload.Layer { return workload.Layer{Kind: workload.GCN, F: F, G: G} }

// TestMACsEqualKernels checks that every configuration's MACs equal the
// MACs of the layer's kernels in package workload, for every kind the
// accelerator runs, on graphs stored with and without self-loops.
func TestMACsEqualKernels(t *testing.T) {
	hwc := DefaultHW()
	for i, tc := range randomCases(t, 12) {
		for _, l := range []workload.Layer{
			{Kind: workload.GCN, F: tc.F, G: tc.G},
			{Kind: workload.GIN, F: tc.F, G: tc.G},
			{Kind: workload.SAGE, F: tc.F, G: tc.G},
			{Kind: workload.GAT, F: tc.F, G: tc.G},
			{Kind: workload.GAT, F: tc.F, G: tc.G, Heads: 1, Last: true},
		} {
			ks, err := l.Kernels(hw.SizeOf(tc.g))
			if err != nil {
				t.Fatal(err)
			}
			want, _, _ := workload.Totals(ks)
			p, err := Prepare(tc.g, l)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range allResults(t, p, hwc, Options{}) {
				if r.MACs != want {
					t.Errorf("case %d %s %s: %d MACs, workload's kernels %d", i, l.Kind, r.Config.Name(), r.MACs, want)
				}
			}
		}
	}
}

func TestPrepareRejectsLayers(t *testing.T) {
	g := ring(t, 10)
	for _, tc := range []struct {
		l    workload.Layer
		want string
	}{
		{workload.Layer{F: 8, G: 8}, "invalid kind"},
		{workload.Layer{Kind: workload.MRConv, F: 8, G: 8}, "mrconv layers are not modelled"},
		{workload.Layer{Kind: workload.FC, F: 8, G: 8}, "fc layers are not modelled"},
		{workload.Layer{Kind: workload.GAT, F: 8, G: 8, Heads: 4}, "4 heads"},
		{workload.Layer{Kind: workload.GIN, F: 8, G: 8, K: 9}, "k-NN graph"},
		{workload.Layer{Kind: workload.GCN, F: 8, G: 8, Groups: 4}, "4 groups"},
		{workload.Layer{Kind: workload.GCN, F: 8, G: -1}, "G = -1"},
	} {
		if _, err := Prepare(g, tc.l); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Prepare(%+v) = %v, want error containing %q", tc.l, err, tc.want)
		}
	}
}
