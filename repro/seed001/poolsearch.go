package seed001

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"gnnsim/graphs"
	nas "gnnsim/nas/gcos"
)

// DatasetFor returns the data set a search runs on: cora, citeseer,
// pubmed or reddit by name (their statistics under dataDir), else the
// Planetoid files at path.
func DatasetFor(named bool, name, path, dataDir string) (nas.Dataset, error) {
	if named {
		all, err := Datasets(dataDir)
		if err != nil {
			return nas.Dataset{}, err
		}
		i := slices.IndexFunc(all, func(d nas.Dataset) bool { return d.Name == name })
		if i < 0 {
			return nas.Dataset{}, fmt.Errorf("--data %s: G-CoS knows cora, citeseer, pubmed and reddit by name; give another set's path", name)
		}
		return all[i], nil
	}
	p, err := graphs.LoadPlanetoid(path)
	if err != nil {
		return nas.Dataset{}, fmt.Errorf("--data: %w", err)
	}
	ds, err := nas.DatasetOf(p)
	if err != nil {
		return nas.Dataset{}, fmt.Errorf("--data %s: %w", path, err)
	}
	return ds, nil
}

// PoolSearch is one G-CoS pool search of a GNN and its accelerator as
// 'gnnsim search gcos' runs it.
type PoolSearch struct {
	Dataset nas.Dataset
	// Named says Dataset is a built-in set (its accuracy source under
	// DataDir), else its files are at Path.
	Named         bool
	Path, DataDir string
	// Model fixes the GNN (gcn, gat, graphsage, gin) and searches the
	// accelerator only, on latency; "" searches both, weighting the
	// latency term by LatWeight and the accuracy's by 1 - LatWeight.
	Model     string
	LatWeight float64
	Options   nas.Options
}

// Run runs the search and returns its top designs and the number of
// evaluations; where the accuracies come from is said on warn.
func (q PoolSearch) Run(ctx context.Context, warn io.Writer) ([]TopRow, int, error) {
	if !(q.LatWeight >= 0 && q.LatWeight <= 1) {
		return nil, 0, fmt.Errorf("--lat-weight %v outside [0, 1]", q.LatWeight)
	}
	ds := q.Dataset
	source := TrainedAccuracy(q.DataDir, 0, q.Options.Seed)
	if !q.Named {
		source = TrainedAccuracyAt(func(nas.Dataset) string { return q.Path }, 0, q.Options.Seed)
	}
	var sp *nas.Space
	var p *nas.Problem
	var err error
	if q.Model != "" {
		names, archs := Fig8Models(ds.Classes)
		hc := nas.Handcrafted(ds.Classes)
		names, archs = append(names, "GAT"), append(archs, hc["GAT"])
		j := slices.IndexFunc(names, func(n string) bool { return strings.EqualFold(n, q.Model) })
		if j < 0 {
			return nil, 0, fmt.Errorf("--model %q: want gcn, gat, graphsage or gin", q.Model)
		}
		if sp, err = nas.NewHardwareSpace(archs[j]); err != nil {
			return nil, 0, err
		}
		if p, err = nas.NewProblem(ds, nil); err != nil {
			return nil, 0, err
		}
		p.Fitness.Acc, p.Fitness.Lat = 0, 1
	} else {
		if q.Named && ds.Name != "cora" && ds.Name != "citeseer" {
			return nil, 0, fmt.Errorf("--data %s has no labels here: search its accelerator with --model", ds.Name)
		}
		or, err := source(ctx, ds)
		if err != nil {
			return nil, 0, err
		}
		fmt.Fprintln(warn, "accuracy (validation, for the fitness):", or.From)
		if sp, err = nas.NewSpace(ds.Classes); err != nil {
			return nil, 0, err
		}
		if p, err = nas.NewProblem(ds, or.Search); err != nil {
			return nil, 0, err
		}
		p.Fitness.Acc, p.Fitness.Lat = 1-q.LatWeight, q.LatWeight
	}
	res, err := p.Search(ctx, sp, q.Options)
	if err != nil {
		return nil, 0, err
	}
	rows := make([]TopRow, len(res.Top))
	for k, c := range res.Top {
		rows[k] = TopRow{Dataset: ds.Name, Rank: k + 1, Fitness: c.Fitness, LatencyPS: c.LatencyPS,
			LatencyUS: float64(c.LatencyPS) / 1e6, DRAMBytes: c.DRAMBytes, Feasible: c.Feasible,
			GNN: fmt.Sprint(c.Design.Arch), Accelerator: fmt.Sprintf("%+v", c.Design.HW.Subs), Subs: len(c.Design.HW.Subs)}
		if q.Model == "" {
			rows[k].Accuracy = &c.Accuracy
		}
	}
	return rows, len(res.Evaluated), nil
}

// WriteTop prints the top designs of a search of dataset.
func WriteTop(w io.Writer, dataset string, evaluations int, rows []TopRow) {
	fmt.Fprintf(w, "%s: %d evaluations\n", dataset, evaluations)
	for _, r := range rows {
		acc := "not measured (latency-only search)"
		if r.Accuracy != nil {
			acc = fmt.Sprintf("%.3f", *r.Accuracy)
		}
		fmt.Fprintf(w, "%d. fitness %.4f  accuracy %s  latency %.2f us  %.2f MB off chip\n   GNN: %s\n   accelerator: %s\n",
			r.Rank, r.Fitness, acc, r.LatencyUS, float64(r.DRAMBytes)/1e6, r.GNN, r.Accelerator)
	}
}

// TopRow is one of a pool search's top designs as 'gnnsim search gcos'
// gives it: a printed entry, a JSON object and a Parquet row.
type TopRow struct {
	Dataset string  `json:"dataset" parquet:"dataset"`
	Rank    int     `json:"rank" parquet:"rank"`
	Fitness float64 `json:"fitness" parquet:"fitness"`
	// Accuracy is nil when the search measured none (--model: latency only).
	Accuracy    *float64 `json:"accuracy" parquet:"accuracy,optional"`
	LatencyPS   int64    `json:"latency_ps" parquet:"latency_ps"`
	LatencyUS   float64  `json:"latency_us" parquet:"latency_us"`
	DRAMBytes   int64    `json:"dram_bytes" parquet:"dram_bytes"`
	Feasible    bool     `json:"feasible" parquet:"feasible"`
	GNN         string   `json:"gnn" parquet:"gnn"`
	Accelerator string   `json:"accelerator" parquet:"accelerator"`
	Subs        int      `json:"sub_accelerators" parquet:"sub_accelerators"`
}
