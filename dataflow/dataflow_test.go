package dataflow

import (
	"math"
	"strings"
	"testing"

	"gnnsim/graphs"
)

func TestNamedTilings(t *testing.T) {
	// Expected values worked out by hand from Table 2 and the rules of
	// the package doc (the first rows match STONNE-Omega reference runs).
	tests := []struct {
		name string
		d    Dims
		p    int
		want Tiles
	}{
		{"a", Dims{11, 32, 32}, 512, Tiles{Va: 11, Fa: 32, N: 1, Vc: 11, Gc: 1, Fc: 32}},
		{"a", Dims{11, 32, 32}, 256, Tiles{Va: 8, Fa: 32, N: 1, Vc: 8, Gc: 1, Fc: 32}},
		{"b", Dims{11, 32, 32}, 256, Tiles{Va: 8, Fa: 2, N: 16, Vc: 11, Gc: 1, Fc: 2}},
		{"c", Dims{11, 32, 32}, 512, Tiles{Va: 4, Fa: 8, N: 16, Vc: 11, Gc: 1, Fc: 8}},
		{"d", Dims{1000, 64, 16}, 512, Tiles{Va: 512, Fa: 1, N: 1, Vc: 512, Gc: 1, Fc: 1}},
		// e at F=32 on 256 PEs: 18*16 > 256, so T_N shrinks to 256/18 = 14.
		{"e", Dims{11, 32, 32}, 256, Tiles{Va: 1, Fa: 18, N: 14, Vc: 11, Gc: 1, Fc: 18, NReducedFrom: 16}},
		{"e", Dims{11, 16, 32}, 512, Tiles{Va: 4, Fa: 16, N: 8, Vc: 11, Gc: 1, Fc: 16}},
		{"e", Dims{300, 64, 16}, 512, Tiles{Va: 1, Fa: 18, N: 28, Vc: 28, Gc: 1, Fc: 18, NReducedFrom: 32}},
		{"f", Dims{11, 32, 32}, 512, Tiles{Va: 11, Fa: 1, N: 11, Vc: 11, Gc: 1, Fc: 1}},
		{"f", Dims{100, 32, 32}, 256, Tiles{Va: 14, Fa: 1, N: 18, Vc: 100, Gc: 1, Fc: 1}},
		{"g", Dims{100, 64, 32}, 512, Tiles{Va: 28, Fa: 18, N: 1, Vc: 8, Gc: 1, Fc: 64}},
		{"h", Dims{100, 16, 32}, 512, Tiles{Va: 28, Fa: 1, N: 18, Vc: 32, Gc: 1, Fc: 16}},
		// F = 1: floor(F/2) is raised to 1.
		{"b", Dims{5, 1, 4}, 512, Tiles{Va: 5, Fa: 1, N: 1, Vc: 5, Gc: 1, Fc: 1}},
		// V = 1: everything is capped at one row.
		{"a", Dims{1, 64, 64}, 512, Tiles{Va: 1, Fa: 64, N: 1, Vc: 1, Gc: 1, Fc: 64}},
	}
	for _, tc := range tests {
		tl, err := Named(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		got, err := tl.Resolve(tc.d, tc.p, tc.p)
		if err != nil {
			t.Fatalf("%s %+v P=%d: %v", tc.name, tc.d, tc.p, err)
		}
		if got != tc.want {
			t.Errorf("%s %+v P=%d:\n got %+v\nwant %+v", tc.name, tc.d, tc.p, got, tc.want)
		}
		if got.AggPEs() > tc.p || got.CombPEs() > tc.p {
			t.Errorf("%s: tiles %v exceed %d PEs", tc.name, got, tc.p)
		}
	}
}

func TestAllConfigs(t *testing.T) {
	d := Dims{V: 250, F: 64, G: 16}
	cs, err := All(d, 512, 0)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for i, c := range cs {
		if want := Inters[i/8]; c.Inter != want {
			t.Errorf("config %d: inter %v, want %v", i, c.Inter, want)
		}
		if want := TilingNames[i%8 : i%8+1]; c.Tiling != want {
			t.Errorf("config %d: tiling %q, want %q", i, c.Tiling, want)
		}
		if seen[c.Name()] {
			t.Errorf("duplicate config %s", c.Name())
		}
		seen[c.Name()] = true
		if err := c.Validate(d); err != nil {
			t.Errorf("%s: %v", c.Name(), err)
		}
		if c.Inter == PP {
			if c.AggPEs != 256 || c.CombPEs != 256 {
				t.Errorf("%s: split %d+%d, want 256+256", c.Name(), c.AggPEs, c.CombPEs)
			}
		} else if c.AggPEs != 512 || c.CombPEs != 512 {
			t.Errorf("%s: phases get %d and %d PEs, want 512", c.Name(), c.AggPEs, c.CombPEs)
		}
	}
	// pp tiles are resolved on the phase's own share: tiling a on 256 PEs.
	if got := cs[16].Tiles; got.Va != 4 || got.Vc != 4 {
		t.Errorf("pp-a tiles %v, want T_Va = T_Vc = 256/64 = 4", got)
	}
	// Uneven split.
	c, err := Tiling{name: "a"}.Config(PP, d, 512, 384)
	if err != nil {
		t.Fatal(err)
	}
	if c.Tiles.Va != 6 || c.Tiles.Vc != 2 {
		t.Errorf("pp-a with 384+128 PEs: tiles %v, want T_Va = 6, T_Vc = 2", c.Tiles)
	}
}

func TestParseTiling(t *testing.T) {
	d := Dims{V: 100, F: 32, G: 16}
	tl, err := ParseTiling(" t_va=4 , T_N=2,T_FA=8,T_Vc=*,T_Gc=1,T_Fc=16")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := tl.Name(), "T_Va=4,T_N=2,T_Fa=8,T_Vc=*,T_Gc=1,T_Fc=16"; got != want {
		t.Errorf("Name() = %q, want %q", got, want)
	}
	ts, err := tl.Resolve(d, 512, 512)
	if err != nil {
		t.Fatal(err)
	}
	if want := (Tiles{Va: 4, Fa: 8, N: 2, Vc: 32, Gc: 1, Fc: 16}); ts != want {
		t.Errorf("resolved %+v, want %+v", ts, want)
	}
	// Round trip through the canonical name.
	tl2, err := ParseTiling(tl.Name())
	if err != nil || tl2 != tl {
		t.Errorf("round trip: %v, %v", tl2, err)
	}
	// Omitted stars, clipping to the layer.
	tl, err = ParseTiling("N=1,Fa=64,Gc=1,Fc=64")
	if err != nil {
		t.Fatal(err)
	}
	ts, err = tl.Resolve(Dims{V: 3, F: 16, G: 4}, 512, 512)
	if err != nil {
		t.Fatal(err)
	}
	if want := (Tiles{Va: 3, Fa: 16, N: 1, Vc: 3, Gc: 1, Fc: 16}); ts != want {
		t.Errorf("resolved %+v, want %+v", ts, want)
	}
	if n, err := ParseTiling("H"); err != nil || n.Name() != "h" {
		t.Errorf("ParseTiling(H) = %v, %v", n, err)
	}
}

func TestParseErrors(t *testing.T) {
	bad := []struct{ in, want string }{
		{"z", "unknown tiling"},
		{"", "unknown tiling"},
		{"T_Va=1,T_N=1,T_Fa=1,T_Vc=1,T_Gc=1", "missing T_Fc"},
		{"T_Va=1,T_N=0,T_Fa=1,T_Vc=1,T_Gc=1,T_Fc=1", "want 1.."},
		{"T_Va=1,T_N=-3,T_Fa=1,T_Vc=1,T_Gc=1,T_Fc=1", "want 1.."},
		{"T_Va=1,T_N=x,T_Fa=1,T_Vc=1,T_Gc=1,T_Fc=1", "not an integer"},
		{"T_Va=1,T_N=*,T_Fa=1,T_Vc=1,T_Gc=1,T_Fc=1", "only T_Va and T_Vc"},
		{"T_Va=1,T_Q=1", "unknown key"},
		{"T_Va=1,T_Va=2", "given twice"},
		{"T_Va", "unknown tiling"},
		{"T_Va=1,T_N", "not key=value"},
	}
	for _, b := range bad {
		_, err := ParseTiling(b.in)
		if err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("ParseTiling(%q) = %v, want error containing %q", b.in, err, b.want)
		}
	}
	for _, b := range []struct{ in, want string }{
		{"VFQ", "not a permutation"}, {"VV", "want 3 letters"}, {"VVF", "not a permutation"},
	} {
		if _, err := ParseOrder(b.in, "VFN"); err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("ParseOrder(%q) = %v, want %q", b.in, err, b.want)
		}
	}
	if o, err := ParseOrder("nvf", "VFN"); err != nil || o.String() != "NVF" {
		t.Errorf("ParseOrder(nvf) = %v, %v", o, err)
	}
	if _, err := ParseInter("pipeline"); err == nil {
		t.Error("ParseInter accepted an unknown name")
	}
	if i, err := ParseInter(" PP "); err != nil || i != PP {
		t.Errorf("ParseInter(PP) = %v, %v", i, err)
	}
}

func TestValidateErrors(t *testing.T) {
	d := Dims{V: 100, F: 32, G: 16}
	good, err := Tiling{name: "c"}.Config(Seq, d, 512, 0)
	if err != nil {
		t.Fatal(err)
	}
	mut := []struct {
		name string
		f    func(c *Config)
		want string
	}{
		{"zero tile", func(c *Config) { c.Tiles.Fa = 0 }, "T_Fa = 0"},
		{"agg too big", func(c *Config) { c.Tiles.Va = 100 }, "needs more than the 512 PEs"},
		{"comb too big", func(c *Config) { c.Tiles.Fc = 32; c.Tiles.Vc = 100 }, "needs more than the 512 PEs"},
		{"bad order", func(c *Config) { c.AggOrder = Order{'V', 'V', 'N'} }, "not a permutation"},
		{"comb order letters", func(c *Config) { c.CombOrder = AggOrder }, "permutation of VGF"},
		{"no PEs", func(c *Config) { c.PEs = 0 }, "PEs"},
		{"pp oversplit", func(c *Config) { c.Inter = PP; c.AggPEs, c.CombPEs = 400, 400 }, "pp splits"},
		{"phase too big", func(c *Config) { c.CombPEs = 1024 }, "array has 512"},
	}
	for _, m := range mut {
		c := good
		m.f(&c)
		if err := c.Validate(d); err == nil || !strings.Contains(err.Error(), m.want) {
			t.Errorf("%s: Validate = %v, want %q", m.name, err, m.want)
		}
	}
	if err := good.Validate(Dims{V: 0, F: 1, G: 1}); err == nil {
		t.Error("V = 0 accepted")
	}
	if _, err := (Tiling{name: "a"}).Config(PP, d, 512, 512); err == nil {
		t.Error("pp split leaving combination no PEs accepted")
	}
	if _, err := (Tiling{name: "a"}).Config(Seq, d, -1, 0); err == nil {
		t.Error("negative PE count accepted")
	}
	// A custom tile that does not fit is an error, not silently shrunk.
	tl, _ := ParseTiling("T_Va=8,T_N=8,T_Fa=16,T_Vc=1,T_Gc=1,T_Fc=1")
	if _, err := tl.Config(Seq, d, 512, 0); err == nil || !strings.Contains(err.Error(), "needs more than") {
		t.Errorf("oversized custom tiling: %v", err)
	}
}

func TestComposite(t *testing.T) {
	// Path 0-1-2 plus isolated node 3. A+I row lengths: 2, 3, 2, 1 (sum 8).
	g, err := graphs.FromEdges(4, []int32{0, 1}, []int32{1, 2})
	if err != nil {
		t.Fatal(err)
	}
	F, G := 4, 2
	ts := Tiles{Va: 2, Fa: 2, N: 2, Vc: 2, Gc: 1, Fc: 4}
	// By hand: V=4, meandeg = 8/4 = 2.
	// S1 = 4*4*(2+2) = 64; S2 = 4*4*2/(2*4*1) = 4; S3 = 4*4*2/(2*2) = 8;
	// S4 = 72; S5 = 2*4/(2*2) + 3*4/(2*2) + 2*4/(2*2) + 1*4/(1*2)
	//            = 2 + 3 + 2 + 2 = 9; S6 = 8 + 9/2 = 12.5.
	want := [NumComposite]float64{64, 4, 8, 72, 9, 12.5}
	for _, gg := range []*graphs.Graph{g, g.WithSelfLoops()} {
		got := Composite(gg, F, G, ts)
		for i := range got {
			if math.Abs(got[i]-want[i]) > 1e-12 {
				t.Errorf("self-loops=%v: %s = %v, want %v", gg.SelfLoops, CompositeNames[i], got[i], want[i])
			}
		}
	}
	if got := Composite(&graphs.Graph{}, F, G, ts); got != ([NumComposite]float64{}) {
		t.Errorf("empty graph: %v", got)
	}
}

// TestConfigPassesValidate checks that whatever Tiling.Config returns
// passes Config.Validate (Config relies on it rather than validating its
// result again), and that an unknown inter-phase dataflow is refused.
func TestConfigPassesValidate(t *testing.T) {
	tilings := NamedTilings()
	for _, s := range []string{"T_Va=*,T_N=2,T_Fa=8,T_Vc=*,T_Gc=1,T_Fc=16", "T_Va=3,T_N=5,T_Fa=7,T_Vc=2,T_Gc=4,T_Fc=9"} {
		tl, err := ParseTiling(s)
		if err != nil {
			t.Fatal(err)
		}
		tilings = append(tilings, tl)
	}
	n := 0
	for _, tl := range tilings {
		for _, d := range []Dims{{1, 1, 1}, {2, 3, 1}, {7, 32, 16}, {300, 100, 16}} {
			for _, pes := range []int{1, 2, 3, 17, 256, 512} {
				for _, split := range []int{0, 1} {
					for _, inter := range Inters {
						c, err := tl.Config(inter, d, pes, split)
						if err != nil {
							continue
						}
						n++
						if err := c.Validate(d); err != nil {
							t.Errorf("%s %s %+v on %d PEs (split %d): %v", inter, tl.Name(), d, pes, split, err)
						}
					}
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no configuration resolved")
	}
	if _, err := tilings[0].Config(Inter(len(Inters)), Dims{7, 32, 16}, 512, 0); err == nil {
		t.Error("Config accepted an unknown inter-phase dataflow")
	}
}

// BenchmarkAll resolves the 24 configurations of one layer, as the
// predictor does for every graph it predicts.
func BenchmarkAll(b *testing.B) {
	d := Dims{V: 2000, F: 64, G: 16}
	for b.Loop() {
		if _, err := All(d, 512, 0); err != nil {
			b.Fatal(err)
		}
	}
}
