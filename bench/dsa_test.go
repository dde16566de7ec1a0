package bench

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"gnnsim/soc"
	"gnnsim/workload"
)

// The example dsa spec, sharded three ways and merged, interrupted and
// resumed, or with a damaged part recomputed, writes the same bytes as a
// serial run; its numbers are typed columns.
func TestDSASweepShardsAndResume(t *testing.T) {
	spec := mustRead(t, "testdata/dsa.yaml")
	base, serial := serialPointSweep(t, spec, 2*3*3*3)
	checkColumnKinds(t, filepath.Join(serial, RunsFile), map[string]parquet.Kind{"pes": parquet.Int64, "l2_bytes": parquet.Int64, "cycles": parquet.Int64,
		"latency_ps": parquet.Int64, "energy_pj": parquet.Double, "clock_mhz": parquet.Double, "fits": parquet.Boolean,
		"model": parquet.ByteArray, "dataflow": parquet.ByteArray})
	checkPointSweepIdentity(t, spec, base, readRunsFile(t, serial))
}

// Every row is the point its index names, priced as EvalDSA prices it;
// more L2 never makes a point refused that fit with less, and at one
// dataflow and PE count every fitting point costs the same (MAESTRO's
// capacity is a check, not a cost).
func TestDSARowsArePoints(t *testing.T) {
	p := mustPlan(t, mustRead(t, "testdata/dsa.yaml"))
	dir := t.TempDir()
	if _, err := p.Run(context.Background(), dir, Options{Workers: 2}); err != nil {
		t.Fatal(err)
	}
	rows := readRows[DSARow](t, dir)
	d := p.Spec.DSA
	nd, ne, nl := len(d.Dataflows), len(d.PEs), len(d.L2Bytes)
	if len(rows) != len(d.Models)*nd*ne*nl {
		t.Fatalf("%d rows", len(rows))
	}
	fits := 0
	for i, r := range rows {
		m, df, e, l := i/(nd*ne*nl), i/(ne*nl)%nd, i/nl%ne, i%nl
		if r.PointID != int64(i) || r.Model != d.Models[m] || r.Dataflow != d.Dataflows[df] || r.PEs != int64(d.PEs[e]) || r.L2Bytes != d.L2Bytes[l] {
			t.Fatalf("row %d is %s %s %d %d", i, r.Model, r.Dataflow, r.PEs, r.L2Bytes)
		}
		if i%7 == 0 { // a sample: each EvalDSA prices a whole model
			model, err := workload.LookupModel(r.Model, 0)
			if err != nil {
				t.Fatal(err)
			}
			want, err := EvalDSA(model, dsaSpecOf(d, df, e, l).Config(""), soc.Blocks)
			if err != nil {
				t.Fatal(err)
			}
			want.PointID = r.PointID
			if want != r {
				t.Errorf("row %d: %+v, EvalDSA %+v", i, r, want)
			}
		}
		if r.Fits {
			fits++
			if r.LatencyPS <= 0 || r.EnergyPJ <= 0 || r.Cycles <= 0 || r.Refused != "" {
				t.Errorf("row %d fits with costs %+v", i, r)
			}
		} else if !strings.Contains(r.Refused, "capacity") && !strings.Contains(r.Refused, "impossible mapping") || r.LatencyPS != 0 {
			t.Errorf("row %d refused with %q, latency %d", i, r.Refused, r.LatencyPS)
		}
		if l > 0 && d.L2Bytes[l] == 0 || l > 0 && d.L2Bytes[l] > d.L2Bytes[l-1] {
			prev := rows[i-1]
			if prev.Fits && (!r.Fits || r.LatencyPS != prev.LatencyPS || r.EnergyPJ != prev.EnergyPJ) {
				t.Errorf("row %d: L2 %d -> %d changed a fitting point: %+v -> %+v", i, prev.L2Bytes, r.L2Bytes, prev, r)
			}
		}
	}
	if fits == 0 || fits == len(rows) {
		t.Errorf("%d of %d points fit: the example should show both", fits, len(rows))
	}
}

// Bad dsa blocks are spec errors naming the key.
func TestDSASpecErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.m")
	if err := os.WriteFile(bad, []byte("Dataflow {\n  TemporalMap(1,1) K;\n  Cluster(0, P);\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	u := "unit: dsa\n"
	for _, c := range []struct{ name, yaml, key, want string }{
		{"no block", u, "dsa", "needs a dsa: block"},
		{"no models", u + "dsa: {dataflows: [kcp_ws]}\n", "dsa.models", "empty list"},
		{"unknown model", u + "dsa: {models: [nosuch], dataflows: [kcp_ws]}\n", "dsa.models[0]", "nosuch"},
		{"no dataflows", u + "dsa: {models: [vig-ti]}\n", "dsa.dataflows", "empty list"},
		{"zero pes", u + "dsa: {models: [vig-ti], dataflows: [kcp_ws], pes: [64, 0]}\n", "dsa.pes[1]", "pes = 0"},
		{"negative l2", u + "dsa: {models: [vig-ti], dataflows: [kcp_ws], l2_bytes: [-5]}\n", "dsa.l2_bytes[0]", "l2_bytes = -5"},
		{"unknown built-in", u + "dsa: {models: [vig-ti], dataflows: [nosuch]}\n", "dsa.dataflows[0]", "nosuch"},
		{"zero noc", u + "dsa: {models: [vig-ti], dataflows: [kcp_ws], noc_bw: -1}\n", "dsa", "noc_bw = -1"},
		{"bad granularity", u + "dsa: {models: [vig-ti], dataflows: [kcp_ws], granularity: atoms}\n", "dsa.granularity", "atoms"},
		{"dsa on omega", "graphs: [{generator: er, count: 1}]\ndsa: {models: [vig-ti]}\n", "dsa", "only unit: dsa reads it"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseSpec([]byte(c.yaml))
			se, ok := err.(*SpecError)
			if !ok || se.Key != c.key || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want a SpecError at %s saying %q", err, c.key, c.want)
			}
		})
	}
	// A .m file that does not parse fails when the sweep is planned,
	// naming its entry, the file and the line.
	s, err := ParseSpec([]byte(u + "dsa: {models: [vig-ti], dataflows: [kcp_ws, " + bad + "]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = NewPlan(s)
	for _, w := range []string{"dsa.dataflows[1]", "bad.m", "line 3"} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("plan with a bad .m file: %v, want %q", err, w)
		}
	}
}

// A soc sweep over a spec file that declares DSAs maps segments onto them
// like onto the GPU and DLA: all on a DSA, every Grapher on another.
func TestSocSweepOverSpecDSAs(t *testing.T) {
	dir := t.TempDir()
	text := strings.Replace(string(soc.DefaultSpecYAML()), "\ndsas: []", `
dsas:
  - {name: dsa-k, dataflow: kcp_ws, pes: 256, noc_bw: 64, clock_mhz: 1000}
  - {name: dsa-y, dataflow: ykp_os, pes: 1024, noc_bw: 64, clock_mhz: 1000}`, 1)
	path := filepath.Join(dir, "soc.yaml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	p := mustPlan(t, "unit: soc\nsoc: {spec: "+path+", models: [vig-ti], mappings: [all-gpu, all-dsa-k, graphers-on-dsa-y]}\n")
	out := filepath.Join(dir, "out")
	if _, err := p.Run(context.Background(), out, Options{Workers: 1}); err != nil {
		t.Fatal(err)
	}
	rows := readRows[SocRow](t, out)
	if len(rows) != 3 {
		t.Fatalf("%d rows", len(rows))
	}
	for _, r := range rows {
		busy := map[string]float64{}
		for i, u := range r.Units {
			busy[u] = r.BusyMS[i]
		}
		switch r.MappingName {
		case "all-dsa-k":
			if busy["dsa-k"] <= 0 || busy["gpu"] != 0 || busy["dsa-y"] != 0 {
				t.Errorf("all-dsa-k: busy %v", busy)
			}
		case "graphers-on-dsa-y":
			if busy["dsa-y"] <= 0 || busy["gpu"] <= 0 || busy["dsa-k"] != 0 || r.Transitions == 0 {
				t.Errorf("graphers-on-dsa-y: busy %v, %d transitions", busy, r.Transitions)
			}
		}
	}
}
