package fpgaref

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"

	"gnnsim/accel/fpga"
	"gnnsim/internal/boundedio"
	"gnnsim/internal/csvtab"
	"gnnsim/internal/refset"
	"gnnsim/workload"
)

// FileName is the reference table's name inside a reference directory.
const FileName = "reference.csv"

// maxLayers bounds a row's layer count (FGNAS networks have 1-3).
const maxLayers = 8

// LayerOut is one layer's expected cost.
type LayerOut struct {
	// Known says the row carries the layer's costs (its lk_cycles column
	// is not empty).
	Known                bool
	Cycles, LUT, FF, DSP int64
	OutBits              fpga.Fixed
}

// Row is one reference row: a design on a graph and what their model
// gave for it.
type Row struct {
	Line                            int // line in the file (header = 1)
	DesignID, Source, Tags, Dataset string
	Nodes, Edges                    int64 // Edges: PyG's count (both directions)
	Features, Classes               int
	Design                          fpga.Design
	Cycles, LUT, FF, DSP            int64
	LatencyMS                       float64
	Layers                          []LayerOut
	// Error is their model's failure on the row (empty when it priced it).
	Error string
}

// Reference is a loaded reference set.
type Reference struct {
	Dir  string
	Rows []Row
}

// FindDir returns the reference set's directory (shared/fgnas-reference,
// found as refset.Find finds every reference set); ok is false when it
// has no reference file.
func FindDir() (string, bool) {
	return refset.Find("fgnas-reference", FileName)
}

// Load reads dir/reference.csv.
func Load(dir string) (*Reference, error) {
	name := filepath.Join(dir, FileName)
	f, err := boundedio.Open(name, boundedio.CSV)
	if err != nil {
		return nil, fmt.Errorf("fpgaref: %w", err)
	}
	defer f.Close()
	rows, err := ReadRows(f, name)
	if err != nil {
		return nil, err
	}
	return &Reference{Dir: dir, Rows: rows}, nil
}

// columns is the header of a reference table: column name -> index.
type columns = csvtab.Columns

// needColumns are the columns every reference table has; layer columns are
// looked up as each row's layer count asks.
var needColumns = []string{"dataset", "num_nodes", "num_edges", "in_features", "classes", "layers", "cycles", "LUT", "FF", "DSP"}

// ReadRows reads a reference table from r (name is used in errors).
func ReadRows(r io.Reader, name string) ([]Row, error) {
	rows, err := csvtab.Rows(r, needColumns, func(rec []string, cols columns, line int) (Row, error) {
		row, err := rowOf(cols, rec)
		row.Line = line
		return row, err
	})
	if err != nil {
		return nil, fmt.Errorf("fpgaref: %s: %w", name, err)
	}
	return rows, nil
}

// field is one record's view through the header.
type field struct {
	cols columns
	rec  []string
}

func (f field) str(c string) string {
	i, ok := f.cols[c]
	if !ok || i >= len(f.rec) {
		return ""
	}
	return f.rec[i]
}

func (f field) has(c string) bool { _, ok := f.cols[c]; return ok }

// int reads column c as an integer in [lo, hi]; empty gives def when
// optional, else an error.
func (f field) int(c string, lo, hi int64, optional bool, def int64) (int64, error) {
	if !f.has(c) {
		if optional {
			return def, nil
		}
		return 0, fmt.Errorf("no column %q", c)
	}
	s := f.str(c)
	if s == "" {
		if optional {
			return def, nil
		}
		return 0, fmt.Errorf("column %s: empty", c)
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("column %s: %q is not an integer", c, s)
	}
	if v < lo || v > hi {
		return 0, fmt.Errorf("column %s: %d, want %d..%d", c, v, lo, hi)
	}
	return v, nil
}

func rowOf(cols columns, rec []string) (Row, error) {
	f := field{cols, rec}
	r := Row{DesignID: f.str("design_id"), Source: f.str("source"), Tags: f.str("tags"), Dataset: f.str("dataset"), Error: f.str("error")}
	var err error
	get := func(dst *int64, c string, lo, hi int64) {
		if err == nil {
			*dst, err = f.int(c, lo, hi, false, 0)
		}
	}
	var feats, classes, layers int64
	get(&r.Nodes, "num_nodes", 1, 1<<31)
	get(&r.Edges, "num_edges", 0, 1<<40)
	get(&feats, "in_features", 1, 1<<20)
	get(&classes, "classes", 1, 1<<20)
	get(&layers, "layers", 1, maxLayers)
	if err != nil {
		return r, err
	}
	r.Features, r.Classes = int(feats), int(classes)
	if r.Error != "" {
		// Their model failed on the row: nothing to compare.
		return r, nil
	}
	const big = math.MaxInt64 / 4
	get(&r.Cycles, "cycles", 0, big)
	get(&r.LUT, "LUT", 0, big)
	get(&r.FF, "FF", 0, big)
	get(&r.DSP, "DSP", 0, big)
	if err != nil {
		return r, err
	}
	if s := f.str("latency_ms"); s != "" {
		v, perr := strconv.ParseFloat(s, 64)
		if perr != nil || math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			return r, fmt.Errorf("column latency_ms: %q is not a finite non-negative number", s)
		}
		r.LatencyMS = v
	}
	for k := range int(layers) {
		l, out, err := f.layer(k, k == int(layers)-1, r.Classes)
		if err != nil {
			return r, err
		}
		r.Design.Layers = append(r.Design.Layers, l)
		r.Layers = append(r.Layers, out)
	}
	if err := r.Design.Validate(); err != nil {
		return r, err
	}
	return r, nil
}

// layer reads layer k's genes and expected cost.
func (f field) layer(k int, last bool, classes int) (fpga.LayerDesign, LayerOut, error) {
	p := fmt.Sprintf("l%d_", k)
	var l fpga.LayerDesign
	var out LayerOut
	var err error
	if l.Attn, err = workload.ParseIn(workload.ParseAttention, f.str(p+"attention"), fpga.Attentions); err != nil {
		return l, out, fmt.Errorf("column %sattention: %w", p, err)
	}
	if l.Aggr, err = workload.ParseIn(workload.ParseAggregation, f.str(p+"aggregation"), fpga.Aggregations); err != nil {
		return l, out, fmt.Errorf("column %saggregation: %w", p, err)
	}
	if l.Act, err = workload.ParseIn(workload.ParseActivation, f.str(p+"activation"), fpga.Activations); err != nil {
		return l, out, fmt.Errorf("column %sactivation: %w", p, err)
	}
	ints := func(c string, lo, hi int64, optional bool) int {
		if err != nil {
			return 0
		}
		var v int64
		v, err = f.int(p+c, lo, hi, optional, 0)
		return int(v)
	}
	l.Heads = ints("heads", 1, 64, false)
	if last {
		l.Embed = classes
	} else {
		l.Embed = ints("hidden_features", 1, 1<<20, false)
	}
	l.Bits.A = fpga.Fixed{Int: ints("act_int_bits", 0, 16, true), Frac: ints("act_frac_bits", 0, 16, true)}
	l.Bits.W = fpga.Fixed{Int: ints("weight_int_bits", 0, 16, true), Frac: ints("weight_frac_bits", 0, 16, true)}
	l.T = fpga.Groups{In: ints("in_tile_size", 1, 1024, false), Out: ints("out_tile_size", 1, 1024, false),
		Attn: ints("attn_tile_size", 1, 1024, false), Aggr: ints("aggr_tile_size", 1, 1024, false), Act: ints("act_tile_size", 1, 1024, false)}
	const big = math.MaxInt64 / 4
	out.Known = f.str(p+"cycles") != ""
	out.Cycles = int64(ints("cycles", 0, big, true))
	out.LUT = int64(ints("LUT", 0, big, true))
	out.FF = int64(ints("FF", 0, big, true))
	out.DSP = int64(ints("DSP", 0, big, true))
	out.OutBits = fpga.Fixed{Int: ints("out_int_bits", 0, 64, true), Frac: ints("out_frac_bits", 0, 64, true)}
	return l, out, err
}
