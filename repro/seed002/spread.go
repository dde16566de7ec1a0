package seed002

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"

	"gnnsim/bench"
	"gnnsim/internal/pqio"
	"gnnsim/predict"
)

// This file is the (F, G) spread study: how much a per-graph choice of
// configuration can gain over a random one and over the best fixed one, as
// a function of the layer's feature sizes. Seed 002 does not state its F
// and G, and its Table 3 improvements (93.63 % over random, 58.42 % over the
// best fixed configuration on Graphlaxy Medium) depend on them; the study
// asks which sizes, if any, give such spreads in the Omega model.

// SpreadSizes are the feature sizes of the spread study: F and G each take
// every power of two from 16 to 512.
var SpreadSizes = []int{16, 32, 64, 128, 256, 512}

// SpreadSets are the Graphlaxy presets the study sweeps, with seed 002's
// Table 3 figures for the set (improvement over random, over best fixed).
var SpreadSets = []struct {
	Preset       string
	Random, Best float64
}{{"medium", 93.63, 58.42}, {"large", 96.27, 8.99}}

// SpreadGraphs are the graphs per preset of the study (quick, full run).
var SpreadGraphs = map[string][2]int{"medium": {100, 600}, "large": {30, 200}}

// SpreadRow is one setting of the spread study: a data set's graphs all run
// one (F, G) (Range false), or each graph draws F and G uniformly from the
// SpreadSizes up to FMax and GMax (Range true; seeded per graph). The
// improvements are those of the optimal configuration per graph (the labels
// themselves: a predictor's choice is at best as good), in percent of the
// total latency of the set, as predict.Evaluate defines them.
type SpreadRow struct {
	Dataset string `parquet:"dataset"`
	Range   bool   `parquet:"range"`
	// F and G of a single setting; for a range, the smallest sizes.
	F int64 `parquet:"f"`
	G int64 `parquet:"g"`
	// FMax and GMax are the largest sizes (equal to F, G for a single one).
	FMax   int64 `parquet:"f_max"`
	GMax   int64 `parquet:"g_max"`
	Graphs int64 `parquet:"graphs"`
	// ImprovementVsRandom = 100 (R - O) / R, R the expected total latency
	// of a uniformly random configuration per graph and O the optimal one.
	ImprovementVsRandom float64 `parquet:"improvement_vs_random"`
	// ImprovementVsBestFixed = 100 (B - O) / B, B the total latency of the
	// configuration best over the whole setting.
	ImprovementVsBestFixed float64 `parquet:"improvement_vs_best_fixed"`
	BestFixed              string  `parquet:"best_fixed"`
	// RandomOverOptimal is R / O: 93.63 % over random needs 15.7.
	RandomOverOptimal float64 `parquet:"random_over_optimal"`
	// Distance is the Euclidean distance, in percentage points, of the two
	// improvements from seed 002's Table 3 figures for the set.
	Distance float64 `parquet:"distance_to_seed"`
}

// Setting names the row's sizes ("F=64, G=16" or "F 16..512 x G 16..64").
func (r *SpreadRow) Setting() string {
	if !r.Range {
		return fmt.Sprintf("F=%d, G=%d", r.F, r.G)
	}
	return fmt.Sprintf("F %d..%d x G %d..%d (random per graph)", r.F, r.FMax, r.G, r.GMax)
}

// SpreadFile is the spread table of a reproduction directory.
const SpreadFile = "fg_spread.parquet"

// spreadStream is the PCG stream of the range settings' per-graph draws.
const spreadStream = 0x73707265616466 // "spreadf"

// Spread computes the spread table of samples: every case of one data set
// label, each graph run with every (F, G) of SpreadSizes x SpreadSizes (a
// cross sweep). seedRandom and seedBest are the seed's figures for the
// set. Rows: the single settings in F-major order, then the ranges F 16..a
// x G 16..b for every a, b of SpreadSizes, drawn with seed.
func Spread(samples []predict.Sample, seedRandom, seedBest float64, seed uint64) ([]SpreadRow, error) {
	if len(samples) == 0 {
		return nil, errors.New("seed002: spread: no samples")
	}
	n := len(SpreadSizes)
	ds := samples[0].Dataset
	// at[graph][fi][gi] is the sample of that graph and sizes.
	var graphs []int64
	at := map[int64][]int{}
	for i := range samples {
		s := &samples[i]
		if s.Dataset != ds {
			return nil, fmt.Errorf("seed002: spread: data sets %q and %q mixed", ds, s.Dataset)
		}
		fi, gi := slices.Index(SpreadSizes, s.F), slices.Index(SpreadSizes, s.G)
		if fi < 0 || gi < 0 {
			return nil, fmt.Errorf("seed002: spread: case of graph %d has F=%d, G=%d, not in %v", s.GraphID, s.F, s.G, SpreadSizes)
		}
		cell, ok := at[s.GraphID]
		if !ok {
			cell = slices.Repeat([]int{-1}, n*n)
			at[s.GraphID] = cell
			graphs = append(graphs, s.GraphID)
		}
		cell[fi*n+gi] = i
	}
	for _, g := range graphs {
		if i := slices.Index(at[g], -1); i >= 0 {
			return nil, fmt.Errorf("seed002: spread: graph %d has no case with F=%d, G=%d (sweep with sizes mode cross)", g, SpreadSizes[i/n], SpreadSizes[i%n])
		}
	}
	slices.Sort(graphs)
	row := func(pick func(g int64, k int) int, r SpreadRow) (SpreadRow, error) {
		truth := make([][]float64, len(graphs))
		for k, g := range graphs {
			truth[k] = samples[at[g][pick(g, k)]].Latency[:]
		}
		best, err := predict.BestFixed(truth)
		if err != nil {
			return r, err
		}
		// The optimal choice: predictions equal to the labels.
		m, err := predict.Evaluate(truth, truth, best)
		if err != nil {
			return r, err
		}
		r.Dataset, r.Graphs = ds, int64(len(graphs))
		r.ImprovementVsRandom, r.ImprovementVsBestFixed = m.ImprovementVsRandom, m.ImprovementVsBestFixed
		r.BestFixed = predict.ConfigNames()[best]
		r.RandomOverOptimal = 1 / (1 - m.ImprovementVsRandom/100)
		r.Distance = math.Hypot(m.ImprovementVsRandom-seedRandom, m.ImprovementVsBestFixed-seedBest)
		return r, nil
	}
	var out []SpreadRow
	for fi, f := range SpreadSizes {
		for gi, g := range SpreadSizes {
			r, err := row(func(int64, int) int { return fi*n + gi },
				SpreadRow{F: int64(f), G: int64(g), FMax: int64(f), GMax: int64(g)})
			if err != nil {
				return nil, err
			}
			out = append(out, r)
		}
	}
	for a := range SpreadSizes {
		for b := range SpreadSizes {
			if a == 0 && b == 0 {
				continue // the single setting F=16, G=16
			}
			r, err := row(func(g int64, _ int) int {
				rng := rand.New(rand.NewPCG(seed^uint64(g), spreadStream))
				return rng.IntN(a+1)*n + rng.IntN(b+1)
			}, SpreadRow{Range: true, F: int64(SpreadSizes[0]), G: int64(SpreadSizes[0]), FMax: int64(SpreadSizes[a]), GMax: int64(SpreadSizes[b])})
			if err != nil {
				return nil, err
			}
			out = append(out, r)
		}
	}
	return out, nil
}

// Closest returns the row of rows nearest the seed's figures (least
// Distance; the first on ties) and the row of largest improvement over
// random.
func Closest(rows []SpreadRow) (closest, widest SpreadRow) {
	for i, r := range rows {
		if i == 0 || r.Distance < closest.Distance {
			closest = r
		}
		if i == 0 || r.ImprovementVsRandom > widest.ImprovementVsRandom {
			widest = r
		}
	}
	return closest, widest
}

// SpreadSpec is the sweep of the spread study for one Graphlaxy preset:
// its first n graphs (the preset's own graphs, same seed) with every (F,
// G) of SpreadSizes.
func SpreadSpec(preset string, n int, seed uint64, mode string) (*bench.Spec, error) {
	spec, err := bench.GraphlaxySpec(preset, bench.DatasetOptions{Seed: seed, Mode: mode,
		Sizes: bench.SizeSpec{F: SpreadSizes, G: SpreadSizes, Mode: "cross"}})
	if err != nil {
		return nil, err
	}
	spec.Name = "spread-" + preset
	spec.Graphs[0].Count = n
	// Each graph runs 36 layers: small chunks, so that every worker gets
	// some (a chunk is one worker's unit).
	spec.ChunkGraphs = 8
	return spec, nil
}

// runSpread sweeps and tabulates the spread study of every SpreadSets
// preset into dir/spread-<preset>.
func runSpread(ctx context.Context, o Options, mode string, logf func(string, ...any)) ([]SpreadRow, error) {
	var all []SpreadRow
	for _, set := range SpreadSets {
		n := SpreadGraphs[set.Preset][1]
		if o.Quick {
			n = SpreadGraphs[set.Preset][0]
		}
		if o.Sizes.SpreadGraphs > 0 {
			n = o.Sizes.SpreadGraphs
		}
		spec, err := SpreadSpec(set.Preset, n, o.Seed, mode)
		if err != nil {
			return nil, err
		}
		dir := spreadDir(o.Out, set.Preset)
		if err := runSweep(ctx, spec, dir, o, logf); err != nil {
			return nil, err
		}
		samples, err := bench.ReadDataset(dir)
		if err != nil {
			return nil, err
		}
		rows, err := Spread(samples, set.Random, set.Best, o.Seed)
		if err != nil {
			return nil, err
		}
		all = append(all, rows...)
	}
	return all, nil
}

func spreadDir(out, preset string) string {
	return filepath.Join(out, "data", "spread-"+preset)
}

// WriteSpread writes the spread table as Parquet.
func WriteSpread(path string, rows []SpreadRow, meta map[string]string) error {
	if err := pqio.Write(path, rows, meta); err != nil {
		return fmt.Errorf("seed002: %w", err)
	}
	return nil
}
