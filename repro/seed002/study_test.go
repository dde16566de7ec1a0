package seed002

import (
	"testing"

	"gnnsim/predict"
)

// The study's job mixes split the real graphs into molecules and larger
// graphs, add the held-out Medium/Large graphs to the larger ones, keep
// seed 002's sets apart, and the even mix has as many of each.
func TestStudyMixes(t *testing.T) {
	var real, held []predict.Sample
	add := func(to *[]predict.Sample, ds string, n int) {
		for i := range n {
			*to = append(*to, predict.Sample{Dataset: ds, GraphID: int64(i)})
		}
	}
	add(&real, "ENZYMES", 6)
	add(&real, "NCI1", 10)
	add(&real, "SuiteSparse", 3)
	add(&real, "Cora", 1)
	add(&held, "Graphlaxy.small", 4)
	add(&held, "Graphlaxy.medium", 2)
	add(&held, "Graphlaxy.large", 1)
	mixes := StudyMixes(real, held)
	count := map[string]map[string]int{}
	for _, m := range mixes {
		count[m.Name] = map[string]int{}
		for _, s := range m.Cases {
			count[m.Name][s.Dataset]++
		}
	}
	check := func(mix string, want map[string]int) {
		t.Helper()
		got := count[mix]
		if len(got) != len(want) {
			t.Errorf("%s: %v, want %v", mix, got, want)
			return
		}
		for k, v := range want {
			if got[k] != v {
				t.Errorf("%s: %v, want %v", mix, got, want)
				return
			}
		}
	}
	if mixes[0].Name != "all real" || len(mixes[0].Cases) != len(real) {
		t.Errorf("base mix %s with %d cases, want all %d real ones", mixes[0].Name, len(mixes[0].Cases), len(real))
	}
	check("seed's sets", map[string]int{"ENZYMES": 6, "SuiteSparse": 3})
	check("molecules", map[string]int{"ENZYMES": 6, "NCI1": 10})
	check("larger graphs", map[string]int{"SuiteSparse": 3, "Cora": 1, "Graphlaxy.medium": 2, "Graphlaxy.large": 1})
	var evenMol, evenLarge int
	for ds, n := range count["even"] {
		if ds == "ENZYMES" || ds == "NCI1" {
			evenMol += n
		} else {
			evenLarge += n
		}
	}
	if evenMol != 7 || evenLarge != 7 {
		t.Errorf("even mix: %d molecules, %d larger graphs; want 7 and 7", evenMol, evenLarge)
	}
	if m := StudyMixes(nil, held); len(m) != 1 || len(m[0].Cases) != len(held) {
		t.Errorf("without real data: %d mixes, want one of the %d held-out graphs", len(m), len(held))
	}
}
