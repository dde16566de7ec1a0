package accel_test

import (
	"reflect"
	"runtime"
	"testing"

	"gnnsim/accel"
	"gnnsim/dataflow"
	"gnnsim/graphs"
	"gnnsim/workload"
)

// TestSimulateGraphParallel checks that running the configurations of a
// graph on several cores gives the records of the serial loop, in order.
func TestSimulateGraphParallel(t *testing.T) {
	g, err := graphs.Generate(graphs.GenSpec{Generator: "rmat", Seed: 3, MinNodes: 2000, MaxNodes: 2000}, 0)
	if err != nil {
		t.Fatal(err)
	}
	inters, _ := dataflow.ParseInters("all")
	tilings, _ := dataflow.ParseTilings("all")
	layer := workload.Layer{Kind: workload.GCN, F: 64, G: 16}
	hw := accel.DefaultHW()
	var want []accel.Record
	for _, procs := range []int{1, 2, 3} {
		prev := runtime.GOMAXPROCS(procs)
		got, err := accel.SimulateGraph(g, layer, inters, tilings, hw, accel.Options{}, nil)
		runtime.GOMAXPROCS(prev)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(inters)*len(tilings) {
			t.Fatalf("%d records, want %d", len(got), len(inters)*len(tilings))
		}
		if want == nil {
			want = got
		} else if !reflect.DeepEqual(got, want) {
			t.Fatalf("GOMAXPROCS %d: records differ from the serial run", procs)
		}
	}
	// An impossible configuration fails the same way on any core count.
	bad, _ := dataflow.ParseTilings("T_Va=100,T_N=1,T_Fa=64,T_Vc=*,T_Gc=1,T_Fc=16")
	_, err1 := accel.SimulateGraph(g, layer, inters, bad, hw, accel.Options{}, nil)
	prev := runtime.GOMAXPROCS(2)
	_, err2 := accel.SimulateGraph(g, layer, inters, bad, hw, accel.Options{}, nil)
	runtime.GOMAXPROCS(prev)
	if err1 == nil || err2 == nil || err1.Error() != err2.Error() {
		t.Errorf("errors %v / %v, want the same error", err1, err2)
	}
}

// TestSimulateReleasedCols checks that a graph whose column ids were
// released (graphs.Graph.ReleaseCols, as simulate does for large graphs)
// gives the records of the whole graph under every configuration, mode
// and layer kind: the model reads only the row lengths.
func TestSimulateReleasedCols(t *testing.T) {
	inters, _ := dataflow.ParseInters("all")
	tilings, _ := dataflow.ParseTilings("all")
	hw := accel.DefaultHW()
	for _, gen := range []string{"rmat", "ba"} {
		spec := graphs.GenSpec{Generator: gen, Seed: 5, MinNodes: 3000, MaxNodes: 3000}
		for _, kind := range []workload.LayerKind{workload.GCN, workload.SAGE} {
			for _, opts := range []accel.Options{{Mode: accel.Extended}, {Mode: accel.Omega}, {Mode: accel.Extended, Engine: accel.Fast}} {
				g, err := graphs.Generate(spec, 0)
				if err != nil {
					t.Fatal(err)
				}
				layer := workload.Layer{Kind: kind, F: 32, G: 8}
				want, err := accel.SimulateGraph(g, layer, inters, tilings, hw, opts, nil)
				if err != nil {
					t.Fatal(err)
				}
				nnz, edges := g.NNZ(), g.NumEdges()
				g.ReleaseCols()
				if g.Col != nil || !g.ColsReleased() || g.NNZ() != nnz || g.NumEdges() != edges {
					t.Fatalf("%s: released: Col %v, NNZ %d (want %d), edges %d (want %d)", gen, g.Col != nil, g.NNZ(), nnz, g.NumEdges(), edges)
				}
				got, err := accel.SimulateGraph(g, layer, inters, tilings, hw, opts, nil)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%s %v %+v: records differ after ReleaseCols", gen, kind, opts)
				}
			}
		}
	}
}

// BenchmarkScaleSimulate times the simulation stage of 'gnnsim simulate' (SimulateGraph)
// (graph already in memory): a GCN layer (F 64, G 16) on an R-MAT graph of
// 10^6 edge draws on 2^17 nodes, under all 24 configurations, extended
// mode. See docs/scale.md for the end-to-end figures at 10^7 and 10^8.
func BenchmarkScaleSimulate(b *testing.B) {
	g, err := graphs.Generate(graphs.GenSpec{Generator: "rmat", Seed: 1, MinNodes: 1 << 17, MaxNodes: 1 << 17,
		MinEdges: 1_000_000, MaxEdges: 1_000_000}, 0)
	if err != nil {
		b.Fatal(err)
	}
	inters, _ := dataflow.ParseInters("all")
	tilings, _ := dataflow.ParseTilings("all")
	layer := workload.Layer{Kind: workload.GCN, F: 64, G: 16}
	hw := accel.DefaultHW()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := accel.SimulateGraph(g, layer, inters, tilings, hw, accel.Options{}, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(g.NumEdges()), "ns/edge")
}
