package workload

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/parquet-go/parquet-go"

	"gnnsim/internal/boundedio"
	"gnnsim/internal/pqio"

	"gnnsim/internal/csvtab"
)

// Trace file columns. job_id and arrival_cycle are required; a row names its
// graph's size with nodes and edges, or references it by graph (and then
// Resolve fills the size) or by graph_index (an index into the caller's
// graph set, which gives the size), or several of these. A trace has at
// least one job.
const (
	ColJobID      = "job_id"        // int64, unique
	ColArrival    = "arrival_cycle" // int64 >= 0, cycles from the trace origin
	ColGraph      = "graph"         // graph name
	ColGraphIndex = "graph_index"   // int >= 0, index into the caller's graph set
	ColNodes      = "nodes"         // int64 > 0; with edges
	ColEdges      = "edges"         // int64 >= 0, undirected, self-loops excluded
	ColF          = "f"             // input feature width
	ColG          = "g"             // output feature width
	ColKind       = "kind"          // gcn, gin, sage or gat (case-insensitive)
)

var traceColumns = []string{ColJobID, ColArrival, ColGraph, ColGraphIndex, ColNodes, ColEdges, ColF, ColG, ColKind}

// ReadOptions supplies values for columns a trace file leaves out.
type ReadOptions struct {
	F, G int       // feature widths for files without f / g columns (0: the column is required)
	Kind LayerKind // layer kind for files without a kind column (0: GCN)
}

// ReadTrace reads a trace file, CSV or Parquet by its extension (.csv;
// .parquet or .pq), and returns its jobs sorted by arrival time, ties kept in
// file order. Jobs that reference a graph by name only have Nodes == 0 until
// Resolve fills them.
func ReadTrace(path string, opt ReadOptions) ([]Job, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv":
		f, err := boundedio.Open(path, boundedio.Trace)
		if err != nil {
			return nil, fmt.Errorf("workload: %w", err)
		}
		defer f.Close()
		return ParseCSV(f, path, opt)
	case ".parquet", ".pq":
		return ReadParquet(path, opt)
	}
	return nil, fmt.Errorf("workload: %s: unknown trace format (want .csv, .parquet or .pq)", path)
}

// rawRow is one trace row before defaults and validation; nil means the
// column is absent or the cell empty. It is also the Parquet row type.
type rawRow struct {
	JobID      *int64  `parquet:"job_id,optional"`
	Arrival    *int64  `parquet:"arrival_cycle,optional"`
	Graph      *string `parquet:"graph,optional"`
	GraphIndex *int64  `parquet:"graph_index,optional"`
	Nodes      *int64  `parquet:"nodes,optional"`
	Edges      *int64  `parquet:"edges,optional"`
	F          *int64  `parquet:"f,optional"`
	G          *int64  `parquet:"g,optional"`
	Kind       *string `parquet:"kind,optional"`
}

// job turns a raw row into a validated job. It does not check id uniqueness.
func (r *rawRow) job(opt ReadOptions) (Job, error) {
	var j Job
	if r.JobID == nil {
		return j, fmt.Errorf("missing %s", ColJobID)
	}
	j.ID = *r.JobID
	if r.Arrival == nil {
		return j, fmt.Errorf("missing %s", ColArrival)
	}
	j.Arrival = *r.Arrival
	if j.Arrival < 0 {
		return j, fmt.Errorf("%s = %d, want >= 0", ColArrival, j.Arrival)
	}
	if r.Graph != nil {
		j.Graph = *r.Graph
	}
	j.GraphIndex = -1
	if r.GraphIndex != nil {
		if *r.GraphIndex < 0 || *r.GraphIndex > math.MaxInt {
			return j, fmt.Errorf("%s = %d, want >= 0", ColGraphIndex, *r.GraphIndex)
		}
		j.GraphIndex = int(*r.GraphIndex)
	}
	switch {
	case (r.Nodes == nil) != (r.Edges == nil):
		return j, fmt.Errorf("%s and %s must be given together", ColNodes, ColEdges)
	case r.Nodes != nil:
		j.Nodes, j.Edges = *r.Nodes, *r.Edges
		if j.Nodes <= 0 {
			return j, fmt.Errorf("%s = %d, want > 0", ColNodes, j.Nodes)
		}
	case j.Graph == "" && j.GraphIndex < 0:
		return j, fmt.Errorf("no %s/%s, no %s and no %s: the job has no graph", ColNodes, ColEdges, ColGraph, ColGraphIndex)
	}
	var err error
	if j.F, err = width(ColF, r.F, opt.F); err != nil {
		return j, err
	}
	if j.G, err = width(ColG, r.G, opt.G); err != nil {
		return j, err
	}
	j.Kind = cmp.Or(opt.Kind, GCN)
	if r.Kind != nil {
		if j.Kind, err = ParseLayerKind(*r.Kind); err != nil {
			return j, err
		}
	}
	if j.Nodes == 0 {
		// Size comes later from Resolve: validate the rest with a stand-in.
		probe := j
		probe.Nodes, probe.Edges = 1, 0
		return j, probe.Validate()
	}
	return j, j.Validate()
}

func width(col string, v *int64, def int) (int, error) {
	if v == nil {
		if def == 0 {
			return 0, fmt.Errorf("missing %s (no column and no default)", col)
		}
		return def, nil
	}
	if *v <= 0 || *v > MaxFeatures {
		return 0, fmt.Errorf("%s = %d, want 1..%d", col, *v, MaxFeatures)
	}
	return int(*v), nil
}

// checkIDs reports the first job whose id an earlier job already uses.
// where(i) names row i for error messages.
func checkIDs(jobs []Job, where func(i int) string) error {
	seen := make(map[int64]int, len(jobs))
	for i := range jobs {
		if k, dup := seen[jobs[i].ID]; dup {
			return fmt.Errorf("workload: %s: %s %d already used at %s", where(i), ColJobID, jobs[i].ID, where(k))
		}
		seen[jobs[i].ID] = i
	}
	return nil
}

// sortByArrival sorts jobs by arrival time, ties kept in file order.
func sortByArrival(jobs []Job) []Job {
	slices.SortStableFunc(jobs, func(a, b Job) int { return cmp.Compare(a.Arrival, b.Arrival) })
	return jobs
}

// ParseCSV reads a CSV trace from r; name labels errors (usually the file
// name). The first non-comment line is a header naming columns from the
// Col* constants in any order; unknown or repeated columns are errors, and
// so is a row that breaks the rules of Job.Validate. Lines starting with #
// are comments. An empty cell in an optional column counts as absent.
func ParseCSV(r io.Reader, name string, opt ReadOptions) ([]Job, error) {
	// Every row as wide as the header; a malformed row's csv.ParseError
	// carries its line number.
	tab, err := csvtab.Open(r, csvtab.Options{Comment: '#', Name: "workload: " + name})
	if errors.Is(err, csvtab.ErrEmpty) {
		return nil, fmt.Errorf("workload: %s: empty trace (no header)", name)
	}
	if err != nil {
		return nil, fmt.Errorf("workload: %s: %w", name, err)
	}
	hline := tab.Line
	idx, err := tab.Positions(traceColumns, false) // position of each known column, -1 if absent
	if err != nil {
		return nil, fmt.Errorf("workload: %s:%d: %w", name, hline, err)
	}
	for _, req := range []int{0, 1} {
		if idx[req] < 0 {
			return nil, fmt.Errorf("workload: %s:%d: missing required column %q", name, hline, traceColumns[req])
		}
	}
	var (
		jobs  []Job
		lines []int
	)
	_, err = tab.Each(func(rec []string, line int) error {
		if len(jobs) >= MaxTraceJobs {
			return errTraceJobs(name)
		}
		var row rawRow
		cell := func(col int) (string, bool) { return csvtab.Cell(rec, idx, col) }
		var perr error
		parseInt := func(col int) *int64 {
			s, ok := cell(col)
			if !ok || perr != nil {
				return nil
			}
			v, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				perr = fmt.Errorf("column %s: %q is not an integer", traceColumns[col], s)
				return nil
			}
			return &v
		}
		parseStr := func(col int) *string {
			s, ok := cell(col)
			if !ok {
				return nil
			}
			return &s
		}
		row.JobID = parseInt(0)
		row.Arrival = parseInt(1)
		row.Graph = parseStr(2)
		row.GraphIndex = parseInt(3)
		row.Nodes = parseInt(4)
		row.Edges = parseInt(5)
		row.F = parseInt(6)
		row.G = parseInt(7)
		row.Kind = parseStr(8)
		if perr != nil {
			return fmt.Errorf("workload: %s:%d: %w", name, line, perr)
		}
		j, err := row.job(opt)
		if err != nil {
			return fmt.Errorf("workload: %s:%d: %w", name, line, err)
		}
		jobs = append(jobs, j)
		lines = append(lines, line)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(jobs) == 0 {
		return nil, fmt.Errorf("workload: %s:%d: a header but no jobs", name, hline)
	}
	if err := checkIDs(jobs, func(i int) string { return fmt.Sprintf("%s:%d", name, lines[i]) }); err != nil {
		return nil, err
	}
	return sortByArrival(jobs), nil
}

// MaxTraceJobs bounds a replayed trace, as --jobs bounds a generated
// one: a replay of 10^7 jobs ran about 75 minutes at the defaults, in
// silence (issue 38 item 9).
const MaxTraceJobs = 1_000_000

func errTraceJobs(name string) error {
	return fmt.Errorf("workload: %s: more than %d jobs (the cap of generated traces too): split the trace", name, MaxTraceJobs)
}

// ReadParquet reads a Parquet trace with the columns of ParseCSV (integer
// columns of any integer width, optional or required). Errors name the file
// and the 1-based row.
//
// Rows are decoded in batches and checked as they come, rather than through
// pqio.Read: run-length encoding lets a few bytes declare millions of rows,
// so a malformed file must fail at its first bad row instead of after
// materialising all of them.
func ReadParquet(path string, opt ReadOptions) ([]Job, error) {
	pf, err := pqio.Open(path)
	if err != nil {
		return nil, fmt.Errorf("workload: %w", err)
	}
	defer pf.Close()
	if err := checkParquetColumns(path, pf.Schema()); err != nil {
		return nil, err
	}
	r := parquet.NewGenericReader[rawRow](pf.File)
	defer r.Close()
	var (
		jobs  []Job
		batch = make([]rawRow, 1024)
		seen  = map[int64]int{}
		where = func(i int) string { return fmt.Sprintf("%s: row %d", path, i+1) }
	)
	for {
		k, rerr := r.Read(batch)
		if len(jobs)+k > MaxTraceJobs {
			return nil, errTraceJobs(path)
		}
		for i := range batch[:k] {
			row := len(jobs)
			j, err := batch[i].job(opt)
			if err != nil {
				return nil, fmt.Errorf("workload: %s: %w", where(row), err)
			}
			if first, dup := seen[j.ID]; dup {
				return nil, fmt.Errorf("workload: %s: %s %d already used at %s", where(row), ColJobID, j.ID, where(first))
			}
			seen[j.ID] = row
			jobs = append(jobs, j)
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			return nil, fmt.Errorf("workload: reading %s: %w", path, rerr)
		}
		if k == 0 {
			return nil, fmt.Errorf("workload: reading %s: no progress after row %d", path, len(jobs))
		}
	}
	if len(jobs) == 0 {
		return nil, fmt.Errorf("workload: %s: no jobs", path)
	}
	return sortByArrival(jobs), nil // ids were checked row by row
}

// checkParquetColumns rejects files with unknown or missing required
// columns: the row reader would silently ignore the former and read the
// latter as nulls.
func checkParquetColumns(path string, schema *parquet.Schema) error {
	have := map[string]bool{}
	for _, fld := range schema.Fields() {
		if !slices.Contains(traceColumns, fld.Name()) {
			return fmt.Errorf("workload: %s: unknown column %q (known: %s)", path, fld.Name(), strings.Join(traceColumns, ", "))
		}
		if !fld.Leaf() {
			return fmt.Errorf("workload: %s: column %q is not a plain value", path, fld.Name())
		}
		have[fld.Name()] = true
	}
	for _, req := range []string{ColJobID, ColArrival} {
		if !have[req] {
			return fmt.Errorf("workload: %s: missing required column %q", path, req)
		}
	}
	return nil
}

// traceRow is the row WriteParquet writes: every column, graph_index null
// for -1.
type traceRow struct {
	JobID      int64  `parquet:"job_id"`
	Arrival    int64  `parquet:"arrival_cycle"`
	Graph      string `parquet:"graph"`
	GraphIndex *int64 `parquet:"graph_index,optional"`
	Nodes      int64  `parquet:"nodes"`
	Edges      int64  `parquet:"edges"`
	F          int64  `parquet:"f"`
	G          int64  `parquet:"g"`
	Kind       string `parquet:"kind"`
}

// WriteParquet writes jobs as a Parquet trace (atomically, see pqio.Write)
// with the given key-value metadata. Jobs must have their sizes resolved.
func WriteParquet(path string, jobs []Job, meta map[string]string) error {
	if err := ValidateAll(jobs); err != nil {
		return fmt.Errorf("workload: writing %s: %w", path, err)
	}
	rows := make([]traceRow, len(jobs))
	idx := make([]int64, len(jobs))
	for i, j := range jobs {
		rows[i] = traceRow{JobID: j.ID, Arrival: j.Arrival, Graph: j.Graph, Nodes: j.Nodes, Edges: j.Edges,
			F: int64(j.F), G: int64(j.G), Kind: j.Kind.String()}
		if j.GraphIndex >= 0 {
			idx[i] = int64(j.GraphIndex)
			rows[i].GraphIndex = &idx[i]
		}
	}
	if err := pqio.Write(path, rows, meta); err != nil {
		return fmt.Errorf("workload: %w", err)
	}
	return nil
}

// WriteCSV writes jobs as a CSV trace with every column (graph_index empty
// for -1). Jobs must have their sizes resolved.
func WriteCSV(w io.Writer, jobs []Job) error {
	if err := ValidateAll(jobs); err != nil {
		return fmt.Errorf("workload: %w", err)
	}
	rec := make([]string, len(traceColumns))
	err := csvtab.Write(w, traceColumns, len(jobs), func(i int) []string {
		j := jobs[i]
		rec[0] = strconv.FormatInt(j.ID, 10)
		rec[1] = strconv.FormatInt(j.Arrival, 10)
		rec[2] = j.Graph
		rec[3] = ""
		if j.GraphIndex >= 0 {
			rec[3] = strconv.Itoa(j.GraphIndex)
		}
		rec[4] = strconv.FormatInt(j.Nodes, 10)
		rec[5] = strconv.FormatInt(j.Edges, 10)
		rec[6] = strconv.Itoa(j.F)
		rec[7] = strconv.Itoa(j.G)
		rec[8] = j.Kind.String()
		return rec
	})
	if err != nil {
		return fmt.Errorf("workload: %w", err)
	}
	return nil
}
