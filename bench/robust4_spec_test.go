package bench

import (
	"strings"
	"testing"
)

// TestSpecsRefuseSilentDefaults: a value a grid cannot use is refused,
// never read as "the default" or run twice (issue 38 item 11: dsa
// clock_mhz 0 became 1000, noc_bw 0 became 64; duplicate and empty lists
// in dsa, gcos and fpga sweeps; a gcos data_dir that does not exist fell
// back to published sizes).
func TestSpecsRefuseSilentDefaults(t *testing.T) {
	dsa := "unit: dsa\ndsa:\n  models: [vig-ti]\n  dataflows: [kcp_ws]\n"
	gcos := "unit: gcos\ngcos:\n  models: [../examples/sage3.yaml]\n  data: [cora]\n"
	fpga := "unit: fpga\nfpga:\n  data: cora\n  archs: [\"gcn/add/relu/8;gcn/add/relu/7\"]\n"
	for _, tc := range []struct {
		name, spec, key string
	}{
		{"dsa clock 0", dsa + "  clock_mhz: 0\n", "dsa.clock_mhz"},
		{"dsa noc_bw 0", dsa + "  noc_bw: 0\n", "dsa.noc_bw"},
		{"dsa noc_hops 0", dsa + "  noc_hops: 0\n", "dsa.noc_hops"},
		{"dsa pes twice", dsa + "  pes: [64, 64]\n", "dsa.pes[1]"},
		{"dsa pes empty", dsa + "  pes: []\n", "dsa.pes"},
		{"dsa dataflow twice", "unit: dsa\ndsa:\n  models: [vig-ti]\n  dataflows: [kcp_ws, kcp_ws]\n", "dsa.dataflows[1]"},
		{"gcos data twice", "unit: gcos\ngcos:\n  configs: [{}]\n  models: [../examples/sage3.yaml]\n  data: [cora, cora]\n", "gcos.data[1]"},
		{"gcos grid twice", gcos + "  configs: [{pes: [64, 64]}]\n", "gcos.configs[0].pes[1]"},
		{"gcos grid empty", gcos + "  configs: [{clock_mhz: []}]\n", "gcos.configs[0].clock_mhz"},
		{"gcos data_dir missing", gcos + "  configs: [{}]\n  data_dir: /nonexistent/planetoid\n", "gcos.data_dir"},
		{"fpga tiles twice", fpga + "  tiles: [\"8,8,8,8,8\", \"8,8,8,8,8\"]\n", "fpga.tiles[1]"},
		{"fpga bits empty", fpga + "  bits: []\n", "fpga.bits"},
	} {
		s, err := ParseSpec([]byte(tc.spec))
		if err == nil {
			_, err = NewPlan(s)
		}
		if err == nil || !strings.Contains(err.Error(), tc.key) {
			t.Errorf("%s: %v, want an error naming %s", tc.name, err, tc.key)
		}
	}
	for _, ok := range []string{dsa, dsa + "  clock_mhz: 500\n  noc_bw: 32\n  pes: [64, 128]\n", gcos + "  configs: [{pes: [64, 128]}]\n", fpga} {
		s, err := ParseSpec([]byte(ok))
		if err == nil {
			_, err = NewPlan(s)
		}
		if err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
}

// TestSocCNNRowsHaveNoGraphOp: a CNN has no Grapher, so its rows say
// graph_op none, not the ViGs' default mrconv (issue 38 item 11).
func TestSocCNNRowsHaveNoGraphOp(t *testing.T) {
	p := mustPlan(t, "unit: soc\nsoc: {models: [googlenet, vig-ti], mappings: [all-gpu]}\n")
	tab := &socTable{setIdx: -1}
	for id := range p.NumGraphs() {
		if err := p.eval.Evaluate(tab, Case{ID: id}); err != nil {
			t.Fatal(err)
		}
	}
	for _, r := range tab.Rows {
		want := "mrconv"
		if r.Model == "googlenet" {
			want = "none"
		}
		if r.GraphOp != want {
			t.Errorf("%s: graph_op %q, want %q", r.Model, r.GraphOp, want)
		}
	}
}
