package dataflow

import "testing"

// FuzzParseTiling checks that any text either parses into a tiling that
// resolves to valid tiles or fails with an error, never a panic.
func FuzzParseTiling(f *testing.F) {
	for _, s := range []string{"a", "h", "T_Va=*,T_N=2,T_Fa=8,T_Vc=*,T_Gc=1,T_Fc=16", "N=1,Fa=3,Gc=2,Fc=9", "T_Va=0", "=,=", "T_N=99999999999"} {
		f.Add(s, 100, 32, 16, 512)
	}
	f.Fuzz(func(t *testing.T, s string, v, F, G, pes int) {
		tl, err := ParseTiling(s)
		if err != nil {
			return
		}
		d := Dims{V: v, F: F, G: G}
		for _, inter := range Inters {
			c, err := tl.Config(inter, d, pes, 0)
			if err != nil {
				continue
			}
			if err := c.Validate(d); err != nil {
				t.Fatalf("%q %+v %d: Config returned an invalid config: %v", s, d, pes, err)
			}
		}
	})
}
