package bench

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"
)

// DatasetMode is the accelerator model of seed 002's data sets when none
// is named: omega, the STONNE-Omega cycle counts the seed trained and
// evaluated on. 'gnnsim dataset' and 'gnnsim repro seed002' both default to
// it, so a predictor trained from the command line sees the labels of the
// reproduction. (A spec file's own default stays extended: see Spec.Mode.)
const DatasetMode = "omega"

// DefaultSizes are the feature sizes a sweep gives its graphs when its spec
// names none: graph i gets F = [16, 32, 64][i mod 3] and G = [16, 32][i mod
// 2], the rule of the STONNE-Omega reference set (../shared/omega-reference).
// Seed 002 does not state its F and G; repro/seed002 sweeps the
// alternatives (its (F, G) spread table).
func DefaultSizes() SizeSpec {
	return SizeSpec{F: []int{16, 32, 64}, G: []int{16, 32}, Mode: "cycle"}
}

// DatasetOptions are the spec values of a preset data set: the seed, the
// accelerator model (empty: DatasetMode) and the feature sizes (lists
// allowed; empty F or G: DefaultSizes', empty mode: cycle).
type DatasetOptions struct {
	Seed  uint64
	Mode  string
	Sizes SizeSpec
}

func (o DatasetOptions) spec(name string) *Spec {
	return &Spec{Name: name, Seed: o.Seed, Mode: cmp.Or(o.Mode, DatasetMode), Sizes: o.Sizes}
}

// GraphlaxySpec is the sweep of one of seed 002's synthetic data sets
// (preset small, medium or large: 243, 9,171 or 6,381 Graphlaxy graphs)
// on all 24 configurations of the default hardware.
func GraphlaxySpec(preset string, o DatasetOptions) (*Spec, error) {
	s := o.spec("graphlaxy-" + preset)
	s.Graphs = []GraphSource{{Generator: "graphlaxy", Preset: preset, Dataset: "Graphlaxy." + preset}}
	if err := s.normalize(); err != nil {
		return nil, err
	}
	return s, nil
}

// RealSet is one real data set a seed 002 sweep looks for under a data
// directory (the layout of ../shared/data), with where it comes from. The
// project never downloads or commits data: a user who places a missing set
// at one of its paths gets it in the next 'gnnsim dataset real' and
// 'gnnsim repro seed002'.
type RealSet struct {
	Name string // data set label (seed 002's name where the seed has the set)
	// Paths are where the set is looked for, relative to the data
	// directory, in order; the first that holds graphs is used. A TU path
	// is the directory tu/<Name> with <Name>_A.txt; a glob path
	// (dir/*.mtx) is every matching file, one graph each.
	Paths []RealPath
	// Seed is the size seed 002 gives the set ("" when the seed does not
	// use it: then it is an extra of ours).
	Seed    string
	Source  string // where to get the original files
	Licence string // the terms the source states
	// Convert says how to bring files that ship in another format into one
	// of Paths' ("" when the source's own files are read as they are).
	Convert string
}

// RealPath is one place and format of a RealSet.
type RealPath struct {
	Path   string // relative to the data directory
	Format string // tu | mtx | edgelist | cites
	Files  string // glob within Path for per-file formats ("" for tu and single files)
}

// TUDataset's terms (the README.txt shipped with every TU set): free to
// use, cite Morris et al. (2020) and the set's original authors.
const tuTerms = "TUDataset terms (README.txt of the set): free for research use, cite Morris et al. 2020 and the set's authors; no licence file"

func tuPath(name string) RealPath { return RealPath{Path: filepath.Join("tu", name), Format: "tu"} }

// RealSets are the real data sets: seed 002's (section 3.2: ENZYMES,
// PROTEINS, REDDIT-BINARY from TUDataset, 43 SuiteSparse networks, 40
// QOPTLib graphs, PATTERN and TSP from Dwivedi et al.'s benchmark) and
// extras of ours (MUTAG, AIDS, NCI1, Cora; RealSet.Seed empty). RealSpec's
// graph order is this order, which keeps the sets present in
// ../shared/data in the order (and the spec hash) they had before the
// others were catalogued.
var RealSets = []RealSet{
	{Name: "ENZYMES", Paths: []RealPath{tuPath("ENZYMES")}, Seed: "600 graphs",
		Source: "https://www.chrsmrrs.com/graphkerneldatasets/ENZYMES.zip (TUDataset; Borgwardt et al. 2005)", Licence: tuTerms},
	{Name: "PROTEINS", Paths: []RealPath{tuPath("PROTEINS")}, Seed: "1,113 graphs",
		Source: "https://www.chrsmrrs.com/graphkerneldatasets/PROTEINS.zip (TUDataset; Borgwardt et al. 2005, Dobson & Doig 2003)", Licence: tuTerms},
	{Name: "REDDIT-BINARY", Paths: []RealPath{tuPath("REDDIT-BINARY")}, Seed: "2,000 graphs",
		Source: "https://www.chrsmrrs.com/graphkerneldatasets/REDDIT-BINARY.zip (TUDataset; Yanardag & Vishwanathan 2015)", Licence: tuTerms},
	{Name: "MUTAG", Paths: []RealPath{tuPath("MUTAG")},
		Source: "https://www.chrsmrrs.com/graphkerneldatasets/MUTAG.zip (TUDataset; Debnath et al. 1991)", Licence: tuTerms},
	{Name: "AIDS", Paths: []RealPath{tuPath("AIDS")},
		Source: "https://www.chrsmrrs.com/graphkerneldatasets/AIDS.zip (TUDataset; Riesen & Bunke 2008)", Licence: tuTerms},
	{Name: "NCI1", Paths: []RealPath{tuPath("NCI1")},
		Source: "https://www.chrsmrrs.com/graphkerneldatasets/NCI1.zip (TUDataset; Wale et al. 2008)", Licence: tuTerms},
	{Name: "SuiteSparse", Paths: []RealPath{{Path: "matrix-market", Format: "mtx", Files: "*.mtx"}}, Seed: "SparseSuite.Mix: 43 graphs (not listed by the seed)",
		Source:  "https://sparse.tamu.edu (SuiteSparse Matrix Collection, Kolodziej et al. 2019); ours: the .mtx files of github.com/DrTimothyAldenDavis/SuiteSparse, see matrix-market/SOURCES.tsv",
		Licence: "CC BY 4.0 as the collection's site states (not re-checked offline); our copies: the per-package licence files beside them"},
	{Name: "QOPTLib", Paths: []RealPath{tuPath("QOPTLib"), {Path: "qoptlib", Format: "mtx", Files: "*.mtx"}}, Seed: "40 graphs",
		Source:  "https://doi.org/10.17632/h32z9kcz3s.1 (Mendeley Data; Osaba & Villar 2023)",
		Licence: "CC BY 4.0 as the Mendeley Data record states (not re-checked offline)",
		Convert: "the instances are problem files (TSP, VRP, bin packing, Max-Cut); write each instance's graph as qoptlib/<instance>.mtx (pattern, symmetric) or the set as tu/QOPTLib"},
	{Name: "PATTERN", Paths: []RealPath{tuPath("PATTERN"), {Path: "benchmarking-gnns/PATTERN", Format: "mtx", Files: "*.mtx"}}, Seed: "test split (count not given by the seed)",
		Source:  "https://github.com/graphdeeplearning/benchmarking-gnns (data/SBMs: PATTERN.pkl; Dwivedi et al. 2022)",
		Licence: "MIT (the benchmarking-gnns repository's LICENSE; its data downloads carry no other)",
		Convert: "the set ships as pickled DGL graphs: export the graphs as tu/PATTERN (TU text) or benchmarking-gnns/PATTERN/*.mtx"},
	{Name: "TSP", Paths: []RealPath{tuPath("TSP"), {Path: "benchmarking-gnns/TSP", Format: "mtx", Files: "*.mtx"}}, Seed: "test split (count not given by the seed)",
		Source:  "https://github.com/graphdeeplearning/benchmarking-gnns (data/TSP: TSP.pkl; Dwivedi et al. 2022)",
		Licence: "MIT (the benchmarking-gnns repository's LICENSE; its data downloads carry no other)",
		Convert: "the set ships as pickled DGL k-NN graphs: export the graphs as tu/TSP (TU text) or benchmarking-gnns/TSP/*.mtx"},
	{Name: "Cora", Paths: []RealPath{{Path: "planetoid/cora/cora.cites", Format: "cites"}},
		Source: "https://linqs.org/datasets/#cora (Sen et al. 2008); ours: planetoid/cora, see its SOURCE.txt", Licence: "see planetoid/LICENSE.expanded_gcn beside the files"},
}

// Find returns the first of the set's paths under dataDir that holds
// graphs: a TU directory with <Name>_A.txt, a single file, or a directory
// with at least one file matching the glob.
func (rs *RealSet) Find(dataDir string) (RealPath, bool) {
	for _, p := range rs.Paths {
		full := filepath.Join(dataDir, p.Path)
		switch {
		case p.Format == "tu":
			if fileExists(filepath.Join(full, filepath.Base(p.Path)+"_A.txt")) {
				return p, true
			}
		case p.Files != "":
			if m, _ := filepath.Glob(filepath.Join(full, p.Files)); dirExists(full) && len(m) > 0 {
				return p, true
			}
		case fileExists(full):
			return p, true
		}
	}
	return RealPath{}, false
}

// InSeed reports whether seed 002 used the set.
func (rs *RealSet) InSeed() bool { return rs.Seed != "" }

// RealSetNamed returns the catalogue entry of a data set label (nil when
// RealSets has none).
func RealSetNamed(name string) *RealSet {
	i := slices.IndexFunc(RealSets, func(r RealSet) bool { return r.Name == name })
	if i < 0 {
		return nil
	}
	return &RealSets[i]
}

// RealSpec is the sweep of the real data sets under dataDir: every set of
// RealSets found there (RealSet.Find), in RealSets order. For Matrix
// Market directories, rectangular matrices are skipped and listed in the
// summary; the malformed files of matrix-market/nonstandard/ are not
// included. Sets that are absent are left out; none present is an error.
func RealSpec(dataDir string, o DatasetOptions) (*Spec, error) {
	s := o.spec("real")
	for i := range RealSets {
		rs := &RealSets[i]
		p, ok := rs.Find(dataDir)
		if !ok {
			continue
		}
		s.Graphs = append(s.Graphs, GraphSource{Path: filepath.Join(dataDir, p.Path), Format: p.Format, Files: p.Files, Dataset: rs.Name})
	}
	if len(s.Graphs) == 0 {
		return nil, fmt.Errorf("bench: no real data set found under %s (looked for %d sets; see bench.RealSets)", dataDir, len(RealSets))
	}
	if err := s.normalize(); err != nil {
		return nil, err
	}
	return s, nil
}

func dirExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}
