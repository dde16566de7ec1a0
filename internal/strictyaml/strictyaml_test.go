package strictyaml

import (
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

type inner struct {
	PEs int `yaml:"pes,omitempty"`
}

type doc struct {
	Seed  uint64             `yaml:"seed"`
	N     *int               `yaml:"n"`
	List  []int              `yaml:"list"`
	HW    []inner            `yaml:"hardware"`
	Rate  float64            `yaml:"rate"`
	Param map[string]float64 `yaml:"params"`
	Sizes map[string][]int   `yaml:"sizes"`
}

// TestDecodeRefusesCoercions: every input here was silently truncated or
// wrapped by yaml.v3 before (seed 1.5 -> 1, 2^64 -> 2^63, pes 256.7 -> 256).
func TestDecodeRefusesCoercions(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"seed: 1.5", "seed"},
		{"seed: 18446744073709551616", "seed"},
		{"seed: 1e3", "seed"},
		{"n: 2.5", "n"},
		{"list: [1, 2.5]", "list[1]"},
		{"hardware: [{pes: 256.7}]", "hardware[0].pes"},
		{"sizes: {F: [16.5]}", "sizes.F[0]"},
		{"bogus: 1", "bogus"},
		{"seed: -1", "seed"},
	} {
		var d doc
		err := Decode([]byte(tc.in), &d)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one naming %s", tc.in, err, tc.want)
		}
	}
}

func TestDecodeAccepts(t *testing.T) {
	var d doc
	in := "seed: 18446744073709551615\nn: 3\nlist: [1, 0x10]\nhardware: [{pes: 256}]\nrate: 1\nparams: {a: 0.5, b: 2}\n"
	if err := Decode([]byte(in), &d); err != nil {
		t.Fatal(err)
	}
	if d.Seed != 1<<64-1 || *d.N != 3 || d.List[1] != 16 || d.HW[0].PEs != 256 || d.Rate != 1 || d.Param["a"] != 0.5 {
		t.Errorf("decoded %+v", d)
	}
	if err := Decode([]byte(""), &d); err != ErrEmpty {
		t.Errorf("empty document: %v", err)
	}
}

// FuzzDecode: no input panics, and whatever decodes strictly decodes the
// same with plain yaml.v3 (strictness only ever refuses).
func FuzzDecode(f *testing.F) {
	f.Add("seed: 1\nlist: [1, 2]\nhardware: [{pes: 3}]\n")
	f.Add("seed: 1.5")
	f.Add("a: &x {pes: 1}\nhardware: [*x]\n")
	f.Add("<<: {seed: 2}\n")
	f.Fuzz(func(t *testing.T, in string) {
		var d doc
		if err := Decode([]byte(in), &d); err != nil {
			return
		}
		var plain doc
		if err := yaml.Unmarshal([]byte(in), &plain); err != nil {
			t.Fatalf("strict decode accepted what yaml.v3 refuses: %v", err)
		}
	})
}
