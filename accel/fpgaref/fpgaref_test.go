package fpgaref

import (
	"strings"
	"testing"
)

// TestReferenceAgreement prices every row of ../shared/fgnas-reference with
// the FGNASCode model: at least 99 % of rows must agree exactly on each of
// cycles, LUT, FF and DSP (the target is every row).
func TestReferenceAgreement(t *testing.T) {
	dir, ok := FindDir()
	if !ok {
		t.Skipf("no reference set at %s (set GNNSIM_SHARED to the shared folder)", dir)
	}
	ref, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	rep := Score(ref)
	var b strings.Builder
	_ = rep.Write(&b)
	_ = WriteWorst(&b, rep.Worst(5))
	t.Log("\n" + b.String())
	if len(rep.Failures) > 0 {
		t.Errorf("%d rows not priced; first: %v", len(rep.Failures), rep.Failures[0].Err)
	}
	for _, st := range rep.Metrics {
		if st.ExactShare < 0.99 {
			t.Errorf("%s: exact on %.2f%% of %d rows, want >= 99%%", st.Name, 100*st.ExactShare, st.Rows)
		}
	}
}

const header = "design_id,source,tags,dataset,num_nodes,num_edges,in_features,classes,layers," +
	"l0_attention,l0_heads,l0_aggregation,l0_activation,l0_hidden_features,l0_act_int_bits,l0_act_frac_bits,l0_weight_int_bits,l0_weight_frac_bits,l0_in_tile_size,l0_out_tile_size,l0_aggr_tile_size,l0_attn_tile_size,l0_act_tile_size," +
	"l1_attention,l1_heads,l1_aggregation,l1_activation,l1_hidden_features,l1_act_int_bits,l1_act_frac_bits,l1_weight_int_bits,l1_weight_frac_bits,l1_in_tile_size,l1_out_tile_size,l1_aggr_tile_size,l1_attn_tile_size,l1_act_tile_size," +
	"cycles,latency_ms,LUT,FF,DSP,l0_cycles,l0_LUT,l0_FF,l0_DSP,l0_out_int_bits,l0_out_frac_bits,l1_cycles,l1_LUT,l1_FF,l1_DSP,l1_out_int_bits,l1_out_frac_bits,error\n"

// row0 is the first row of the shared reference set (Cora).
const row0 = "0,uniform_t1,t1-0000,cora,2708,10556,1433,7,2,gcn,4,mean,relu,16,1,3,1,3,5,2,2,8,2,gat,4,add,relu,,3,5,3,1,5,1,2,2,3,997127,9.97127,36462,10533,0,628860,27208,6752,0,3,3,368267,9254,3781,0,3,5,\n"

func TestReadScoreOneRow(t *testing.T) {
	rows, err := ReadRows(strings.NewReader(header+row0), "t.csv")
	if err != nil {
		t.Fatal(err)
	}
	rep := Score(&Reference{Rows: rows})
	if rep.ExactAll != 1 || rep.LayersExact != 1 {
		var b strings.Builder
		_ = WriteWorst(&b, rep.Worst(1))
		t.Fatalf("row 0 not exact: %s", b.String())
	}
}

// Malformed tables are errors naming the problem, never a panic.
func TestReadRowsRejects(t *testing.T) {
	replace := func(old, new string) string { return header + strings.Replace(row0, old, new, 1) }
	for _, tc := range []struct{ name, in, want string }{
		{"empty", "", "empty file"},
		{"no rows", header, "no rows"},
		{"missing column", strings.Replace(header, "num_edges", "edges", 1) + row0, `no column "num_edges"`},
		{"NaN count", replace(",10556,", ",NaN,"), "num_edges"},
		{"NaN latency", replace("9.97127", "NaN"), "latency_ms"},
		{"Inf latency", replace("9.97127", "+Inf"), "latency_ms"},
		{"float cycles", replace("997127", "997127.5"), "cycles"},
		{"negative LUT", replace(",36462,", ",-36462,"), "LUT"},
		{"unknown attention", replace(",gcn,", ",gin,"), "attention"},
		{"zero tile", replace(",5,2,2,8,2,", ",0,2,2,8,2,"), "in_tile_size"},
		{"zero layers", replace(",7,2,", ",7,0,"), "layers"},
		{"empty heads", replace(",gcn,4,", ",gcn,,"), "heads"},
		{"ragged", header + "1,2,3\n", "wrong number of fields"},
	} {
		_, err := ReadRows(strings.NewReader(tc.in), "t.csv")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one mentioning %q", tc.name, err, tc.want)
		}
	}
}

// A design the authors' model cannot price (fixed point with 0 integer
// bits) is a scoring failure, reported, not a panic.
func TestScoreFailure(t *testing.T) {
	in := header + strings.Replace(row0, ",16,1,3,1,3,", ",16,0,3,1,3,", 1)
	rows, err := ReadRows(strings.NewReader(in), "t.csv")
	if err != nil {
		t.Fatal(err)
	}
	rep := Score(&Reference{Rows: rows})
	if len(rep.Failures) != 1 || !strings.Contains(rep.Failures[0].Err.Error(), "integer bit") {
		t.Fatalf("failures %v", rep.Failures)
	}
}

func FuzzReadRows(f *testing.F) {
	f.Add(header + row0)
	f.Add(header + strings.Replace(row0, ",1,3,1,3,", ",,,,,", 1))
	f.Add("a,b\n1,2\n")
	f.Fuzz(func(t *testing.T, in string) {
		rows, err := ReadRows(strings.NewReader(in), "fuzz.csv")
		if err != nil {
			return
		}
		rep := Score(&Reference{Rows: rows})
		if rep.Rows != len(rows) {
			t.Fatalf("%d rows scored of %d", rep.Rows, len(rows))
		}
	})
}
