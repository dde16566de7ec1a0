// Package omegaref reads a STONNE-Omega reference set (the layout of
// ../shared/omega-reference: omega_reference.csv, graphs/<name>.csr and
// optionally timestamps.jsonl) and scores package accel's omega mode
// against it.
//
// # Scoring
//
// Each reference run is a (graph, tiling, P) triple. A run with P = 512 is
// compared on its seq and sp cycles (gnnsim's seq and sp configurations on
// 512 PEs), a run with P = 256 on pp (gnnsim's pp configuration on 256 +
// 256 PEs) against pp_cycles_safe, the reference's in-bounds pp value; the
// per-phase agg and comb cycles of every run are compared as well, and on
// P = 512 runs the global-buffer access counts. Errors are absolute
// percentages |ours - ref| / ref * 100; medians and 90th percentiles use
// linear interpolation between order statistics (numpy's default).
// Top-1 agreement is the share of graphs whose fastest of the 24
// configurations (seq and sp from the P = 512 runs, pp from the P = 256
// runs; ties broken by the order seq-a..h, sp-a..h, pp-a..h) is the same
// in both; Spearman is the rank correlation (average ranks for ties) of a
// graph's 24 latencies, and the median is taken over graphs.
//
// Report.Results keeps every run's comparison (gnnsim's and the
// reference's value and the error of each quantity); Report.Worst ranks the
// runs by their largest error, and WriteJSON and WriteWorst print them.
//
// The .csr files hold A+I exactly as simulated, rows in their given order;
// ReadCSR keeps that order and checks the matrix is symmetric with a full
// diagonal, as package graphs requires.
package omegaref

import (
	"bufio"
	"fmt"
	"gnnsim/internal/csvtab"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gnnsim/dataflow"
	"gnnsim/graphs"
	"gnnsim/internal/boundedio"
	"gnnsim/internal/refset"
)

// Run is one row of omega_reference.csv.
type Run struct {
	Set, Graph, Source string
	V, E, F, G         int
	Tiling             string
	P                  int
	Tiles              dataflow.Tiles

	AggTVa1, Agg, Comb, Seq, SP, PP, PPSafe int64
	GBSeq, GBSP                             int64
	WallSeconds                             float64
	Status                                  string
}

// OOB reports whether the reference flagged the run's printed pp value as
// read out of bounds.
func (r *Run) OOB() bool { return strings.Contains(r.Status, "pp_oob") }

// Category returns the run's source category: "TU:ENZYMES",
// "SuiteSparse", "synthetic" and the like (the Source's first word, with a
// file name after the colon dropped).
func (r *Run) Category() string {
	src, _, _ := strings.Cut(r.Source, " ")
	if pre, post, ok := strings.Cut(src, ":"); ok && strings.Contains(post, ".") {
		return pre
	}
	return src
}

// Reference is a loaded reference set.
type Reference struct {
	Dir    string
	Runs   []Run
	Graphs map[string]*graphs.Graph // by graph name
}

// WallSeconds returns the reference's total wall time over all runs.
func (r *Reference) WallSeconds() float64 {
	var s float64
	for i := range r.Runs {
		s += r.Runs[i].WallSeconds
	}
	return s
}

// Load reads the reference set in dir: omega_reference.csv and the .csr
// graph of every graph it names.
func Load(dir string) (*Reference, error) {
	name := filepath.Join(dir, "omega_reference.csv")
	f, err := boundedio.Open(name, boundedio.CSV)
	if err != nil {
		return nil, fmt.Errorf("omegaref: %w", err)
	}
	defer f.Close()
	runs, err := ReadRuns(f, name)
	if err != nil {
		return nil, err
	}
	ref := &Reference{Dir: dir, Runs: runs, Graphs: map[string]*graphs.Graph{}}
	for i := range runs {
		r := &runs[i]
		if _, ok := ref.Graphs[r.Graph]; ok {
			continue
		}
		g, err := ReadCSR(filepath.Join(dir, "graphs", r.Graph+".csr"))
		if err != nil {
			return nil, err
		}
		if g.NumNodes() != r.V || g.NNZ() != r.E {
			return nil, fmt.Errorf("omegaref: graph %s: the .csr has V=%d, nnz=%d but the table says V=%d, E=%d", r.Graph, g.NumNodes(), g.NNZ(), r.V, r.E)
		}
		g.Name = r.Graph
		g.Source = r.Source
		ref.Graphs[r.Graph] = g
	}
	return ref, nil
}

var runColumns = []string{
	"set", "graph", "source", "V", "E", "F", "G", "tiling", "P",
	"T_Va", "T_N", "T_Fa", "T_Vc", "T_Gc", "T_Fc",
	"agg_tva1_cycles", "agg_cycles", "comb_cycles", "seq_cycles", "sp_cycles", "pp_cycles", "pp_cycles_safe",
	"gb_accesses_seq", "gb_accesses_sp", "wall_s", "status",
}

// ReadRuns parses omega_reference.csv from r; name is used in errors.
func ReadRuns(r io.Reader, name string) ([]Run, error) {
	t, err := csvtab.Open(bufio.NewReader(r), csvtab.Options{Name: "omegaref: " + name})
	if err != nil {
		return nil, fmt.Errorf("omegaref: %s: %w", name, err)
	}
	col, err := t.Need(runColumns, false)
	if err != nil {
		return nil, fmt.Errorf("omegaref: %s: %w", name, err)
	}
	var runs []Run
	_, err = t.Each(func(rec []string, line int) error {
		p := fieldParser{rec: rec, col: col, name: name, line: line}
		run := Run{
			Set: p.str("set"), Graph: p.str("graph"), Source: p.str("source"),
			V: p.int("V"), E: p.int("E"), F: p.int("F"), G: p.int("G"),
			Tiling: p.str("tiling"), P: p.int("P"),
			Tiles:   dataflow.Tiles{Va: p.int("T_Va"), N: p.int("T_N"), Fa: p.int("T_Fa"), Vc: p.int("T_Vc"), Gc: p.int("T_Gc"), Fc: p.int("T_Fc")},
			AggTVa1: p.i64("agg_tva1_cycles"), Agg: p.i64("agg_cycles"), Comb: p.i64("comb_cycles"),
			Seq: p.i64("seq_cycles"), SP: p.i64("sp_cycles"), PP: p.i64("pp_cycles"), PPSafe: p.i64("pp_cycles_safe"),
			GBSeq: p.i64("gb_accesses_seq"), GBSP: p.i64("gb_accesses_sp"),
			WallSeconds: p.float("wall_s"), Status: p.str("status"),
		}
		if p.err != nil {
			return p.err
		}
		if run.Graph == "" || strings.ContainsAny(run.Graph, `/\`) || run.Graph == "." || run.Graph == ".." {
			return fmt.Errorf("omegaref: %s:%d: bad graph name %q", name, line, run.Graph)
		}
		if run.V <= 0 || run.F <= 0 || run.G <= 0 || run.P <= 0 {
			return fmt.Errorf("omegaref: %s:%d: V, F, G and P must be positive", name, line)
		}
		for _, x := range []int64{run.Agg, run.Comb, run.Seq, run.SP, run.PPSafe, run.GBSeq, run.GBSP} {
			if x <= 0 {
				return fmt.Errorf("omegaref: %s:%d: cycle and access counts must be positive", name, line)
			}
		}
		runs = append(runs, run)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(runs) == 0 {
		return nil, fmt.Errorf("omegaref: %s: no runs", name)
	}
	return runs, nil
}

type fieldParser struct {
	rec  []string
	col  map[string]int
	name string
	line int
	err  error
}

func (p *fieldParser) str(c string) string {
	i := p.col[c]
	if i >= len(p.rec) {
		if p.err == nil {
			p.err = fmt.Errorf("omegaref: %s:%d: missing field %q", p.name, p.line, c)
		}
		return ""
	}
	return strings.TrimSpace(p.rec[i])
}

func (p *fieldParser) i64(c string) int64 {
	s := p.str(c)
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil && p.err == nil {
		p.err = fmt.Errorf("omegaref: %s:%d: %s = %q is not an integer", p.name, p.line, c, s)
	}
	return v
}

func (p *fieldParser) int(c string) int {
	v := p.i64(c)
	if (v < 0 || v > dataflow.MaxDim) && p.err == nil {
		p.err = fmt.Errorf("omegaref: %s:%d: %s = %d out of range", p.name, p.line, c, v)
	}
	return int(v)
}

func (p *fieldParser) float(c string) float64 {
	s := p.str(c)
	v, err := strconv.ParseFloat(s, 64)
	if (err != nil || math.IsNaN(v) || math.IsInf(v, 0)) && p.err == nil {
		p.err = fmt.Errorf("omegaref: %s:%d: %s = %q is not a number, or not finite", p.name, p.line, c, s)
	}
	return v
}

// maxCSRBytes bounds a .csr file: far above the reference graphs.
const maxCSRBytes = 1 << 30

// ReadCSR reads a reference graph: line 1 holds the V+1 row pointers, line
// 2 the column ids, comma-separated and 0-based. The matrix must be a valid
// symmetric CSR with every diagonal entry present (A+I); it is returned
// with SelfLoops set and its rows in file order.
func ReadCSR(path string) (*graphs.Graph, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("omegaref: %w", err)
	}
	if st.Size() > maxCSRBytes {
		return nil, fmt.Errorf("omegaref: %s: %d bytes exceeds the %d-byte limit", path, st.Size(), maxCSRBytes)
	}
	data, err := boundedio.ReadFile(path, boundedio.Graph)
	if err != nil {
		return nil, fmt.Errorf("omegaref: %w", err)
	}
	return ParseCSR(data, path)
}

// ParseCSR parses the .csr text in data; name is used in errors.
func ParseCSR(data []byte, name string) (*graphs.Graph, error) {
	lines := strings.Split(strings.TrimRight(string(data), "\r\n"), "\n")
	if len(lines) < 2 {
		lines = append(lines, "")
	}
	if len(lines) > 2 {
		return nil, fmt.Errorf("omegaref: %s:3: want two lines (row pointers, column ids)", name)
	}
	rp, err := parseInts(lines[0], name, 1)
	if err != nil {
		return nil, err
	}
	col, err := parseInts(lines[1], name, 2)
	if err != nil {
		return nil, err
	}
	if len(rp) < 2 {
		return nil, fmt.Errorf("omegaref: %s:1: want at least 2 row pointers", name)
	}
	g := &graphs.Graph{Name: strings.TrimSuffix(filepath.Base(name), ".csr"), Source: name, RowPtr: rp, Col: col, SelfLoops: true}
	if int(rp[len(rp)-1]) != len(col) {
		return nil, fmt.Errorf("omegaref: %s: last row pointer %d, but line 2 has %d column ids", name, rp[len(rp)-1], len(col))
	}
	if err := g.Validate(); err != nil {
		return nil, fmt.Errorf("omegaref: %s: %w", name, err)
	}
	return g, nil
}

func parseInts(line, name string, lineNo int) ([]int32, error) {
	line = strings.TrimSpace(line)
	if line == "" {
		return []int32{}, nil
	}
	parts := strings.Split(line, ",")
	out := make([]int32, 0, len(parts))
	for i, s := range parts {
		v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 32)
		if err != nil || v < 0 {
			return nil, fmt.Errorf("omegaref: %s:%d: value %d (%q) is not a non-negative 32-bit integer", name, lineNo, i+1, s)
		}
		out = append(out, int32(v))
	}
	return out, nil
}

// FindDir returns the reference set's directory: $GNNSIM_SHARED/omega-reference
// when GNNSIM_SHARED is set, else the first shared/omega-reference found
// walking up from the working directory. ok is false when there is none.
func FindDir() (dir string, ok bool) {
	return refset.Find("omega-reference", "omega_reference.csv")
}

// graphOrder returns the graph names of the reference in first-seen order.
func (r *Reference) graphOrder() []string {
	var names []string
	seen := map[string]bool{}
	for i := range r.Runs {
		if n := r.Runs[i].Graph; !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	return slices.Clip(names)
}
