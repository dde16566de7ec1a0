package bench

import (
	"fmt"
	"os"
	"path/filepath"
)

// GraphlaxySpec is the sweep of one of seed 002's synthetic data sets
// (preset small, medium or large: 243, 9,171 or 6,381 Graphlaxy graphs)
// on all 24 configurations of the default hardware.
func GraphlaxySpec(preset string, seed uint64, mode string) (*Spec, error) {
	s := &Spec{
		Name:   "graphlaxy-" + preset,
		Seed:   seed,
		Graphs: []GraphSource{{Generator: "graphlaxy", Preset: preset, Dataset: "Graphlaxy." + preset}},
		Mode:   mode,
	}
	if err := s.normalize(); err != nil {
		return nil, err
	}
	return s, nil
}

// RealSpec is the sweep of the real data sets under dataDir (the layout of
// ../shared/data): the TUDataset sets ENZYMES, MUTAG, AIDS and NCI1, every
// square Matrix Market network (rectangular ones are skipped and listed in
// the summary; the malformed files of nonstandard/ are not included), and
// Cora. Sets that are absent are left out; none present is an error.
func RealSpec(dataDir string, seed uint64, mode string) (*Spec, error) {
	s := &Spec{Name: "real", Seed: seed, Mode: mode}
	for _, ds := range []string{"ENZYMES", "MUTAG", "AIDS", "NCI1"} {
		p := filepath.Join(dataDir, "tu", ds)
		if _, err := os.Stat(filepath.Join(p, ds+"_A.txt")); err == nil {
			s.Graphs = append(s.Graphs, GraphSource{Path: p, Format: "tu", Dataset: ds})
		}
	}
	if mm := filepath.Join(dataDir, "matrix-market"); dirExists(mm) {
		s.Graphs = append(s.Graphs, GraphSource{Path: mm, Format: "mtx", Files: "*.mtx", Dataset: "SuiteSparse"})
	}
	if c := filepath.Join(dataDir, "planetoid", "cora", "cora.cites"); fileExists(c) {
		s.Graphs = append(s.Graphs, GraphSource{Path: c, Format: "cites", Dataset: "Cora"})
	}
	if len(s.Graphs) == 0 {
		return nil, fmt.Errorf("bench: no real data set found under %s", dataDir)
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
