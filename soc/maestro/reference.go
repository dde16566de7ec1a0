package maestro

import (
	"fmt"
	"gnnsim/internal/csvtab"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gnnsim/internal/boundedio"
	"gnnsim/internal/refset"
)

// RefRow is one row of the MAESTRO reference set
// (../shared/maestro-reference/maestro_reference.csv): a layer, a dataflow,
// a hardware point and what MAESTRO computed for them.
type RefRow struct {
	Line     int // CSV line, for messages
	Family   string
	Model    string
	LayerID  string
	Layout   string // hw, flat or gemm
	Layer    Layer
	Dataflow string
	PEs      int
	NoCBW    int
	Status   string // "ok" or MAESTRO's error
	MACsOK   bool   // MAESTRO's MAC count equals the layer's

	MACs              int64
	Cycles            int64
	L2Reads, L2Writes Counts
	L1Reads, L1Writes Counts
	L1Words, L2Words  Counts
	EnergyMACs        float64
	AvgActivePEs      float64
	ExpectedMACs      int64
}

// OK reports a row MAESTRO analysed and counted the MACs of correctly:
// the rows a re-implementation is scored on.
func (r *RefRow) OK() bool { return r.Status == "ok" && r.MACsOK }

// Hardware is the row's hardware point.
func (r *RefRow) Hardware() Hardware { return ReferenceHardware(r.PEs, r.NoCBW) }

func (r *RefRow) String() string {
	return fmt.Sprintf("%s/%s %s %s pes=%d bw=%d", r.Model, r.LayerID, r.Layout, r.Dataflow, r.PEs, r.NoCBW)
}

// Reference is the MAESTRO reference set: its rows and the dataflows
// they name.
type Reference struct {
	Dir       string
	Rows      []RefRow
	Dataflows map[string]Dataflow
}

// ReferenceFile is the CSV of a reference directory.
const ReferenceFile = "maestro_reference.csv"

// FindReferenceDir returns the reference set's directory:
// $GNNSIM_SHARED/maestro-reference when GNNSIM_SHARED is set, else the
// first shared/maestro-reference found walking up from the working
// directory. ok is false when there is none.
func FindReferenceDir() (dir string, ok bool) {
	return refset.Find("maestro-reference", ReferenceFile)
}

// LoadReference reads dir/maestro_reference.csv and the dataflows
// dir/dataflows/<name>.m its rows name.
func LoadReference(dir string) (*Reference, error) {
	f, err := boundedio.Open(filepath.Join(dir, ReferenceFile), boundedio.CSV)
	if err != nil {
		return nil, fmt.Errorf("maestro: %w", err)
	}
	defer f.Close()
	rows, err := ReadReferenceRows(f, filepath.Join(dir, ReferenceFile))
	if err != nil {
		return nil, err
	}
	ref := &Reference{Dir: dir, Rows: rows, Dataflows: map[string]Dataflow{}}
	for i := range rows {
		name := rows[i].Dataflow
		if _, ok := ref.Dataflows[name]; ok {
			continue
		}
		df, err := ParseFile(filepath.Join(dir, "dataflows", name+".m"))
		if err != nil {
			return nil, err
		}
		ref.Dataflows[name] = df
	}
	return ref, nil
}

// DataflowNames returns the dataflows in first-seen row order.
func (r *Reference) DataflowNames() []string {
	var names []string
	for i := range r.Rows {
		if n := r.Rows[i].Dataflow; !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	return names
}

// ReadReferenceRows parses the reference CSV; name is used in errors.
func ReadReferenceRows(r io.Reader, name string) ([]RefRow, error) {
	rows, err := csvtab.Rows(r, refColumns, func(rec []string, col csvtab.Columns, line int) (RefRow, error) {
		return parseRefRow(rec, col, line)
	})
	if err != nil {
		return nil, fmt.Errorf("maestro: %s: %w", name, err)
	}
	return rows, nil
}

// refColumns are the reference CSV's columns that ReadReferenceRows reads.
var refColumns = []string{"family", "model", "layer_id", "layer_type", "layout", "dims", "stride", "dataflow",
	"num_pes", "noc_bw", "status", "macs_ok", "expected_macs", "maestro_macs", "runtime_cycles",
	"l2_rd_in", "l2_wr_in", "l2_rd_w", "l2_wr_w", "l2_rd_out", "l2_wr_out",
	"l1_rd_in", "l1_wr_in", "l1_rd_w", "l1_wr_w", "l1_rd_out", "l1_wr_out",
	"l1_size_in", "l1_size_w", "l1_size_out", "l2_size_in", "l2_size_w", "l2_size_out",
	"energy_total_macunits", "avg_utilized_pes"}

func parseRefRow(rec []string, col map[string]int, line int) (RefRow, error) {
	get := func(c string) string {
		if i := col[c]; i < len(rec) {
			return strings.TrimSpace(rec[i])
		}
		return ""
	}
	row := RefRow{Line: line, Family: get("family"), Model: get("model"), LayerID: get("layer_id"),
		Layout: get("layout"), Dataflow: get("dataflow"), Status: get("status")}
	if row.Dataflow == "" || strings.ContainsAny(row.Dataflow, `/\.`) {
		return row, fmt.Errorf("bad dataflow name %q", row.Dataflow)
	}
	var err error
	intOf := func(c string) int64 {
		if err != nil {
			return 0
		}
		s := get(c)
		if s == "" && row.Status != "ok" {
			return 0
		}
		v, e := strconv.ParseFloat(s, 64)
		if e != nil || !(v >= 0 && v <= 1e18) { // NaN fails too
			err = fmt.Errorf("column %s: %q is not a non-negative number", c, s)
			return 0
		}
		return int64(v)
	}
	floatOf := func(c string) float64 {
		if err != nil {
			return 0
		}
		s := get(c)
		if s == "" && row.Status != "ok" {
			return 0
		}
		v, e := strconv.ParseFloat(s, 64)
		if e != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			err = fmt.Errorf("column %s: %q is not a finite number", c, s)
		}
		return v
	}
	row.PEs, row.NoCBW = int(intOf("num_pes")), int(intOf("noc_bw"))
	row.MACsOK = get("macs_ok") == "1"
	row.ExpectedMACs = intOf("expected_macs")
	row.MACs = intOf("maestro_macs")
	row.Cycles = intOf("runtime_cycles")
	row.L2Reads = Counts{intOf("l2_rd_in"), intOf("l2_rd_w"), intOf("l2_rd_out")}
	row.L2Writes = Counts{intOf("l2_wr_in"), intOf("l2_wr_w"), intOf("l2_wr_out")}
	row.L1Reads = Counts{intOf("l1_rd_in"), intOf("l1_rd_w"), intOf("l1_rd_out")}
	row.L1Writes = Counts{intOf("l1_wr_in"), intOf("l1_wr_w"), intOf("l1_wr_out")}
	row.L1Words = Counts{intOf("l1_size_in"), intOf("l1_size_w"), intOf("l1_size_out")}
	row.L2Words = Counts{intOf("l2_size_in"), intOf("l2_size_w"), intOf("l2_size_out")}
	row.EnergyMACs = floatOf("energy_total_macunits")
	row.AvgActivePEs = floatOf("avg_utilized_pes")
	if err != nil {
		return row, err
	}
	row.Layer, err = parseRefLayer(get("layer_type"), get("dims"), get("stride"))
	return row, err
}

// parseRefLayer reads a layer from the reference's layer_type, dims
// ("K=192 C=192 R=1 S=1 Y=14 X=14" or "K=196 M=196 N=192") and stride.
func parseRefLayer(typ, dims, stride string) (Layer, error) {
	t, err := ParseLayerType(typ)
	if err != nil {
		return Layer{}, err
	}
	l := Layer{Type: t}
	for _, f := range strings.Fields(dims) {
		name, val, ok := strings.Cut(f, "=")
		v, err := strconv.Atoi(val)
		if !ok || err != nil || v <= 0 {
			return l, fmt.Errorf("dims: bad field %q", f)
		}
		var p *int
		switch name {
		case "K":
			p = &l.K
		case "C":
			p = &l.C
		case "R":
			p = &l.R
		case "S":
			p = &l.S
		case "Y":
			p = &l.Y
		case "X":
			p = &l.X
		case "N":
			p = &l.N
		case "M":
			p = &l.M
		default:
			return l, fmt.Errorf("dims: unknown dimension %q", name)
		}
		*p = v
	}
	if stride != "" {
		s, err := strconv.Atoi(stride)
		if err != nil || s < 1 {
			return l, fmt.Errorf("stride %q is not a positive integer", stride)
		}
		if t != GEMM {
			l.Stride = s
		}
	}
	return l, l.Validate()
}
