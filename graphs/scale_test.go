package graphs

import (
	"path/filepath"
	"sync"
	"testing"
)

// The BenchmarkScale* benchmarks time each stage of the graph pipeline of
// 'gnnsim graphs gen' and 'gnnsim simulate' on one Graph500-style R-MAT
// graph of 10^6 edge draws on 2^17 nodes (about 0.9M edges after
// de-duplication), small enough for CI. docs/scale.md has the commands that
// measure the same stages end to end at 10^7 and 10^8 edges, and the
// figures. Run them with
//
//	go test -run XXX -bench Scale -benchmem ./graphs/

// scaleSpec is the generator spec of the benchmark graph.
var scaleSpec = GenSpec{Generator: "rmat", Seed: 1, MinNodes: 1 << 17, MaxNodes: 1 << 17,
	MinEdges: 1_000_000, MaxEdges: 1_000_000}

var scaleGraph = sync.OnceValues(func() (*Graph, error) { return Generate(scaleSpec, 0) })

func benchGraph(b *testing.B) *Graph {
	b.Helper()
	g, err := scaleGraph()
	if err != nil {
		b.Fatal(err)
	}
	return g
}

// reportPerEdge adds the time per undirected edge.
func reportPerEdge(b *testing.B, g *Graph) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(g.NumEdges()), "ns/edge")
}

func BenchmarkScaleGenerate(b *testing.B) {
	g := benchGraph(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Generate(scaleSpec, 0); err != nil {
			b.Fatal(err)
		}
	}
	reportPerEdge(b, g)
}

func BenchmarkScaleValidate(b *testing.B) {
	g := benchGraph(b)
	b.ReportAllocs()
	for b.Loop() {
		if err := g.Validate(); err != nil {
			b.Fatal(err)
		}
	}
	reportPerEdge(b, g)
}

func BenchmarkScaleFeatures(b *testing.B) {
	g := benchGraph(b)
	b.ReportAllocs()
	for b.Loop() {
		ComputeFeatures(g)
	}
	reportPerEdge(b, g)
}

// BenchmarkScaleWriteSet includes what WriteSet does besides encoding:
// Validate and ComputeFeatures.
func BenchmarkScaleWriteSet(b *testing.B) {
	g := benchGraph(b)
	path := filepath.Join(b.TempDir(), "set.parquet")
	b.ReportAllocs()
	for b.Loop() {
		if err := WriteSet(path, []*Graph{g}, nil); err != nil {
			b.Fatal(err)
		}
	}
	reportPerEdge(b, g)
}

// BenchmarkScaleReadSet includes the Validate of every graph read.
func BenchmarkScaleReadSet(b *testing.B) {
	g := benchGraph(b)
	path := filepath.Join(b.TempDir(), "set.parquet")
	if err := WriteSet(path, []*Graph{g}, nil); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := ReadSet(path); err != nil {
			b.Fatal(err)
		}
	}
	reportPerEdge(b, g)
}
