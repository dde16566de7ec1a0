package bench

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"

	"gnnsim/internal/pqio"
	"gnnsim/soc"
	"gnnsim/workload"
)

// The example spec (1,008 points), sharded three ways and merged,
// interrupted and resumed, or run with other worker counts, writes the
// same bytes as a serial run; numbers are typed columns; no graphs table.
func TestSocSweepShardsAndResume(t *testing.T) {
	spec := mustRead(t, "testdata/soc.yaml")
	base, serial := serialPointSweep(t, spec, 14*2*9*4)
	// Numbers are typed columns: DuckDB and pandas read them as they are;
	// the per-unit lists are lists of numbers.
	pf, err := pqio.Open(filepath.Join(serial, RunsFile))
	if err != nil {
		t.Fatal(err)
	}
	fields := map[string]parquet.Field{}
	for _, fl := range pf.Schema().Fields() {
		fields[fl.Name()] = fl
	}
	pf.Close()
	for col, k := range map[string]parquet.Kind{"latency_ms": parquet.Double, "energy_mj": parquet.Double, "power_w": parquet.Double,
		"gpu_hz": parquet.Double, "dla_hz": parquet.Double, "emc_hz": parquet.Double, "cpu_hz": parquet.Double,
		"transitions": parquet.Int64, "gpu_segments": parquet.Int64, "dla_segments": parquet.Int64, "dram_bytes": parquet.Int64,
		"mapping": parquet.ByteArray, "mapping_name": parquet.ByteArray, "power_mode": parquet.ByteArray} {
		f, ok := fields[col]
		if !ok || !f.Leaf() || f.Type().Kind() != k {
			t.Errorf("column %s: %v, want a %v leaf", col, f, k)
		}
	}
	for col, k := range map[string]parquet.Kind{"busy_ms": parquet.Double, "unit_hz": parquet.Double, "unit_segments": parquet.Int64} {
		f, ok := fields[col]
		if !ok || f.Leaf() || !isList(f) {
			t.Errorf("column %s: %v, want a list", col, f)
			continue
		}
		leaf := f
		for !leaf.Leaf() {
			leaf = leaf.Fields()[0]
		}
		if leaf.Type().Kind() != k {
			t.Errorf("column %s: elements %v, want %v", col, leaf.Type().Kind(), k)
		}
	}
	checkPointSweepIdentity(t, spec, base, readRunsFile(t, serial))
}

// Every row is the evaluation its own text columns name: the soc package's
// Evaluate of the row's model, mapping and dvfs text (the path soc eval
// takes); the grid covers each setting and mapping once, in point order.
func TestSocRowsAreEvaluations(t *testing.T) {
	p := mustPlan(t, mustRead(t, "testdata/soc.yaml"))
	dir := t.TempDir()
	if _, err := p.Run(context.Background(), dir, Options{Workers: 2}); err != nil {
		t.Fatal(err)
	}
	rows := readRows[SocRow](t, dir)
	s := soc.Default()
	model, err := workload.LookupModel("vig-s", workload.MRConv)
	if err != nil {
		t.Fatal(err)
	}
	e, err := soc.NewEvaluator(s, model, soc.Blocks)
	if err != nil {
		t.Fatal(err)
	}
	n := len(e.Segments())
	c := p.Spec.Soc
	gpu, dla, emc := c.DVFS["gpu"].MHz, c.DVFS["dla"].MHz, c.DVFS["emc"].MHz
	if len(gpu) != 14 || len(dla) != 2 || len(emc) != 9 {
		t.Fatalf("grid %d x %d x %d, want all 14 GPU and 9 EMC points and 2 DLA ones", len(gpu), len(dla), len(emc))
	}
	names := []string{"all-gpu", "all-dla", "graphers-on-dla", "random/7/0"}
	seen := map[string]bool{}
	for i, r := range rows {
		// Domains in name order (dla, emc, gpu), the last fastest; then
		// the mappings.
		k, g := i%4, i/4
		wantHz := [3]float64{dla[g/(14*9)] * 1e6, emc[g/14%9] * 1e6, gpu[g%14] * 1e6}
		if r.PointID != int64(i) || r.MappingName != names[k] || [3]float64{r.DLAHz, r.EMCHz, r.GPUHz} != wantHz || r.CPUHz != 2265.6e6 {
			t.Fatalf("row %d: point %d %s at dla %g emc %g gpu %g cpu %g, want %s at %v", i, r.PointID, r.MappingName, r.DLAHz, r.EMCHz, r.GPUHz, r.CPUHz, names[k], wantHz)
		}
		m, err := s.ParseMapping(r.Mapping, soc.Blocks, n)
		if err != nil {
			t.Fatal(err)
		}
		d, err := soc.ParseDVFS(r.DVFS)
		if err != nil {
			t.Fatal(err)
		}
		want, err := e.Evaluate(m, d)
		if err != nil {
			t.Fatal(err)
		}
		busy := make([]float64, len(want.BusyPS))
		for u, b := range want.BusyPS {
			busy[u] = float64(b) * 1e-9
		}
		if r.LatencyMS != want.LatencyMS() || r.EnergyMJ != want.EnergyMJ() || r.PowerW != want.PowerW() ||
			r.Transitions != int64(want.Transitions) || r.TransferMS != float64(want.TransferPS)*1e-9 || r.DRAMBytes != want.DRAMBytes ||
			r.PlatformMJ != want.PlatformPJ*1e-9 || !slices.Equal(r.BusyMS, busy) || r.GPUBusyMS != busy[0] || r.DLABusyMS != busy[1] {
			t.Fatalf("row %d (%s at %s) differs from its evaluation: %+v vs %+v", i, r.MappingName, r.DVFS, r, want)
		}
		if r.Model != "vig-s" || r.GraphOp != "mrconv" || r.Granularity != "block" || r.Segments != int64(n) || r.SoC != s.Name() || r.PowerMode != "" ||
			!slices.Equal(r.Units, s.Units()) || r.GPUSegments+r.DLASegments != r.Segments ||
			!slices.Equal(r.UnitSegments, []int64{r.GPUSegments, r.DLASegments}) || !slices.Equal(r.UnitHz, []float64{r.GPUHz, r.DLAHz}) {
			t.Fatalf("row %d: labels %+v", i, r)
		}
		switch r.MappingName {
		case "all-gpu", "all-dla":
			if r.Transitions != 0 || (r.MappingName == "all-gpu") != (r.GPUSegments == r.Segments) {
				t.Fatalf("row %d: %s with %d transitions, %d GPU segments", i, r.MappingName, r.Transitions, r.GPUSegments)
			}
		case "graphers-on-dla":
			// ViG-S: Stem, then 16 (Grapher, FFN) pairs, then the head.
			if r.DLASegments != 16 || r.Transitions != 32 {
				t.Fatalf("row %d: graphers-on-dla puts %d segments on the DLA with %d transitions", i, r.DLASegments, r.Transitions)
			}
		}
		seen[r.Mapping+"|"+r.DVFS] = true
		// A faster GPU clock never slows the all-GPU mapping down.
		if k == 0 && g%14 > 0 && r.LatencyMS > rows[i-4].LatencyMS {
			t.Errorf("row %d: all-gpu at %g MHz takes %g ms, at %g MHz %g ms", i, r.GPUHz/1e6, r.LatencyMS, rows[i-4].GPUHz/1e6, rows[i-4].LatencyMS)
		}
	}
	if len(rows) != 1008 || len(seen) != 1008 {
		t.Fatalf("%d rows, %d distinct (mapping, dvfs)", len(rows), len(seen))
	}
}

// Power modes cross the dvfs grid; each row is evaluated at the mode's
// setting: soc eval --power-mode's path.
func TestSocPowerModes(t *testing.T) {
	const spec = "unit: soc\nsoc:\n  models: [vig-ti]\n  graph_ops: [mr, gin]\n  mappings: [all-gpu, dla]\n  power_modes: [MAXN, 10W]\n  dvfs: {emc: [800, 1065.6]}\n"
	p := mustPlan(t, spec)
	dir := t.TempDir()
	if _, err := p.Run(context.Background(), dir, Options{Workers: 2}); err != nil {
		t.Fatal(err)
	}
	rows := readRows[SocRow](t, dir)
	if len(rows) != 2*2*2*2 {
		t.Fatalf("%d rows, want 16", len(rows))
	}
	s := soc.Default()
	for i, r := range rows {
		wantOp, wantMode := []string{"mrconv", "gin"}[i/8], []string{"MAXN", "MODE_10W"}[i/4%2]
		if r.GraphOp != wantOp || r.PowerMode != wantMode {
			t.Fatalf("row %d: %s %s, want %s %s", i, r.GraphOp, r.PowerMode, wantOp, wantMode)
		}
		op, _ := workload.ParseViGOp(r.GraphOp)
		model, _ := workload.LookupModel("vig-ti", op)
		e, err := soc.NewEvaluator(s, model, soc.Blocks)
		if err != nil {
			t.Fatal(err)
		}
		mode, err := s.PowerMode(r.PowerMode)
		if err != nil {
			t.Fatal(err)
		}
		set, err := s.ModeSetting(mode, soc.DVFS{"emc": r.EMCHz / 1e6})
		if err != nil {
			t.Fatal(err)
		}
		m, _ := s.ParseMapping(r.Mapping, soc.Blocks, len(e.Segments()))
		var want soc.Result
		if err := e.EvaluateAt(&want, m, set); err != nil {
			t.Fatal(err)
		}
		if r.LatencyMS != want.LatencyMS() || r.EnergyMJ != want.EnergyMJ() || r.DVFS != s.DVFS(set).String() {
			t.Fatalf("row %d (%s, %s): %g ms %g mJ at %s, want %g ms %g mJ at %s", i, r.PowerMode, r.Mapping, r.LatencyMS, r.EnergyMJ, r.DVFS,
				want.LatencyMS(), want.EnergyMJ(), s.DVFS(set))
		}
		if r.PowerMode == "MODE_10W" && (r.GPUHz > 525e6 || r.CPUHz > 1200e6) {
			t.Fatalf("row %d: 10 W mode at gpu %g cpu %g Hz", i, r.GPUHz, r.CPUHz)
		}
	}
}

// Bad input fails before any work, with a *SpecError naming the key.
func TestSocSpecErrors(t *testing.T) {
	dir := t.TempDir()
	notSoC := filepath.Join(dir, "bad-soc.yaml")
	if err := os.WriteFile(notSoC, []byte("name: x\nunits: []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const u = "unit: soc\n"
	const ok = "  models: [vig-s]\n  mappings: [all-gpu]\n"
	for _, c := range []struct {
		name, yaml, key, reason string
	}{
		{"no block", u, "soc", "needs a soc: block"},
		{"no models", u + "soc: {mappings: [all-gpu]}\n", "soc.models", "empty list"},
		{"unknown model", u + "soc: {models: [vig-xl], mappings: [all-gpu]}\n", "soc.models[0]", "unknown model \"vig-xl\""},
		{"model file", u + "soc: {models: [sage3.yaml], mappings: [all-gpu]}\n", "soc.models[0]", "model files are not taken"},
		{"model twice", u + "soc: {models: [vig-s, VIG-S], mappings: [all-gpu]}\n", "soc.models[1]", "listed twice"},
		{"bad graph op", u + "soc:\n" + ok + "  graph_ops: [gat]\n", "soc.graph_ops[0]", "unknown graph op"},
		{"graph op on a CNN", u + "soc: {models: [resnet50], graph_ops: [gin], mappings: [all-gpu]}\n", "soc.graph_ops[0]", "has no graph op"},
		{"bad granularity", u + "soc:\n" + ok + "  granularity: tile\n", "soc.granularity", "unknown granularity"},
		{"no mappings", u + "soc: {models: [vig-s]}\n", "soc.mappings", "empty list"},
		{"bad preset", u + "soc: {models: [vig-s], mappings: [all-gpu, all-tpu]}\n", "soc.mappings[1]", "preset \"all-tpu\": soc: unknown unit \"tpu\""},
		{"bad graphers preset", u + "soc: {models: [vig-s], mappings: [graphers-on-npu]}\n", "soc.mappings[0]", "unknown unit \"npu\""},
		{"mapping too short", u + "soc: {models: [vig-s], mappings: ['gpu,dla,gpu']}\n", "soc.mappings[0]", "3 units for 34 segments"},
		{"random count", u + "soc: {models: [vig-s], mappings: [{random: {count: 0, seed: 1}}]}\n", "soc.mappings[0].random.count", "want 1.."},
		{"clock not in table", u + "soc:\n" + ok + "  dvfs: {gpu: [1000]}\n", "soc.dvfs.gpu", "1000 MHz is not an operating point"},
		{"unknown domain", u + "soc:\n" + ok + "  dvfs: {npu: [1000]}\n", "soc.dvfs.npu", "unknown clock domain"},
		{"unknown domain, all", u + "soc:\n" + ok + "  dvfs: {npu: all}\n", "soc.dvfs.npu", "unknown clock domain"},
		{"point twice", u + "soc:\n" + ok + "  dvfs: {dla: [1395.2, 1395]}\n", "soc.dvfs.dla", "listed before"},
		{"negative clock", u + "soc:\n" + ok + "  dvfs: {dla: [-5]}\n", "soc.dvfs.dla", "positive"},
		{"unknown power mode", u + "soc:\n" + ok + "  power_modes: [MAXN, 5W]\n", "soc.power_modes[1]", "unknown power mode \"5W\""},
		{"power mode twice", u + "soc:\n" + ok + "  power_modes: [10W, MODE_10W]\n", "soc.power_modes[1]", "listed twice"},
		{"clock over a mode's cap", u + "soc:\n" + ok + "  power_modes: [10W]\n  dvfs: {gpu: all}\n", "soc.dvfs.gpu", "exceeds power mode MODE_10W's cap"},
		{"bad precision", u + "soc:\n" + ok + "  precision: int4\n", "soc.precision", "int4"},
		{"bad spec file", u + "soc:\n" + ok + "  spec: " + notSoC + "\n", "soc.spec", "bad-soc.yaml"},
		{"missing spec file", u + "soc:\n" + ok + "  spec: " + filepath.Join(dir, "none.yaml") + "\n  dvfs: {gpu: all}\n", "soc.spec", "none.yaml"},
		{"graphs given", u + "graphs: [{generator: er, count: 1}]\nsoc:\n" + ok, "graphs", "sweeps design points, not graphs"},
		{"soc on omega", "graphs: [{generator: er, count: 1}]\nsoc:\n" + ok, "soc", "only unit: soc reads it"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, err := ParseSpec([]byte(c.yaml))
			if err == nil {
				_, err = NewPlan(s)
			}
			var se *SpecError
			if !errors.As(err, &se) || se.Key != c.key || !strings.Contains(se.Reason, c.reason) {
				t.Fatalf("err = %v, want key %s mentioning %q", err, c.key, c.reason)
			}
		})
	}
	// A YAML entry of the wrong shape fails at parsing, naming its line.
	for _, text := range []string{
		u + "soc: {models: [vig-s], mappings: [{random: {count: 1, sed: 2}}]}\n",
		u + "soc: {models: [vig-s], mappings: [{shuffle: 3}]}\n",
		u + "soc: {models: [vig-s], mappings: [all-gpu], dvfs: {gpu: fast}}\n",
		u + "soc: {models: [vig-s], mappings: [{random: {count: 1.5, seed: 2}}]}\n",
	} {
		if _, err := ParseSpec([]byte(text)); err == nil || !strings.Contains(err.Error(), "line 2") {
			t.Errorf("%q: err = %v, want one naming line 2", text, err)
		}
	}
}

// A spec's normal form expands dvfs: all into the table's points, so that
// merge reads it without the SoC spec, and parses back to the same hash.
func TestSocSpecCanonical(t *testing.T) {
	s, err := ParseSpec([]byte(mustRead(t, "testdata/soc.yaml")))
	if err != nil {
		t.Fatal(err)
	}
	if cl := s.Soc.DVFS["gpu"]; cl.All || len(cl.MHz) != 14 {
		t.Fatalf("gpu: %+v, want the 14 points", cl)
	}
	again, err := ParseSpec([]byte(s.Canonical()))
	if err != nil {
		t.Fatal(err)
	}
	if again.Hash() != s.Hash() {
		t.Fatalf("canonical form parses to another hash:\n%s", s.Canonical())
	}
	// graph_ops [mr] is the default; fp16 is the spec's own precision.
	a, _ := ParseSpec([]byte("unit: soc\nsoc: {models: [vig-s], mappings: [all-gpu]}\n"))
	b, _ := ParseSpec([]byte("unit: soc\nsoc: {models: [ViG-S], mappings: [all-gpu], graph_ops: [mr], precision: FP16, granularity: blocks}\n"))
	if a == nil || b == nil || a.Hash() != b.Hash() {
		t.Fatalf("equivalent specs hash apart:\n%v\n%v", a.Canonical(), b.Canonical())
	}
}

// Random mappings are drawn from the seed: the same seed, the same
// mappings; another seed, others; each a valid mapping of the model.
func TestSocRandomMappings(t *testing.T) {
	draw := func(seed string) []string {
		p := mustPlan(t, "unit: soc\nsoc: {models: [pvig-ti], granularity: layer, mappings: [{random: {count: 5, seed: "+seed+"}}]}\n")
		e := p.eval.(*socSweep)
		var out []string
		md := &e.models[0]
		for k := range md.numMaps() {
			m := md.mapping(k, e.gran, make([]int, len(md.segs)))
			if len(m.Units) != len(md.segs) {
				t.Fatalf("mapping of %d entries for %d segments", len(m.Units), len(md.segs))
			}
			out = append(out, e.soc.FormatMapping(m))
		}
		return out
	}
	a, b, c := draw("3"), draw("3"), draw("4")
	if !slices.Equal(a, b) || slices.Equal(a, c) {
		t.Fatal("random mappings do not follow the seed")
	}
	if a[0] == a[1] || !strings.Contains(a[0], "gpu") || !strings.Contains(a[0], "dla") {
		t.Fatalf("draws %q, %q", a[0], a[1])
	}
}

// BenchmarkSocSweep1008 is issue 27's SoC sweep: ViG-S x 14 GPU x 2 DLA x
// 9 EMC points x 4 mappings (testdata/soc.yaml) into a directory, planning,
// part files and final table included.
func BenchmarkSocSweep1008(b *testing.B) {
	data, err := os.ReadFile("testdata/soc.yaml")
	if err != nil {
		b.Fatal(err)
	}
	s, err := ParseSpec(data)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		p, err := NewPlan(s)
		if err != nil {
			b.Fatal(err)
		}
		sum, err := p.Run(context.Background(), b.TempDir(), Options{})
		if err != nil || sum.Runs != 1008 {
			b.Fatalf("err %v, %+v", err, sum)
		}
	}
}

// isList reports whether f is a Parquet LIST.
func isList(f parquet.Field) bool {
	lt := f.Type().LogicalType()
	if lt == nil {
		return false
	}
	_, ok := lt.Value.(*format.ListType)
	return ok
}

// socExample is testdata/soc.yaml, read once for the crash test's child.
var socExample = exampleText("testdata/soc.yaml")

// BenchmarkSocRow is one row of the example at a setting whose costs are
// tabulated: the per-row work of a soc sweep (the evaluation of Eq. 6-7
// and the row), without tabulating or writing.
func BenchmarkSocRow(b *testing.B) {
	s, err := ParseSpec([]byte(socExample))
	if err != nil {
		b.Fatal(err)
	}
	p, err := NewPlan(s)
	if err != nil {
		b.Fatal(err)
	}
	t := p.kind.Table(p.Spec).(*socTable)
	if err := p.eval.Evaluate(t, Case{ID: 0}); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if len(t.Rows) == cap(t.Rows) {
			t.Rows = t.Rows[:0]
		}
		if err := p.eval.Evaluate(t, Case{ID: i % 4}); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// FuzzSocSpec feeds soc: blocks to the spec parser and, when they parse to
// a small sweep, to the planner: bad input is an error, never a panic.
func FuzzSocSpec(f *testing.F) {
	for _, s := range []string{
		"soc: {models: [vig-s], mappings: [all-gpu, graphers-on-dla, {random: {count: 2, seed: 7}}], dvfs: {gpu: [1377, 522.75], emc: all}}",
		"soc: {models: [vig-ti, resnet50], granularity: kernel, mappings: [dla, 'gpu,dla'], power_modes: [10W, 0]}",
		"soc: {models: [pvig-ti], graph_ops: [gin, edge], precision: fp32, mappings: [all-d], dvfs: {cpu: [115.2], dla: 1050}}",
		"soc: {models: [vig-s], mappings: [{random: {count: 1}}], dvfs: {EMC: [204]}, spec: ''}",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, block string) {
		s, err := ParseSpec([]byte("unit: soc\n" + block + "\n"))
		if err != nil {
			return
		}
		if n, err := socPoints(s); err != nil || n > 64 {
			return
		}
		if p, err := NewPlan(s); err == nil && p.NumGraphs() < 1 {
			t.Fatalf("a plan of %d points", p.NumGraphs())
		}
	})
}
