package search

import (
	"fmt"

	"gnnsim/internal/pqio"
)

// Row is one candidate in a search's Parquet table. Discrete genomes go to
// Genes (Inactive genes as -1), continuous ones to X.
type Row struct {
	// Search names the search (e.g. "nsga2", "pool", "soc-mapping").
	Search string `parquet:"search"`
	// Kind is "evaluated" (one row per candidate, ranked over the run's
	// whole archive), "population" (one row per member of each
	// generation's population, ranked within it) or "inner" (a nested
	// search's inner candidate, ranked within its inner search).
	Kind       string `parquet:"kind"`
	Generation int64  `parquet:"generation"`
	Candidate  int64  `parquet:"candidate"`
	// Parent is the outer candidate of an inner row, else -1.
	Parent     int64     `parquet:"parent"`
	Genes      []int64   `parquet:"genes,list"`
	X          []float64 `parquet:"x,list"`
	Objectives []float64 `parquet:"objectives,list"`
	Violation  float64   `parquet:"violation"`
	Feasible   bool      `parquet:"feasible"`
	Rank       int64     `parquet:"rank"`
	Crowding   float64   `parquet:"crowding"`
	// Front marks the feasible non-dominated candidates of the set the row
	// was ranked in.
	Front bool `parquet:"front"`
	// Fallback marks outer candidates of a nested search scored by the
	// standalone fallback.
	Fallback bool `parquet:"fallback"`
}

// Genome lists the genome types that Rows can write.
type Genome interface{ []int | []float64 }

// Rows converts a result: one "evaluated" row per candidate, then one
// "population" row per member of each recorded generation.
func Rows[G Genome](search string, res *Result[G]) []Row {
	rows := make([]Row, 0, len(res.Evaluated))
	for i := range res.Evaluated {
		ind := &res.Evaluated[i]
		rows = append(rows, row(search, "evaluated", ind.Generation, ind, ind.Rank, ind.Crowding, -1))
	}
	for _, g := range res.Generations {
		for _, m := range g.Members {
			if m.ID < 0 || m.ID >= len(res.Evaluated) {
				continue
			}
			rows = append(rows, row(search, "population", g.Index, &res.Evaluated[m.ID], m.Rank, m.Crowding, -1))
		}
	}
	return rows
}

// NestedRows converts a nested search's result: Rows of the outer search,
// then "inner" rows for each outer candidate whose inner search ran (every
// inner candidate when the search kept them, else its compliant front);
// repeated outer genomes that reused an outcome add no inner rows.
func NestedRows[O, I Genome](search string, res *Result[O]) []Row {
	rows := Rows(search, res) // rows[i] is the "evaluated" row of candidate i
	for i := range res.Evaluated {
		in := InnerOf[O, I](res.Evaluated[i])
		if in == nil {
			continue
		}
		rows[i].Fallback = in.Fallback
		if in.Cached {
			continue
		}
		inner := in.All
		if inner == nil {
			inner = in.Compliant
		}
		for k := range inner {
			ind := &inner[k]
			rows = append(rows, row(search, "inner", ind.Generation, ind, ind.Rank, ind.Crowding, i))
		}
	}
	return rows
}

func row[G Genome](search, kind string, gen int, ind *Individual[G], rank int, crowd float64, parent int) Row {
	r := Row{
		Search: search, Kind: kind,
		Generation: int64(gen), Candidate: int64(ind.ID), Parent: int64(parent),
		Objectives: ind.Objectives, Violation: ind.Violation, Feasible: ind.Feasible(),
		Rank: int64(rank), Crowding: crowd,
		Front: rank == 0 && ind.Feasible(),
	}
	switch g := any(ind.Genome).(type) {
	case []int:
		r.Genes = make([]int64, len(g))
		for i, v := range g {
			r.Genes[i] = int64(v)
		}
	case []float64:
		r.X = g
	}
	return r
}

// WriteRows writes rows to a Parquet file atomically through pqio, with
// the given key-value metadata (record the seed and settings there).
func WriteRows(path string, rows []Row, meta map[string]string) error {
	if err := pqio.Write(path, rows, meta); err != nil {
		return fmt.Errorf("search: %w", err)
	}
	return nil
}
