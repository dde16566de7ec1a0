package soc

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"gnnsim/hw"
	"gnnsim/soc/maestro"
	"gnnsim/workload"
)

// The printed default spec parses back to DefaultSpec, and the commented
// dsas: example in it declares exactly soc.DefaultDSAConfigs.
func TestDefaultSpecYAMLRoundTrip(t *testing.T) {
	text := DefaultSpecYAML()
	s, err := ParseSpec(text)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(s, DefaultSpec()) {
		t.Fatal("DefaultSpecYAML parses to another spec than DefaultSpec")
	}
	// Uncomment the example's three MaGNAS lines (not the .m one).
	lines := []string{"dsas:"}
	for _, l := range strings.Split(string(text), "\n") {
		if strings.HasPrefix(l, "#   - {name: dsa-") && !strings.Contains(l, ".m,") {
			lines = append(lines, strings.TrimPrefix(l, "#"))
		}
	}
	var ex struct {
		DSAs []DSASpec `yaml:"dsas"`
	}
	if err := yaml.Unmarshal([]byte(strings.Join(lines, "\n")), &ex); err != nil {
		t.Fatal(err)
	}
	want := DefaultDSAConfigs()
	if len(ex.DSAs) != len(want) {
		t.Fatalf("example declares %d DSAs, want %d", len(ex.DSAs), len(want))
	}
	for i, d := range ex.DSAs {
		if got := d.Config(""); got.Name != want[i].Name || got.Dataflow != want[i].Dataflow || got.Hardware != want[i].Hardware ||
			got.ClockHz != want[i].ClockHz || got.StaticW != want[i].StaticW {
			t.Errorf("example DSA %d: %+v, want %+v", i, got, want[i])
		}
		if !reflect.DeepEqual(DSASpecOf(want[i]), d) {
			t.Errorf("DSASpecOf(%s) is not the example's entry", want[i].Name)
		}
	}
}

// writeDSASpec writes the default spec with dsas (YAML list text) to a
// temporary directory, beside the given .m files, and returns its path.
func writeDSASpec(t *testing.T, dsas string, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	text := strings.Replace(string(DefaultSpecYAML()), "\ndsas: []", "\ndsas:\n"+dsas, 1)
	path := filepath.Join(dir, "soc.yaml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// vigTiEvaluator returns the block-wise evaluator of ViG-Ti on s.
func vigTiEvaluator(t *testing.T, s *SoC) *Evaluator {
	t.Helper()
	m, err := workload.LookupModel("vig-ti", 0)
	if err != nil {
		t.Fatal(err)
	}
	e, err := NewEvaluator(s, m, Blocks)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// DSAs declared in a spec are units of the SoC: a mapping names them, and
// a .m file (relative to the spec) holding a built-in's text prices
// exactly as the built-in.
func TestSpecDSAsAreUnits(t *testing.T) {
	kcp, err := maestro.Builtin("kcp_ws")
	if err != nil {
		t.Fatal(err)
	}
	path := writeDSASpec(t, `  - {name: dsa-k, dataflow: kcp_ws, pes: 256, noc_bw: 64, noc_hops: 1, hop_latency: 1, l1_bytes: 0, l2_bytes: 0, clock_mhz: 1000, static_w: 0.1}
  - {name: mine, dataflow: flows/mine.m, pes: 256, noc_bw: 64, noc_hops: 1, hop_latency: 1, clock_mhz: 1000, static_w: 0.1}
`, map[string]string{"flows/mine.m": kcp.String()})
	s, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := s.Units(), []string{"gpu", "dla", "dsa-k", "mine"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("units %v, want %v", got, want)
	}
	e := vigTiEvaluator(t, s)
	n := len(e.Segments())
	var res []Result
	for _, text := range []string{"dsa-k", "mine", "gpu"} {
		mp, err := s.ParseMapping(text, Blocks, n)
		if err != nil {
			t.Fatal(err)
		}
		r, err := e.Evaluate(mp, nil)
		if err != nil {
			t.Fatalf("all on %s: %v", text, err)
		}
		res = append(res, r)
	}
	if res[0].LatencyPS != res[1].LatencyPS || res[0].EnergyPJ != res[1].EnergyPJ {
		t.Errorf("the .m copy of kcp_ws: %d ps %g pJ, the built-in %d ps %g pJ", res[1].LatencyPS, res[1].EnergyPJ, res[0].LatencyPS, res[0].EnergyPJ)
	}
	if res[0].LatencyPS <= 0 || res[0].LatencyPS == res[2].LatencyPS {
		t.Errorf("all on dsa-k: %d ps (gpu %d ps): the DSA is not pricing", res[0].LatencyPS, res[2].LatencyPS)
	}
	// A mixed mapping: GPU and DSA in turn.
	toks := make([]string, n)
	for i := range toks {
		toks[i] = []string{"gpu", "dsa-k"}[i%2]
	}
	mp, err := s.ParseMapping(strings.Join(toks, ","), Blocks, n)
	if err != nil {
		t.Fatal(err)
	}
	if r, err := e.Evaluate(mp, nil); err != nil || r.Transitions != n-1 {
		t.Errorf("alternating mapping: %+v, %v; want %d transitions", r, err, n-1)
	}
	// A DVFS setting names a DSA at its one clock.
	if _, err := s.Setting(DVFS{"dsa-k": 1000}); err != nil {
		t.Errorf("dsa-k=1000: %v", err)
	}
}

// A DSA whose buffers are too small refuses a model's kernels with an
// error wrapping maestro.ErrCapacity and naming the DSA.
func TestSpecDSACapacity(t *testing.T) {
	path := writeDSASpec(t, "  - {name: tiny, dataflow: kcp_ws, pes: 256, noc_bw: 64, l1_bytes: 1, l2_bytes: 16, clock_mhz: 1000}\n", nil)
	s, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	e := vigTiEvaluator(t, s)
	mp, err := s.ParseMapping("tiny", Blocks, len(e.Segments()))
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.Evaluate(mp, nil)
	if !errors.Is(err, maestro.ErrCapacity) || !strings.Contains(err.Error(), "tiny") {
		t.Errorf("got %v, want an ErrCapacity naming the DSA tiny", err)
	}
}

// Bad DSA declarations are clear errors naming the key, file and line.
func TestSpecDSAErrors(t *testing.T) {
	ok := "dataflow: kcp_ws, pes: 64, noc_bw: 64, clock_mhz: 1000"
	for _, c := range []struct {
		name, dsas string
		files      map[string]string
		want       []string
	}{
		{"zero pes", "  - {name: d, dataflow: kcp_ws, pes: 0, noc_bw: 64, clock_mhz: 1000}\n", nil, []string{"dsa d", "pes = 0", "1.."}},
		{"negative pes", "  - {name: d, dataflow: kcp_ws, pes: -4, noc_bw: 64, clock_mhz: 1000}\n", nil, []string{"pes = -4"}},
		{"no clock", "  - {name: d, dataflow: kcp_ws, pes: 64, noc_bw: 64}\n", nil, []string{"clock_mhz = 0"}},
		{"negative l2", "  - {name: d, " + ok + ", l2_bytes: -1}\n", nil, []string{"l2_bytes = -1"}},
		{"unknown built-in", "  - {name: d, dataflow: nosuch, pes: 64, noc_bw: 64, clock_mhz: 1000}\n", nil, []string{"nosuch", "kcp_ws", ".m file"}},
		{"no dataflow", "  - {name: d, pes: 64, noc_bw: 64, clock_mhz: 1000}\n", nil, []string{"no dataflow"}},
		{"name of a unit", "  - {name: gpu, " + ok + "}\n", nil, []string{`"gpu" used twice`}},
		{"missing file", "  - {name: d, dataflow: gone.m, pes: 64, noc_bw: 64, clock_mhz: 1000}\n", nil, []string{"gone.m"}},
		{"bad file", "  - {name: d, dataflow: bad.m, pes: 64, noc_bw: 64, clock_mhz: 1000}\n",
			map[string]string{"bad.m": "Dataflow {\n  TemporalMap(1,1) K;\n  SpatialMap(1,1) Q;\n}\n"}, []string{"bad.m", "line 3"}},
		{"unknown key", "  - {name: d, " + ok + ", pe: 3}\n", nil, []string{"pe"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Load(writeDSASpec(t, c.dsas, c.files))
			if err == nil {
				t.Fatal("accepted")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not name %q", err, w)
				}
			}
		})
	}
	// A mapping naming a unit the SoC does not have.
	s, err := Load(writeDSASpec(t, "  - {name: dsa-k, "+ok+"}\n", nil))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.ParseMapping("dsa-q", Blocks, 3); err == nil || !strings.Contains(err.Error(), "dsa-q") || !strings.Contains(err.Error(), "dsa-k") {
		t.Errorf("mapping to a missing unit: %v", err)
	}
	if _, err := s.ParseMapping("gpu,dsa-k", Blocks, 3); err == nil || !strings.Contains(err.Error(), "3 segments") {
		t.Errorf("mapping of 2 segments for 3: %v", err)
	}
}

// FuzzSpecDSAs feeds arbitrary dsas: entries to the spec parser: never a
// panic, and a spec it accepts builds a SoC (or fails with an error, for
// a dataflow file that is missing or does not parse) whose DSAs run a
// block.
func FuzzSpecDSAs(f *testing.F) {
	f.Add("  - {name: d, dataflow: kcp_ws, pes: 64, noc_bw: 64, clock_mhz: 1000}\n")
	f.Add("  - {name: d, dataflow: dpt, pes: 4, noc_bw: 1, l1_bytes: 1, l2_bytes: 1, clock_mhz: 0.5, static_w: 3}\n")
	f.Add("  - {name: d, dataflow: x.m, pes: 1, noc_bw: 1, clock_mhz: 1}\n")
	f.Add("  - {name: gpu, dataflow: rs, pes: -1, noc_bw: 0, clock_mhz: -1}\n")
	f.Add("  - {name: d, dataflow: ykp_os, pes: 16777216, noc_bw: 16777216, noc_hops: 16777216, hop_latency: 16777216, simd_lanes: 16777216, clock_mhz: 1e6}\n")
	base := string(DefaultSpecYAML())
	blk := hwBlock()
	f.Fuzz(func(t *testing.T, dsas string) {
		text := strings.Replace(base, "\ndsas: []", "\ndsas:\n"+dsas, 1)
		spec, err := ParseSpec([]byte(text))
		if err != nil {
			return
		}
		s, err := New(spec)
		if err != nil {
			return
		}
		for _, d := range spec.DSAs {
			u, ok := s.Unit(d.Name)
			if !ok {
				t.Fatalf("DSA %s is not a unit", d.Name)
			}
			if _, err := u.At(u.OperatingPoints()[0]); err != nil {
				t.Fatal(err)
			}
			if len(d.Name) > 0 && d.PEs <= 1<<12 {
				if unit, err := u.At(u.OperatingPoints()[0]); err == nil {
					_, _ = unit.Run(blk) // may refuse on capacity; must not panic
				}
			}
		}
	})
}

func hwBlock() hw.Work {
	return hw.BlockWork(workload.FFNBlock(49, 32, 64))
}
