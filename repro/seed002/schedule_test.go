package seed002

import (
	"context"
	"encoding/json"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"gnnsim/bench"
	"gnnsim/internal/pqio"
	"gnnsim/predict"
	"gnnsim/sched"
	"gnnsim/workload"
)

// Both predictor types of package predict serve scheduling.
var (
	_ CasePredictor = (*predict.Predictor)(nil)
	_ CasePredictor = (*predict.Fitted)(nil)
)

// tinyCases simulates n Graphlaxy Small graphs on the 24 configurations
// into a temp dir and reads them back as cases.
func tinyCases(tb testing.TB, n int) []predict.Sample {
	tb.Helper()
	spec, err := bench.GraphlaxySpec("small", bench.DatasetOptions{Seed: 7, Mode: "omega"})
	if err != nil {
		tb.Fatal(err)
	}
	spec.Graphs[0].Count = n
	plan, err := bench.NewPlan(spec)
	if err != nil {
		tb.Fatal(err)
	}
	dir := tb.TempDir()
	if _, err := plan.Run(context.Background(), dir, bench.Options{}); err != nil {
		tb.Fatal(err)
	}
	cases, err := bench.ReadDataset(dir)
	if err != nil {
		tb.Fatal(err)
	}
	return cases
}

// noisyPredictor predicts the true latency times a fixed lognormal factor
// per (case, configuration): an imperfect predictor independent of the
// trainer.
type noisyPredictor struct{ sigma float64 }

func (p noisyPredictor) PredictSample(s *predict.Sample, out []float64) (int, error) {
	rng := rand.New(rand.NewPCG(uint64(s.GraphID), 5))
	for c, l := range s.Latency {
		out[c] = l * math.Exp(p.sigma*rng.NormFloat64())
	}
	return predict.ArgMin(out[:predict.NumConfigs]), nil
}

func TestParseMachines(t *testing.T) {
	// configs names the configurations of dataflow df with the tilings ts.
	configs := func(df, ts string) []string {
		var out []string
		for _, t := range ts {
			out = append(out, df+"-"+string(t))
		}
		return out
	}
	all := "abcdefgh"
	tests := []struct {
		in   string
		want []sched.Machine
		err  string
	}{
		{in: "seq,sp,pp", want: []sched.Machine{{Name: "seq", Mappings: configs("seq", all)}, {Name: "sp", Mappings: configs("sp", all)}, {Name: "pp", Mappings: configs("pp", all)}}},
		{in: "sp:c", want: []sched.Machine{{Name: "sp:c", Mappings: []string{"sp-c"}}}},
		{in: " pp:hab , sp", want: []sched.Machine{{Name: "pp:hab", Mappings: []string{"pp-h", "pp-a", "pp-b"}}, {Name: "sp", Mappings: configs("sp", all)}}},
		{in: "sp,sp", want: []sched.Machine{{Name: "sp", Mappings: configs("sp", all)}, {Name: "sp#2", Mappings: configs("sp", all)}}},
		{in: "", err: "empty item"},
		{in: "seq,,pp", err: "empty item"},
		{in: "gpu", err: "gpu"},
		{in: "sp:", err: "no tilings"},
		{in: "sp:z", err: "not one of"},
		{in: "sp:aa", err: "twice"},
	}
	for _, tt := range tests {
		got, err := ParseMachines(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseMachines(%q) error = %v, want it to mention %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseMachines(%q): %v", tt.in, err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseMachines(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
	}
	if got := Machines(); len(got) != 3 {
		t.Errorf("Machines() = %+v", got)
	}
}

// The Problem of an Instance holds each job's case latencies at the right
// (machine, tiling), releases every case once, and offers the target load.
func TestInstanceTables(t *testing.T) {
	cases := tinyCases(t, 40)
	machines, err := ParseMachines("seq,sp:c,pp:ab")
	if err != nil {
		t.Fatal(err)
	}
	js, err := NewJobSet(cases, machines, noisyPredictor{0.2})
	if err != nil {
		t.Fatal(err)
	}
	var pred [predict.NumConfigs]float64
	for _, arr := range []ArrivalOptions{DefaultArrivals(), {Process: workload.Poisson, Utilisation: 0.5, Exact: true}} {
		inst, err := js.Instance(arr, 3)
		if err != nil {
			t.Fatal(err)
		}
		p := inst.Problem
		jobs := p.Jobs()
		if len(jobs) != len(cases) {
			t.Fatalf("%d jobs, want %d", len(jobs), len(cases))
		}
		seen := make([]bool, len(cases))
		for j, job := range jobs {
			c := inst.Case[j]
			if job.GraphIndex != c || seen[c] {
				t.Fatalf("job %d: case %d (graph index %d) repeated or mismatched", j, c, job.GraphIndex)
			}
			seen[c] = true
			s := &cases[c]
			if job.F != s.F || job.G != s.G || job.Nodes != int64(s.Graph.NumNodes()) || job.Edges != int64(s.Graph.NumEdges()) {
				t.Fatalf("job %d: sizes %+v do not match case %d", j, job, c)
			}
			if j > 0 && job.Arrival < jobs[j-1].Arrival {
				t.Fatalf("arrivals decrease at job %d", j)
			}
			noisyPredictor{0.2}.PredictSample(s, pred[:])
			for m, mc := range p.Machines() {
				for k, name := range mc.Mappings {
					cfg := slices.Index(predict.ConfigNames(), name)
					if got, want := p.TrueCycles(j, m, k), int64(s.Latency[cfg]); got != want {
						t.Fatalf("job %d machine %s mapping %s: true %d, want %d", j, mc.Name, name, got, want)
					}
					if got := p.PredictedCycles(j, m, k); got != pred[cfg] {
						t.Fatalf("job %d machine %s mapping %s: predicted %v, want %v", j, mc.Name, name, got, pred[cfg])
					}
				}
			}
		}
		want := arr.Utilisation
		if math.Abs(inst.Offered-want) > 0.01*want {
			t.Errorf("%v: offered load %.4f, want %.2f", arr.Process, inst.Offered, want)
		}
		if !(inst.OfferedRandom > inst.Offered) {
			t.Errorf("random-tiling load %.3f not above best-tiling load %.3f", inst.OfferedRandom, inst.Offered)
		}
	}
	// Jobs > 0 draws with replacement.
	inst, err := js.Instance(ArrivalOptions{Jobs: 500, Exact: true}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(inst.Problem.Jobs()); n != 500 {
		t.Errorf("%d jobs, want 500", n)
	}
}

// All seven policies run in both scenarios; records keep the harness
// invariants; the summaries have the documented JSON keys.
func TestScheduleAllPolicies(t *testing.T) {
	js, err := NewJobSet(tinyCases(t, 60), Machines(), noisyPredictor{0.1})
	if err != nil {
		t.Fatal(err)
	}
	seeds := []uint64{4, 9}
	res, err := js.Schedule(ScheduleOptions{Arrivals: DefaultArrivals(), Seeds: seeds, InferenceCycles: 100, KeepRecords: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Runs) != 2*2*7 || len(res.Results) != len(res.Runs) || len(res.Mean) != 2*7 {
		t.Fatalf("%d runs, %d results, %d means; want 28, 28, 14", len(res.Runs), len(res.Results), len(res.Mean))
	}
	for _, r := range res.Results {
		busy := make([][][2]int64, 3)
		for _, rec := range r.Records {
			if rec.Start < rec.Arrival || rec.Finish != rec.Start+rec.TrueCycles || rec.TrueCycles <= 0 {
				t.Fatalf("%s: bad record %+v", r.Policy.Name, rec)
			}
			if r.Policy.Predictive && rec.Start < rec.Arrival+100 {
				t.Fatalf("%s: job started before its inference charge: %+v", r.Policy.Name, rec)
			}
			busy[rec.Machine] = append(busy[rec.Machine], [2]int64{rec.Start, rec.Finish})
		}
		for m, iv := range busy {
			slices.SortFunc(iv, func(a, b [2]int64) int { return int(a[0] - b[0]) })
			for k := 1; k < len(iv); k++ {
				if iv[k][0] < iv[k-1][1] {
					t.Fatalf("%s: machine %d runs two jobs at once: %v %v", r.Policy.Name, m, iv[k-1], iv[k])
				}
			}
		}
	}
	for _, m := range res.Mean {
		if m.Seeds != len(seeds) {
			t.Errorf("%s: averaged %d seeds, want %d", m.Policy, m.Seeds, len(seeds))
		}
	}
	b, err := json.Marshal(Summaries(res.Mean))
	if err != nil {
		t.Fatal(err)
	}
	var objs []map[string]any
	if err := json.Unmarshal(b, &objs); err != nil {
		t.Fatal(err)
	}
	wantKeys := []string{"mean_completion", "mean_execution", "mean_turnaround", "mean_waiting", "p99_turnaround", "policy", "scenario"}
	for _, o := range objs {
		var keys []string
		for k := range o {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		if !slices.Equal(keys, wantKeys) {
			t.Fatalf("JSON keys %v, want %v", keys, wantKeys)
		}
	}
	if objs[0]["policy"] != "Random" || objs[0]["scenario"] != 1.0 || objs[13]["policy"] != "SJF-Predicted" || objs[13]["scenario"] != 2.0 {
		t.Errorf("JSON order: first %v, last %v", objs[0], objs[13])
	}
	dir := t.TempDir()
	if err := WriteSchedule(dir, res, map[string]string{"k": "v"}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{ScheduleRecordsFile, ScheduleRunsFile, ScheduleMeanFile} {
		checkPortableColumns(t, filepath.Join(dir, f))
	}
	rows, meta, err := pqio.Read[RecordRow](filepath.Join(dir, ScheduleRecordsFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 28*60 || meta["gnnsim.k"] != "v" {
		t.Fatalf("%d record rows (meta %v), want %d", len(rows), meta, 28*60)
	}
	// Rows follow the results: run-major, jobs in problem order; the
	// dataflow and tiling columns name the configuration the machine ran.
	for _, i := range []int{0, 3*60 + 5, len(rows) - 1} {
		r, row := res.Results[i/60], rows[i]
		rec := r.Records[i%60]
		mc := r.Problem.Machines()[rec.Machine]
		cfg := row.Dataflow + "-" + row.Tiling // names, as the runs table's config
		if row.Policy != r.Policy.Name || row.Scenario != int32(ScenarioOf(r.Baselines)) || row.Seed != int64(r.Seed) || row.Start != rec.Start ||
			row.Finish != rec.Finish || row.MachineName != mc.Name || cfg != mc.Mappings[rec.Mapping] ||
			row.Predicted == nil || *row.Predicted != rec.PredictedCycles {
			t.Errorf("row %d: %+v, record %+v on %s", i, row, rec, mc.Name)
		}
	}
	mrows, _, err := pqio.Read[MetricsRow](filepath.Join(dir, ScheduleMeanFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(mrows) != 14 || mrows[13].Policy != "SJF-Predicted" || mrows[13].Scenario != 2 || mrows[13].Seeds != 2 || len(mrows[13].Utilisation) != 3 || !mrows[13].Feasible {
		t.Errorf("mean rows %+v", mrows)
	}
}

// Same seeds give identical metrics, whatever the worker count.
func TestScheduleDeterministic(t *testing.T) {
	js, err := NewJobSet(tinyCases(t, 50), Machines(), noisyPredictor{0.3})
	if err != nil {
		t.Fatal(err)
	}
	o := ScheduleOptions{Arrivals: DefaultArrivals(), Seeds: []uint64{1, 2, 3}, InferenceCycles: InferenceCycles}
	o.Workers = 1
	a, err := js.Schedule(o)
	if err != nil {
		t.Fatal(err)
	}
	o.Workers = 3
	b, err := js.Schedule(o)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a.Runs, b.Runs) || !reflect.DeepEqual(a.Mean, b.Mean) {
		t.Error("same seeds gave different metrics")
	}
	o.Seeds = []uint64{1, 2, 4}
	c, err := js.Schedule(o)
	if err != nil {
		t.Fatal(err)
	}
	if reflect.DeepEqual(a.Mean, c.Mean) {
		t.Error("different seeds gave identical metrics")
	}
}

func TestScheduleNeedsPredictor(t *testing.T) {
	js, err := NewJobSet(tinyCases(t, 20), Machines(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := js.Schedule(ScheduleOptions{Arrivals: DefaultArrivals()}); err == nil || !strings.Contains(err.Error(), "predictor") || !strings.Contains(err.Error(), "--models") { // issue 38 item 12: name the flag
		t.Errorf("default policies without a predictor: err = %v", err)
	}
	res, err := js.Schedule(ScheduleOptions{Arrivals: DefaultArrivals(), Policies: []string{"fcfs", "SJF-Truth"}, Scenarios: []Scenario{Scenario2}, KeepRecords: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Mean) != 2 || res.Mean[0].Policy != "FCFS" {
		t.Errorf("means %+v", res.Mean)
	}
	// Without predictions the predicted column is null.
	dir := t.TempDir()
	if err := WriteSchedule(dir, res, nil); err != nil {
		t.Fatal(err)
	}
	rows, _, err := pqio.Read[RecordRow](filepath.Join(dir, ScheduleRecordsFile))
	if err != nil || rows[0].Predicted != nil {
		t.Errorf("records without predictions: %v, first row %+v", err, rows[0])
	}
	if _, err := js.Schedule(ScheduleOptions{Policies: []string{"nope"}}); err == nil {
		t.Error("unknown policy accepted")
	}
}

// A replayed trace gives the arrivals and names cases by index or name.
func TestReplayTrace(t *testing.T) {
	cases := tinyCases(t, 10)
	js, err := NewJobSet(cases, Machines(), noisyPredictor{0.1})
	if err != nil {
		t.Fatal(err)
	}
	csv := "job_id,arrival_cycle,graph_index,graph,nodes,edges\n" +
		"7,0,3,,1,0\n" +
		"8,50,,\"" + cases[5].Graph.Name + "\",,\n" +
		"9,50,3,\"" + cases[3].Graph.Name + "\",,\n"
	path := filepath.Join(t.TempDir(), "trace.csv")
	if err := os.WriteFile(path, []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	trace, err := workload.ReadTrace(path, workload.ReadOptions{F: 1, G: 1})
	if err != nil {
		t.Fatal(err)
	}
	inst, err := js.Instance(ArrivalOptions{Trace: trace}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(inst.Case, []int{3, 5, 3}) {
		t.Errorf("cases %v, want [3 5 3]", inst.Case)
	}
	jobs := inst.Problem.Jobs()
	if jobs[1].ID != 8 || jobs[1].Arrival != 50 || jobs[1].F != cases[5].F {
		t.Errorf("job 1 = %+v", jobs[1])
	}
	for _, bad := range []struct {
		trace []workload.Job
		err   string
	}{
		{[]workload.Job{{ID: 1, GraphIndex: 10}}, "outside"},
		{[]workload.Job{{ID: 1, GraphIndex: -1, Graph: "nope"}}, "no graph named"},
		{[]workload.Job{{ID: 1, GraphIndex: -1}}, "names no case"},
		{[]workload.Job{{ID: 1, GraphIndex: 2, Graph: cases[3].Graph.Name}}, "is graph"},
	} {
		if _, err := js.Instance(ArrivalOptions{Trace: bad.trace}, 1); err == nil || !strings.Contains(err.Error(), bad.err) {
			t.Errorf("trace %+v: err = %v, want %q", bad.trace, err, bad.err)
		}
	}
}

func TestSpeedups(t *testing.T) {
	m := func(pol string, sc Scenario, feasible bool, c, tu float64) sched.Metrics {
		return sched.Metrics{Policy: pol, Baselines: sc.Baselines(), Feasible: feasible, MeanCompletion: c, MeanTurnaround: tu, MeanExecution: 1, MeanWaiting: 1}
	}
	mean := []sched.Metrics{
		m("FCFS", 1, true, 30, 300), m("SJF-Nodes", 1, true, 20, 400), m("SJF-Truth", 1, false, 9, 9), m("SJF-Predicted", 1, true, 10, 10),
		m("FCFS", 2, false, 12, 50), m("SJF-Truth", 2, false, 9, 9), m("SJF-Predicted", 2, true, 10, 10),
	}
	sp, err := Speedups(mean, "SJF-Predicted")
	if err != nil {
		t.Fatal(err)
	}
	want := map[[2]string]Speedup{
		{"1", "completion"}: {Baseline: "SJF-Nodes", BaselineFeasible: true, Speedup: 2, TruthRatio: 10.0 / 9},
		{"1", "turnaround"}: {Baseline: "FCFS", BaselineFeasible: true, Speedup: 30, TruthRatio: 10.0 / 9},
		{"2", "completion"}: {Baseline: "FCFS", BaselineFeasible: false, Speedup: 1.2, TruthRatio: 10.0 / 9},
	}
	found := 0
	for _, s := range sp {
		w, ok := want[[2]string{string(rune('0' + s.Scenario)), s.Metric}]
		if !ok {
			continue
		}
		found++
		if s.Baseline != w.Baseline || s.BaselineFeasible != w.BaselineFeasible || math.Abs(s.Speedup-w.Speedup) > 1e-12 || math.Abs(s.TruthRatio-w.TruthRatio) > 1e-12 {
			t.Errorf("scenario %d %s: %+v, want %+v", s.Scenario, s.Metric, s, w)
		}
	}
	if found != len(want) || len(sp) != 2*len(SpeedupMetrics) {
		t.Errorf("%d speed-ups, matched %d of %d", len(sp), found, len(want))
	}
	if _, err := Speedups(mean, "LIFO"); err == nil {
		t.Error("missing policy accepted")
	}
}

// BenchmarkSchedule100k releases a 100,000-job Pareto trace (cases drawn
// from 200 simulated Graphlaxy graphs) at 85 % on seed 002's three
// accelerators and runs the seven policies in scenario 1 with the
// inference charge. One op = building the Instance (tables, arrivals,
// Problem) and seven runs.
func BenchmarkSchedule100k(b *testing.B) {
	js, err := NewJobSet(tinyCases(b, 200), Machines(), noisyPredictor{0.2})
	if err != nil {
		b.Fatal(err)
	}
	o := ScheduleOptions{
		Arrivals:  ArrivalOptions{Process: workload.Pareto, Utilisation: 0.85, Exact: true, Jobs: 100000},
		Seeds:     []uint64{1},
		Scenarios: []Scenario{Scenario1},

		InferenceCycles: InferenceCycles,
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := js.Schedule(o); err != nil {
			b.Fatal(err)
		}
	}
}

// The scenarios are presets of the baselines' mapping rule, and read back
// from it.
func TestScenarios(t *testing.T) {
	for _, c := range []struct {
		s    Scenario
		rule sched.MappingRule
	}{{Scenario1, sched.MappingRandom}, {Scenario2, sched.MappingOptimal}, {3, 0}} {
		if got := c.s.Baselines(); got != c.rule {
			t.Errorf("scenario %d: baselines %v, want %v", c.s, got, c.rule)
		}
		if c.rule != 0 && ScenarioOf(c.rule) != c.s {
			t.Errorf("ScenarioOf(%v) = %d, want %d", c.rule, ScenarioOf(c.rule), c.s)
		}
	}
	if ScenarioOf(sched.MappingPredicted) != 0 {
		t.Error("predicted baselines map to a scenario")
	}
}

// checkPortableColumns checks that a schedule table names its dataflow and
// tiling (as the runs table does) and has no unsigned integer column, which
// Spark cannot read (issue 17, class 10).
func checkPortableColumns(t *testing.T, path string) {
	t.Helper()
	pf, err := pqio.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	for _, f := range pf.Schema().Fields() {
		if !f.Leaf() {
			continue
		}
		if lt := f.Type().LogicalType(); lt != nil && isUnsigned(lt.Value) {
			t.Errorf("%s: column %s is unsigned", filepath.Base(path), f.Name())
		}
		if (f.Name() == "dataflow" || f.Name() == "tiling") && f.Type().Kind() != parquet.ByteArray {
			t.Errorf("%s: column %s is %v, want names (strings)", filepath.Base(path), f.Name(), f.Type().Kind())
		}
	}
}

func isUnsigned(v format.LogicalTypeValue) bool {
	it, ok := v.(*format.IntType)
	return ok && !it.IsSigned
}

// TestSpeedupZeroMeans: a mean of 0 (no waiting) is said in words, never
// as "0x faster" or "+Inf x SJF-Truth" (issue 38 item 14).
func TestSpeedupZeroMeans(t *testing.T) {
	for _, tt := range []struct {
		value, base, truth float64
		words, truthWords  string
	}{
		{0, 0, 0, "as fast as FCFS (both 0)", "= SJF-Truth (both 0)"},
		{0, 5, 0, "0 against 5 for FCFS", "= SJF-Truth (both 0)"},
		{3, 0, 0, "slower than FCFS, which takes 0", "SJF-Truth takes 0"},
		{3, 6, 2, "2x faster than FCFS", "1.5000 x SJF-Truth"},
		{3, 6, math.NaN(), "2x faster than FCFS", "no SJF-Truth run"},
	} {
		s := Speedup{Value: tt.value, BaselineValue: tt.base, Baseline: "FCFS", Speedup: tt.base / tt.value, Truth: tt.truth, TruthRatio: tt.value / tt.truth}
		if got := s.Words(); got != tt.words {
			t.Errorf("%+v: %q, want %q", tt, got, tt.words)
		}
		if got := s.TruthWords(); got != tt.truthWords {
			t.Errorf("%+v: %q, want %q", tt, got, tt.truthWords)
		}
	}
}

// TestSpeedupWords: a speed-up below 1 reads as slower, by its inverse.
func TestSpeedupWords(t *testing.T) {
	for _, tt := range []struct {
		speedup float64
		want    string
	}{
		{1.25, "1.25x faster than FCFS"},
		{12.3456, "12.35x faster than FCFS"},
		{1, "1x faster than FCFS"},
		{0.996, "1.004x slower than FCFS"},
		{0.8, "1.25x slower than FCFS"},
		{0.5, "2x slower than FCFS"},
	} {
		if got := (Speedup{Speedup: tt.speedup, Value: 1, BaselineValue: tt.speedup, Baseline: "FCFS"}).Words(); got != tt.want {
			t.Errorf("speed-up %v: %q, want %q", tt.speedup, got, tt.want)
		}
	}
}
