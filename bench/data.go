package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"gnnsim/graphs"
)

// DataNeed is what a command needs of its --data argument.
type DataNeed int

// The needs ResolveData tells apart.
const (
	// NeedGraph: a graph or a set of graphs on disk, any format package
	// graphs reads.
	NeedGraph DataNeed = iota
	// NeedLabels: a node-classification set on disk (features, labels,
	// split): a Planetoid file set or a gnn-benchmark .npz file.
	NeedLabels
	// NeedStats: a node-classification set, or only its name when the
	// command knows the set's published statistics (Data.Path is then ""
	// if its files are absent).
	NeedStats
)

// Data is a resolved --data argument.
type Data struct {
	// Name is the catalogue name of a named set (cora, citeseer, pubmed,
	// reddit lower case; the RealSets names as catalogued), or, for a
	// path, the data set's name read from it (ind.cora -> cora, cora.npz
	// -> cora, karate.mtx -> karate).
	Name string
	// Path is the file, folder or Planetoid prefix on disk; "" when a
	// named set's files are absent (NeedStats only).
	Path string
	// Format is Path's format (graphs.FormatAuto: detect from the path).
	Format graphs.Format
	// Labelled reports whether Path holds features, labels and a split
	// (graphs.LoadPlanetoid reads it).
	Labelled bool
	// Named reports whether the argument was a catalogue name, not a path.
	Named bool
}

// nodeSet is a node-classification set known by name: where its files may
// be under the data directory, labelled ones first.
type nodeSet struct {
	name     string
	labelled []string // Planetoid prefixes or .npz files, relative to the data directory
	graph    []string // graph-only files (Format auto-detected)
}

// nodeSets are the node-classification sets of the seeds (Planetoid, Yang
// et al. 2016; Reddit, Hamilton et al. 2017: published statistics only,
// its files are not in the shared data).
var nodeSets = []nodeSet{
	{"cora", []string{"planetoid/ind/ind.cora", "planetoid/npz/cora.npz"}, []string{"planetoid/cora/cora.cites"}},
	{"citeseer", []string{"planetoid/ind/ind.citeseer", "planetoid/npz/citeseer.npz"}, nil},
	{"pubmed", []string{"planetoid/ind/ind.pubmed"}, nil},
	{"reddit", nil, nil},
}

// DataNames lists the names ResolveData knows, in the order its errors
// list them: the node-classification sets, then the graph sets of
// RealSets. A SuiteSparse matrix under matrix-market/ is also found by its
// file name (karate for matrix-market/karate.mtx).
func DataNames() []string {
	var out []string
	for _, s := range nodeSets {
		out = append(out, s.name)
	}
	for _, rs := range RealSets {
		if !slices.Contains(out, strings.ToLower(rs.Name)) {
			out = append(out, rs.Name)
		}
	}
	return out
}

// DataUsage is the one --help line of every command's --data: a name or
// a path, resolved by ResolveData; what says what the set is for.
func DataUsage(what string) string {
	return what + ": a name under --data-dir (" + strings.Join(DataNames(), ", ") +
		", a SuiteSparse matrix such as karate) or a path (file, folder, Planetoid prefix)"
}

// ResolveData resolves a --data argument: a path (a file, a folder, a
// Planetoid prefix dir/ind.cora or dir/cora, a TUDataset prefix) when one
// exists, else a name looked up under dataDir (case ignored): cora,
// citeseer, pubmed and reddit as node-classification sets (the Planetoid
// ind files first, then the .npz ones, then, for a graph, cora.cites),
// the sets of RealSets as graphs (RealSet.Find), and a SuiteSparse matrix
// by its file name. Every command's --data goes through it, so a name or
// a path means the same everywhere; need says what the command reads and
// decides which arguments are errors.
func ResolveData(arg, dataDir string, need DataNeed) (Data, error) {
	if arg == "" {
		return Data{}, fmt.Errorf("no data set given: want a name (%s) or a path", strings.Join(DataNames(), ", "))
	}
	if d, ok, err := dataPath(arg, need); ok || err != nil {
		return d, err
	}
	if strings.ContainsRune(arg, filepath.Separator) || strings.ContainsRune(arg, '/') {
		return Data{}, fmt.Errorf("%s: no such file or directory (a path), and not a data set name (%s)", arg, strings.Join(DataNames(), ", "))
	}
	return dataNamed(arg, dataDir, need)
}

// dataPath resolves arg as a path; ok is false when nothing is there.
func dataPath(arg string, need DataNeed) (Data, bool, error) {
	labelled := graphs.IsPlanetoid(arg)
	if labelled && strings.EqualFold(filepath.Ext(arg), ".npz") {
		if _, err := os.Stat(arg); err != nil {
			labelled = false
		}
	}
	_, statErr := os.Stat(arg)
	_, tuErr := os.Stat(arg + "_A.txt")
	if !labelled && statErr != nil && tuErr != nil {
		return Data{}, false, nil
	}
	d := Data{Path: arg, Name: pathName(arg), Labelled: labelled}
	if need != NeedGraph && !labelled {
		return Data{}, true, fmt.Errorf("%s: not a node-classification set (features, labels and a split): want a Planetoid file set (dir/ind.cora) or a gnn-benchmark .npz file, or a name (%s)",
			arg, strings.Join(nodeSetNames(), ", "))
	}
	return d, true, nil
}

// pathName is the data set name a path gives: its base name without the
// Planetoid "ind." prefix, the Planetoid suffixes or the extension.
func pathName(p string) string {
	b := filepath.Base(filepath.Clean(p))
	b = strings.TrimPrefix(b, "ind.")
	if i := strings.IndexByte(b, '.'); i > 0 {
		b = b[:i]
	}
	return strings.TrimSuffix(b, "_A")
}

func nodeSetNames() []string {
	out := make([]string, len(nodeSets))
	for i, s := range nodeSets {
		out[i] = s.name
	}
	return out
}

// dataNamed resolves a catalogue name under dataDir.
func dataNamed(name, dataDir string, need DataNeed) (Data, error) {
	lower := strings.ToLower(name)
	if i := slices.IndexFunc(nodeSets, func(s nodeSet) bool { return s.name == lower }); i >= 0 {
		s := nodeSets[i]
		d := Data{Name: s.name, Named: true}
		for _, p := range s.labelled {
			full := filepath.Join(dataDir, filepath.FromSlash(p))
			if graphs.IsPlanetoid(full) && (filepath.Ext(full) != ".npz" || fileExists(full)) {
				d.Path, d.Labelled = full, true
				return d, nil
			}
		}
		if need == NeedGraph {
			for _, p := range s.graph {
				if full := filepath.Join(dataDir, filepath.FromSlash(p)); fileExists(full) {
					d.Path = full
					return d, nil
				}
			}
		}
		if need == NeedStats {
			return d, nil // the command's published statistics
		}
		looked := append(slices.Clone(s.labelled), s.graph...)
		if need == NeedLabels {
			looked = s.labelled
		}
		if len(looked) == 0 {
			return Data{}, fmt.Errorf("%s: only its published statistics are known (its files are not in the shared data); give a path to its files", s.name)
		}
		return Data{}, fmt.Errorf("%s: no files under %s (looked for %s); point GNNSIM_DATA (or --data-dir) at the shared data folder, or give a path",
			s.name, dataDir, strings.Join(looked, ", "))
	}
	if rs := slices.IndexFunc(RealSets, func(r RealSet) bool { return strings.EqualFold(r.Name, name) }); rs >= 0 {
		r := &RealSets[rs]
		if need != NeedGraph {
			return Data{}, fmt.Errorf("%s: a set of graphs without node labels; this command takes a node-classification set (%s) or its path",
				r.Name, strings.Join(nodeSetNames(), ", "))
		}
		p, ok := r.Find(dataDir)
		if !ok {
			var looked []string
			for _, rp := range r.Paths {
				looked = append(looked, rp.Path)
			}
			return Data{}, fmt.Errorf("%s: no files under %s (looked for %s); point GNNSIM_DATA (or --data-dir) at the shared data folder, or give a path",
				r.Name, dataDir, strings.Join(looked, ", "))
		}
		if p.Files != "" {
			return Data{}, fmt.Errorf("%s: a folder of files (%s under %s), one graph each: name one by its file name (karate for matrix-market/karate.mtx) or give its path",
				r.Name, p.Files, filepath.Join(dataDir, p.Path))
		}
		return Data{Name: r.Name, Path: filepath.Join(dataDir, p.Path), Format: graphs.Format(p.Format), Named: true}, nil
	}
	if !strings.ContainsAny(name, `*?[\`) {
		if m := filepath.Join(dataDir, "matrix-market", name+".mtx"); fileExists(m) {
			if need != NeedGraph {
				return Data{}, fmt.Errorf("%s: a SuiteSparse matrix (a graph without node labels or features); this command takes a node-classification set (%s) or its path",
					name, strings.Join(nodeSetNames(), ", "))
			}
			return Data{Name: name, Path: m, Format: graphs.FormatMTX, Named: true}, nil
		}
	}
	if need != NeedGraph {
		return Data{}, fmt.Errorf("%q: no such file, and not a data set this command takes (%s, or a path)", name, strings.Join(nodeSetNames(), ", "))
	}
	return Data{}, fmt.Errorf("%q: no such file, and not a known data set (names: %s; a SuiteSparse matrix under matrix-market/ by its file name; or a path)",
		name, strings.Join(DataNames(), ", "))
}
