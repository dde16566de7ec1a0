package gcos

import (
	"math/rand/v2"
	"strings"
	"testing"

	accel "gnnsim/accel/gcos"
	"gnnsim/graphs"
	"gnnsim/workload"
)

// sage3 is issue 27's three-layer GraphSAGE, hidden 64.
const sage3 = `name: sage3
layers:
  - {kind: sage, width: 64, aggregation: mean, activation: relu}
  - {kind: sage, width: 64, aggregation: mean, activation: relu}
  - {kind: sage, width: 7}
`

// RunModel prices models of any depth and kind (sage, gcn, gin, gat):
// the MACs are package workload's count of the model (the first layer on
// the data set's sparse input), every block costs time, and the blocks add
// up to the total; on a graph and on its size alone alike.
func TestRunModelConservesMACs(t *testing.T) {
	g, err := graphs.ErdosRenyi(300, 0.02, rand.New(rand.NewPCG(7, 7)))
	if err != nil {
		t.Fatal(err)
	}
	sets := []Dataset{
		{Name: "cora", Size: workload.Size{Nodes: 2708, NNZ: 10556}, Features: 1433, FeatureDensity: 0.0127, Classes: 7},
		{Name: "er", Graph: g, Features: 50, FeatureDensity: 0.1, Classes: 3},
		{Name: "dense", Graph: g, Features: 32, Classes: 3},
	}
	models := []string{sage3,
		"layers: [{kind: gcn, width: 16, activation: relu}, {kind: gcn, width: 16, activation: relu}, {kind: gcn, width: 16, activation: relu}, {kind: gcn, width: 7}]\n",
		"layers: [{kind: gin, width: 32, activation: relu}, {kind: gat, width: 8, heads: 4, activation: elu}, {kind: sage, width: 7, aggregation: max}]\n",
		"layers: [{kind: gat, width: 8, heads: 8, activation: elu}, {kind: gat, width: 7, heads: 2}]\n",
	}
	u, err := accel.New(accel.Default())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range sets {
		for _, text := range models {
			spec, err := workload.ParseModelSpec([]byte(text))
			if err != nil {
				t.Fatal(err)
			}
			m, err := d.BuildModel(spec)
			if err != nil {
				t.Fatal(err)
			}
			c, err := d.RunModel(m, u)
			if err != nil {
				t.Fatalf("%s on %s: %v", m.Name, d.Name, err)
			}
			m.Blocks[0].Layers[0].InputDensity = d.FeatureDensity
			want, err := m.MACs()
			if err != nil {
				t.Fatal(err)
			}
			if c.Total.MACs != want {
				t.Errorf("%s on %s: %d MACs, workload counts %d", m.Name, d.Name, c.Total.MACs, want)
			}
			if len(c.Blocks) != len(spec.Layers) {
				t.Errorf("%s on %s: %d block costs for %d layers", m.Name, d.Name, len(c.Blocks), len(spec.Layers))
			}
			var ps int64
			for i, b := range c.Blocks {
				if b.TimePS <= 0 {
					t.Errorf("%s on %s: block %d takes %d ps", m.Name, d.Name, i, b.TimePS)
				}
				ps += b.TimePS
			}
			if ps != c.Total.TimePS {
				t.Errorf("%s on %s: blocks add to %d ps, total %d", m.Name, d.Name, ps, c.Total.TimePS)
			}
		}
	}
}

// Models RunModel cannot price are errors naming the cause.
func TestRunModelErrors(t *testing.T) {
	d := Dataset{Name: "cora", Size: workload.Size{Nodes: 2708, NNZ: 10556}, Features: 1433, Classes: 7}
	u, _ := accel.New(accel.Default())
	for _, c := range []struct{ text, want string }{
		{"layers: [{kind: edgeconv, width: 8}]\n", "not supported by the template"},
		{"layers: [{kind: mrconv, width: 8, k: 4}]\n", "not supported by the template"},
		{"features: 64\nlayers: [{kind: gcn, width: 8}]\n", "64 input features"},
		{"zoo: vig-s\n", "not a GNN stack"},
	} {
		spec, err := workload.ParseModelSpec([]byte(c.text))
		if err != nil {
			t.Fatal(err)
		}
		m, err := d.BuildModel(spec)
		if err == nil {
			_, err = d.RunModel(m, u)
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.text, err, c.want)
		}
	}
}

// A data set priced in the cheaper order (Dataset.CheapOrder) gives an
// Arch's GCN layers workload's A(XW) when they narrow: on dense features
// the first layer's aggregation runs 16 wide instead of F wide, so the
// count is package workload's, and lower; a GIN Arch is unchanged.
func TestArchCheapOrder(t *testing.T) {
	d := Dataset{Name: "dense", Size: workload.Size{Nodes: 1000, NNZ: 20000}, Features: 500, Classes: 7}
	cheap := d
	cheap.CheapOrder = true
	gcn := Handcrafted(7)["GCN"]
	gin := gcn
	for i := range gin.Layers {
		gin.Layers[i].Attention, gin.Layers[i].Aggregation = workload.AttConstant, workload.AggMLP
	}
	const N, A = 1000, 20000
	for _, tc := range []struct {
		name        string
		a           Arch
		plain, want int64
	}{
		{"GCN", gcn, (A+N)*500 + N*500*16 + (A+N)*16 + N*16*7, N*500*16 + (A+N)*16 + N*16*7 + (A+N)*7},
		{"GIN", gin, (A+N)*500 + N*500*16 + N*16*16 + (A+N)*16 + N*16*7 + N*7*7, (A+N)*500 + N*500*16 + N*16*16 + (A+N)*16 + N*16*7 + N*7*7},
	} {
		for _, c := range []struct {
			d    Dataset
			want int64
		}{{d, tc.plain}, {cheap, tc.want}} {
			m, err := tc.a.Model(c.d)
			if err != nil {
				t.Fatal(err)
			}
			var macs int64
			for _, b := range m.Blocks {
				ks, err := b.Kernels()
				if err != nil {
					t.Fatal(err)
				}
				x, _, _ := workload.Totals(ks)
				macs += x
			}
			if macs != c.want {
				t.Errorf("%s, cheap order %v: %d MACs, want %d", tc.name, c.d.CheapOrder, macs, c.want)
			}
		}
	}
}

// TestRunModelSaturationIsAnError: a model whose total time or MACs does
// not fit in 64 bits is an error, though each block fits (issue 38 item 6:
// 40 width-2^20 GCN layers on Reddit printed MaxInt64 MACs).
func TestRunModelSaturationIsAnError(t *testing.T) {
	reddit := Dataset{Name: "reddit", Size: workload.Size{Nodes: 232965, NNZ: 114615892}, Features: 602, Classes: 41}
	u, err := accel.New(accel.Default())
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		layers int
		ok     bool
	}{{2, true}, {4, true}, {12, false}, {40, false}} {
		text := "layers:\n" + strings.Repeat("  - {kind: gcn, width: 1048576}\n", tc.layers)
		spec, err := workload.ParseModelSpec([]byte(text))
		if err != nil {
			t.Fatal(err)
		}
		m, err := reddit.BuildModel(spec)
		if err != nil {
			t.Fatal(err)
		}
		c, err := reddit.RunModel(m, u)
		if tc.ok != (err == nil) || err != nil && !strings.Contains(err.Error(), "64 bits") {
			t.Errorf("%d layers of 2^20: total %+v, err %v; want ok %v", tc.layers, c.Total, err, tc.ok)
		}
	}
}
