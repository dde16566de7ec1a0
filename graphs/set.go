package graphs

import (
	"fmt"
	"io"
	"maps"
	"math"
	"runtime"
	"strconv"
	"strings"

	"github.com/parquet-go/parquet-go"

	"gnnsim/internal/atomicfile"
	"gnnsim/internal/par"
	"gnnsim/internal/pqio"
)

// featureRow is a graph-set row without its list columns: a graph's
// identity and its Features. Reading a file through it decodes only these
// column chunks, so a set's features load without touching the CSR. Column
// names and meanings are documented in doc.go; keep the two in step. Only
// plain types and lists, so DuckDB, pandas and polars read the file without
// conversion.
type featureRow struct {
	ID        int64  `parquet:"id"`
	Name      string `parquet:"name"`
	Source    string `parquet:"source"`
	NumNodes  int64  `parquet:"num_nodes"`
	NumEdges  int64  `parquet:"num_edges"`
	SelfLoops bool   `parquet:"self_loops"`
	Label     int64  `parquet:"label"`
	HasLabel  bool   `parquet:"has_label"`
	AttrDim   int64  `parquet:"attr_dim"`

	NNZ        int64   `parquet:"nnz"`
	Density    float64 `parquet:"density"`
	NXDensity  float64 `parquet:"nx_density"`
	Clustering float64 `parquet:"clustering"`
	Triangles  int64   `parquet:"triangles"`
	DegQ1      float64 `parquet:"deg_q1"`
	DegQ2      float64 `parquet:"deg_q2"`
	DegQ3      float64 `parquet:"deg_q3"`
	DegQ4      float64 `parquet:"deg_q4"`
	DegQ5      float64 `parquet:"deg_q5"`
	DegQ6      float64 `parquet:"deg_q6"`
	DegQ7      float64 `parquet:"deg_q7"`
	MeanDegree float64 `parquet:"mean_degree"`
	MaxDegree  int64   `parquet:"max_degree"`
}

// setRow is one row of a graph-set file: featureRow's columns (parquet-go
// flattens the embedded struct, so they come first, in its order), then
// the CSR and the node attributes.
type setRow struct {
	featureRow

	RowPtr   []int32   `parquet:"row_ptr,list"`
	Col      []int32   `parquet:"col,list"`
	NodeAttr []float64 `parquet:"node_attr,list"`
}

// SetEntry is one graph of a set file without its CSR: what ReadSetFeatures
// returns.
type SetEntry struct {
	ID        int
	Name      string
	Source    string
	SelfLoops bool
	Label     int64
	HasLabel  bool
	AttrDim   int
	Features
}

// WriteSet writes graphs gs to path as a graph-set Parquet file (columns in
// doc.go), one row per graph in order, with meta as key-value metadata
// (pqio adds the gnnsim version). Every graph is validated first, and its
// Features are computed and stored. The write is atomic and deterministic:
// equal graphs and metadata give byte-identical files.
func WriteSet(path string, gs []*Graph, meta map[string]string) error {
	return WriteSetProgress(path, gs, meta, nil)
}

// WriteSetProgress is WriteSet calling done (when not nil) after each
// graph's features are computed: the counter of a progress display, since
// the features of thousands of graphs take seconds. The features are
// computed on every core (each graph's into its own row, so the file does
// not depend on it); done must be safe for concurrent use.
func WriteSetProgress(path string, gs []*Graph, meta map[string]string, done func()) error {
	return WriteSetWith(path, gs, meta, WriteOptions{Done: done})
}

// WriteOptions are the optional hooks of WriteSetWith. Neither changes a
// byte of the file.
type WriteOptions struct {
	// Done is called after each graph's features are computed (see
	// WriteSetProgress); it must be safe for concurrent use.
	Done func()
	// Meter hears the stages of a set of one graph (validate, orient,
	// triangles, encode): the case where one graph takes minutes. Sets
	// of several graphs report through Done only.
	Meter Meter
	// Features says whether clustering and triangles of graphs above
	// EstimateAbove stored entries are estimated (FeaturesAuto, the
	// default) or counted (FeaturesExact). An estimated graph i gets a
	// metadata entry "gnnsim.features.estimated.<i>" stating the method and its
	// error bounds.
	Features FeatureMode
	// Generated says the graphs come straight from Generate, whose CSRs
	// are valid by construction (every generator's tests validate its
	// graphs): they are not validated again, which took 2.6-3.7 s of the
	// 10^8-draw R-MAT set. Graphs from anywhere else are validated.
	Generated bool
}

// WriteSetWith is WriteSet with progress hooks.
func WriteSetWith(path string, gs []*Graph, meta map[string]string, o WriteOptions) error {
	done, meter := o.Done, meterOr(o.Meter)
	if len(gs) != 1 {
		meter = noMeter{}
	}
	rows := make([]setRow, len(gs))
	notes := make([]string, len(gs)) // estimate notes, "" when exact
	err := par.For(len(gs), 0, func(i int) error {
		g := gs[i]
		if g == nil {
			return fmt.Errorf("graphs: writing %s: graph %d is nil", path, i)
		}
		if !o.Generated {
			meter.Stage("validate", "graphs", 1)
			if err := g.Validate(); err != nil {
				return fmt.Errorf("graphs: writing %s: graph %d (%q): %w", path, i, g.Name, err)
			}
			meter.Add(1)
		}
		estimate := o.Features == FeaturesAuto && g.NNZ() > estimateAbove
		f, triBound := computeFeatures(g, meter, estimate)
		if estimate {
			notes[i] = estimateNote(triBound)
		}
		r := setRow{
			featureRow: featureRow{
				ID:        int64(i),
				Name:      g.Name,
				Source:    g.Source,
				NumNodes:  int64(f.Nodes),
				NumEdges:  int64(f.Edges),
				SelfLoops: g.SelfLoops,
				Label:     g.Label,
				HasLabel:  g.HasLabel,
			},
			RowPtr: g.RowPtr,
			Col:    g.Col,
		}
		if !g.HasLabel {
			r.Label = 0 // keep the column canonical when there is no label
		}
		if len(r.RowPtr) == 0 {
			r.RowPtr = []int32{0} // the zero Graph: store the canonical empty CSR
		}
		if g.NodeAttr != nil {
			r.AttrDim, r.NodeAttr = int64(g.AttrDim), g.NodeAttr
		}
		r.setFeatures(&f)
		rows[i] = r
		if done != nil {
			done()
		}
		return nil
	})
	if err != nil {
		return err
	}
	cloned := false
	for i, note := range notes {
		if note == "" {
			continue
		}
		if !cloned { // the caller's map stays as it was
			meta, cloned = maps.Clone(meta), true
			if meta == nil {
				meta = map[string]string{}
			}
		}
		meta[estimatedKey+strconv.Itoa(i)] = note
	}
	if streamed(rows) { // too large for parquet-go's one page a list (setstream.go)
		err := atomicfile.Write(path, func(w io.Writer) error { return encodeStreamed(w, rows, meta, meter) })
		if err != nil {
			return fmt.Errorf("graphs: writing %s: %w", path, err)
		}
		return nil
	}
	// parquet-go reports nothing until the whole row group is encoded and
	// compressed: a stage of unknown length.
	meter.Stage("encode", "", 0)
	if err := writeSetRows(path, meta, func(w *pqio.Writer[setRow]) error { return w.Write(rows) }); err != nil {
		return fmt.Errorf("graphs: %w", err)
	}
	return nil
}

// setGroupBytes ends a set file's row group once its graphs' lists
// (setRow.bytes) reach it, before pqio.RowGroupRows graphs: the writer
// holds a row group's graphs until it is complete and expands them about
// 6x while encoding, and 65,536 graphs of a million edges each would be
// gigabytes (issue 38 item 1). 256 MiB bounds that near 1.5 GB while
// every set under it (64 Mi list entries: thousands of Graphlaxy graphs
// at their default sizes) is written byte for byte as before this rule,
// one row group per 65,536 graphs (a 16 MiB cut changed the bytes of a
// 1,000-graph Graphlaxy set). A variable so that tests can lower it.
var setGroupBytes int64 = 256 << 20

// bytes is what a row's lists and strings take.
func (r *setRow) bytes() int64 {
	return 4*int64(len(r.RowPtr)+len(r.Col)) + 8*int64(len(r.NodeAttr)) + int64(len(r.Name)+len(r.Source))
}

// writeSetRows writes the rows fill passes as a set file: every set file
// is cut into row groups the same way, so that one written whole
// (WriteSet) equals one joined from parts (ConcatSets). Above
// streamAbove list values WriteSet streams its pages instead
// (setstream.go) and ConcatSets does not: a sweep's graphs.parquet of
// such sizes is still valid and equal row for row, not byte for byte.
func writeSetRows(path string, meta map[string]string, fill func(*pqio.Writer[setRow]) error) error {
	return pqio.WriteStreamBudget(path, meta, setGroupBytes, (*setRow).bytes, fill)
}

// setFeatures stores f in the feature columns; features reads them back.
func (r *featureRow) setFeatures(f *Features) {
	r.NNZ = int64(f.NNZ)
	r.Density, r.NXDensity = f.Density, f.NXDensity
	r.Clustering, r.Triangles = f.Clustering, f.Triangles
	q := &f.DegreeQuantiles
	r.DegQ1, r.DegQ2, r.DegQ3, r.DegQ4, r.DegQ5, r.DegQ6, r.DegQ7 = q[0], q[1], q[2], q[3], q[4], q[5], q[6]
	r.MeanDegree, r.MaxDegree = f.MeanDegree, int64(f.MaxDegree)
}

func (r *featureRow) features() Features {
	return Features{
		Nodes:           int(r.NumNodes),
		Edges:           int(r.NumEdges),
		NNZ:             int(r.NNZ),
		Density:         r.Density,
		NXDensity:       r.NXDensity,
		Clustering:      r.Clustering,
		Triangles:       r.Triangles,
		DegreeQuantiles: [NumDegreeQuantiles]float64{r.DegQ1, r.DegQ2, r.DegQ3, r.DegQ4, r.DegQ5, r.DegQ6, r.DegQ7},
		MeanDegree:      r.MeanDegree,
		MaxDegree:       int(r.MaxDegree),
	}
}

// ReadSet reads a graph-set file written by WriteSet and its key-value
// metadata. It checks the schema, validates every graph (CSR invariants,
// node and edge counts, attribute sizes, row ids) and names the offending
// row in its error. The stored features are not returned: recompute them
// with ComputeFeatures, or read them alone with ReadSetFeatures.
func ReadSet(path string) (gs []*Graph, meta map[string]string, err error) {
	return ReadSetMeter(path, nil)
}

// ReadSetMeter is ReadSet telling m (when not nil) how far it has got: the
// columns read (scalars, row_ptr, col, node_attr), then the graphs
// validated.
func ReadSetMeter(path string, m Meter) (gs []*Graph, meta map[string]string, err error) {
	defer recoverCorrupt(path, &err)
	return readSet(path, meterOr(m))
}

func readSet(path string, meter Meter) ([]*Graph, map[string]string, error) {
	_, gs, meta, err := readSetRows(path, meter)
	return gs, meta, err
}

// readSetRows reads the rows of a set file, stored features included, and
// rebuilds and checks each row's graph.
func readSetRows(path string, meter Meter) ([]setRow, []*Graph, map[string]string, error) {
	if err := checkSetSchema(path, true); err != nil {
		return nil, nil, nil, err
	}
	// The scalar columns go through the row reader, the list columns
	// column-wise (see readList): the row reader would spend ~190 bytes per
	// edge on a large graph.
	meter.Stage("read", "columns", 4)
	frs, meta, err := pqio.Read[featureRow](path)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("graphs: %w", err)
	}
	meter.Add(1)
	pf, err := pqio.Open(path)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("graphs: %w", err)
	}
	defer pf.Close()
	// The lists' lengths as the scalar columns state them (see readList).
	rowPtrHint, colHint, attrHint := make([]int64, len(frs)), make([]int64, len(frs)), make([]int64, len(frs))
	for i := range frs {
		r := &frs[i]
		rowPtrHint[i], colHint[i] = r.NumNodes+1, 2*r.NumEdges
		if r.SelfLoops {
			colHint[i] += r.NumNodes
		}
		if r.AttrDim > 0 && r.NumNodes > 0 && r.AttrDim <= math.MaxInt64/r.NumNodes {
			attrHint[i] = r.AttrDim * r.NumNodes
		}
	}
	rowPtr, err := readList(pf.File, "row_ptr", len(frs), rowPtrHint, int32Values)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("graphs: %s: %w", path, err)
	}
	meter.Add(1)
	col, err := readList(pf.File, "col", len(frs), colHint, int32Values)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("graphs: %s: %w", path, err)
	}
	meter.Add(1)
	attr, err := readList(pf.File, "node_attr", len(frs), attrHint, float64Values)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("graphs: %s: %w", path, err)
	}
	meter.Add(1)
	collectPages(pf.File)
	meter.Stage("validate", "graphs", int64(len(frs)))
	rows := make([]setRow, len(frs))
	gs := make([]*Graph, len(frs))
	for i := range frs {
		rows[i] = setRow{featureRow: frs[i], RowPtr: rowPtr[i], Col: col[i], NodeAttr: attr[i]}
		g, err := rows[i].graph(i)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("graphs: %s: row %d (%q): %w", path, i, frs[i].Name, err)
		}
		gs[i] = g
		meter.Add(1)
	}
	return rows, gs, meta, nil
}

// graph rebuilds and validates the Graph of row i.
func (r *setRow) graph(i int) (*Graph, error) {
	if r.ID != int64(i) {
		return nil, fmt.Errorf("id %d, want %d", r.ID, i)
	}
	if len(r.RowPtr) == 0 {
		return nil, fmt.Errorf("empty row_ptr (want at least [0])")
	}
	g := &Graph{
		Name:      r.Name,
		Source:    r.Source,
		RowPtr:    r.RowPtr,
		Col:       r.Col,
		SelfLoops: r.SelfLoops,
		Label:     r.Label,
		HasLabel:  r.HasLabel,
	}
	if g.Col == nil {
		g.Col = []int32{}
	}
	n := g.NumNodes()
	if int64(n) != r.NumNodes {
		return nil, fmt.Errorf("num_nodes %d but row_ptr holds %d nodes", r.NumNodes, n)
	}
	switch {
	case r.AttrDim < 0:
		return nil, fmt.Errorf("negative attr_dim %d", r.AttrDim)
	case r.AttrDim == 0 && len(r.NodeAttr) != 0:
		return nil, fmt.Errorf("%d node attributes with attr_dim 0", len(r.NodeAttr))
	case r.AttrDim > 0:
		if int64(len(r.NodeAttr)) != int64(n)*r.AttrDim {
			return nil, fmt.Errorf("%d node attributes, want %d nodes x attr_dim %d", len(r.NodeAttr), n, r.AttrDim)
		}
		g.AttrDim = int(r.AttrDim)
		g.NodeAttr = r.NodeAttr
		if g.NodeAttr == nil {
			g.NodeAttr = []float64{}
		}
	}
	if err := g.Validate(); err != nil {
		return nil, err
	}
	if int64(g.NumEdges()) != r.NumEdges {
		return nil, fmt.Errorf("num_edges %d but the CSR holds %d edges", r.NumEdges, g.NumEdges())
	}
	return g, nil
}

// ReadSetFeatures reads the identity and stored Features of every graph of
// a set file, and its metadata, without decoding the CSR columns. The
// features are taken as stored (no recomputation); ids must run 0..n-1.
func ReadSetFeatures(path string) (es []SetEntry, meta map[string]string, err error) {
	defer recoverCorrupt(path, &err)
	return readSetFeatures(path)
}

func readSetFeatures(path string) ([]SetEntry, map[string]string, error) {
	if err := checkSetSchema(path, false); err != nil {
		return nil, nil, err
	}
	rows, meta, err := pqio.Read[featureRow](path)
	if err != nil {
		return nil, nil, fmt.Errorf("graphs: %w", err)
	}
	es := make([]SetEntry, len(rows))
	for i := range rows {
		r := &rows[i]
		if r.ID != int64(i) {
			return nil, nil, fmt.Errorf("graphs: %s: row %d (%q): id %d, want %d", path, i, r.Name, r.ID, i)
		}
		es[i] = SetEntry{
			ID:        i,
			Name:      r.Name,
			Source:    r.Source,
			SelfLoops: r.SelfLoops,
			Label:     r.Label,
			HasLabel:  r.HasLabel,
			AttrDim:   int(r.AttrDim),
			Features:  r.features(),
		}
	}
	return es, meta, nil
}

// collectPages runs the garbage collector after a large set has been read.
// The decoded pages (compressed and plain column data and levels, about
// twice the CSR) are garbage by then, but the collector's next goal was
// set while they were live, so without a collection now the caller's
// allocations (a simulation's scratch, say) pile up on top of them: for
// 'gnnsim simulate' on 9.5M edges the peak RSS is 330-440 MB without these
// collections and 270-280 MB with them. Collecting a heap that is mostly
// pointer-free arrays takes milliseconds.
func collectPages(pf *parquet.File) {
	var size int64
	for _, rg := range pf.Metadata().RowGroups {
		size += rg.TotalByteSize
	}
	if size >= 64<<20 {
		// Twice: buffers parquet-go returned to its sync.Pools survive
		// one collection in the pools' victim cache.
		runtime.GC()
		runtime.GC()
	}
}

// recoverCorrupt turns a panic of the Parquet decoder into an error.
// parquet-go v0.32 trusts the offsets and counts in a file's page index and
// page headers and can index out of range on a damaged file (FuzzReadSet
// finds such files within seconds); a damaged file must be an error.
func recoverCorrupt(path string, err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("graphs: %s: corrupt Parquet file: %v", path, r)
	}
}

// checkSetSchema makes sure path has every column a graph-set reader needs
// with the expected physical type. parquet-go fills columns missing from a
// file with zeros, so without this check any Parquet file would read as a
// set of empty graphs.
func checkSetSchema(path string, withCSR bool) error {
	pf, err := pqio.Open(path)
	if err != nil {
		return fmt.Errorf("graphs: %w", err)
	}
	defer pf.Close()
	var want *parquet.Schema
	if withCSR {
		want = parquet.SchemaOf(setRow{})
	} else {
		want = parquet.SchemaOf(featureRow{})
	}
	have := pf.Schema()
	for _, col := range want.Columns() {
		name := strings.Join(col, ".")
		wl, _ := want.Lookup(col...)
		hl, ok := have.Lookup(col...)
		if !ok {
			return fmt.Errorf("graphs: %s is not a graph-set file: no column %q", path, name)
		}
		if wk, hk := wl.Node.Type().Kind(), hl.Node.Type().Kind(); wk != hk {
			return fmt.Errorf("graphs: %s: column %q is %v, want %v", path, name, hk, wk)
		}
	}
	return nil
}
