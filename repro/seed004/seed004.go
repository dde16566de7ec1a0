package seed004

import (
	"context"
	"fmt"
	"io"
	"path/filepath"

	"gonum.org/v1/gonum/stat"

	"gnnsim/accel/fpga"
	"gnnsim/nas/fgnas"
)

// OracleFor returns the accuracy oracle of a data set, or an error saying
// why the data set cannot be trained (the report quotes it).
type OracleFor func(d fgnas.Dataset) (fgnas.Oracle, error)

// Options configure a reproduction.
type Options struct {
	// Out is the results directory (created if needed).
	Out string
	// Quick runs a reduced experiment on Cora (unless Datasets says
	// otherwise): two runs of each method under the tightest and the
	// loosest specification of Table 3, with 300 joint episodes and a
	// separate search of 5 architecture and 150 hardware episodes (its
	// architecture phase trains unconstrained networks: a 64 x 16-head GAT
	// takes minutes on a CPU even at the quick oracle's 20 epochs).
	Quick bool
	// Runs per method and specification; 0 means FGNAS's 5 (1 when Quick).
	Runs int
	// JointEpisodes overrides the joint search's episodes (0: FGNAS's
	// 2,000, or 1,500 when Quick).
	JointEpisodes int
	// Seed fixes every random choice: run k of a cell uses a seed derived
	// from it.
	Seed uint64
	// Oracle supplies accuracy per data set (required).
	Oracle OracleFor
	// Models are the cost models every search runs under, in report
	// order; nil means both: the FGNAS authors' (fpga.FGNASCode) and ours
	// (fpga.Gnnsim, with Timing).
	Models []fpga.Model
	// Timing is our model's timing (its Model and Budget are ignored).
	// The zero value is nodes counted, sparse input, summed stages;
	// Published gives FGNAS's linear stage.
	Timing fpga.Options
	// AnyResource judges designs under the authors' model by their code's
	// any-resource rule instead of the paper's every-limit rule.
	AnyResource bool
	// TrainUntil > 0 runs joint search and separate search's hardware
	// phase until that many designs were trained (the authors' --gpu-eps),
	// for at most MaxEpisodes episodes (0: 10x the phase's episodes).
	TrainUntil, MaxEpisodes int
	// ScreenDraws > 0 lets separate search skip architectures with no
	// feasible hardware among that many uniform hardware draws
	// (fgnas.Problem.ScreenDraws); 0 is FGNAS's protocol.
	ScreenDraws int
	// Workers bounds the work at once (<= 0: one per CPU): the
	// (specification, run) searches run searchesPerWorker x Workers at
	// once, and the architecture phases of separate search all at once,
	// each evaluating its batches concurrently, so the oracle should bound
	// its own trainings to Workers (TrainedOracle does). Results do not
	// depend on it (the oracle must be safe for concurrent use).
	Workers int
	// Datasets names the data sets to run (nil: all three). Cora is
	// required (Table 3); "cora" alone runs Table 3 and Table 4's Cora
	// row.
	Datasets []string
	// FeasibilityDraws is the number of uniform designs per data set the
	// feasibility table judges (0: FeasibilityDraws, 100,000).
	FeasibilityDraws int
	// Log receives progress lines (nil: none).
	Log io.Writer
}

// Cell is one (data set, specification, method) entry of the tables: the
// best over the runs, as FGNAS reports it, and the mean over runs.
type Cell struct {
	Data, Method string
	// Model is the cost model the searches ran under.
	Model  string
	Limits fgnas.Limits
	// BestTest is the test accuracy of the best sample (by validation) of
	// the run whose best sample has the highest test accuracy (FGNAS's
	// rule); MeanBestTest the mean of the runs' best samples.
	BestTest, MeanBestTest float64
	// MeanBestVal is the mean over runs of the best validation accuracy
	// (0 for a run without a feasible design): the reward the searches
	// maximise; SDBestVal its sample standard deviation over runs.
	MeanBestVal, SDBestVal float64
	// Top10Test is the selected run's mean test accuracy of its ten best.
	Top10Test float64
	// Found counts the runs that trained a feasible design; MeanTestFound
	// and SDTestFound are the mean and sample standard deviation of their
	// best designs' test accuracy. Capped counts TrainUntil runs that hit
	// their episode cap.
	Found                      int
	MeanTestFound, SDTestFound float64
	Capped                     int
	// Trained and Episodes are summed over runs; Feasible counts the
	// feasible distinct designs.
	Trained, Episodes, Samples, Feasible int
	Runs                                 []*fgnas.RunResult
}

// Report is what Run produced.
type Report struct {
	Table3, Table4 []Cell
	// Skipped names the data sets left out and why.
	Skipped map[string]string
	// Feasibility is the share of uniform designs meeting each Table 3
	// specification on Cora and each Table 4 one on its data set, under
	// every model (the authors' with the paper's and their code's rule,
	// ours).
	Feasibility []FeasibleRow
	Files       []string
}

// Table3Limits are FGNAS Table 3's specifications, in its order.
func Table3Limits() []fgnas.Limits {
	var out []fgnas.Limits
	for _, lat := range []float64{0.8, 0.9, 1.0} {
		for _, lut := range []int64{10000, 100000} {
			for _, dsp := range []int64{10, 100} {
				out = append(out, fgnas.Limits{LatencyMS: lat, LUT: lut, DSP: dsp})
			}
		}
	}
	return out
}

// Quick runs' episodes: joint search, separate search's architecture and
// hardware phases.
const (
	quickJoint = 300
	quickArch  = 5
	quickHW    = 150
)

// Table4Limits are FGNAS Table 4's specifications for CiteSeer and PubMed
// (Cora's is Table 3's loosest).
func Table4Limits(d fgnas.Dataset) fgnas.Limits {
	if d.Name == fgnas.PubMed.Name {
		return fgnas.Limits{LatencyMS: 7, LUT: 100000, DSP: 1000}
	}
	return fgnas.Limits{LatencyMS: 1, LUT: 100000, DSP: 100}
}

// searchesPerWorker is how many (specification, run) searches run at once
// per worker. A search spends most of its time waiting for its own
// batch's trainings, and a batch often holds a single new architecture
// (the rest cached), so one search per worker left a core idle: the
// quiet full Table 3 used 1.46 of 2 cores (user 4,062 s over 2,775 s
// wall). The oracle still trains at most Workers networks at once.
const searchesPerWorker = 4

// Methods are the three searches in the tables' order.
var Methods = []string{"joint", "random", "separate"}

type plan struct {
	runs, joint, arch, hw int
	limits                []fgnas.Limits
	separate              bool
}

func (o Options) plan() plan {
	p := plan{runs: 5, joint: fgnas.JointEpisodes, arch: fgnas.ArchEpisodes, hw: fgnas.HWEpisodes, limits: Table3Limits(), separate: true}
	if o.Quick {
		all := p.limits
		p = plan{runs: 2, joint: quickJoint, arch: quickArch, hw: quickHW, limits: []fgnas.Limits{all[0], all[11]}, separate: true}
	}
	if o.Runs > 0 {
		p.runs = o.Runs
	}
	if o.JointEpisodes > 0 {
		p.joint = o.JointEpisodes
	}
	return p
}

// runOne runs run k of every method on p with the run's seed: joint
// search, random search for as many trained samples as the joint run, and,
// when sep is not nil, separate search's hardware phase on the
// architecture phase sep returns (seeded hwSeed). Results are in Methods
// order, nil for a method not run.
func runOne(ctx context.Context, p *fgnas.Problem, pl plan, seed uint64, sep func() (*fgnas.ArchResult, error), hwSeed uint64) ([]*fgnas.RunResult, error) {
	out := make([]*fgnas.RunResult, len(Methods))
	j, err := p.Joint(ctx, pl.joint, seed)
	if err != nil {
		return nil, err
	}
	r, err := p.Random(ctx, j.Trained, seed)
	if err != nil {
		return nil, err
	}
	out[0], out[1] = j, r
	if sep != nil {
		a, err := sep()
		if err != nil {
			return nil, err
		}
		if out[2], err = p.SeparateHardware(ctx, a, pl.hw, hwSeed); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// FeasibilityDraws is the number of uniform designs per data set the
// feasibility table judges.
const FeasibilityDraws = 100_000

// model is a cost model as the reproduction runs it: a name and the FPGA
// options (Budget unset).
type model struct {
	name string
	opt  fpga.Options
}

func (o Options) models() []model {
	ms := o.Models
	if ms == nil {
		ms = []fpga.Model{fpga.FGNASCode, fpga.Gnnsim}
	}
	var out []model
	for _, m := range ms {
		opt := o.Timing
		opt.Model, opt.Budget = m, fpga.Budget{}
		name := m.String()
		if m == fpga.FGNASCode {
			opt = fpga.Options{Model: m, AnyResource: o.AnyResource}
			if o.AnyResource {
				name += " (any resource)"
			}
		}
		out = append(out, model{name, opt})
	}
	return out
}

// feasibility judges draws uniform designs per data set of data against
// Table 3's specifications (Cora) and Table 4's (CiteSeer, PubMed) under the
// authors' model with the paper's rule and their code's, and ours.
func (o Options) feasibility(data []fgnas.Dataset, draws int) ([]FeasibleRow, error) {
	own := o.Timing
	own.Model, own.Budget = fpga.Gnnsim, fpga.Budget{}
	pricing := []fpga.Options{{Model: fpga.FGNASCode}, own}
	vms := []verdictModel{
		{name: "fgnas-code", price: 0, opt: pricing[0]},
		{name: "fgnas-code (any resource)", price: 0, opt: fpga.Options{Model: fpga.FGNASCode, AnyResource: true}},
		{name: "gnnsim", price: 1, opt: own},
	}
	var sets []specSet
	for _, d := range data {
		if d.Name == fgnas.Cora.Name {
			sets = append(sets, specSet{d, Table3Limits()})
		} else {
			sets = append(sets, specSet{d, []fgnas.Limits{Table4Limits(d)}})
		}
	}
	return feasibility(sets, vms, pricing, draws, o.Seed)
}

// Verdict renders the cell's outcome honestly: "not run" when no run was
// made, "none feasible" when no run trained a feasible design, else the
// mean ± sd of the runs' best test accuracy and how many runs found one.
func (c Cell) Verdict() string {
	switch {
	case len(c.Runs) == 0:
		return "not run"
	case c.Found == 0:
		return fmt.Sprintf("none feasible (0 of %d runs)", len(c.Runs))
	case c.Found == 1:
		return fmt.Sprintf("%.1f%% (1 of %d runs)", 100*c.MeanTestFound, len(c.Runs))
	}
	s := fmt.Sprintf("%.1f ± %.1f%%", 100*c.MeanTestFound, 100*c.SDTestFound)
	if c.Found < len(c.Runs) {
		s += fmt.Sprintf(" (%d of %d runs)", c.Found, len(c.Runs))
	}
	return s
}

func summarise(c *Cell) {
	sel := -1
	var bests, found []float64
	for i, r := range c.Runs {
		c.Trained += r.Trained
		c.Episodes += r.Episodes
		c.Samples += len(r.Samples)
		for _, s := range r.Samples {
			if s.Feasible {
				c.Feasible++
			}
		}
		c.MeanBestTest += r.BestTest() / float64(len(c.Runs))
		c.MeanBestVal += r.BestVal() / float64(len(c.Runs))
		bests = append(bests, r.BestVal())
		if r.Best >= 0 {
			c.Found++
			found = append(found, r.BestTest())
		}
		if r.Capped {
			c.Capped++
		}
		if r.Best >= 0 && (sel < 0 || r.BestTest() > c.Runs[sel].BestTest()) {
			sel = i
		}
	}
	if sel >= 0 {
		c.BestTest = c.Runs[sel].BestTest()
		c.Top10Test = c.Runs[sel].Top10Test
	}
	if len(bests) > 1 {
		_, c.SDBestVal = stat.MeanStdDev(bests, nil)
	}
	if len(found) > 0 {
		c.MeanTestFound = stat.Mean(found, nil)
	}
	if len(found) > 1 {
		_, c.SDTestFound = stat.MeanStdDev(found, nil)
	}
}

func outPath(opts Options, name string) string { return filepath.Join(opts.Out, name) }
