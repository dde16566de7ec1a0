package gcos

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"gnnsim/graphs"
	"gnnsim/workload"
)

// The data sets of seed 001 (Cora, CiteSeer, PubMed, Reddit) as G-CoS
// prices them: here, below the sweeps (package bench) and the
// reproduction (repro/seed001), so that both price one definition.

// Published sizes of the data sets (Planetoid as in PyG; Reddit as in
// GraphSAGE / PyG), used when a graph is not on disk, with the density of
// their input features (what the first layer's product skips):
//
//   - Cora: 49,216 non-zeros of 2,708 x 1,433 (MISSION section 12; the
//     count of ind.cora in ../shared/data),
//   - CiteSeer: 105,165 of 3,327 x 3,703 (the full Planetoid count, as
//     nas/fgnas records it; the count of ind.citeseer),
//   - PubMed: 988,031 of 19,717 x 500 (the full Planetoid count, as
//     nas/fgnas records it; ../shared/data lacks ind.pubmed.allx, and the
//     1,060 rows it has are 9.99 % non-zero),
//   - Reddit: dense (our assumption: GraphSAGE's Reddit features are
//     averaged GloVe word vectors and post statistics, not bags of words).
//
// Reddit's rows are a degree profile (RedditRows), not average rows.
var published = []Dataset{
	{Name: "cora", Size: workload.Size{Nodes: 2708, NNZ: 10556}, Features: 1433, FeatureDensity: 49216.0 / (2708 * 1433), Classes: 7},
	{Name: "citeseer", Size: workload.Size{Nodes: 3327, NNZ: 9104}, Features: 3703, FeatureDensity: 105165.0 / (3327 * 3703), Classes: 6},
	{Name: "pubmed", Size: workload.Size{Nodes: 19717, NNZ: 88648}, Features: 500, FeatureDensity: 988031.0 / (19717 * 500), Classes: 3},
	{Name: "reddit", Size: workload.Size{Nodes: 232965, NNZ: 114615892}, Features: 602, Classes: 41},
}

// Reddit's published size: 232,965 posts, 114,615,892 adjacency entries
// (PyG's Reddit, GraphSAGE's data: "232,965 posts with an average degree
// of 492", Hamilton et al., NeurIPS 2017, Sec. 4.1). Its degree
// distribution is not published with it; RedditRows fits a power law to
// this mean.
const (
	RedditNodes   = 232965
	RedditEntries = 114615892
	// RedditGamma is the power-law exponent of Reddit's degree profile: our
	// assumption (social graphs' tails fall between 2 and 3; KONECT
	// estimates 2.69 for the Digg reply network, a comparable social-news
	// graph). Seed 001's report sweeps other exponents.
	RedditGamma = 2.5
	// redditSeed orders the profile's rows (node ids carry no degree order).
	redditSeed = 0x5eedd17
)

// RedditRows returns the degree profile of Reddit at exponent gamma: row
// lengths from a power law on [xmin, nodes-1] whose mean is Reddit's 492
// (graphs.PowerLawRows), in a seeded random order.
func RedditRows(gamma float64) ([]int32, error) {
	r, err := graphs.PowerLawRows(RedditNodes, RedditEntries, gamma, RedditNodes-1, redditSeed)
	if err != nil {
		return nil, fmt.Errorf("gcos: reddit profile: %w", err)
	}
	return r, nil
}

// Datasets returns Cora, CiteSeer, PubMed and Reddit: with their graphs
// and measured feature densities when on disk, else their published sizes
// and densities (Reddit always by size, its rows a power-law degree
// profile fitted to its mean degree: RedditRows).
func Datasets(dir string) ([]Dataset, error) {
	out, _, err := DatasetsExplained(dir)
	return out, err
}

// DatasetsExplained is Datasets, with a line per data set saying how dense its
// features are and where that comes from.
func DatasetsExplained(dir string) ([]Dataset, []string, error) {
	out := make([]Dataset, len(published))
	from := make([]string, len(published))
	for i := range out {
		var err error
		if out[i], from[i], err = datasetAt(i, dir); err != nil {
			return nil, nil, err
		}
	}
	return out, from, nil
}

// datasetAt returns published[i] completed from dir, and the line saying
// where its numbers come from.
func datasetAt(i int, dir string) (Dataset, string, error) {
	ds := published[i]
	p, err := loadPlanetoid(dir, ds.Name)
	if err != nil {
		return ds, "", err
	}
	src := "published count (data not on disk)"
	if ds.FeatureDensity == 0 {
		src = "dense (assumed)"
	}
	if p != nil {
		if p.Features.Cols != ds.Features {
			return ds, "", fmt.Errorf("gcos: %s has %d features, want %d", ds.Name, p.Features.Cols, ds.Features)
		}
		ds.Graph = p.Graph
		// Measured: over every row, or over the rows present when the
		// files lack some (PubMed without allx), an estimate.
		if d, rows := p.FeatureDensity(); rows > 0 && d > 0 {
			ds.FeatureDensity = d
			src = fmt.Sprintf("measured from the Planetoid files (%d of %d rows)", rows, p.NumNodes())
		}
	}
	rows := "rows of the graph on disk"
	if ds.Graph == nil && ds.Name == "reddit" {
		if ds.Rows, err = RedditRows(RedditGamma); err != nil {
			return ds, "", err
		}
		st, err := graphs.RowPtrStats(ds.Rows)
		if err != nil {
			return ds, "", err
		}
		rows = fmt.Sprintf("rows a power-law degree profile (exponent %.1f, mean %.0f, median %d, 99th percentile %d, longest %d; the longest 1 %% hold %.0f %% of the entries)",
			RedditGamma, st.Mean, st.Median, st.P99, st.Max, 100*st.Top1PctShare)
	} else if ds.Graph == nil {
		rows = "average rows (graph not on disk)"
	}
	return ds, fmt.Sprintf("%s: %d features, %.2f %% non-zero, %s; %s", ds.Name, ds.Features, 100*cmp.Or(ds.FeatureDensity, 1), src, rows), nil
}

// loadPlanetoid loads a Planetoid data set (planetoid/ind, the files
// package train reads) when the data is present; nil when not.
func loadPlanetoid(dir, name string) (*graphs.Planetoid, error) {
	if dir == "" || name == "reddit" {
		return nil, nil
	}
	path := filepath.Join(dir, "planetoid", "ind", "ind."+name)
	if !graphs.IsPlanetoid(path) {
		return nil, nil
	}
	p, err := graphs.LoadPlanetoid(path)
	if err != nil {
		return nil, fmt.Errorf("gcos: %w", err)
	}
	return p, nil
}

// Published returns the data sets by their published sizes and feature
// densities (no graphs, no row profiles): what Datasets returns for a
// set not on disk, before Reddit's profile.
func Published() []Dataset { return slices.Clone(published) }

// DatasetNames are the names DatasetByName knows, in Datasets' order.
func DatasetNames() []string {
	out := make([]string, len(published))
	for i, d := range published {
		out[i] = d.Name
	}
	return out
}

// DatasetByName returns the data set name (case ignored) as Datasets(dir)
// does, reading only its own files.
func DatasetByName(name, dir string) (Dataset, error) {
	i := slices.IndexFunc(published, func(d Dataset) bool { return strings.EqualFold(d.Name, name) })
	if i < 0 {
		return Dataset{}, fmt.Errorf("gcos: unknown data set %q (want %s)", name, strings.Join(DatasetNames(), ", "))
	}
	ds, _, err := datasetAt(i, dir)
	return ds, err
}
