package workload

import (
	"math"
	"strings"
	"testing"
)

// TestZooMACsMatchPublished compares every zoo model's MACs with the
// "FLOPs" (multiply-accumulates) its authors publish
// (huawei-noah/Efficient-AI-Backbones, vig_pytorch/readme.md; ViG paper,
// Tables 2 and 3): within 2 %.
func TestZooMACsMatchPublished(t *testing.T) {
	published := []struct {
		name string
		gmac float64
	}{
		{"vig-ti", 1.3}, {"vig-s", 4.5}, {"vig-b", 17.7},
		{"pvig-ti", 1.7}, {"pvig-s", 4.6}, {"pvig-m", 8.9}, {"pvig-b", 16.8},
	}
	for _, p := range published {
		m, err := LookupModel(p.name, 0)
		if err != nil {
			t.Fatal(err)
		}
		macs, err := m.MACs()
		if err != nil {
			t.Fatalf("%s: %v", p.name, err)
		}
		got := float64(macs) / 1e9
		diff := (got - p.gmac) / p.gmac
		t.Logf("%-8s %6.3f GMAC, published %4.1f: %+.2f %%", p.name, got, p.gmac, 100*diff)
		if math.Abs(diff) > 0.02 {
			t.Errorf("%s: %.3f GMAC, published %.1f (%+.2f %%)", p.name, got, p.gmac, 100*diff)
		}
	}
}

// kernelMACs sums the MACs of b's kernels by class.
func kernelMACs(t *testing.T, b Block) map[KernelClass]int64 {
	t.Helper()
	ks, err := b.Kernels()
	if err != nil {
		t.Fatalf("%s: %v", b.Name, err)
	}
	by := map[KernelClass]int64{}
	for _, k := range ks {
		if k.MACs < 0 || k.Ops < 0 || k.InElems < 0 || k.OutElems < 0 || k.WeightElems < 0 {
			t.Errorf("%s/%s: negative count %+v", b.Name, k.Name, k)
		}
		by[k.Class] += k.MACs
	}
	return by
}

// TestGrapherFFNFormulas checks the MACs of a Grapher + FFN pair against
// MISSION section 8's closed forms: MRConv 12NC^2, EdgeConv (11+k)NC^2,
// GIN 11.5NC^2, SAGE (12+k/4)NC^2 in the dense (GEMM) kernels, plus
// N * N_r * C for the k-NN distances; GIN's neighbour sum is an SpMM over
// the k-NN graph plus self: N(k+1)C.
func TestGrapherFFNFormulas(t *testing.T) {
	for _, tc := range []struct {
		n       int64
		c, k, r int
	}{{196, 320, 9, 1}, {196, 192, 18, 1}, {3136, 48, 9, 4}, {784, 96, 9, 2}, {49, 384, 9, 1}, {196, 40, 12, 1}} {
		n, c, k := tc.n, int64(tc.c), int64(tc.k)
		nc2 := n * c * c
		nr := (n + int64(tc.r*tc.r) - 1) / int64(tc.r*tc.r)
		for _, op := range []struct {
			op   LayerKind
			gemm int64 // dense MACs per block pair, in units of NC^2/4
			spmm int64
		}{
			{MRConv, 48 * nc2, 0},
			{EdgeConv, (44 + 4*k) * nc2, 0},
			{GIN, 46 * nc2, n * (k + 1) * c},
			{SAGE, (48 + k) * nc2, 0},
		} {
			g := GrapherBlock(n, tc.c, tc.k, op.op, tc.r, true)
			f := FFNBlock(n, tc.c, 4*tc.c)
			gm, fm := kernelMACs(t, g), kernelMACs(t, f)
			if got := 4 * (gm[GEMM] + fm[GEMM]); got != op.gemm {
				t.Errorf("%s N=%d C=%d k=%d: dense MACs %.4g NC^2, want %.4g", op.op, n, c, k, float64(got)/4/float64(nc2), float64(op.gemm)/4/float64(nc2))
			}
			if gm[KNNDist] != n*nr*c {
				t.Errorf("%s N=%d C=%d r=%d: k-NN MACs %d, want N*N_r*C = %d", op.op, n, c, tc.r, gm[KNNDist], n*nr*c)
			}
			if gm[SpMM] != op.spmm {
				t.Errorf("%s: aggregation MACs %d, want %d", op.op, gm[SpMM], op.spmm)
			}
			for class, m := range gm {
				if class != GEMM && class != KNNDist && class != SpMM && m != 0 {
					t.Errorf("%s: %d MACs in %s kernels", op.op, m, class)
				}
			}
		}
	}
}

// TestGrapherWithoutFC1 checks MaGNAS's fc1 switch takes exactly NC^2 off.
func TestGrapherWithoutFC1(t *testing.T) {
	with, without := GrapherBlock(196, 320, 12, GIN, 1, true), GrapherBlock(196, 320, 12, GIN, 1, false)
	a, b := kernelMACs(t, with), kernelMACs(t, without)
	if d := a[GEMM] - b[GEMM]; d != 196*320*320 {
		t.Errorf("fc1 accounts for %d MACs, want NC^2 = %d", d, 196*320*320)
	}
}

func TestZooStructure(t *testing.T) {
	for _, tc := range []struct {
		name        string
		op          LayerKind
		blocks      int // Stem + Graphers + FFNs + Downsamples + Head
		graphNodes  []int64
		firstK      int
		lastK       int
		lastC       int
		wantModelNm string
	}{
		{"vig-ti", 0, 1 + 24 + 1, []int64{196}, 9, 18, 192, "vig-ti"},
		{"VIG-S", EdgeConv, 1 + 32 + 1, []int64{196}, 9, 18, 320, "vig-s-edgeconv"},
		{"pvig-s", GIN, 1 + 24 + 3 + 1, []int64{3136, 784, 196, 49}, 9, 9, 640, "pvig-s-gin"},
		{"pvig-b", SAGE, 1 + 48 + 3 + 1, []int64{3136, 784, 196, 49}, 9, 9, 1024, "pvig-b-sage"},
	} {
		m, err := LookupModel(tc.name, tc.op)
		if err != nil {
			t.Fatal(err)
		}
		if m.Name != tc.wantModelNm || len(m.Blocks) != tc.blocks {
			t.Errorf("%s: name %q, %d blocks; want %q, %d", tc.name, m.Name, len(m.Blocks), tc.wantModelNm, tc.blocks)
		}
		if m.Blocks[0].Kind != Stem || m.Blocks[len(m.Blocks)-1].Kind != Head {
			t.Errorf("%s: first block %s, last %s", tc.name, m.Blocks[0].Kind, m.Blocks[len(m.Blocks)-1].Kind)
		}
		var nodes []int64
		var ks []int
		prev := m.Blocks[0].Out()
		for i, b := range m.Blocks {
			if i > 0 && b.In.Nodes != prev.Nodes {
				t.Errorf("%s: block %s runs on %d nodes, its predecessor gives %d", tc.name, b.Name, b.In.Nodes, prev.Nodes)
			}
			prev = b.Out()
			if b.Kind != Grapher {
				continue
			}
			if len(nodes) == 0 || nodes[len(nodes)-1] != b.In.Nodes {
				nodes = append(nodes, b.In.Nodes)
			}
			for _, l := range b.Layers {
				if l.Kind == KNN {
					ks = append(ks, l.K)
				}
				if l.Kind.NeighbourOp() && l.Kind != KNN {
					want := tc.op
					if want == 0 {
						want = MRConv
					}
					if l.Kind != want || l.Groups != 4 || l.G != 2*l.F {
						t.Errorf("%s: graph conv %+v", tc.name, l)
					}
				}
			}
		}
		if len(nodes) != len(tc.graphNodes) {
			t.Errorf("%s: Graphers on %v nodes, want %v", tc.name, nodes, tc.graphNodes)
		} else {
			for i := range nodes {
				if nodes[i] != tc.graphNodes[i] {
					t.Errorf("%s: Graphers on %v nodes, want %v", tc.name, nodes, tc.graphNodes)
				}
			}
		}
		for i := 1; i < len(ks); i++ {
			if ks[i] < ks[i-1] {
				t.Errorf("%s: k decreases: %v", tc.name, ks)
			}
		}
		if ks[0] != tc.firstK || ks[len(ks)-1] != tc.lastK {
			t.Errorf("%s: k runs %d..%d, want %d..%d", tc.name, ks[0], ks[len(ks)-1], tc.firstK, tc.lastK)
		}
		head := m.Blocks[len(m.Blocks)-1]
		if head.Layers[0].F != tc.lastC || head.Out().Nodes != 1 || head.Layers[len(head.Layers)-1].G != Classes {
			t.Errorf("%s: head %+v", tc.name, head)
		}
	}
}

// TestViGKSchedule checks the isotropic k schedule against
// int(torch.linspace(9, 18, n)) as vig.py computes it.
func TestViGKSchedule(t *testing.T) {
	want := map[int][]int{
		12: {9, 9, 10, 11, 12, 13, 13, 14, 15, 16, 17, 18},
		16: {9, 9, 10, 10, 11, 12, 12, 13, 13, 14, 15, 15, 16, 16, 17, 18},
	}
	for n, w := range want {
		for i := range n {
			if got := linspaceInt(9, 18, n, i); got != w[i] {
				t.Errorf("n=%d: k[%d] = %d, want %d", n, i, got, w[i])
			}
		}
	}
}

func TestZooBadInput(t *testing.T) {
	for _, tc := range []struct {
		name string
		op   LayerKind
		want string
	}{
		{"vig-xl", 0, "unknown ViG size"},
		{"pvig-l", 0, "unknown Pyramid ViG size"},
		{"resnet34", 0, "unknown model"},
		{"googlenet", GIN, "has no graph op"},
		{"", 0, "unknown model"},
		{"vig-s", GCN, "not a ViG graph op"},
		{"pvig-ti", Pool, "not a ViG graph op"},
		{"vig-ti", LayerKind(200), "not a ViG graph op"},
	} {
		if _, err := LookupModel(tc.name, tc.op); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("LookupModel(%q, %v) = %v, want error containing %q", tc.name, tc.op, err, tc.want)
		}
	}
	// A hand-built block with a bad width is an error from Kernels, never a panic.
	if _, err := GrapherBlock(196, 0, 9, MRConv, 1, true).Kernels(); err == nil {
		t.Error("Grapher with 0 channels built kernels")
	}
	if _, err := GrapherBlock(-5, 32, 9, MRConv, 1, true).Kernels(); err == nil {
		t.Error("Grapher on -5 nodes built kernels")
	}
}
