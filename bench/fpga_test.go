package bench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"gnnsim/accel/fpga"
	"gnnsim/hw"
	"gnnsim/internal/pqio"
	"gnnsim/nas/fgnas"
)

func readRunsFile(t *testing.T, dir string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, RunsFile))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The example spec, sharded three ways and merged, interrupted and resumed,
// or run with other worker counts, writes the same bytes as a serial run;
// and no graphs table.
func TestFPGASweepShardsAndResume(t *testing.T) {
	data, err := os.ReadFile("testdata/fpga.yaml")
	if err != nil {
		t.Fatal(err)
	}
	spec := string(data)
	base, serial := serialPointSweep(t, spec, 3*4*3)
	checkColumnKinds(t, filepath.Join(serial, RunsFile), map[string]parquet.Kind{"feasible": parquet.Boolean, "cycles": parquet.Int64, "latency_ps": parquet.Int64,
		"lut": parquet.Int64, "l1_t_aggr": parquet.Int64, "l0_w_frac": parquet.Int64, "arch": parquet.ByteArray, "l0_attn": parquet.ByteArray})
	checkPointSweepIdentity(t, spec, base, readRunsFile(t, serial))
}

// checkColumnKinds checks that the Parquet file at path has the columns
// of want with those physical types: numbers are typed columns, which
// DuckDB and pandas read as they are.
func checkColumnKinds(t *testing.T, path string, want map[string]parquet.Kind) {
	t.Helper()
	pf, err := pqio.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	types := map[string]parquet.Kind{}
	for _, fl := range pf.Schema().Fields() {
		types[fl.Name()] = fl.Type().Kind()
	}
	for col, k := range want {
		if types[col] != k {
			t.Errorf("%s: column %s has type %v, want %v", path, col, types[col], k)
		}
	}
}

// serialPointSweep runs the design-point sweep of spec (several chunks of
// points in all) with one worker into base/serial, checking its summary
// and that it wrote no graphs table.
func serialPointSweep(t *testing.T, spec string, points int) (base, serial string) {
	t.Helper()
	p := mustPlan(t, spec)
	if p.NumChunks() < 3 {
		t.Fatalf("%d chunks: the example should have several", p.NumChunks())
	}
	base = t.TempDir()
	serial = filepath.Join(base, "serial")
	sum, err := p.Run(context.Background(), serial, Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !sum.Complete || sum.Points != points || sum.Runs != sum.Points || sum.Graphs != 0 {
		t.Fatalf("summary %+v", sum)
	}
	if _, err := os.Stat(filepath.Join(serial, GraphsFile)); err == nil {
		t.Errorf("a %s sweep wrote a graphs table", p.Spec.Unit)
	}
	return base, serial
}

// checkPointSweepIdentity checks that a design-point sweep of spec,
// sharded three ways and merged, interrupted and resumed, or with a
// damaged part recomputed, writes runs table want (the serial run's).
// base is a scratch directory.
func checkPointSweepIdentity(t *testing.T, spec, base string, want []byte) {
	t.Helper()
	p := mustPlan(t, spec)
	shards := runShards(t, spec, base, 3)
	merged := filepath.Join(base, "merged")
	if _, err := Merge(shards, merged); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(readRunsFile(t, merged), want) {
		t.Fatal("3 shards merged differ from the serial run")
	}
	if _, err := Merge(shards[:2], filepath.Join(base, "partial")); err == nil {
		t.Fatal("merge of 2 of 3 shards succeeded")
	}

	// Interrupted: the state a killed run leaves (some chunks finished,
	// a temp file of one in flight; the child-process kill is
	// TestSweepKilledAndResumed), then resumed with more workers.
	resumed := filepath.Join(base, "resumed")
	if _, err := mustPlan(t, spec).Run(context.Background(), resumed, Options{Workers: 1, Shard: Shard{0, 2}}); err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(resumed, partsDir, p.Spec.Hash(), ".runs-000001.parquet.tmp-123")
	if err := os.WriteFile(tmp, []byte("PAR1 torn"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(resumed, RunsFile)); err == nil {
		t.Fatal("half a sweep wrote the final table")
	}
	sum, err := mustPlan(t, spec).Run(context.Background(), resumed, Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if sum.ChunksReused != (p.NumChunks()+1)/2 || !sum.Complete {
		t.Fatalf("resume did not reuse shard 0's chunks: %+v", sum)
	}
	if !bytes.Equal(readRunsFile(t, resumed), want) {
		t.Fatal("interrupted and resumed run differs from the serial run")
	}
	if _, err := os.Stat(tmp); err == nil {
		t.Error("stale temp file left behind")
	}
	// A damaged part is removed and recomputed.
	part := p.partPath(resumed, "runs", 1)
	if err := os.WriteFile(part, []byte("PAR1 torn"), 0o644); err != nil {
		t.Fatal(err)
	}
	sum, err = mustPlan(t, spec).Run(context.Background(), resumed, Options{Workers: 2})
	if err != nil || len(sum.Removed) != 1 || sum.ChunksComputed != 1 {
		t.Fatalf("damaged part: err %v, summary %+v", err, sum)
	}
	if !bytes.Equal(readRunsFile(t, resumed), want) {
		t.Fatal("recomputed run differs from the serial run")
	}
}

// Every row is the design its indices name, priced as fpga eval prices it:
// the unit built from the row's own arch, tiles and bits text.
func TestFPGARowsAreDesigns(t *testing.T) {
	p := mustPlan(t, mustRead(t, "testdata/fpga.yaml"))
	dir := t.TempDir()
	if _, err := p.Run(context.Background(), dir, Options{Workers: 2}); err != nil {
		t.Fatal(err)
	}
	rows := readRows[FPGARow](t, dir)
	f := p.Spec.FPGA
	ds, _ := fgnas.DatasetByName(f.Data)
	lim := fgnas.Limits{LatencyMS: f.LatencyMS, LUT: f.LUT, DSP: f.DSP}
	feasible := 0
	for i, r := range rows {
		a, tl, b := i/(len(f.Tiles)*len(f.Bits)), i/len(f.Bits)%len(f.Tiles), i%len(f.Bits)
		if r.PointID != int64(i) || r.Arch != f.Archs[a] || r.Tiles != f.Tiles[tl] || r.Bits != f.Bits[b] {
			t.Fatalf("row %d: point %d %q %q %q, want %q %q %q", i, r.PointID, r.Arch, r.Tiles, r.Bits, f.Archs[a], f.Tiles[tl], f.Bits[b])
		}
		ls, err := fpga.ParseLayers(r.Arch, r.Tiles, r.Bits)
		if err != nil {
			t.Fatal(err)
		}
		d := fpga.Design{Layers: ls, InputNNZ: ds.FeatureNNZ}
		u, err := fpga.New(d, fpga.Options{Budget: lim.Budget()})
		if err != nil {
			t.Fatal(err)
		}
		rep, err := u.Evaluate(hw.BlockWork(d.Block(ds.Size, ds.Features)))
		if err != nil {
			t.Fatal(err)
		}
		if r.Cycles != rep.SummedCycles || r.SummedCycles != rep.SummedCycles || r.PipelinedCycles != 0 ||
			r.LatencyPS != hw.PS(rep.SummedCycles, fpga.ClockHz) || r.LUT != rep.Resources.LUT || r.FF != rep.Resources.FF ||
			r.DSP != rep.Resources.DSP || r.BRAM18 != rep.Resources.BRAM || r.Feasible != rep.Feasible || r.Over != rep.Over {
			t.Fatalf("row %d (%s | %s | %s) differs from its design's report: %+v vs %+v", i, r.Arch, r.Tiles, r.Bits, r, rep)
		}
		if r.Layers != int64(len(ls)) || r.L0TIn != int64(ls[0].T.In) || r.L1AFrac != int64(ls[1].Bits.A.Frac) || r.L1Attn != ls[1].Attn.String() || r.L2Attn != "" {
			t.Fatalf("row %d: genes %+v do not match the design", i, r)
		}
		if r.Feasible {
			feasible++
		} else if r.Over == "" {
			t.Fatalf("row %d infeasible with no reason", i)
		}
		// Wider groups never take more cycles (physical monotonicity).
		if tl == 2 && rows[i-len(f.Bits)].Cycles < r.Cycles {
			t.Errorf("row %d: tiles 8 slower than tiles 4 (%d > %d cycles)", i, r.Cycles, rows[i-len(f.Bits)].Cycles)
		}
	}
	if feasible == 0 || feasible == len(rows) {
		t.Errorf("%d of %d designs feasible: the example's limits should split them", feasible, len(rows))
	}
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestFPGASpecErrors(t *testing.T) {
	const u = "unit: fpga\n"
	for _, c := range []struct {
		name, yaml, key, reason string
	}{
		{"no block", u, "fpga", "needs an fpga: block"},
		{"no archs", u + "fpga: {data: cora}\n", "fpga.archs", "empty list"},
		{"bad data", u + "fpga: {data: reddit, archs: [gcn/add/relu/8]}\n", "fpga.data", "unknown dataset"},
		{"bad model", u + "fpga: {model: vivado, archs: [gcn/add/relu/8]}\n", "fpga.model", "model"},
		{"graphs given", u + "graphs: [{generator: er, count: 1}]\nfpga: {archs: [gcn/add/relu/8]}\n", "graphs", "sweeps design points, not graphs"},
		{"chunk_graphs given", u + "chunk_graphs: 4\nfpga: {archs: [gcn/add/relu/8]}\n", "chunk_graphs", "leave chunk_graphs out"},
		{"negative limit", u + "fpga: {archs: [gcn/add/relu/8], dsp: -1}\n", "fpga", "negative limit"},
		{"fpga on omega", "graphs: [{generator: er, count: 1}]\nfpga: {archs: [gcn/add/relu/8]}\n", "fpga", "only unit: fpga reads it"},
		{"chunk_points on omega", "graphs: [{generator: er, count: 1}]\nchunk_points: 3\n", "chunk_points", "fpga"},
		{"unknown unit lists kinds", "graphs: [{generator: er, count: 1}]\nunit: tpu\n", "unit", "registered: omega, soc, fpga, dsa, gcos"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseSpec([]byte(c.yaml))
			var se *SpecError
			if !errors.As(err, &se) || se.Key != c.key || !strings.Contains(se.Reason, c.reason) {
				t.Fatalf("err = %v, want key %s mentioning %q", err, c.key, c.reason)
			}
		})
	}
	// Designs that do not parse fail at planning, naming the entry.
	for _, c := range []struct{ name, block, want string }{
		{"bad arch", "{archs: [gcn/add/bogus/8]}", "fpga.archs[0]"},
		{"tiles for 3 layers on 2", "{archs: [gcn/add/relu/8;gcn/add/relu/7], tiles: ['1,1,1,1,1;2,2,2,2,2;4,4,4,4,4']}", "tiles[0]"},
		{"zero group", "{archs: [gcn/add/relu/8], tiles: ['0,1,1,1,1']}", "group size t_in = 0"},
		{"bad bits", "{archs: [gcn/add/relu/8], bits: [2.5]}", "bits[0]"},
		{"code model without integer bits", "{model: fgnas-code, archs: [gcn/add/relu/8], bits: ['0.4,1.2']}", "fgnas-code model needs"},
		{"five layers", "{archs: [gcn/add/relu/8;gcn/add/relu/8;gcn/add/relu/8;gcn/add/relu/8;gcn/add/relu/7]}", "at most 4"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, err := ParseSpec([]byte(u + "fpga: " + c.block + "\n"))
			if err != nil {
				t.Fatal(err)
			}
			_, err = NewPlan(s)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want one mentioning %q", err, c.want)
			}
		})
	}
}

// fpgaGrid is a spec of archs x tiles x bits designs: 10 x 100 x 100 is
// the 10^5 of issue 27's benchmark.
func fpgaGrid(archs, tiles, bits int) string {
	var b strings.Builder
	b.WriteString("name: grid\nunit: fpga\nfpga:\n  latency_ms: 0.8\n  lut: 10000\n  dsp: 10\n  archs:\n")
	acts := []string{"relu", "tanh", "elu", "sigmoid", "relu"}
	for i := range archs {
		fmt.Fprintf(&b, "    - %s/add/%s/%d;gcn/mean/relu/7\n", []string{"gcn", "gat", "constant"}[i%3], acts[i%5], 4+4*i)
	}
	b.WriteString("  tiles:\n")
	for i := range tiles {
		fmt.Fprintf(&b, "    - %d,%d,%d,%d,%d\n", 1+i%10, 1+i/10, 1+i%4, 1+i%8, 1+i%3)
	}
	b.WriteString("  bits:\n")
	for i := range bits {
		fmt.Fprintf(&b, "    - %d.%d,%d.%d\n", 1+i%3, i%7, 1+i/50, i%10)
	}
	return b.String()
}

// BenchmarkFPGASweep is issue 27's FPGA sweep: 10^5 designs into a
// directory, part files and final table included.
func BenchmarkFPGASweep(b *testing.B) {
	s, err := ParseSpec([]byte(fpgaGrid(10, 100, 100)))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		p, err := NewPlan(s)
		if err != nil {
			b.Fatal(err)
		}
		sum, err := p.Run(context.Background(), b.TempDir(), Options{})
		if err != nil || sum.Runs != 100_000 {
			b.Fatalf("err %v, %+v", err, sum)
		}
	}
}

// A model file of gcn and gat layers sweeps as the architecture it
// describes: its rows equal those of the same arch written out; layers the
// pipeline cannot build exactly are refused, naming the layer.
func TestFPGAModels(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("gat2.yaml", "name: gat2\nlayers:\n  - {kind: gat, width: 8, heads: 2, activation: elu}\n  - {kind: gcn, width: 7, activation: relu}\n")
	const grid = "  tiles: ['4,4,4,4,4', '8,8,8,8,8']\n  bits: ['2.5,2.5']\n"
	run := func(block string) []FPGARow {
		d := filepath.Join(dir, fmt.Sprint(len(block)))
		if _, err := mustPlan(t, "unit: fpga\nfpga:\n"+block+grid).Run(context.Background(), d, Options{Workers: 1}); err != nil {
			t.Fatal(err)
		}
		return readRows[FPGARow](t, d)
	}
	byModel := run("  models: [" + good + "]\n")
	byArch := run("  archs: ['gat/add/elu/8x2;gcn/add/relu/7']\n")
	if len(byModel) != 2 || len(byArch) != 2 {
		t.Fatalf("%d and %d rows", len(byModel), len(byArch))
	}
	for i := range byModel {
		m, a := byModel[i], byArch[i]
		if m.Model != good || a.Model != "" || m.Arch != a.Arch {
			t.Fatalf("row %d: model %q arch %q vs %q", i, m.Model, m.Arch, a.Arch)
		}
		m.Model = ""
		if m != a {
			t.Fatalf("row %d: model row %+v\n!= arch row %+v", i, m, a)
		}
	}
	for _, c := range []struct{ name, text, want string }{
		{"sage", "name: s\nlayers:\n  - {kind: sage, width: 8, activation: relu}\n", "kind sage has no FGNAS pipeline form"},
		{"no activation", "name: n\nlayers:\n  - {kind: gcn, width: 7}\n", "layer 0: activation"},
		{"features", "name: f\nfeatures: 500\nlayers:\n  - {kind: gcn, width: 7, activation: relu}\n", "takes 500 input features, the data set has 1433"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, err := ParseSpec([]byte("unit: fpga\nfpga:\n  models: [" + write(c.name+".yaml", c.text) + "]\n"))
			if err != nil {
				t.Fatal(err)
			}
			if _, err = NewPlan(s); err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "fpga.models[0]") {
				t.Fatalf("err = %v, want fpga.models[0] and %q", err, c.want)
			}
		})
	}
	s, _ := ParseSpec([]byte("unit: fpga\nfpga:\n  models: [vig-s]\n"))
	if _, err := NewPlan(s); err == nil || !strings.Contains(err.Error(), "not a GNN stack") {
		t.Fatalf("zoo ViG accepted: %v", err)
	}
}
