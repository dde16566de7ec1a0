package soc

import (
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gnnsim/hw"
	"gnnsim/internal/boundedio"
	"gnnsim/internal/pqio"
	"gnnsim/workload"

	"gnnsim/internal/csvtab"
)

// TableRow is one row of a measured table: what running one kind of block
// on one unit at one operating point took on a real board, as MaGNAS's
// lookup tables hold. Columns (CSV header names, Parquet column names):
//
//	block       block kind: stem, grapher, ffn, downsample, cls, layer (required)
//	op          the block's graph op: mrconv, edgeconv, gin, sage, ...
//	nodes       nodes (patches) the block runs on
//	channels    the block's input width
//	hidden      its widest layer output (2C for a Grapher, the hidden width of an FFN)
//	k           neighbours of its graph op
//	layers      number of layers (tells a Grapher with fc1 from one without)
//	unit        the unit's name (required)
//	freq_mhz    the unit's clock (required)
//	emc_mhz     the memory clock
//	latency_ms  measured latency (required, >= 0)
//	energy_mj   measured energy (required, >= 0)
//
// An optional key column left out, or a cell left empty, matches any
// value (emc_mhz included); when several rows match a block the one giving
// the most of these columns wins, and two such rows are an error.
type TableRow struct {
	Block     *string  `parquet:"block,optional"`
	Op        *string  `parquet:"op,optional"`
	Nodes     *int64   `parquet:"nodes,optional"`
	Channels  *int64   `parquet:"channels,optional"`
	Hidden    *int64   `parquet:"hidden,optional"`
	K         *int64   `parquet:"k,optional"`
	Layers    *int64   `parquet:"layers,optional"`
	Unit      *string  `parquet:"unit,optional"`
	FreqMHz   *float64 `parquet:"freq_mhz,optional"`
	EMCMHz    *float64 `parquet:"emc_mhz,optional"`
	LatencyMS *float64 `parquet:"latency_ms,optional"`
	EnergyMJ  *float64 `parquet:"energy_mj,optional"`
}

var tableColumns = []string{"block", "op", "nodes", "channels", "hidden", "k", "layers", "unit", "freq_mhz", "emc_mhz", "latency_ms", "energy_mj"}

// Signature is what identifies a block in a measured table.
type Signature struct {
	Block    workload.BlockKind
	Op       workload.LayerKind // 0: no graph op
	Nodes    int64
	Channels int64
	Hidden   int64
	K        int64
	Layers   int64
}

// SignatureOf returns b's signature.
func SignatureOf(b workload.Block) Signature {
	s := Signature{Block: b.Kind, Nodes: b.In.Nodes, Layers: int64(len(b.Layers))}
	for i, l := range b.Layers {
		if i == 0 {
			s.Channels = int64(l.F)
		}
		s.Hidden = max(s.Hidden, int64(l.OutWidth()))
		if s.Op == 0 && l.Kind.NeighbourOp() && l.Kind != workload.KNN {
			s.Op, s.K = l.Kind, int64(l.K)
		}
	}
	return s
}

// entry is a validated row.
type entry struct {
	key   Signature
	given [6]bool // op, nodes, channels, hidden, k, layers present
	unit  string
	mhz   float64
	emc   float64 // 0: any
	ps    int64
	pj    float64
	line  int
}

func (e *entry) specificity() int {
	n := 0
	for _, g := range e.given {
		if g {
			n++
		}
	}
	if e.emc != 0 {
		n++
	}
	return n
}

func (e *entry) matches(s Signature) bool {
	k := e.key
	return k.Block == s.Block &&
		(!e.given[0] || k.Op == s.Op) && (!e.given[1] || k.Nodes == s.Nodes) &&
		(!e.given[2] || k.Channels == s.Channels) && (!e.given[3] || k.Hidden == s.Hidden) &&
		(!e.given[4] || k.K == s.K) && (!e.given[5] || k.Layers == s.Layers)
}

func parseBlockKind(s string) (workload.BlockKind, error) {
	for k := workload.Stem; k <= workload.GNNLayer; k++ {
		if strings.EqualFold(s, k.String()) {
			return k, nil
		}
	}
	return 0, fmt.Errorf("unknown block kind %q (want stem, grapher, ffn, downsample, cls or layer)", s)
}

// entry validates r.
func (r *TableRow) entry(line int) (entry, error) {
	e := entry{line: line}
	var err error
	switch {
	case r.Block == nil:
		return e, errors.New("block is required")
	case r.Unit == nil || strings.TrimSpace(*r.Unit) == "":
		return e, errors.New("unit is required")
	case r.FreqMHz == nil:
		return e, errors.New("freq_mhz is required")
	case r.LatencyMS == nil || r.EnergyMJ == nil:
		return e, errors.New("latency_ms and energy_mj are required")
	}
	if e.key.Block, err = parseBlockKind(strings.TrimSpace(*r.Block)); err != nil {
		return e, err
	}
	e.unit = strings.TrimSpace(*r.Unit)
	if e.mhz = *r.FreqMHz; !finitePos(e.mhz) || e.mhz > 1e6 {
		return e, fmt.Errorf("freq_mhz = %v, want 0 < f <= 1e6", e.mhz)
	}
	if r.EMCMHz != nil {
		if e.emc = *r.EMCMHz; !finitePos(e.emc) || e.emc > 1e6 {
			return e, fmt.Errorf("emc_mhz = %v, want 0 < f <= 1e6", e.emc)
		}
	}
	lat, en := *r.LatencyMS, *r.EnergyMJ
	if !finitePos(lat) || lat > 1e9 {
		// A measured block takes time: 0 would give an infinite throughput.
		return e, fmt.Errorf("latency_ms = %v, want above 0, at most 1e9", lat)
	}
	if !finiteNonNeg(en) || en > 1e12 {
		return e, fmt.Errorf("energy_mj = %v, want 0..1e12", en)
	}
	e.ps, e.pj = int64(math.Round(lat*1e9)), en*1e9
	if r.Op != nil && strings.TrimSpace(*r.Op) != "" {
		if e.key.Op, err = workload.ParseLayerKind(strings.TrimSpace(*r.Op)); err != nil {
			return e, fmt.Errorf("op: %w", err)
		}
		e.given[0] = true
	}
	for i, f := range []struct {
		v   *int64
		dst *int64
		nm  string
	}{{r.Nodes, &e.key.Nodes, "nodes"}, {r.Channels, &e.key.Channels, "channels"}, {r.Hidden, &e.key.Hidden, "hidden"}, {r.K, &e.key.K, "k"}, {r.Layers, &e.key.Layers, "layers"}} {
		if f.v == nil {
			continue
		}
		if *f.v < 0 || *f.v > workload.MaxNodes {
			return e, fmt.Errorf("%s = %d, want 0..%d", f.nm, *f.v, int64(workload.MaxNodes))
		}
		*f.dst, e.given[i+1] = *f.v, true
	}
	return e, nil
}

// ParseTableCSV reads a measured table in CSV (see TableRow for the
// columns; '#' starts a comment line). name labels errors.
func ParseTableCSV(r io.Reader, name string) ([]TableRow, error) {
	tab, err := csvtab.Open(r, csvtab.Options{Comment: '#', Name: "soc: " + name})
	if errors.Is(err, csvtab.ErrEmpty) {
		return nil, fmt.Errorf("soc: %s: empty table (no header)", name)
	}
	if err != nil {
		return nil, fmt.Errorf("soc: %s: %w", name, err)
	}
	idx, err := tab.Positions(tableColumns, true)
	if err != nil {
		return nil, fmt.Errorf("soc: %s: %w", name, err)
	}
	var rows []TableRow
	_, err = tab.Each(func(rec []string, line int) error {
		cell := func(col int) (string, bool) { return csvtab.Cell(rec, idx, col) }
		var row TableRow
		var perr error
		str := func(col int) *string {
			if s, ok := cell(col); ok {
				return &s
			}
			return nil
		}
		num := func(col int) *int64 {
			s, ok := cell(col)
			if !ok {
				return nil
			}
			v, err := strconv.ParseInt(s, 10, 64)
			if err != nil && perr == nil {
				perr = fmt.Errorf("%s: %q is not an integer", tableColumns[col], s)
			}
			return &v
		}
		flt := func(col int) *float64 {
			s, ok := cell(col)
			if !ok {
				return nil
			}
			v, err := strconv.ParseFloat(s, 64)
			if err != nil && perr == nil {
				perr = fmt.Errorf("%s: %q is not a number", tableColumns[col], s)
			}
			return &v
		}
		row.Block, row.Op, row.Nodes, row.Channels, row.Hidden, row.K, row.Layers = str(0), str(1), num(2), num(3), num(4), num(5), num(6)
		row.Unit, row.FreqMHz, row.EMCMHz, row.LatencyMS, row.EnergyMJ = str(7), flt(8), flt(9), flt(10), flt(11)
		if perr == nil {
			_, perr = row.entry(line)
		}
		if perr != nil {
			return fmt.Errorf("soc: %s:%d: %w", name, line, perr)
		}
		rows = append(rows, row)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("soc: %s: table has no rows", name)
	}
	return rows, nil
}

// ReadTable reads a measured table from a .csv or .parquet file.
func ReadTable(path string) ([]TableRow, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv":
		f, err := boundedio.Open(path, boundedio.Table)
		if err != nil {
			return nil, fmt.Errorf("soc: %w", err)
		}
		defer f.Close()
		return ParseTableCSV(f, path)
	case ".parquet", ".pq":
		rows, _, err := pqio.Read[TableRow](path)
		if err != nil {
			return nil, fmt.Errorf("soc: %w", err)
		}
		for i := range rows {
			if _, err := rows[i].entry(i + 1); err != nil {
				return nil, fmt.Errorf("soc: %s: row %d: %w", path, i+1, err)
			}
		}
		if len(rows) == 0 {
			return nil, fmt.Errorf("soc: %s: table has no rows", path)
		}
		return rows, nil
	}
	return nil, fmt.Errorf("soc: %s: unknown table format (want .csv, .parquet or .pq)", path)
}

// WriteTable writes rows as Parquet (atomically).
func WriteTable(path string, rows []TableRow) error {
	return pqio.Write(path, rows, map[string]string{"gnnsim.soc.table": "measured"})
}

// Measured is a unit priced by a measured table instead of a model: Run
// looks up the work's block signature at the unit's operating point (and
// the memory clock it is bound to). Its operating points are the clocks
// the table gives for it.
type Measured struct {
	name    string
	entries []entry
	ops     []hw.OperatingPoint
	pt      int
	emc     float64 // memory clock bound to; 0: unbound (rows at any clock)
}

// NewMeasured returns the unit called name priced by the rows of that
// unit. Two rows with the same key are an error.
func NewMeasured(name string, rows []TableRow) (*Measured, error) {
	m := &Measured{name: name}
	var mhz []float64
	for i := range rows {
		e, err := rows[i].entry(i + 1)
		if err != nil {
			return nil, fmt.Errorf("soc: table row %d: %w", i+1, err)
		}
		if e.unit != name {
			continue
		}
		for _, o := range m.entries {
			if o.key == e.key && o.given == e.given && o.mhz == e.mhz && o.emc == e.emc {
				return nil, fmt.Errorf("soc: table rows %d and %d: the same block, unit and clocks twice", o.line, e.line)
			}
		}
		m.entries = append(m.entries, e)
		if !slices.ContainsFunc(mhz, func(f float64) bool { return math.Abs(f-e.mhz) <= pointTolMHz }) {
			mhz = append(mhz, e.mhz)
		}
	}
	if len(m.entries) == 0 {
		return nil, fmt.Errorf("soc: table has no rows for unit %q", name)
	}
	slices.Sort(mhz)
	for _, f := range mhz {
		m.ops = append(m.ops, hw.OperatingPoint{FreqHz: f * 1e6})
	}
	m.pt = len(m.ops) - 1
	return m, nil
}

// Name returns the unit's name.
func (m *Measured) Name() string { return m.name }

// OperatingPoints returns the clocks of the table, slowest first.
func (m *Measured) OperatingPoints() []hw.OperatingPoint { return slices.Clone(m.ops) }

// At returns the unit at operating point p.
func (m *Measured) At(p hw.OperatingPoint) (hw.Unit, error) {
	i, err := pointIndex(m.name, m.ops, p)
	if err != nil {
		return nil, err
	}
	v := *m
	v.pt = i
	return &v, nil
}

// Needs: a measured unit needs no other unit.
func (m *Measured) Needs() []string { return nil }

// Bind returns the unit at p, using the rows measured at env's memory
// clock (or at any).
func (m *Measured) Bind(p hw.OperatingPoint, env Env) (hw.Unit, error) {
	u, err := m.At(p)
	if err != nil {
		return nil, err
	}
	u.(*Measured).emc = env.MemoryHz / 1e6
	return u, nil
}

// Run returns the measured cost of w's block.
func (m *Measured) Run(w hw.Work) (hw.Cost, error) {
	if w.Empty() {
		return hw.Cost{}, nil
	}
	ks, err := w.Kernels()
	if err != nil {
		return hw.Cost{}, fmt.Errorf("soc: %s: %w", m.name, err)
	}
	macs, _, _ := workload.Totals(ks)
	sig := SignatureOf(w.Block)
	f := m.ops[m.pt].FreqHz / 1e6
	var best *entry
	for i := range m.entries {
		e := &m.entries[i]
		if math.Abs(e.mhz-f) > pointTolMHz || (e.emc != 0 && m.emc != 0 && math.Abs(e.emc-m.emc) > pointTolMHz) || !e.matches(sig) {
			continue
		}
		switch {
		case best == nil || e.specificity() > best.specificity():
			best = e
		case e.specificity() == best.specificity():
			return hw.Cost{}, fmt.Errorf("soc: %s: table rows %d and %d both match block %s (%+v)", m.name, best.line, e.line, w.Block.Name, sig)
		}
	}
	if best == nil {
		return hw.Cost{}, fmt.Errorf("soc: %s: no table row for block %s (%s, op %s, nodes %d, channels %d, hidden %d, k %d, layers %d) at %v MHz",
			m.name, w.Block.Name, sig.Block, opName(sig.Op), sig.Nodes, sig.Channels, sig.Hidden, sig.K, sig.Layers, f)
	}
	return hw.Cost{TimePS: best.ps, Cycles: int64(math.Round(float64(best.ps) * f * 1e-6)), EnergyPJ: best.pj, MACs: macs}, nil
}

func opName(k workload.LayerKind) string {
	if k == 0 {
		return "none"
	}
	return k.String()
}

// UseTable replaces every unit the rows name with a Measured unit (adding
// the ones the SoC lacks).
func (s *SoC) UseTable(rows []TableRow) error {
	var names []string
	for i := range rows {
		e, err := rows[i].entry(i + 1)
		if err != nil {
			return fmt.Errorf("soc: table row %d: %w", i+1, err)
		}
		if !slices.Contains(names, e.unit) {
			names = append(names, e.unit)
		}
	}
	for _, n := range names {
		m, err := NewMeasured(n, rows)
		if err != nil {
			return err
		}
		if i := slices.Index(s.names, n); i >= 0 {
			s.units[i], s.npts[i] = m, len(m.OperatingPoints())
		} else if err := s.Add(m); err != nil {
			return err
		}
	}
	return nil
}
