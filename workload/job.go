package workload

import (
	"errors"
	"fmt"
	"math"
	"strings"
)

// LayerKind is the kind of a layer (see Layer.Kernels for what each
// computes). The zero value is invalid so that a job or layer whose kind
// was never set fails validation.
type LayerKind uint8

// The layer kinds. GCN..GAT are the graph layers of seed 002's jobs; the
// rest come from the model zoo (ViG, MaGNAS) and the search spaces of FGNAS
// and G-CoS.
const (
	GCN      LayerKind = iota + 1 // graph convolution (Kipf & Welling): aggregate over A+I, then combine
	GIN                           // graph isomorphism network layer
	SAGE                          // GraphSAGE layer, mean aggregator
	GAT                           // graph attention layer
	SAGEMax                       // GraphSAGE layer, max aggregator
	EdgeConv                      // dynamic edge convolution (DGCNN): MLP on every edge, max over k
	MRConv                        // max-relative graph convolution (ViG's default)
	FC                            // fully connected / 1x1 convolution
	Conv                          // convolution with a Window x Window kernel and a stride
	BN                            // batch normalisation (element-wise at inference)
	Act                           // activation (element-wise)
	Add                           // residual addition (element-wise)
	KNN                           // k-nearest-neighbour graph construction
	Pool                          // global average pooling
	MaxPool                       // windowed max pooling (Window, Stride, Pad, Ceil)
	AvgPool                       // windowed average pooling (Window, Stride, Pad, Ceil)
	LRN                           // local response normalisation across channels (LocalSize)
	Softmax                       // softmax over the channels of every node
	Concat                        // channel concatenation of its Inputs
)

var kindNames = [...]string{GCN: "gcn", GIN: "gin", SAGE: "sage", GAT: "gat", SAGEMax: "sage-max",
	EdgeConv: "edgeconv", MRConv: "mrconv", FC: "fc", Conv: "conv", BN: "bn", Act: "act", Add: "add",
	KNN: "knn", Pool: "pool", MaxPool: "maxpool", AvgPool: "avgpool", LRN: "lrn", Softmax: "softmax", Concat: "concat"}

// String returns the lower-case name used in trace and spec files ("gcn", ...).
func (k LayerKind) String() string {
	if k.Valid() {
		return kindNames[k]
	}
	return fmt.Sprintf("LayerKind(%d)", uint8(k))
}

// Valid reports whether k is one of the defined kinds.
func (k LayerKind) Valid() bool { return k >= GCN && k <= lastKind }

// lastKind is the last defined LayerKind.
const lastKind = Concat

// Graph reports whether k is one of the graph layers a job can run (GCN,
// GIN, SAGE, GAT): the kinds the Omega accelerator and traces know.
func (k LayerKind) Graph() bool { return k >= GCN && k <= GAT }

// Elementwise reports whether k keeps its width and does per-element work.
func (k LayerKind) Elementwise() bool { return k == BN || k == Act || k == Add || k == Pool }

// keepsWidth reports whether a layer of kind k has as many output channels
// as input channels (F = G): the element-wise kinds, pooling, LRN, softmax,
// and Concat, whose F and G both count the concatenated channels.
func (k LayerKind) keepsWidth() bool {
	switch k {
	case MaxPool, AvgPool, LRN, Softmax, Concat:
		return true
	}
	return k.Elementwise()
}

// windowed reports whether a layer of kind k slides a window over a pixel
// grid (Window, Stride, Pad).
func (k LayerKind) windowed() bool { return k == Conv || k == MaxPool || k == AvgPool }

// NeighbourOp reports whether k aggregates over neighbours and so may take
// a k-NN graph (Layer.K).
func (k LayerKind) NeighbourOp() bool {
	switch k {
	case GCN, GIN, SAGE, GAT, SAGEMax, EdgeConv, MRConv, KNN:
		return true
	}
	return false
}

// ParseLayerKind parses a layer kind name, ignoring case.
func ParseLayerKind(s string) (LayerKind, error) {
	for k := GCN; k <= lastKind; k++ {
		if strings.EqualFold(s, kindNames[k]) {
			return k, nil
		}
	}
	return 0, fmt.Errorf("unknown layer kind %q (want one of %s)", s, strings.Join(kindNames[GCN:], ", "))
}

// Job is one GNN layer applied to one graph, released at Arrival.
type Job struct {
	ID         int64     // unique within a trace
	Graph      string    // name of the graph (may be empty when Nodes and Edges are given)
	GraphIndex int       // index into a graph set the caller holds, or -1
	Nodes      int64     // V
	Edges      int64     // undirected edges, self-loops excluded (graphs.Graph.NumEdges)
	F, G       int       // input and output feature widths
	Kind       LayerKind // layer kind
	Arrival    int64     // release time in cycles from the trace origin
}

// Sized is what FromGraph needs of a graph; *graphs.Graph satisfies it (the
// interface keeps this package free of the graph representation).
type Sized interface {
	NumNodes() int
	NumEdges() int
}

// FromGraph returns a job running a layer of the given kind and widths on
// the graph g named name, with GraphIndex -1 and Arrival 0.
func FromGraph(id int64, name string, g Sized, f, gOut int, kind LayerKind) Job {
	return Job{
		ID:         id,
		Graph:      name,
		GraphIndex: -1,
		Nodes:      int64(g.NumNodes()),
		Edges:      int64(g.NumEdges()),
		F:          f,
		G:          gOut,
		Kind:       kind,
	}
}

// Validate reports the first problem with j: sizes out of range, an edge
// count no simple undirected graph on Nodes nodes can have, an invalid kind
// or a negative arrival.
func (j *Job) Validate() error {
	switch {
	case j.Nodes <= 0:
		return fmt.Errorf("job %d: nodes = %d, want > 0", j.ID, j.Nodes)
	case j.Edges < 0:
		return fmt.Errorf("job %d: edges = %d, want >= 0", j.ID, j.Edges)
	case j.Edges > maxEdges(j.Nodes):
		return fmt.Errorf("job %d: %d edges exceed the %d of a complete graph on %d nodes", j.ID, j.Edges, maxEdges(j.Nodes), j.Nodes)
	case j.F <= 0 || j.F > MaxFeatures:
		return fmt.Errorf("job %d: f = %d, want 1..%d", j.ID, j.F, MaxFeatures)
	case j.G <= 0 || j.G > MaxFeatures:
		return fmt.Errorf("job %d: g = %d, want 1..%d", j.ID, j.G, MaxFeatures)
	case !j.Kind.Graph():
		return fmt.Errorf("job %d: layer kind %s is not a graph layer (want gcn, gin, sage or gat)", j.ID, j.Kind)
	case j.Arrival < 0:
		return fmt.Errorf("job %d: arrival = %d, want >= 0", j.ID, j.Arrival)
	case j.GraphIndex < -1:
		return fmt.Errorf("job %d: graph index = %d, want >= 0 or -1 (none)", j.ID, j.GraphIndex)
	}
	return nil
}

// maxEdges returns V(V-1)/2, saturating at MaxInt64.
func maxEdges(v int64) int64 {
	if v > 1<<31 {
		return math.MaxInt64
	}
	return v * (v - 1) / 2
}

// ValidateAll validates every job and checks that IDs are unique.
func ValidateAll(jobs []Job) error {
	seen := make(map[int64]int, len(jobs))
	for i := range jobs {
		if err := jobs[i].Validate(); err != nil {
			return err
		}
		if k, dup := seen[jobs[i].ID]; dup {
			return fmt.Errorf("job id %d used twice (jobs %d and %d)", jobs[i].ID, k, i)
		}
		seen[jobs[i].ID] = i
	}
	return nil
}

// GraphSize gives the node and edge counts of a named graph; ok is false when
// the name is unknown. Resolve uses it to fill jobs that name a graph only.
type GraphSize func(name string) (nodes, edges int64, index int, ok bool)

// Resolve fills Nodes, Edges and GraphIndex of every job whose Nodes is zero
// (a trace that references graphs by name) from lookup, and validates the
// filled jobs. It fails on the first job whose graph is unnamed or unknown.
func Resolve(jobs []Job, lookup GraphSize) error {
	if lookup == nil {
		return errors.New("workload: Resolve: nil lookup")
	}
	for i := range jobs {
		j := &jobs[i]
		if j.Nodes != 0 {
			continue
		}
		if j.Graph == "" {
			return fmt.Errorf("workload: job %d has neither a size nor a graph name (a graph_index is the caller's to resolve)", j.ID)
		}
		v, e, idx, ok := lookup(j.Graph)
		if !ok {
			return fmt.Errorf("workload: job %d: unknown graph %q", j.ID, j.Graph)
		}
		j.Nodes, j.Edges, j.GraphIndex = v, e, idx
		if err := j.Validate(); err != nil {
			return fmt.Errorf("workload: graph %q: %w", j.Graph, err)
		}
	}
	return nil
}
