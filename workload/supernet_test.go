package workload

import (
	"math"
	"slices"
	"strings"
	"testing"
)

func TestMaGNASSpaceSize(t *testing.T) {
	s := MaGNASSpace()
	if s.Choices() != 144 {
		t.Errorf("%d choices per superblock, MaGNAS Table 1 gives 3*4*2*2*3 = 144", s.Choices())
	}
	if got, want := s.Size(), math.Pow(144, 4); got != want || math.Abs(math.Log2(got)-29) > 0.5 {
		t.Errorf("space of %g architectures (2^%.2f), want 144^4 ~ 2^29", got, math.Log2(got))
	}
}

func TestSupernetViG(t *testing.T) {
	full := make([]Superblock, 4)
	for i := range full {
		full[i] = Superblock{Depth: 4, Op: MRConv, PreFC: true, FFN: true, FFNHidden: 320}
	}
	m, err := SupernetViG(full)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Blocks) != 1+32+1 {
		t.Errorf("largest subnet has %d blocks, want stem + 16 x (Grapher, FFN) + head", len(m.Blocks))
	}
	// Against ViG-S, the largest subnet differs only in k (12..24 per
	// superblock instead of 9..18) and the FFN hidden width (320, not
	// 1280): check the difference is exactly those terms.
	vigs, _ := ViG("s", MRConv)
	a, _ := m.MACs()
	b, _ := vigs.MACs()
	const n, c = 196, 320
	ffnDiff := int64(16) * 2 * n * c * (4*c - 320)
	if b-a != ffnDiff {
		t.Errorf("ViG-S minus the largest subnet: %d MACs, want the FFN difference %d", b-a, ffnDiff)
	}

	// Smallest: depth 2, GIN, no fc1, no FFN.
	small := []Superblock{{2, GIN, false, false, 96}, {2, GIN, false, false, 96}, {2, GIN, false, false, 96}, {2, GIN, false, false, 96}}
	m2, err := SupernetViG(small)
	if err != nil {
		t.Fatal(err)
	}
	if len(m2.Blocks) != 1+8+1 {
		t.Errorf("smallest subnet has %d blocks", len(m2.Blocks))
	}
	var ks []int
	for _, bl := range m2.Blocks {
		if bl.Kind == FFN {
			t.Errorf("FFN off but block %s present", bl.Name)
		}
		for _, l := range bl.Layers {
			if bl.Kind == Grapher && l.Kind == FC && l.F == l.G {
				t.Errorf("fc1 off but %s has it", bl.Name)
			}
			if l.Kind == KNN {
				ks = append(ks, l.K)
			}
		}
	}
	if want := []int{12, 12, 16, 16, 20, 20, 24, 24}; !slices.Equal(ks, want) {
		t.Errorf("k per Grapher %v, want %v", ks, want)
	}
	// The FFN hidden width is a gene without effect when FFN is off.
	small2 := append([]Superblock(nil), small...)
	small2[0].FFNHidden = 320
	m3, _ := SupernetViG(small2)
	x, _ := m2.MACs()
	y, _ := m3.MACs()
	if x != y {
		t.Errorf("FFN hidden width changed the MACs of an FFN-less subnet: %d vs %d", x, y)
	}
}

func TestSupernetBadArch(t *testing.T) {
	ok := Superblock{Depth: 2, Op: SAGE, PreFC: true, FFN: true, FFNHidden: 192}
	for _, tc := range []struct {
		name string
		arch []Superblock
		want string
	}{
		{"three superblocks", []Superblock{ok, ok, ok}, "3 superblocks given"},
		{"depth 5", []Superblock{ok, ok, {Depth: 5, Op: SAGE, FFNHidden: 96}, ok}, "depth 5"},
		{"gcn", []Superblock{ok, {Depth: 2, Op: GCN, FFNHidden: 96}, ok, ok}, "graph op gcn"},
		{"hidden 100", []Superblock{ok, ok, ok, {Depth: 2, Op: GIN, FFN: true, FFNHidden: 100}}, "hidden width 100"},
	} {
		if _, err := SupernetViG(tc.arch); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want error containing %q", tc.name, err, tc.want)
		}
	}
	if _, err := (SupernetSpace{}).Model(nil); err == nil {
		t.Error("empty space built a model")
	}
}
