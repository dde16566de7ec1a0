package predict

import (
	"slices"
	"testing"

	"gnnsim/dataflow"
	"gnnsim/graphs"
)

// testGraph is a small graph with self-loops stored, varied degrees and a
// triangle: 0-1, 0-2, 1-2, 2-3, 3-4.
func testGraph(t testing.TB) *graphs.Graph {
	t.Helper()
	g, err := graphs.FromEdges(5, []int32{0, 0, 1, 2, 3}, []int32{1, 2, 2, 3, 4})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestParseFeatureSet(t *testing.T) {
	for _, c := range []struct {
		in   string
		want FeatureSet
		ok   bool
	}{
		{"base", Base, true},
		{" Full ", Full, true},
		{"base+features", Full, true},
		{"", 0, false},
		{"base+log", 0, false},
	} {
		got, err := ParseFeatureSet(c.in)
		if (err == nil) != c.ok || (c.ok && got != c.want) {
			t.Errorf("ParseFeatureSet(%q) = %v, %v; want %v, ok %v", c.in, got, err, c.want, c.ok)
		}
		if c.ok && got.String() != map[FeatureSet]string{Base: "base", Full: "full"}[c.want] {
			t.Errorf("%v.String() = %q", got, got.String())
		}
	}
}

func TestFeatureRow(t *testing.T) {
	g := testGraph(t)
	gf := graphs.ComputeFeatures(g)
	const F, G = 32, 16
	cfgs, err := dataflow.All(dataflow.Dims{V: gf.Nodes, F: F, G: G}, 512, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, fs := range []FeatureSet{Base, Full} {
		names := fs.Names()
		if len(names) != fs.NumFeatures() {
			t.Fatalf("%s: %d names for %d features", fs, len(names), fs.NumFeatures())
		}
		for _, cfg := range cfgs {
			tl := cfg.Tiles
			row := fs.AppendRow([]float64{-1}, g, &gf, F, G, tl)
			if row[0] != -1 || len(row) != 1+fs.NumFeatures() {
				t.Fatalf("%s: AppendRow did not append %d values: %v", fs, fs.NumFeatures(), row)
			}
			row = row[1:]
			want := map[string]float64{
				"V": 5, "E": float64(gf.NNZ), "T_Va": float64(tl.Va), "T_Fa": float64(tl.Fa), "T_N": float64(tl.N),
				"T_Vc": float64(tl.Vc), "T_Gc": float64(tl.Gc), "T_Fc": float64(tl.Fc),
				"density": gf.Density, "clustering": gf.Clustering, "F": F, "G": G,
			}
			for i, q := range gf.DegreeQuantiles {
				want[names[ColDegQ1+i]] = q
			}
			if fs == Full {
				comp := dataflow.Composite(g, F, G, tl)
				for i, v := range comp {
					want[dataflow.CompositeNames[i]] = v
				}
			}
			if len(want) != len(names) {
				t.Fatalf("%s: test expects %d columns, set has %d", fs, len(want), len(names))
			}
			for j, n := range names {
				if row[j] != want[n] {
					t.Errorf("%s %s: column %d (%s) = %v, want %v", fs, cfg.Name(), j, n, row[j], want[n])
				}
			}
		}
	}
	// Table 1's E is NNZ(A+I): 2*5 edges + 5 self-loops.
	if gf.NNZ != 15 {
		t.Fatalf("NNZ = %d, want 15", gf.NNZ)
	}
}

// The base set never touches the graph, so a nil graph is fine.
func TestBaseRowWithoutGraph(t *testing.T) {
	g := testGraph(t)
	gf := graphs.ComputeFeatures(g)
	tl := dataflow.Tiles{Va: 2, Fa: 4, N: 1, Vc: 3, Gc: 1, Fc: 8}
	a := Base.AppendRow(nil, nil, &gf, 16, 16, tl)
	b := Base.AppendRow(nil, g, &gf, 16, 16, tl)
	if !slices.Equal(a, b) {
		t.Fatalf("base row depends on the graph: %v vs %v", a, b)
	}
}

func TestAppendRowAllocs(t *testing.T) {
	g := testGraph(t)
	gf := graphs.ComputeFeatures(g)
	tl := dataflow.Tiles{Va: 2, Fa: 4, N: 1, Vc: 3, Gc: 1, Fc: 8}
	buf := make([]float64, 0, NumFullFeatures)
	if n := testing.AllocsPerRun(100, func() { buf = Full.AppendRow(buf[:0], g, &gf, 16, 16, tl) }); n != 0 {
		t.Fatalf("AppendRow allocates %v times", n)
	}
}

func TestLinearColumns(t *testing.T) {
	for _, c := range []struct {
		fs   FeatureSet
		want []string
	}{
		{Base, []string{"log(V)", "log(E)", "log(F)", "log(G)"}},
		{Full, []string{"log(V)", "log(E)", "log(F)", "log(G)", "log(S1)", "log(S2)", "log(S3)", "log(S4)", "log(S5)", "log(S6)"}},
	} {
		if got := c.fs.linearInputNames(); !slices.Equal(got, c.want) {
			t.Errorf("%s: inputs %v, want %v", c.fs, got, c.want)
		}
		names := c.fs.Names()
		for k, j := range c.fs.linearColumns() {
			if "log("+names[j]+")" != c.want[k] {
				t.Errorf("%s: input %d is column %d (%s)", c.fs, k, j, names[j])
			}
		}
	}
}
