package gcos

import (
	"reflect"
	"strings"
	"testing"
)

// TestConfigFileRoundTrip: the printed default reads back to the default
// (defaults filled in), and the parsed design builds.
func TestConfigFileRoundTrip(t *testing.T) {
	for _, c := range []Config{Default(), {Name: "two", Subs: []Sub{
		{PEs: 1024, Tiling: WeightReuse, Kernel: InnerProduct, TileM: 8, TileK: 16, TileN: 32},
		{PEs: 512, Tiling: WeightReuse, Kernel: InnerProduct, TileM: 8, TileK: 16, TileN: 32}},
		Alloc: ByColumns, Repurpose: true, ShareWeights: true, ClockHz: 200e6, HBMBytesPerSec: 100e9, HBMLatency: -1}} {
		text, err := FormatConfig(c)
		if err != nil {
			t.Fatal(err)
		}
		got, err := ParseConfig(text)
		if err != nil {
			t.Fatalf("%s: %v\n%s", c.Name, err, text)
		}
		want := c
		want.defaults()
		got.defaults()
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: read back %+v, want %+v", c.Name, got, want)
		}
		if _, err := New(got); err != nil {
			t.Errorf("%s: %v", c.Name, err)
		}
	}
}

// TestConfigFileErrors: every bad design file is an error naming its key.
func TestConfigFileErrors(t *testing.T) {
	sub := "subs: [{pes: 64, tiling: output, kernel: row, tile_m: 8, tile_k: 8, tile_n: 8}]\n"
	for _, c := range []struct{ name, yaml, want string }{
		{"empty", "", "empty"},
		{"unknown key", "name: x\nsubz: []\n", "subz"},
		{"no subs", "name: x\n", "subs"},
		{"six subs", "subs: [" + strings.Repeat("{pes: 1, tiling: output, kernel: row, tile_m: 8, tile_k: 8, tile_n: 8},", 6) + "]\n", "6 sub-accelerators"},
		{"negative pes", "subs: [{pes: -4, tiling: output, kernel: row, tile_m: 8, tile_k: 8, tile_n: 8}]\n", "subs[0].pes"},
		{"zero tile", "subs: [{pes: 4, tiling: output, kernel: row, tile_m: 0, tile_k: 8, tile_n: 8}]\n", "subs[0].tile_m"},
		{"huge tile", "subs: [{pes: 4, tiling: output, kernel: row, tile_m: 8, tile_k: 99999, tile_n: 8}]\n", "subs[0].tile_k"},
		{"fractional pes", "subs: [{pes: 4.5, tiling: output, kernel: row, tile_m: 8, tile_k: 8, tile_n: 8}]\n", "pes"},
		{"bad tiling", "subs: [{pes: 4, tiling: diagonal, kernel: row, tile_m: 8, tile_k: 8, tile_n: 8}]\n", "subs[0].tiling"},
		{"bad kernel", "subs: [{pes: 4, tiling: output, kernel: spiral, tile_m: 8, tile_k: 8, tile_n: 8}]\n", "subs[0].kernel"},
		{"bad allocation", "allocation: diagonal\n" + sub, "allocation"},
		{"bad scheme", "scheme: serial\n" + sub, "scheme"},
		{"hybrid of one", "scheme: hybrid\n" + sub, "2 engines"},
		{"negative clock", "clock_mhz: -330\n" + sub, "clock_mhz"},
		{"negative bandwidth", "hbm_gb_per_s: -1\n" + sub, "hbm_gb_per_s"},
		{"tiny clock", "clock_mhz: 1e-300\n" + sub, "clock_mhz"},
		{"zero clock (issue 38: taken as the default)", "clock_mhz: 0\n" + sub, "clock_mhz"},
		{"zero bandwidth (issue 38: taken as the default)", "hbm_gb_per_s: 0\n" + sub, "hbm_gb_per_s"},
		{"huge bandwidth", "hbm_gb_per_s: 1e9\n" + sub, "hbm_gb_per_s"},
		{"negative latency", "hbm_latency_cycles: -1\n" + sub, "hbm_latency_cycles"},
		{"mixed modes shared", "share_weights: true\nsubs: [{pes: 4, tiling: output, kernel: row, tile_m: 8, tile_k: 8, tile_n: 8}, {pes: 4, tiling: weight, kernel: row, tile_m: 8, tile_k: 8, tile_n: 8}]\n", "one tiling and kernel mode"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseConfig([]byte(c.yaml))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one naming %q", err, c.want)
			}
		})
	}
}

// FuzzParseConfig: the parser never panics; a design it accepts builds,
// and prints back to itself.
func FuzzParseConfig(f *testing.F) {
	def, _ := FormatConfig(Default())
	f.Add(string(def))
	f.Add("subs: [{pes: 64, tiling: output, kernel: row, tile_m: 8, tile_k: 8, tile_n: 8}]\n")
	f.Add("scheme: hybrid\nsubs: [{pes: 1, tiling: weight, kernel: inner, tile_m: 1, tile_k: 1, tile_n: 1}, {pes: 2, tiling: feature, kernel: column, tile_m: 4096, tile_k: 1, tile_n: 1}]\nhbm_latency_cycles: 0\n")
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseConfig([]byte(s))
		if err != nil {
			return
		}
		if _, err := New(c); err != nil {
			t.Fatalf("accepted design does not build: %v", err)
		}
		text, err := FormatConfig(c)
		if err != nil {
			t.Fatal(err)
		}
		back, err := ParseConfig(text)
		if err != nil {
			t.Fatalf("printed design does not parse: %v\n%s", err, text)
		}
		c.defaults()
		back.defaults()
		if !reflect.DeepEqual(c, back) {
			t.Fatalf("round trip %+v != %+v", back, c)
		}
	})
}
