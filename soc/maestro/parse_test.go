package maestro

import (
	"slices"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name, src string
		want      []Directive
	}{
		{"block", "Dataflow {\n  SpatialMap(1,1) K;\n  TemporalMap(Sz(R),1) Y';\n}\n", []Directive{
			{Kind: SpatialMap, Size: Lit(1), Offset: Lit(1), Dim: DimK, Line: 2},
			{Kind: TemporalMap, Size: Sz(DimR), Offset: Lit(1), Dim: DimYo, Line: 3},
		}},
		{"bare list, spaces and comments", "// c\nTemporalMap (64, 64) C; // tile\n\tSpatialMap ( 1 , 1 ) X;", []Directive{
			{Kind: TemporalMap, Size: Lit(64), Offset: Lit(64), Dim: DimC, Line: 2},
			{Kind: SpatialMap, Size: Lit(1), Offset: Lit(1), Dim: DimX, Line: 3},
		}},
		{"clusters", "SpatialMap(1,1) K; Cluster(Sz(R), L);\nSpatialMap(1,1) C; Cluster(4,P); SpatialMap(2,2) Y;", []Directive{
			{Kind: SpatialMap, Size: Lit(1), Offset: Lit(1), Dim: DimK, Line: 1},
			{Kind: Cluster, Size: Sz(DimR), Logical: true, Line: 1},
			{Kind: SpatialMap, Size: Lit(1), Offset: Lit(1), Dim: DimC, Line: 2},
			{Kind: Cluster, Size: Lit(4), Line: 2},
			{Kind: SpatialMap, Size: Lit(2), Offset: Lit(2), Dim: DimY, Line: 2},
		}},
		{"unicode in a comment", "Dataflow {\n // Eyeriss-like” \n SpatialMap(1,1) M;\n}", []Directive{
			{Kind: SpatialMap, Size: Lit(1), Offset: Lit(1), Dim: DimM, Line: 3},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			df, err := ParseString(tc.src)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(df.Directives, tc.want) {
				t.Fatalf("got %v\nwant %v", df.Directives, tc.want)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{"", "no directives"},
		{"Dataflow {\n}", "no directives"},
		{"Dataflow {\n SpatialMap(1,1) K;\n", "line 3: missing '}'"},
		{"SpatialMap(1,1) K", "line 1: expected \";\", found end of input"},
		{"\n\nTemporalMap(0,1) K; SpatialMap(1,1) C;", "line 3: sizes, offsets and cluster sizes must be positive"},
		{"SpatialMap(1,1) Q;", "line 1: unknown dimension \"Q\""},
		{"SpatialMap(1,-1) K;", "line 1: unexpected character '-'"},
		{"SpatialMap(1 1) K;", "line 1: expected \",\", found number 1"},
		{"SpatialMap(Sz(Z),1) K;", "line 1: unknown dimension \"Z\""},
		{"SpatialMap(99999999999,1) K;", "line 1: operand 99999999999 is larger than"},
		{"SpatialMap(1,1) K;\nCluster(4, X);", "line 2: cluster type must be P or L"},
		{"Mapping(1,1) K;", "line 1: expected TemporalMap, SpatialMap or Cluster"},
		{"TemporalMap(1,1) K;", "cluster level 0 has no SpatialMap"},
		{"SpatialMap(1,1) K;\nCluster(8,P);\nTemporalMap(1,1) C;", "line 3: cluster level 1 has no SpatialMap"},
		{"SpatialMap(1,1) K;\nCluster(8,P);", "line 2: cluster level 1 has no directives"},
		{"SpatialMap(1,1) K;\nTemporalMap(2,2) K;", "line 2: dimension K is mapped twice"},
		{"SpatialMap(1,1) K; SpatialMap(1,1) C;\nSpatialMap(1,1) Y;", "line 2: cluster level 0 has more than two SpatialMaps"},
		{"SpatialMap(1,1) K; Cluster(2,P); SpatialMap(1,1) C; Cluster(2,P); SpatialMap(1,1) Y; Cluster(2,P); SpatialMap(1,1) X; Cluster(2,P); SpatialMap(1,1) R;", "5 cluster levels, at most 4"},
		{"Dataflow { SpatialMap(1,1) K; } extra", "line 1: unexpected \"extra\" after the Dataflow block"},
	}
	for _, tc := range tests {
		_, err := ParseString(tc.src)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseString(%q) = %v, want an error containing %q", tc.src, err, tc.want)
		}
	}
}

func TestBuiltins(t *testing.T) {
	names := BuiltinNames()
	if len(names) < 10 {
		t.Fatalf("only %d built-in dataflows", len(names))
	}
	for _, n := range names {
		df, err := Builtin(n)
		if err != nil {
			t.Fatal(err)
		}
		if df.Name != n {
			t.Errorf("Builtin(%q).Name = %q", n, df.Name)
		}
		back, err := ParseString(df.String())
		if err != nil {
			t.Fatalf("%s: String() does not parse back: %v", n, err)
		}
		if !sameDirectives(back.Directives, df.Directives) {
			t.Errorf("%s: round trip changed the directives", n)
		}
	}
	if _, err := Builtin("nvdla"); err == nil || !strings.Contains(err.Error(), "kcp_ws") {
		t.Errorf("Builtin(nvdla) = %v, want an error listing the names", err)
	}
}

// sameDirectives compares directives ignoring source lines.
func sameDirectives(a, b []Directive) bool {
	return slices.EqualFunc(a, b, func(x, y Directive) bool {
		x.Line, y.Line = 0, 0
		return x == y
	})
}

// FuzzParseDataflow checks that any text either parses into a valid
// dataflow that prints and parses back unchanged, or fails with an error;
// and that analysing what parses never panics.
func FuzzParseDataflow(f *testing.F) {
	for _, n := range BuiltinNames() {
		f.Add(builtinText[n])
	}
	for _, s := range []string{"", "Dataflow {", "SpatialMap(1,1) K;", "TemporalMap(Sz(Y'),3) X'; SpatialMap(2,1) Y;",
		"SpatialMap(1,1) K; Cluster(1,P); SpatialMap(1,1) C; Cluster(3,L); SpatialMap(4,2) X;", "Cluster(2,P);"} {
		f.Add(s)
	}
	layers := []Layer{MatMul(7, 5, 3), {Type: Conv, K: 4, C: 3, R: 3, S: 2, Y: 9, X: 7, Stride: 2},
		{Type: DepthwiseConv, K: 1, C: 5, R: 3, S: 3, Y: 6, X: 6}, GEMMLayer(6, 5, 4)}
	f.Fuzz(func(t *testing.T, src string) {
		df, err := ParseString(src)
		if err != nil {
			return
		}
		back, err := ParseString(df.String())
		if err != nil {
			t.Fatalf("String() of a parsed dataflow does not parse: %v\n%s", err, df)
		}
		if !sameDirectives(back.Directives, df.Directives) {
			t.Fatalf("round trip changed the directives:\n%s\n%s", df, back)
		}
		for _, l := range layers {
			r, err := Analyze(l, df, ReferenceHardware(16, 4))
			if err == nil && (r.Cycles <= 0 || r.MACs <= 0) {
				t.Fatalf("%s: %d cycles, %d MACs without an error", l, r.Cycles, r.MACs)
			}
		}
	})
}
