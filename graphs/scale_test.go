package graphs

import (
	"bytes"
	"io"
	"path/filepath"
	"sync"
	"testing"

	"gnnsim/internal/atomicfile"
	"gnnsim/internal/pqio"
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

// BenchmarkScaleEstimate is the wedge-sampling estimate that replaces
// exact triangle counting above EstimateAbove: its cost is the 2^23
// wedges, not the graph's size (a fixed number of allocations).
func BenchmarkScaleEstimate(b *testing.B) {
	g := benchGraph(b)
	b.ReportAllocs()
	for b.Loop() {
		estimateStructure(g, noMeter{})
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

// BenchmarkScaleOrient times the first stage of triangle counting: the
// degree-ordered orientation (ranks, out-lists, core bit matrix).
func BenchmarkScaleOrient(b *testing.B) {
	g := benchGraph(b)
	b.ReportAllocs()
	for b.Loop() {
		orient(g, noMeter{})
	}
	reportPerEdge(b, g)
}

// BenchmarkScaleTriangles times the whole triangle count (orientation and
// counting on every core), the bulk of ComputeFeatures.
func BenchmarkScaleTriangles(b *testing.B) {
	g := benchGraph(b)
	b.ReportAllocs()
	for b.Loop() {
		Triangles(g)
	}
	reportPerEdge(b, g)
}

// BenchmarkScaleEncode times the Parquet encoding of the graph's row
// alone (features zero): parquet-go and zstd.
func BenchmarkScaleEncode(b *testing.B) {
	g := benchGraph(b)
	path := filepath.Join(b.TempDir(), "set.parquet")
	rows := []setRow{{featureRow: featureRow{NumNodes: int64(g.NumNodes()), NumEdges: int64(g.NumEdges())},
		RowPtr: g.RowPtr, Col: g.Col}}
	b.ReportAllocs()
	for b.Loop() {
		if err := pqio.Write(path, rows, nil); err != nil {
			b.Fatal(err)
		}
	}
	reportPerEdge(b, g)
}

// BenchmarkScaleEncodeStreamed times the same row through the streamed
// writer of sets above 2^27 list values (threshold lowered; pages of 2^20
// entries, encoded on every core): the encoding of 10^8 edges and more.
func BenchmarkScaleEncodeStreamed(b *testing.B) {
	g := benchGraph(b)
	streamAt(b, 1<<10, 1<<20)
	path := filepath.Join(b.TempDir(), "set.parquet")
	rows := []setRow{{featureRow: featureRow{NumNodes: int64(g.NumNodes()), NumEdges: int64(g.NumEdges())},
		RowPtr: g.RowPtr, Col: g.Col}}
	b.ReportAllocs()
	for b.Loop() {
		err := atomicfile.Write(path, func(w io.Writer) error { return encodeStreamed(w, rows, nil, noMeter{}) })
		if err != nil {
			b.Fatal(err)
		}
	}
	reportPerEdge(b, g)
}

// BenchmarkScaleLoadOGB times reading the graph from an OGB raw folder
// (gzip-compressed edge list, each edge once) into a CSR.
func BenchmarkScaleLoadOGB(b *testing.B) {
	g := benchGraph(b)
	dir := ogbFromGraph(b, b.TempDir(), g, false)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := LoadOGB(dir); err != nil {
			b.Fatal(err)
		}
	}
	reportPerEdge(b, g)
}

// BenchmarkScaleBinaryEdges times reading the graph from a binary edge
// list (each edge once) into a CSR.
func BenchmarkScaleBinaryEdges(b *testing.B) {
	g := benchGraph(b)
	var pairs []uint32
	for v := range g.NumNodes() {
		for _, w := range g.Neighbors(v) {
			if int(w) > v {
				pairs = append(pairs, uint32(v), uint32(w))
			}
		}
	}
	data := binEdges(pairs...)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ReadBinaryEdges(bytes.NewReader(data), "g.bel"); err != nil {
			b.Fatal(err)
		}
	}
	reportPerEdge(b, g)
}
