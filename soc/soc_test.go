package soc

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gnnsim/hw"
	"gnnsim/hw/hwtest"
	"gnnsim/workload"
)

func vigS(t testing.TB, op workload.LayerKind) workload.Model {
	t.Helper()
	m, err := workload.ViG("s", op)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func mustEvaluator(t testing.TB, s *SoC, m workload.Model, g Granularity) *Evaluator {
	t.Helper()
	e, err := NewEvaluator(s, m, g)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func unitIndex(t testing.TB, s *SoC, name string) int {
	t.Helper()
	i, err := s.UnitIndex(name)
	if err != nil {
		t.Fatal(err)
	}
	return i
}

// TestDefaultSpec checks that the embedded profiles (Xavier, TX2) parse
// and that every constant they set names its source.
func TestDefaultSpec(t *testing.T) {
	spec := DefaultSpec()
	// MaGNAS's profile: the GPU on its FP32 CUDA cores, the DLA unchanged.
	mg := MaGNASSpec()
	if g := mg.Units[0]; g.PeakFLOPS != 1.41e12 || g.ElementBytes != 4 || mg.Units[1].PeakFLOPS != spec.Units[1].PeakFLOPS {
		t.Errorf("MaGNAS spec: GPU %g FLOPS, %d-byte elements; DLA %g FLOPS", g.PeakFLOPS, g.ElementBytes, mg.Units[1].PeakFLOPS)
	}
	if _, err := spec.WithPrecision("fp8"); err == nil {
		t.Error("precision fp8: no error")
	}
	for _, spec := range []Spec{spec, TX2Spec()} {
		t.Run(spec.Name, func(t *testing.T) { checkSources(t, spec) })
	}
}

// checkSources checks that spec builds and names a source for every
// constant it sets (the CPU's only when it has one).
func checkSources(t *testing.T, spec Spec) {
	t.Helper()
	if _, err := New(spec); err != nil {
		t.Fatal(err)
	}
	memKeys := []string{"bytes_per_cycle", "points_mhz", "latency_ns", "burst_bytes", "pj_per_byte", "element_bytes", "handoff_us", "background_w", "clock_w"}
	for _, k := range memKeys {
		if strings.TrimSpace(spec.Memory.Sources[k]) == "" {
			t.Errorf("memory.%s has no source", k)
		}
	}
	for _, k := range []string{"cores", "points_mhz", "volts_min", "volts_max", "leak_w_per_core", "leak_exp", "dynamic_w_per_core", "busy_cores", "launch_cycles"} {
		if spec.CPU.Cores > 0 && strings.TrimSpace(spec.CPU.Sources[k]) == "" {
			t.Errorf("cpu.%s has no source", k)
		}
	}
	for _, m := range spec.PowerModes {
		if strings.TrimSpace(m.Source) == "" {
			t.Errorf("power mode %s has no source", m.Name)
		}
	}
	for _, u := range spec.Units {
		keys := []string{"peak_flops", "peak_mhz", "launch_us", "memory_share", "element_bytes", "points_mhz", "volts_min", "volts_max", "idle_w", "dynamic_w", "cores", "leak_exp"}
		for _, opt := range []struct {
			key string
			set bool
		}{{"tiling", u.Tiling != nil}, {"fuse", u.Fuse}, {"submit_us", u.SubmitUS != 0}, {"handoff_in_us", u.HandoffInUS != 0},
			{"handoff_out_us", u.HandoffOutUS != 0}, {"fallback_in_us", u.FallbackInUS != 0}, {"fallback_out_us", u.FallbackOutUS != 0},
			{"buffer_bytes", u.BufferBytes != 0}, {"cache_bytes", u.CacheBytes != 0}, {"cache_bytes_per_cycle", u.CacheBytesPerCycle != 0}, {"refuse", len(u.Refuse) > 0}, {"kernel_efficiency", len(u.KernelEfficiency) > 0}, {"glue", len(u.Glue) > 0}, {"precisions", len(u.Precisions) > 0},
			{"winograd", u.Tiling != nil && u.Tiling.Winograd != 0}} {
			if opt.set {
				keys = append(keys, opt.key)
			}
		}
		if u.Fallback != "" {
			keys = append(keys, "fallback")
		}
		for c := range u.Efficiency {
			if u.Sources["efficiency"] == "" {
				keys = append(keys, "efficiency."+c)
			}
		}
		for _, k := range keys {
			if strings.TrimSpace(u.Sources[k]) == "" {
				t.Errorf("%s.%s has no source", u.Name, k)
			}
		}
		for k := range u.Sources {
			base, _, _ := strings.Cut(k, ".")
			if !slices.Contains(append(keys, "efficiency"), base) && !slices.Contains(keys, k) {
				t.Errorf("%s: source for unknown key %q", u.Name, k)
			}
		}
	}
}

// vigWorks returns works covering every block kind and graph op of ViG-S,
// and a GNN layer on a given graph size.
func vigWorks(t *testing.T) []hw.Work {
	var ws []hw.Work
	for _, op := range workload.ViGOps() {
		m := vigS(t, op)
		ws = append(ws, hw.BlockWork(m.Blocks[1]))
		if op == workload.MRConv {
			ws = append(ws, hw.BlockWork(m.Blocks[0]), hw.BlockWork(m.Blocks[2]), hw.BlockWork(m.Blocks[len(m.Blocks)-1]))
		}
	}
	gcn := workload.Block{Name: "gcn", Kind: workload.GNNLayer, In: workload.Size{Nodes: 2708, NNZ: 10556},
		Layers: []workload.Layer{{Kind: workload.GCN, F: 1433, G: 16}, {Kind: workload.GAT, F: 16, G: 8, Heads: 8}}}
	return append(ws, hw.BlockWork(gcn))
}

func TestConformance(t *testing.T) {
	s := Default()
	for _, name := range []string{"gpu", "dla"} {
		t.Run(name, func(t *testing.T) {
			u, _ := s.Unit(name)
			hwtest.Conformance(t, u, vigWorks(t))
		})
	}
}

// TestDLAFallback: the DLA runs graph kernels on the GPU, paying hand-offs;
// configured without fallback it refuses them with a clear error.
func TestDLAFallback(t *testing.T) {
	s := Default()
	m := vigS(t, workload.MRConv)
	grapher, ffn := hw.BlockWork(m.Blocks[1]), hw.BlockWork(m.Blocks[2])
	dla, _ := s.Unit("dla")
	ph, err := dla.(Phaser).Phases(mustKernels(t, grapher), nil)
	if err != nil {
		t.Fatal(err)
	}
	var units []string
	for _, p := range ph {
		units = append(units, p.Unit)
	}
	// k-NN, top-k, gather and max fall back, then GELU (no DLA activation).
	if want := []string{"dla", "gpu", "dla", "gpu", "dla"}; !slices.Equal(units, want) {
		t.Errorf("grapher phases on %v, want %v", units, want)
	}

	spec := DefaultSpec()
	unitByName(&spec, "dla").Fallback = ""
	alone, err := New(spec)
	if err != nil {
		t.Fatal(err)
	}
	d, _ := alone.Unit("dla")
	if _, err := d.Run(grapher); err == nil || !strings.Contains(err.Error(), "cannot run knn kernels") {
		t.Errorf("DLA without fallback on a grapher: err = %v, want one naming the knn kernels", err)
	}
	if _, err := d.Run(ffn); err == nil || !strings.Contains(err.Error(), "(gelu)") {
		t.Errorf("DLA without fallback on an FFN: err = %v, want one naming its GELU", err)
	}
	inc := zooModel(t, "googlenet").Blocks[1]
	if _, err := d.Run(hw.BlockWork(inc)); err != nil {
		t.Errorf("DLA without fallback on %s: %v", inc.Name, err)
	}
	e := mustEvaluator(t, alone, m, Blocks)
	if _, err := e.Evaluate(MapAll(Blocks, unitIndex(t, alone, "dla"), len(e.Segments())), nil); err == nil || !strings.Contains(err.Error(), "stem on dla") {
		t.Errorf("DLA-only mapping without fallback: err = %v, want one naming the segment", err)
	}
}

func mustKernels(t *testing.T, w hw.Work) []workload.Kernel {
	ks, err := w.Kernels()
	if err != nil {
		t.Fatal(err)
	}
	return ks
}

// randomMapping maps n segments to units at random (seeded).
func randomMapping(g Granularity, n, units int, seed uint64) Mapping {
	rng := rand.New(rand.NewPCG(seed, 7))
	m := Mapping{Granularity: g, Units: make([]int, n)}
	for i := range m.Units {
		m.Units[i] = rng.IntN(units)
	}
	return m
}

// TestHigherFrequencyNeverSlower sweeps each clock domain with the others
// at MAXN, for GPU-only, DLA-only and mixed mappings.
func TestHigherFrequencyNeverSlower(t *testing.T) {
	s := Default()
	e := mustEvaluator(t, s, vigS(t, workload.MRConv), Blocks)
	n := len(e.Segments())
	maps := []Mapping{MapAll(Blocks, 0, n), MapAll(Blocks, 1, n), randomMapping(Blocks, n, 2, 1), randomMapping(Blocks, n, 2, 2)}
	domains := map[string][]float64{"emc": s.Memory().PointsMHz, "cpu": s.CPU().PointsMHz}
	for _, name := range s.Units() {
		u, _ := s.Unit(name)
		for _, p := range u.OperatingPoints() {
			domains[name] = append(domains[name], p.FreqHz/1e6)
		}
	}
	for name, pts := range domains {
		for mi, m := range maps {
			prev := int64(math.MaxInt64)
			for _, f := range pts {
				r, err := e.Evaluate(m, DVFS{name: f})
				if err != nil {
					t.Fatal(err)
				}
				if r.LatencyPS > prev {
					t.Errorf("mapping %d: %s at %v MHz takes %d ps, more than at the next lower clock (%d ps)", mi, name, f, r.LatencyPS, prev)
				}
				prev = r.LatencyPS
			}
		}
	}
}

// TestEq67SumOfParts rebuilds Eq. 6-7 from the bound units' own Run and
// Transfer: latency and energy of a mapping are the sums of its parts, and
// a mapping that never changes unit pays no transfer.
func TestEq67SumOfParts(t *testing.T) {
	s := Default()
	d := DVFS{"gpu": 905.25, "dla": 1050, "emc": 1600}
	set, err := s.Setting(d)
	if err != nil {
		t.Fatal(err)
	}
	units, env, err := s.Bind(set)
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range workload.ViGOps() {
		model := vigS(t, op)
		e := mustEvaluator(t, s, model, Blocks)
		n := len(e.Segments())
		gpu := unitIndex(t, s, "gpu")
		for mi, m := range []Mapping{MapAll(Blocks, gpu, n), randomMapping(Blocks, n, 2, 3), randomMapping(Blocks, n, 2, 4)} {
			r, err := e.Evaluate(m, d)
			if err != nil {
				t.Fatal(err)
			}
			var wantPS int64
			var wantPJ float64
			changes := 0
			for i, b := range model.Blocks {
				c, err := units[m.Units[i]].Run(hw.BlockWork(b))
				if err != nil {
					t.Fatal(err)
				}
				wantPS += c.TimePS
				wantPJ += c.EnergyPJ
				if i == 0 {
					in := units[m.Units[i]].(DirectedTransferer).Entry()
					wantPS += in.TimePS
					wantPJ += in.EnergyPJ
				}
				if i > 0 && m.Units[i] != m.Units[i-1] {
					changes++
					out := units[m.Units[i-1]].(DirectedTransferer).TransferOut(model.Blocks[i-1].OutElems() * env.ElementBytes)
					in := units[m.Units[i]].(DirectedTransferer).TransferIn(b.InElems() * env.ElementBytes)
					wantPS += out.TimePS + in.TimePS
					wantPJ += out.EnergyPJ + in.EnergyPJ
				}
			}
			// The CPU and the memory draw their power over the whole frame.
			wantPJ += s.PlatformW(set) * float64(wantPS)
			if r.LatencyPS != wantPS || math.Abs(r.EnergyPJ-wantPJ) > 1e-9*wantPJ || r.Transitions != changes {
				t.Errorf("%s mapping %d: %d ps, %.6g pJ, %d transitions; parts give %d ps, %.6g pJ, %d", op, mi, r.LatencyPS, r.EnergyPJ, r.Transitions, wantPS, wantPJ, changes)
			}
			var busy int64
			for _, b := range r.BusyPS {
				busy += b
			}
			if busy != r.LatencyPS {
				t.Errorf("%s mapping %d: busy times sum to %d ps, latency %d ps", op, mi, busy, r.LatencyPS)
			}
			if mi == 0 && (r.Transitions != 0 || r.TransferPS != 0 || r.TransferPJ != 0 || r.BusyPS[gpu] != r.LatencyPS) {
				t.Errorf("%s GPU-only: %d transitions, %d ps, %g pJ of transfers", op, r.Transitions, r.TransferPS, r.TransferPJ)
			}
		}
	}
}

// TestGranularitiesAgree: a block mapping costs the same whether it is
// given by block, by layer or by kernel group (every layer or group of a
// block on the block's unit), with and without fusion, on-chip buffers
// and the GPU's L2: consecutive segments of one block on one unit run as
// one plan, as TensorRT builds one engine for them. Checked on ViG-S with
// every graph op and on GoogleNet (a DAG of Inception modules), for
// all-GPU, all-DLA and mixed mappings, totals and per-layer rows.
func TestGranularitiesAgree(t *testing.T) {
	plain := DefaultSpec()
	plain.Units = slices.Clone(plain.Units)
	for i := range plain.Units {
		plain.Units[i].Fuse, plain.Units[i].BufferBytes, plain.Units[i].CacheBytes, plain.Units[i].CacheBytesPerCycle = false, 0, 0, 0
	}
	sPlain, err := New(plain)
	if err != nil {
		t.Fatal(err)
	}
	models := []workload.Model{}
	for _, op := range workload.ViGOps() {
		models = append(models, vigS(t, op))
	}
	g, err := workload.GoogleNet()
	if err != nil {
		t.Fatal(err)
	}
	models = append(models, g)
	for si, s := range []*SoC{sPlain, Default()} {
		for _, model := range models {
			eb := mustEvaluator(t, s, model, Blocks)
			nb := len(eb.Segments())
			maps := []Mapping{MapAll(Blocks, 0, nb), MapAll(Blocks, 1, nb), randomMapping(Blocks, nb, 2, 5), randomMapping(Blocks, nb, 2, 6)}
			for mi, bm := range maps {
				ref, err := eb.Evaluate(bm, nil)
				if err != nil {
					t.Fatal(err)
				}
				refRows, err := eb.Layers(bm, s.top())
				if err != nil {
					t.Fatal(err)
				}
				for _, gr := range []Granularity{Layers, KernelGroups} {
					e := mustEvaluator(t, s, model, gr)
					m := Mapping{Granularity: gr}
					for _, sg := range e.Segments() {
						m.Units = append(m.Units, bm.Units[sg.Block])
					}
					r, err := e.Evaluate(m, nil)
					if err != nil {
						t.Fatal(err)
					}
					same := r.LatencyPS == ref.LatencyPS && math.Abs(r.EnergyPJ-ref.EnergyPJ) <= 1e-9*ref.EnergyPJ &&
						r.Transitions == ref.Transitions && r.DRAMBytes == ref.DRAMBytes && slices.Equal(r.BusyPS, ref.BusyPS)
					if !same {
						t.Errorf("spec %d, %s, mapping %d: %s-wise %d ps %.6g pJ %d transitions, block-wise %d ps %.6g pJ %d transitions",
							si, model.Name, mi, gr, r.LatencyPS, r.EnergyPJ, r.Transitions, ref.LatencyPS, ref.EnergyPJ, ref.Transitions)
					}
					if gr != Layers {
						continue
					}
					rows, err := e.Layers(m, s.top())
					if err != nil {
						t.Fatal(err)
					}
					if !slices.EqualFunc(rows, refRows, func(a, b LayerCost) bool {
						return a.Name == b.Name && a.Kind == b.Kind && a.Block == b.Block && a.Unit == b.Unit && a.TimePS == b.TimePS &&
							a.FusedInto == b.FusedInto && math.Abs(a.EnergyPJ-b.EnergyPJ) <= 1e-9*max(b.EnergyPJ, 1)
					}) {
						t.Errorf("spec %d, %s, mapping %d: layer-wise rows differ from block-wise ones", si, model.Name, mi)
					}
				}
			}
		}
	}
}

// TestSegments checks the segment counts of ViG-S: 34 blocks, every layer,
// and layers split into aggregation and combination.
func TestSegments(t *testing.T) {
	m := vigS(t, workload.MRConv)
	var layers int
	for _, b := range m.Blocks {
		layers += len(b.Layers)
	}
	for _, tt := range []struct {
		g    Granularity
		want int
	}{{Blocks, 34}, {Layers, layers}, {KernelGroups, layers + 16}} { // MRConv: gather+max | gemm
		segs, err := Segments(m, tt.g)
		if err != nil {
			t.Fatal(err)
		}
		if len(segs) != tt.want {
			t.Errorf("%s: %d segments, want %d", tt.g, len(segs), tt.want)
		}
		var macs int64
		for _, sg := range segs {
			mm, _, _ := workload.Totals(sg.Kernels)
			macs += mm
		}
		if want, _ := m.MACs(); macs != want {
			t.Errorf("%s: segments hold %d MACs, the model %d", tt.g, macs, want)
		}
	}
}

// TestBadInput: every bad input is an error that says what is wrong.
func TestBadInput(t *testing.T) {
	s := Default()
	model := vigS(t, workload.MRConv)
	e := mustEvaluator(t, s, model, Blocks)
	n := len(e.Segments())
	bad := []struct {
		name string
		err  func() error
		want string
	}{
		{"unknown unit", func() error { _, err := s.ParseMapping("gpu,npu", Blocks, 2); return err }, `unknown unit "npu"`},
		{"mapping too short", func() error { _, err := s.ParseMapping("G,D,G", Blocks, n); return err }, "3 units for 34 segments"},
		{"mapping of wrong length", func() error { _, err := e.Evaluate(MapAll(Blocks, 0, n-1), nil); return err }, "33 entries for 34 segments"},
		{"unit index out of range", func() error { _, err := e.Evaluate(MapAll(Blocks, 7, n), nil); return err }, "unit 7 of 2"},
		{"granularity mismatch", func() error { _, err := e.Evaluate(MapAll(Layers, 0, n), nil); return err }, "layer-wise mapping for a block-wise evaluator"},
		{"point not in table", func() error { _, err := e.Evaluate(MapAll(Blocks, 0, n), DVFS{"gpu": 1000}); return err }, "1000 MHz is not an operating point"},
		{"memory point not in table", func() error { _, err := e.Evaluate(MapAll(Blocks, 0, n), DVFS{"emc": 3200}); return err }, "emc: 3200 MHz"},
		{"unknown clock domain", func() error { _, err := s.Setting(DVFS{"pva": 1088}); return err }, `unknown clock domain "pva"`},
		{"bad dvfs syntax", func() error { _, err := ParseDVFS("gpu:1377"); return err }, "not name=MHz"},
		{"dvfs not a number", func() error { _, err := ParseDVFS("gpu=fast"); return err }, "not a clock"},
		{"negative clock", func() error { _, err := s.Setting(DVFS{"gpu": -1}); return err }, "want a positive clock"},
		{"unknown granularity", func() error { _, err := ParseGranularity("row"); return err }, "unknown granularity"},
		{"empty model", func() error { _, err := NewEvaluator(s, workload.Model{Name: "x"}, Blocks); return err }, "has no blocks"},
		{"bad layer", func() error {
			m := vigS(t, workload.MRConv)
			m.Blocks[1].Layers = slices.Clone(m.Blocks[1].Layers)
			m.Blocks[1].Layers[0].F = -3
			_, err := NewEvaluator(s, m, Blocks)
			return err
		}, "F = -3"},
		{"zero frames", func() error {
			set, _ := s.Setting(nil)
			_, err := e.Pipeline(MapAll(Blocks, 0, n), set, PipelineOptions{})
			return err
		}, "0 frames"},
		{"kernel groups on a layer-only unit", func() error {
			s2 := Default()
			rows := []TableRow{row("ffn", "npu", 1000, 1, 1)}
			if err := s2.UseTable(rows); err != nil {
				return err
			}
			e2 := mustEvaluator(t, s2, model, KernelGroups)
			_, err := e2.Evaluate(MapAll(KernelGroups, unitIndex(t, s2, "npu"), len(e2.Segments())), nil)
			return err
		}, "whole layers only"},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.err()
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestBadSpecs(t *testing.T) {
	tests := []struct {
		name, edit, want string
	}{
		{"unknown key", "units:\n  - name: gpu\n    bogus: 1\n", "field bogus not found"},
		{"negative peak", "peak_flops: 11.3e12", "peak_flops = -1"},
		{"zero share", "memory_share: 0.6", "memory_share = 0"},
		{"unknown class", "gemm: 0.6\n      knn", "unknown kernel class"},
		{"unsorted points", "points_mhz: [115.2, 550, 750, 1050, 1395.2]", "must increase"},
		{"missing fallback", "fallback: gpu", `fallback "tpu" is not a unit`},
		{"efficiency over 1", "elementwise: 0.25", "efficiency elementwise = 2"},
		{"negative glue cycles", "glue_cycles: 8000", "glue_cycles = -1"},
		{"negative frame cycles", "magnas_frame_cycles: 12660000", "magnas_frame_cycles = -1"},
		{"winograd below 1", "winograd: 2.25", "tiling.winograd = 0.5"},
		{"cache without bandwidth", "cache_bytes_per_cycle: 141", "cache_bytes_per_cycle = 0"},
		{"negative cache", "cache_bytes: 524288", "cache_bytes = -1"},
		{"no units", "", "no units"},
	}
	repl := map[string][2]string{
		"negative peak":           {"peak_flops: 11.3e12", "peak_flops: -1"},
		"zero share":              {"memory_share: 0.6", "memory_share: 0"},
		"unknown class":           {"gemm: 0.6\n      knn", "gemm: 0.0744\n      gemv: 0.1\n      knn"},
		"unsorted points":         {"points_mhz: [115.2, 550, 750, 1050, 1395.2]", "points_mhz: [115.2, 550, 750, 1395.2, 1050]"},
		"missing fallback":        {"fallback: gpu", "fallback: tpu"},
		"efficiency over 1":       {"elementwise: 0.25", "elementwise: 2"},
		"negative glue cycles":    {"glue_cycles: 8000", "glue_cycles: -1"},
		"negative frame cycles":   {"magnas_frame_cycles: 12660000", "magnas_frame_cycles: -1"},
		"winograd below 1":        {"winograd: 2.25", "winograd: 0.5"},
		"cache without bandwidth": {"cache_bytes_per_cycle: 141", "cache_bytes_per_cycle: 0"},
		"negative cache":          {"cache_bytes: 524288", "cache_bytes: -1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var text string
			switch tt.name {
			case "unknown key":
				text = tt.edit
			case "no units":
				text = strings.SplitN(string(xavierYAML), "\nunits:", 2)[0]
			default:
				r := repl[tt.name]
				if !strings.Contains(string(xavierYAML), r[0]) {
					t.Fatalf("xavier.yaml lacks %q", r[0])
				}
				text = strings.Replace(string(xavierYAML), r[0], r[1], 1)
			}
			_, err := ParseSpec([]byte(text))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestParseMapping(t *testing.T) {
	s := Default()
	m, err := s.ParseMapping("G, d,GPU\n# comment\nDLA", Layers, 4)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m.Units, []int{0, 1, 0, 1}) || m.Granularity != Layers {
		t.Errorf("got %+v", m)
	}
	if got := s.FormatMapping(m); got != "gpu,dla,gpu,dla" {
		t.Errorf("FormatMapping = %q", got)
	}
	all, err := s.ParseMapping("dla", Blocks, 5)
	if err != nil || !slices.Equal(all.Units, []int{1, 1, 1, 1, 1}) {
		t.Errorf("ParseMapping(dla) = %+v, %v", all, err)
	}
	d, err := ParseDVFS(" gpu = 1377 , emc=2133")
	if err != nil || d.String() != "emc=2133,gpu=1377" {
		t.Errorf("ParseDVFS = %v, %v", d, err)
	}
}

func TestNewShared(t *testing.T) {
	mem := MemorySpec{BytesPerCycle: 64, PointsMHz: []float64{1000}, BurstBytes: 64, PJPerByte: 20, ElementBytes: 1, HandoffUS: 1}
	s, err := NewShared("x", mem)
	if err != nil {
		t.Fatal(err)
	}
	if s.Memory().Name != MemoryName || len(s.Units()) != 0 {
		t.Errorf("memory %q, units %v", s.Memory().Name, s.Units())
	}
	bad := mem
	bad.BytesPerCycle = 0
	if _, err := NewShared("x", bad); err == nil {
		t.Error("zero bandwidth accepted")
	}
	bad = mem
	bad.PointsMHz = nil
	if _, err := NewShared("x", bad); err == nil {
		t.Error("no memory clocks accepted")
	}
}
