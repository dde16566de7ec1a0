package workload

import (
	"strings"
	"testing"
)

func TestGNN(t *testing.T) {
	cora := Size{Nodes: 2708, NNZ: 2 * 5278}
	for _, tc := range []struct {
		name      string
		kind      LayerKind
		widths    []int
		heads     []int
		wantMACs  int64
		wantWidth []int // each layer's F
	}{
		// GCN 1433-16-7: (A+I) x F SpMM, then N x F x G, per layer.
		{"gcn", GCN, []int{1433, 16, 7}, nil,
			(10556+2708)*1433 + 2708*1433*16 + (10556+2708)*16 + 2708*16*7, []int{1433, 16}},
		// GAT 8 heads x 8, then 1 head x 7 averaged: per head N x F x (G+2),
		// one MAC per entry of A+I, (A+I) x G SpMM.
		{"gat", GAT, []int{1433, 8, 7}, []int{8, 1},
			8*(2708*1433*10+13264+13264*8) + (2708*64*9 + 13264 + 13264*7), []int{1433, 64}},
		{"sage", SAGE, []int{100, 32, 32, 10}, nil,
			10556*100 + 2708*200*32 + 10556*32 + 2708*64*32 + 10556*32 + 2708*64*10, []int{100, 32, 32}},
	} {
		m, err := GNN(tc.kind, cora, tc.widths, tc.heads...)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if len(m.Blocks) != len(tc.widths)-1 {
			t.Errorf("%s: %d blocks", tc.name, len(m.Blocks))
		}
		for i, b := range m.Blocks {
			if b.Kind != GNNLayer || b.In != cora || len(b.Layers) != 1 || b.Layers[0].F != tc.wantWidth[i] {
				t.Errorf("%s: block %d = %+v", tc.name, i, b)
			}
		}
		if got, err := m.MACs(); err != nil || got != tc.wantMACs {
			t.Errorf("%s: %d MACs, %v; want %d", tc.name, got, err, tc.wantMACs)
		}
		last := m.Blocks[len(m.Blocks)-1].Layers[0]
		if last.OutWidth() != tc.widths[len(tc.widths)-1] {
			t.Errorf("%s: output width %d", tc.name, last.OutWidth())
		}
	}
}

func TestGNNBadInput(t *testing.T) {
	in := Size{Nodes: 10, NNZ: 20}
	for _, tc := range []struct {
		name   string
		kind   LayerKind
		in     Size
		widths []int
		heads  []int
		want   string
	}{
		{"one width", GCN, in, []int{16}, nil, "at least one layer"},
		{"fc", FC, in, []int{16, 8}, nil, "graph layer kind"},
		{"knn", KNN, in, []int{16, 8}, nil, "graph layer kind"},
		{"heads count", GAT, in, []int{16, 8, 4}, []int{2}, "1 head counts for 2 layers"},
		{"heads on gcn", GCN, in, []int{16, 8}, []int{2}, "only gat"},
		{"zero width", GCN, in, []int{16, 0}, nil, "G = 0"},
		{"negative nodes", GCN, Size{Nodes: -1}, []int{16, 8}, nil, "-1 nodes"},
		{"too many heads", GAT, in, []int{16, 8}, []int{100}, "heads = 100"},
	} {
		if _, err := GNN(tc.kind, tc.in, tc.widths, tc.heads...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want error containing %q", tc.name, err, tc.want)
		}
	}
}
