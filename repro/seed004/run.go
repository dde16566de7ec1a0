package seed004

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"

	"gnnsim/accel/fpga"
	"gnnsim/bench"
	"gnnsim/internal/par"
	"gnnsim/internal/splitmix"
	"gnnsim/nas/fgnas"
)

// Run executes the reproduction and writes report.md, the Parquet tables
// and the figures into opts.Out.
func Run(ctx context.Context, opts Options) (Report, error) {
	var rep Report
	if err := opts.check(); err != nil {
		return rep, err
	}
	if opts.Quick && opts.Datasets == nil {
		// Quick runs Table 3's two specifications on Cora only.
		opts.Datasets = []string{fgnas.Cora.Name}
	}
	c := &campaign{opts: opts, pl: opts.plan()}
	var err error
	if c.oracles, rep.Skipped, err = c.trainable(); err != nil {
		return rep, err
	}
	c.jobs, c.models = c.searchJobs(), opts.models()

	// Separate search's architecture phases run beside the joint and
	// random searches (see startArchPhases); a cancelled search stops them.
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	// Progress over the searches (and architecture phases), with a
	// heartbeat: each takes minutes, and the run must not sit silent.
	c.prog = bench.NewProgress(opts.Log, "seed004", "searches", c.searchCount())
	defer c.prog.Done()
	defer c.prog.Beat()()
	phases := c.startArchPhases(ctx)
	start := time.Now()
	runs, err := c.searches(ctx, phases)
	if err != nil {
		stop() // and let the phases see it before returning
		<-phases.done
		return rep, err
	}
	<-phases.done // every search's hardware phase waited for it, unless none ran
	if phases.err != nil {
		return rep, phases.err
	}
	c.logf("seed004: joint, random and separate searches (beside the phases): %.0f s", time.Since(start).Seconds())
	c.tables(runs, &rep)
	start = time.Now()
	draws := opts.FeasibilityDraws
	if draws <= 0 {
		draws = FeasibilityDraws
	}
	var sets []fgnas.Dataset
	for _, d := range []fgnas.Dataset{fgnas.Cora, fgnas.CiteSeer, fgnas.PubMed} {
		if _, skipped := rep.Skipped[d.Name]; !skipped || d.Name == fgnas.PubMed.Name && rep.Skipped[d.Name] != "not requested" {
			sets = append(sets, d)
		}
	}
	if rep.Feasibility, err = opts.feasibility(sets, draws); err != nil {
		return rep, err
	}
	c.logf("seed004: feasible shares (%d uniform designs per data set): %.0f s", draws, time.Since(start).Seconds())
	if err := write(opts, c.pl, &rep); err != nil {
		return rep, err
	}
	return rep, nil
}

// check rejects options Run cannot use and creates the output directory.
func (o Options) check() error {
	if o.Oracle == nil {
		return errors.New("seed004: no accuracy oracle")
	}
	if o.Out == "" {
		return errors.New("seed004: no output directory")
	}
	if o.Runs < 0 || o.JointEpisodes < 0 {
		return fmt.Errorf("seed004: %d runs, %d joint episodes", o.Runs, o.JointEpisodes)
	}
	if err := os.MkdirAll(o.Out, 0o755); err != nil {
		return fmt.Errorf("seed004: %w", err)
	}
	return nil
}

// campaign is a reproduction's searches: every (specification, cost
// model, run) of the data sets that can be trained.
type campaign struct {
	opts    Options
	pl      plan
	oracles map[string]fgnas.Oracle // by data set name
	jobs    []searchJob
	models  []model
	prog    *bench.Progress
}

// searchJob is one specification of one data set, for Table 3 or 4.
type searchJob struct {
	data   fgnas.Dataset
	limits fgnas.Limits
	table  int
}

func (c *campaign) logf(format string, args ...any) {
	if c.opts.Log != nil {
		fmt.Fprintf(c.opts.Log, format+"\n", args...)
	}
}

// trainable returns the oracle of every requested data set that can be
// trained, and why each other one is left out. Cora is required.
func (c *campaign) trainable() (map[string]fgnas.Oracle, map[string]string, error) {
	opts := c.opts
	skipped := map[string]string{}
	oracles := map[string]fgnas.Oracle{}
	for _, name := range opts.Datasets {
		if _, err := fgnas.DatasetByName(name); err != nil {
			return nil, skipped, fmt.Errorf("seed004: %w", err)
		}
	}
	for _, d := range []fgnas.Dataset{fgnas.Cora, fgnas.CiteSeer, fgnas.PubMed} {
		if opts.Datasets != nil && !slices.ContainsFunc(opts.Datasets, func(n string) bool { return strings.EqualFold(n, d.Name) }) {
			skipped[d.Name] = "not requested"
			continue
		}
		o, err := opts.Oracle(d)
		if err != nil {
			skipped[d.Name] = err.Error()
			c.logf("seed004: %s left out: %v", d.Name, err)
			continue
		}
		oracles[d.Name] = o
	}
	if oracles[fgnas.Cora.Name] == nil {
		return nil, skipped, fmt.Errorf("seed004: Cora cannot be trained: %s", skipped[fgnas.Cora.Name])
	}
	return oracles, skipped, nil
}

// searchJobs lists Table 3's jobs, Cora under every specification, then
// Table 4's: CiteSeer and PubMed under their loosest one (Cora's is
// Table 3's last cell).
func (c *campaign) searchJobs() []searchJob {
	var jobs []searchJob
	for _, l := range c.pl.limits {
		jobs = append(jobs, searchJob{fgnas.Cora, l, 3})
	}
	for _, d := range []fgnas.Dataset{fgnas.CiteSeer, fgnas.PubMed} {
		if c.oracles[d.Name] == nil {
			continue
		}
		jobs = append(jobs, searchJob{d, Table4Limits(d), 4})
	}
	return jobs
}

// searchCount is the number of searches and architecture phases.
func (c *campaign) searchCount() int {
	n := len(c.jobs) * len(c.models) * c.pl.runs
	if c.pl.separate {
		names := map[string]bool{}
		for _, j := range c.jobs {
			names[j.data.Name] = true
		}
		n += len(names) * c.pl.runs
	}
	return n
}

// problem is job j's search problem under the cost model m.
func (c *campaign) problem(j searchJob, m fpga.Options) (*fgnas.Problem, error) {
	sp, err := fgnas.NewSpace(2, j.data.Classes)
	if err != nil {
		return nil, err
	}
	// A batch's designs are evaluated concurrently: the oracle bounds
	// the trainings that run at once.
	return &fgnas.Problem{Space: sp, Data: j.data, Limits: j.limits, Oracle: c.oracles[j.data.Name], Timing: m,
		Workers: fgnas.BatchEpisodes, TrainUntil: c.opts.TrainUntil, MaxEpisodes: c.opts.MaxEpisodes, ScreenDraws: c.opts.ScreenDraws}, nil
}

// archPhases are separate search's architecture phases: arch[data set][run]
// once done is closed, or err.
type archPhases struct {
	arch map[string][]*fgnas.ArchResult
	done chan struct{}
	err  error
}

// of waits for run k's architecture phase on data set name.
func (a *archPhases) of(ctx context.Context, name string, k int) (*fgnas.ArchResult, error) {
	select {
	case <-a.done:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if a.err != nil {
		return nil, a.err
	}
	return a.arch[name][k], nil
}

// startArchPhases starts separate search's architecture phases. They
// ignore the limits, so run k's serves every specification of its data
// set. They run side by side (their trainings are what the oracle
// bounds), and beside the joint and random searches, which do not need
// them: the last phases' long trainings no longer leave a core idle
// before the searches start. A search's hardware phase waits for its
// run's.
func (c *campaign) startArchPhases(ctx context.Context) *archPhases {
	a := &archPhases{arch: map[string][]*fgnas.ArchResult{}, done: make(chan struct{})}
	if !c.pl.separate {
		close(a.done)
		return a
	}
	type archJob struct {
		j searchJob
		k int
	}
	var ajobs []archJob
	for _, j := range c.jobs {
		if _, ok := a.arch[j.data.Name]; !ok {
			a.arch[j.data.Name] = make([]*fgnas.ArchResult, c.pl.runs)
			for k := range c.pl.runs {
				ajobs = append(ajobs, archJob{j, k})
			}
		}
	}
	start := time.Now()
	phases := func() error {
		return par.For(len(ajobs), len(ajobs), func(i int) error {
			aj := ajobs[i]
			p, err := c.problem(aj.j, c.models[0].opt)
			if err != nil {
				return err
			}
			r, err := p.SeparateArch(ctx, c.pl.arch, splitmix.Mix64(c.opts.Seed+uint64(aj.k)))
			if err != nil {
				return fmt.Errorf("seed004: %s separate search run %d: %w", aj.j.data.Name, aj.k, err)
			}
			a.arch[aj.j.data.Name][aj.k] = r
			c.prog.Add(1)
			c.logf("seed004: %s separate search run %d: architecture phase done (%d networks)", aj.j.data.Name, aj.k, len(r.Samples))
			return nil
		})
	}
	go func() {
		defer close(a.done)
		if a.err = phases(); a.err == nil {
			c.logf("seed004: separate search architecture phases: %.0f s", time.Since(start).Seconds())
		}
	}()
	return a
}

// searches runs every (specification, model, run): joint search, random
// search with its trained count, separate search's hardware phase. Both
// models use the same seeds. The result is indexed by job, model, method
// and run.
func (c *campaign) searches(ctx context.Context, phases *archPhases) ([][][][]*fgnas.RunResult, error) {
	jobs, models, pl := c.jobs, c.models, c.pl
	type runJob struct{ cell, model, k int }
	var rjobs []runJob
	for i := range jobs {
		for m := range models {
			for k := range pl.runs {
				rjobs = append(rjobs, runJob{i, m, k})
			}
		}
	}
	runs := make([][][][]*fgnas.RunResult, len(jobs)) // cell, model, method, run
	for i := range runs {
		runs[i] = make([][][]*fgnas.RunResult, len(models))
		for mo := range models {
			runs[i][mo] = make([][]*fgnas.RunResult, len(Methods))
			for m := range Methods {
				runs[i][mo][m] = make([]*fgnas.RunResult, pl.runs)
			}
		}
	}
	// The specifications of a data set and model share separate search's
	// screen (run k draws the same hardware under each).
	type screenOf struct {
		data  string
		model int
	}
	screens := map[screenOf]*fgnas.ScreenCache{}
	for _, j := range jobs {
		for mo := range models {
			if _, ok := screens[screenOf{j.data.Name, mo}]; !ok {
				screens[screenOf{j.data.Name, mo}] = fgnas.NewScreenCache()
			}
		}
	}
	workers := c.opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	err := par.For(len(rjobs), searchesPerWorker*workers, func(r int) error {
		i, mo, k := rjobs[r].cell, rjobs[r].model, rjobs[r].k
		j := jobs[i]
		p, err := c.problem(j, models[mo].opt)
		if err != nil {
			return err
		}
		p.Screens = screens[screenOf{j.data.Name, mo}]
		var sep func() (*fgnas.ArchResult, error)
		if pl.separate {
			sep = func() (*fgnas.ArchResult, error) { return phases.of(ctx, j.data.Name, k) }
		}
		res, err := runOne(ctx, p, pl, splitmix.Mix64(splitmix.Mix64(c.opts.Seed^uint64(i+1))+uint64(k)), sep,
			splitmix.Mix64(c.opts.Seed+uint64(k))+1)
		if err != nil {
			return fmt.Errorf("seed004: %s %s %s run %d: %w", j.data.Name, j.limits, models[mo].name, k, err)
		}
		for m := range res {
			runs[i][mo][m][k] = res[m]
		}
		c.prog.Add(1)
		return nil
	})
	return runs, err
}

// tables summarises runs into the cells of Tables 3 and 4 of rep.
func (c *campaign) tables(runs [][][][]*fgnas.RunResult, rep *Report) {
	cells := make([][]Cell, len(c.jobs))
	for i, j := range c.jobs {
		for mo, model := range c.models {
			for m, name := range Methods {
				cell := Cell{Data: j.data.Name, Method: name, Model: model.name, Limits: j.limits}
				for _, r := range runs[i][mo][m] {
					if r != nil {
						cell.Runs = append(cell.Runs, r)
					}
				}
				summarise(&cell)
				cells[i] = append(cells[i], cell)
			}
			cs := cells[i][len(cells[i])-len(Methods):]
			c.logf("seed004: %s %s %s: joint %s, random %s, separate %s (best test)", j.data.Name, j.limits, model.name,
				cs[0].Verdict(), cs[1].Verdict(), cs[2].Verdict())
		}
	}
	for i, j := range c.jobs {
		if j.table == 3 {
			rep.Table3 = append(rep.Table3, cells[i]...)
		} else {
			rep.Table4 = append(rep.Table4, cells[i]...)
		}
	}
	// Table 4's Cora row is Table 3's loosest cell (1 ms, 100k, 100).
	var cora []Cell
	for _, cell := range rep.Table3 {
		if cell.Limits == (fgnas.Limits{LatencyMS: 1, LUT: 100000, DSP: 100}) {
			cora = append(cora, cell)
		}
	}
	rep.Table4 = append(cora, rep.Table4...)
}
