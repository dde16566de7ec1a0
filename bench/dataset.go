package bench

import (
	"fmt"
	"path/filepath"
	"slices"

	"gnnsim/dataflow"
	"gnnsim/graphs"
	"gnnsim/internal/pqio"
	"gnnsim/predict"
	"gnnsim/workload"
)

// ReadDataset reads a finished sweep directory (graphs.parquet and
// runs.parquet) as latency-predictor samples: one per (graph, F, G,
// hardware) case, in the order of the runs table, with the graph's CSR and
// stored features, and the tiles and cycles of each of the 24 named
// configurations (predict.ConfigNames order). The hardware of a case is its
// PE count and the PEs its pp rows give aggregation. Every case must have
// exactly the 24 named configurations: a sweep of a subset, or with custom
// tilings, is refused rather than half-used; so is a sweep of layer kinds
// other than GCN (the predictors' features describe GCN layers).
func ReadDataset(dir string) ([]predict.Sample, error) {
	gpath := filepath.Join(dir, GraphsFile)
	entries, _, err := graphs.ReadSetFeatures(gpath)
	if err != nil {
		return nil, fmt.Errorf("bench: dataset %s: %w", dir, err)
	}
	gs, gmeta, err := graphs.ReadSet(gpath)
	if err != nil {
		return nil, fmt.Errorf("bench: dataset %s: %w", dir, err)
	}
	if len(gs) != len(entries) {
		return nil, fmt.Errorf("bench: %s: %d graphs but %d feature rows", gpath, len(gs), len(entries))
	}
	rpath := filepath.Join(dir, RunsFile)
	rows, rmeta, err := readRuns(rpath)
	if err != nil {
		return nil, fmt.Errorf("bench: dataset %s: %w", dir, err)
	}
	// Both tables of a sweep record its spec hash: a graphs.parquet copied
	// from another sweep would give every run the wrong graph.
	const hashKey = "gnnsim.spec_hash"
	if gh, rh := gmeta[hashKey], rmeta[hashKey]; gh != rh {
		return nil, fmt.Errorf("bench: dataset %s: %s (spec %q) and %s (spec %q) come from different sweeps; use the two files one sweep wrote", dir, gpath, gh, rpath, rh)
	}
	names := predict.ConfigNames()
	configIndex := make(map[string]int, len(names))
	for i, n := range names {
		configIndex[n] = i
	}
	type key struct {
		id, f, g int64
		hw       string
	}
	caseOf := map[key]int{}
	var samples []predict.Sample
	var seen [][predict.NumConfigs]bool
	for i := range rows {
		r := &rows[i]
		where := func() string { return fmt.Sprintf("%s: row %d (graph %d, %s)", rpath, i, r.GraphID, r.Config) }
		if r.GraphID < 0 || r.GraphID >= int64(len(gs)) {
			return nil, fmt.Errorf("bench: %s: graph_id outside the %d graphs of %s", where(), len(gs), gpath)
		}
		if g := gs[r.GraphID]; r.GraphName != g.Name {
			return nil, fmt.Errorf("bench: %s: graph %q, but graph %d of %s is %q: the files do not belong together", where(), r.GraphName, r.GraphID, gpath, g.Name)
		}
		if r.Layer != "" && r.Layer != workload.GCN.String() {
			return nil, fmt.Errorf("bench: %s: a %s layer; latency predictor samples are GCN layers (sweep with layers: [gcn])", where(), r.Layer)
		}
		c, ok := configIndex[r.Config]
		if !ok {
			return nil, fmt.Errorf("bench: %s: configuration %q is not one of the 24 named ones (%s .. %s)", where(), r.Config, names[0], names[len(names)-1])
		}
		if r.Cycles <= 0 {
			return nil, fmt.Errorf("bench: %s: cycles = %d, want > 0", where(), r.Cycles)
		}
		if r.F <= 0 || r.G <= 0 || r.F > dataflow.MaxDim || r.G > dataflow.MaxDim {
			return nil, fmt.Errorf("bench: %s: F = %d, G = %d outside [1, %d]", where(), r.F, r.G, dataflow.MaxDim)
		}
		k := key{r.GraphID, r.F, r.G, r.Hardware}
		s, ok := caseOf[k]
		if !ok {
			s = len(samples)
			caseOf[k] = s
			e := &entries[r.GraphID]
			samples = append(samples, predict.Sample{
				Dataset: r.Dataset, GraphID: r.GraphID, Mode: r.Mode,
				Graph: gs[r.GraphID], Features: e.Features,
				F: int(r.F), G: int(r.G),
				Hardware: predict.PEArray{PEs: int(r.PEs)},
			})
			seen = append(seen, [predict.NumConfigs]bool{})
		}
		sm := &samples[s]
		if seen[s][c] {
			return nil, fmt.Errorf("bench: %s: a second row for this configuration", where())
		}
		if r.Dataset != sm.Dataset || r.Mode != sm.Mode || int(r.PEs) != sm.Hardware.PEs {
			return nil, fmt.Errorf("bench: %s: dataset %q, mode %q, %d PEs differ from the case's other rows (%q, %q, %d)",
				where(), r.Dataset, r.Mode, r.PEs, sm.Dataset, sm.Mode, sm.Hardware.PEs)
		}
		seen[s][c] = true
		sm.Tiles[c] = dataflow.Tiles{Va: int(r.TVa), Fa: int(r.TFa), N: int(r.TN), Vc: int(r.TVc), Gc: int(r.TGc), Fc: int(r.TFc)}
		sm.Latency[c] = float64(r.Cycles)
		if r.Inter == dataflow.PP.String() {
			sm.Hardware.PPAggPEs = int(r.AggPEs)
		}
	}
	if len(samples) == 0 {
		return nil, fmt.Errorf("bench: %s has no runs", rpath)
	}
	for s := range samples {
		if i := slices.Index(seen[s][:], false); i >= 0 {
			sm := &samples[s]
			return nil, fmt.Errorf("bench: %s: graph %d (F=%d, G=%d) has no run of configuration %s", rpath, sm.GraphID, sm.F, sm.G, names[i])
		}
	}
	return samples, nil
}

// readRuns reads a runs table: a layers: sweep's has a layer column, a
// default one does not (its rows read with Layer "").
func readRuns(path string) ([]LayerRunRow, map[string]string, error) {
	layered, err := pqio.HasColumn(path, "layer")
	if err != nil {
		return nil, nil, err
	}
	if layered {
		return pqio.Read[LayerRunRow](path)
	}
	plain, meta, err := pqio.Read[RunRow](path)
	if err != nil {
		return nil, nil, err
	}
	rows := make([]LayerRunRow, len(plain))
	for i := range plain {
		rows[i].RunRow = plain[i]
	}
	return rows, meta, nil
}

// ReadDatasets reads several sweep directories (ReadDataset) into one list,
// in the order given. Their data set labels must differ, since splits and
// evaluation are per data set label.
func ReadDatasets(dirs []string) ([]predict.Sample, error) {
	var all []predict.Sample
	owner := map[string]string{}
	for _, d := range dirs {
		ss, err := ReadDataset(d)
		if err != nil {
			return nil, err
		}
		for i := range ss {
			ds := ss[i].Dataset
			if o, ok := owner[ds]; ok {
				return nil, fmt.Errorf("bench: data set %q is in both %s and %s; splits are per data set label, so they cannot be combined", ds, o, d)
			}
		}
		for i := range ss {
			owner[ss[i].Dataset] = d
		}
		all = append(all, ss...)
	}
	return all, nil
}
