package predict

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"

	"gnnsim/accel"
	"gnnsim/dataflow"
	"gnnsim/graphs"
)

// NumConfigs is the number of configurations a predictor covers: seed 002's
// 3 inter-phase dataflows x 8 tilings, one model each.
const NumConfigs = dataflow.NumConfigs

// ConfigNames returns the configuration names in model order, the order of
// dataflow.All: seq-a..seq-h, sp-a..sp-h, pp-a..pp-h.
func ConfigNames() []string {
	names := make([]string, 0, NumConfigs)
	for _, in := range dataflow.Inters {
		for _, t := range dataflow.TilingNames {
			names = append(names, in.String()+"-"+string(t))
		}
	}
	return names
}

// PEArray is the part of an accelerator's description (accel.HW) that
// fixes the tile sizes of every configuration of a layer (dataflow.All):
// its PE count and the PEs aggregation gets under pp. A predictor records
// the arrays it was trained on (Manifest.Hardware) and refuses others; a
// sample records its own, as the runs table holds these two numbers of the
// accel.HW it was simulated on.
type PEArray struct {
	PEs      int `json:"pes"`
	PPAggPEs int `json:"pp_agg_pes"` // 0 means half, as in accel.HW
}

// PEArrayOf returns the PE array of h.
func PEArrayOf(h accel.HW) PEArray { return PEArray{PEs: h.PEs, PPAggPEs: h.PPAggPEs} }

// resolved returns h with PPAggPEs made explicit, so equal arrays compare
// equal.
func (h PEArray) resolved() PEArray {
	if h.PPAggPEs == 0 {
		h.PPAggPEs = h.PEs / 2
	}
	return h
}

// valid reports whether h, as given (resolve it first to accept
// PPAggPEs 0), is a PE array the configurations can be tiled for.
func (h PEArray) valid() bool {
	return h.PEs >= 2 && h.PEs <= dataflow.MaxDim && h.PPAggPEs >= 1 && h.PPAggPEs < h.PEs
}

func (h PEArray) String() string {
	h = h.resolved()
	return fmt.Sprintf("%d PEs (pp: %d+%d)", h.PEs, h.PPAggPEs, h.PEs-h.PPAggPEs)
}

// Sample is one labelled case: a graph with the sizes of its layer, on one
// hardware point, with the tiles and true latency of every configuration.
type Sample struct {
	Dataset  string // data set label (the runs table's dataset column)
	GraphID  int64  // the graph's id in its sweep; splits are by graph
	Mode     string // accelerator model of the labels (omega | extended)
	Graph    *graphs.Graph
	Features graphs.Features // of Graph, as graphs.ComputeFeatures gives them
	F, G     int
	Hardware PEArray // the PE array of the accelerator the labels come from
	// Tiles and Latency are indexed like ConfigNames. Latency is in cycles
	// and positive.
	Tiles   [NumConfigs]dataflow.Tiles
	Latency [NumConfigs]float64
}

// Split is the part of a data set a graph belongs to.
type Split uint8

// The three parts of seed 002's 70/15/15 split.
const (
	TrainSplit Split = iota
	ValidSplit
	TestSplit
)

func (s Split) String() string {
	switch s {
	case TrainSplit:
		return "train"
	case ValidSplit:
		return "valid"
	case TestSplit:
		return "test"
	}
	return fmt.Sprintf("Split(%d)", uint8(s))
}

// Split fractions: 70 % training, 15 % validation, the rest test.
const (
	TrainFraction = 0.70
	ValidFraction = 0.15
)

// splitStream derives the PCG stream of a data set's split from its name,
// so that data sets of equal size get unrelated permutations.
func splitStream(dataset string) uint64 {
	h := fnv.New64a()
	h.Write([]byte("gnnsim/predict split "))
	h.Write([]byte(dataset))
	return h.Sum64()
}

// DatasetGroup is the samples of one data set label: indices into the
// grouped slice, in order.
type DatasetGroup struct {
	Name    string
	Samples []int
}

// GroupByDataset groups n samples by their data set label, label(i) being
// sample i's: groups in order of first appearance, each holding its
// samples' indices in order. Every per-data-set figure (splits, metrics,
// report rows) is computed over these groups.
func GroupByDataset(n int, label func(i int) string) []DatasetGroup {
	var groups []DatasetGroup
	pos := map[string]int{}
	for i := range n {
		l := label(i)
		k, ok := pos[l]
		if !ok {
			k = len(groups)
			pos[l] = k
			groups = append(groups, DatasetGroup{Name: l})
		}
		groups[k].Samples = append(groups[k].Samples, i)
	}
	return groups
}

// AssignSplits returns the split of every sample. Splits are by graph and
// per data set: the distinct graph ids of a data set, in increasing order,
// are shuffled by a PCG generator seeded with (seed, FNV-1a of the data set
// name); the first round(0.70 n) go to training, the next round(0.15 n) to
// validation and the rest to test. Every sample of a graph (all its F, G
// and hardware cases) lands in the graph's split. The result depends only on
// seed, the data set names and their sets of graph ids, never on sample
// order.
func AssignSplits(samples []Sample, seed uint64) []Split {
	of := map[string]map[int64]Split{}
	for _, grp := range GroupByDataset(len(samples), func(i int) string { return samples[i].Dataset }) {
		ds := grp.Name
		g := make([]int64, len(grp.Samples))
		for k, i := range grp.Samples {
			g[k] = samples[i].GraphID
		}
		slices.Sort(g)
		g = slices.Compact(g)
		rng := rand.New(rand.NewPCG(seed, splitStream(ds)))
		rng.Shuffle(len(g), func(i, j int) { g[i], g[j] = g[j], g[i] })
		nTrain, nValid := splitCounts(len(g))
		m := make(map[int64]Split, len(g))
		for k, id := range g {
			switch {
			case k < nTrain:
				m[id] = TrainSplit
			case k < nTrain+nValid:
				m[id] = ValidSplit
			default:
				m[id] = TestSplit
			}
		}
		of[ds] = m
	}
	out := make([]Split, len(samples))
	for i := range samples {
		out[i] = of[samples[i].Dataset][samples[i].GraphID]
	}
	return out
}

func splitCounts(n int) (train, valid int) {
	train = int(math.Round(TrainFraction * float64(n)))
	valid = min(int(math.Round(ValidFraction*float64(n))), n-train)
	return train, valid
}
