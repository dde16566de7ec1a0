package bench

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"gnnsim/graphs"
	"gnnsim/hw"
	"gnnsim/internal/pqio"
	"gnnsim/workload"
)

// This file is the hook through which a kind of hardware is swept. The
// runner owns the graphs, chunks, shards, resumption and merging; a
// UnitKind owns what one graph becomes: its rows of the runs table. The
// built-in kinds are one table (kinds, in kinds.go); a program or test
// adds its own with RegisterUnit, and every kind is swept with the same
// sharding, resumption and byte-identical merging. UnitSweep makes a kind
// of any hw.Unit.

// UnitKind is a kind of hardware a sweep can run, named by the spec's
// unit: key.
type UnitKind struct {
	Name string
	// LayerKinds are the layer kinds the spec's layers: key may name for
	// this kind; empty means any.
	LayerKinds []workload.LayerKind
	// Models reports whether the kind sweeps whole models (the spec's
	// model: key). The kind's Evaluator reads Spec.Model.
	Models bool
	// Points, when set, makes the kind sweep a design space instead of
	// graphs: it checks the kind's keys of spec s and returns the number
	// of design points. Such a spec has no graphs (nor sizes, layers,
	// hardware); the runner chunks, shards and resumes the points as it
	// does graphs (chunk_points per part file), calls Evaluate with
	// Case.ID the point index and no graph, and writes no graphs table.
	Points func(s *Spec) (int, error)
	// Table returns an empty runs table for spec s. Its row schema may
	// depend on the spec but never on files: merge builds it from the
	// recorded spec alone.
	Table func(s *Spec) Table
	// Evaluator resolves the spec's keys the kind reads (hardware files,
	// configurations, layers, model) and returns what fills a table with
	// the rows of each graph. Its errors should be *SpecError values
	// naming the key.
	Evaluator func(s *Spec) (Evaluator, error)
	// Command, when set, is the kind's evaluation command ('gnnsim KIND
	// eval', 'gnnsim eval --unit KIND'; command.go).
	Command *Command
	// Validate, when set, scores the kind's model against its reference
	// set ('gnnsim KIND validate'; validatecmd.go). Its New's UnitFlags
	// register nothing.
	Validate *Command
	// Spec, when set, are the kind's spec files ('gnnsim KIND spec').
	Spec *SpecFiles
	// Extras are further commands of the kind's group, each named by the
	// first word of its Use ('gnnsim soc units').
	Extras []*Command
	// Short and Long are the help of the kind's command group ('gnnsim
	// KIND', which cmd/gnnsim makes of a kind with a Command).
	Short, Long string
}

// Evaluator turns one graph of a sweep into rows of the runs table.
// Chunks are evaluated in parallel, each into its own table, so Evaluate
// must be safe for concurrent use on different tables.
type Evaluator interface {
	// Evaluate appends the rows of c to t, a table of the evaluator's kind.
	Evaluate(t Table, c Case) error
}

// Case is one graph of a sweep as an evaluator sees it, or one design
// point of a kind that sweeps points (then only ID is set).
type Case struct {
	ID      int // graph id: the graph's position in the sweep (or the point's)
	Graph   *graphs.Graph
	Dataset string   // data set label of the runs table
	Sizes   [][2]int // the (F, G) pairs the spec gives the graph
}

// Table holds runs-table rows of one schema: a chunk's (a part file) or
// the whole sweep's. Parts are read back and appended in chunk order.
type Table interface {
	Len() int
	// WriteFile writes the rows as one Parquet file (atomically).
	WriteFile(path string, meta map[string]string) error
	// ReadFile appends the rows of a file written by WriteFile.
	ReadFile(path string) error
	// Concat writes the rows of the part files (written by WriteFile), in
	// order, as one file at path (atomically), holding one part's rows at
	// a time: the final table of a sweep of any size in bounded memory.
	// The file equals WriteFile's of all the rows, byte for byte.
	Concat(path string, meta map[string]string, parts []string) error
}

// RowTable is the Table of rows of type R, a struct with parquet tags.
type RowTable[R any] struct {
	Rows []R
}

// Len returns the number of rows.
func (t *RowTable[R]) Len() int { return len(t.Rows) }

// WriteFile writes the rows to path.
func (t *RowTable[R]) WriteFile(path string, meta map[string]string) error {
	if err := pqio.Write(path, t.Rows, meta); err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	return nil
}

// ReadFile appends the rows of path.
func (t *RowTable[R]) ReadFile(path string) error {
	rows, _, err := pqio.Read[R](path)
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	t.Rows = append(t.Rows, rows...)
	return nil
}

// Grow makes room for n more rows: assembling a large table from its
// parts then copies each row once.
func (t *RowTable[R]) Grow(n int) { t.Rows = slices.Grow(t.Rows, n) }

// Concat writes the rows of parts as one file at path (Table.Concat).
func (t *RowTable[R]) Concat(path string, meta map[string]string, parts []string) error {
	return concatParts(path, meta, parts, func(p string) ([]R, error) {
		rows, _, err := pqio.Read[R](p)
		return rows, err
	})
}

// concatParts streams the rows read from each part into one file at path.
// A part that cannot be read fails the write (nothing is written at path)
// naming the part.
func concatParts[R any](path string, meta map[string]string, parts []string, read func(string) ([]R, error)) error {
	var partErr error
	err := pqio.WriteStream(path, meta, func(w *pqio.Writer[R]) error {
		for _, p := range parts {
			rows, err := read(p)
			if err != nil {
				partErr = damagedPart(p, err)
				return partErr
			}
			if err := w.Write(rows); err != nil {
				return err
			}
		}
		return nil
	})
	if partErr != nil {
		return partErr
	}
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	return nil
}

func (t *RowTable[R]) rowTable() *RowTable[R] { return t }

// appendRows appends the rows f produces to t, which must hold rows of
// type R (a *RowTable[R], or a type embedding one).
func appendRows[R any](t Table, f func(dst []R) ([]R, error)) error {
	h, ok := t.(interface{ rowTable() *RowTable[R] })
	if !ok {
		var r R
		return fmt.Errorf("bench: table %T does not hold rows of type %T", t, r)
	}
	rt := h.rowTable()
	var err error
	rt.Rows, err = f(rt.Rows)
	return err
}

// RowEvaluator returns the Evaluator that appends what f returns for each
// graph to a *RowTable[R] (or a table embedding one).
func RowEvaluator[R any](f func(dst []R, c Case) ([]R, error)) Evaluator {
	return rowEvaluator[R](f)
}

type rowEvaluator[R any] func([]R, Case) ([]R, error)

func (f rowEvaluator[R]) Evaluate(t Table, c Case) error {
	return appendRows(t, func(dst []R) ([]R, error) { return f(dst, c) })
}

var (
	unitsMu sync.RWMutex
	units   = slices.Clone(kinds)
)

// RegisterUnit adds a unit kind that specs can name. Call it from an init
// function or main, before specs are parsed. Names are unique.
func RegisterUnit(k UnitKind) error {
	if k.Name == "" || k.Table == nil || k.Evaluator == nil {
		return errors.New("bench: a unit kind needs a name, a Table and an Evaluator")
	}
	unitsMu.Lock()
	defer unitsMu.Unlock()
	if slices.ContainsFunc(units, func(u UnitKind) bool { return u.Name == k.Name }) {
		return fmt.Errorf("bench: unit kind %q is already registered", k.Name)
	}
	units = append(units, k)
	return nil
}

// UnitNames returns the names of the registered unit kinds, the built-in
// omega first.
func UnitNames() []string {
	unitsMu.RLock()
	defer unitsMu.RUnlock()
	names := make([]string, len(units))
	for i, u := range units {
		names[i] = u.Name
	}
	return names
}

// unitKind returns the kind named name; "" is omega.
func unitKind(name string) (UnitKind, bool) {
	if name == "" {
		name = omegaUnit
	}
	unitsMu.RLock()
	defer unitsMu.RUnlock()
	for _, u := range units {
		if u.Name == name {
			return u, true
		}
	}
	return UnitKind{}, false
}

// pointKinds names the registered kinds that sweep design points.
func pointKinds() []string {
	unitsMu.RLock()
	defer unitsMu.RUnlock()
	var out []string
	for _, u := range units {
		if u.Points != nil {
			out = append(out, u.Name)
		}
	}
	return out
}

// modelsKinds names the registered kinds that sweep whole models.
func modelsKinds() []string {
	unitsMu.RLock()
	defer unitsMu.RUnlock()
	var out []string
	for _, u := range units {
		if u.Models {
			out = append(out, u.Name)
		}
	}
	return out
}

// CostRow is one row of a UnitSweep's runs table: one graph, layer kind,
// feature sizes and unit, with the hw.Cost of running the layer there.
type CostRow struct {
	GraphID   int64   `parquet:"graph_id"`
	GraphName string  `parquet:"graph_name"`
	Dataset   string  `parquet:"dataset"`
	Layer     string  `parquet:"layer"`
	F         int64   `parquet:"f"`
	G         int64   `parquet:"g"`
	Unit      string  `parquet:"unit"`
	TimePS    int64   `parquet:"time_ps"`
	Cycles    int64   `parquet:"cycles"`
	EnergyPJ  float64 `parquet:"energy_pj"`
	DRAMBytes int64   `parquet:"dram_bytes"`
	MACs      int64   `parquet:"macs"`
}

// UnitSweep returns the unit kind name that runs every layer of a sweep
// (the spec's layers, each graph and size) on each of the hw.Units that
// units builds from the spec, one CostRow per run, in graph, layer, size,
// unit order. A unit's Run uses its default mapping; a kind whose mapping
// space the sweep should enumerate (as omega's configurations) writes its
// own Evaluator.
func UnitSweep(name string, units func(s *Spec) ([]hw.Unit, error)) UnitKind {
	return UnitKind{
		Name:  name,
		Table: func(*Spec) Table { return &RowTable[CostRow]{} },
		Evaluator: func(s *Spec) (Evaluator, error) {
			if units == nil {
				return nil, specErr("unit", "unit kind %s has no units function", name)
			}
			us, err := units(s)
			if err != nil {
				return nil, err
			}
			if len(us) == 0 {
				return nil, specErr("unit", "unit kind %s built no units", name)
			}
			layers := s.LayerKinds()
			return RowEvaluator(func(dst []CostRow, c Case) ([]CostRow, error) {
				for _, kind := range layers {
					for _, fg := range c.Sizes {
						w := hw.LayerWork(c.Graph, workload.Layer{Kind: kind, F: fg[0], G: fg[1]})
						for _, u := range us {
							cost, err := u.Run(w)
							if err != nil {
								return dst, fmt.Errorf("bench: graph %d (%s) %s F=%d G=%d on %s: %w", c.ID, c.Graph.Name, kind, fg[0], fg[1], u.Name(), err)
							}
							dst = append(dst, CostRow{GraphID: int64(c.ID), GraphName: c.Graph.Name, Dataset: c.Dataset,
								Layer: kind.String(), F: int64(fg[0]), G: int64(fg[1]), Unit: u.Name(),
								TimePS: cost.TimePS, Cycles: cost.Cycles, EnergyPJ: cost.EnergyPJ, DRAMBytes: cost.DRAMBytes, MACs: cost.MACs})
						}
					}
				}
				return dst, nil
			}), nil
		},
	}
}

// checkUnitKeys checks the spec's unit:, layers: and model: keys against
// the registered kinds, normalising layer names.
func (s *Spec) checkUnitKeys() error {
	if s.Unit == omegaUnit {
		s.Unit = "" // the default: a spec that names it hashes as one that does not
	}
	k, ok := unitKind(s.Unit)
	if !ok {
		return specErr("unit", "unknown unit kind %q (registered: %s)", s.Unit, strings.Join(UnitNames(), ", "))
	}
	if s.Model != "" {
		if !k.Models {
			have := "no registered unit kind sweeps whole models yet"
			if m := modelsKinds(); len(m) > 0 {
				have = "unit kinds that do: " + strings.Join(m, ", ")
			}
			return specErr("model", "unit %s runs single layers, not models (name them with layers:); %s. Model sweeps come with the units that run them (SoC, FPGA, G-CoS), registered through bench.RegisterUnit", k.Name, have)
		}
		if len(s.Layers) > 0 {
			return specErr("layers", "give either model or layers, not both")
		}
	}
	var seen []workload.LayerKind
	for i, name := range s.Layers {
		key := fmt.Sprintf("layers[%d]", i)
		kind, err := workload.ParseLayerKind(name)
		if err != nil {
			return specErr(key, "%v", err)
		}
		if len(k.LayerKinds) > 0 && !slices.Contains(k.LayerKinds, kind) {
			var ks []string
			for _, l := range k.LayerKinds {
				ks = append(ks, l.String())
			}
			return specErr(key, "unit %s runs %s layers, not %s", k.Name, strings.Join(ks, ", "), kind)
		}
		if slices.Contains(seen, kind) {
			return specErr(key, "layer kind %s listed twice", kind)
		}
		seen = append(seen, kind)
		s.Layers[i] = kind.String()
	}
	if len(seen) == 1 && seen[0] == workload.GCN {
		s.Layers = nil // the default: same hash and outputs as a spec without layers
	}
	return nil
}

// LayerKinds returns the layer kinds of the spec's layers: key, GCN when
// it has none.
func (s *Spec) LayerKinds() []workload.LayerKind {
	if len(s.Layers) == 0 {
		return []workload.LayerKind{workload.GCN}
	}
	out := make([]workload.LayerKind, len(s.Layers))
	for i, name := range s.Layers {
		out[i], _ = workload.ParseLayerKind(name) // checked by ParseSpec
	}
	return out
}
