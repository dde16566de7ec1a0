package dataflow

import (
	"fmt"
	"strconv"
	"strings"
)

// TilingNames are the eight named tilings of seed 002's Table 2, in order.
const TilingNames = "abcdefgh"

// Tiling is a recipe for tile sizes: one of the named tilings a..h, or a
// custom recipe. Resolve turns it into Tiles for a layer and a PE budget.
type Tiling struct {
	name string
	// custom sizes in the order Va, Fa, N, Vc, Gc, Fc; 0 means "*" (as large
	// as the PEs allow), which only T_Va and T_Vc accept.
	custom [6]int
}

// Named returns the named tiling "a".."h".
func Named(name string) (Tiling, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	if len(n) != 1 || !strings.Contains(TilingNames, n) {
		return Tiling{}, fmt.Errorf("dataflow: unknown tiling %q (want one of a..h or a custom T_Va=..,T_N=..,T_Fa=..,T_Vc=..,T_Gc=..,T_Fc=..)", name)
	}
	return Tiling{name: n}, nil
}

// NamedTilings returns the eight tilings a..h.
func NamedTilings() []Tiling {
	ts := make([]Tiling, len(TilingNames))
	for i := range ts {
		ts[i] = Tiling{name: TilingNames[i : i+1]}
	}
	return ts
}

var customKeys = [6]string{"va", "fa", "n", "vc", "gc", "fc"}

// ParseTiling parses a tiling: a name a..h, or a custom recipe of six
// comma-separated key=value pairs T_Va, T_N, T_Fa, T_Vc, T_Gc, T_Fc (keys
// case-insensitive, the "T_" prefix optional, any order). T_Va and T_Vc may
// be "*" or left out, meaning as large as the PEs allow; every other key is
// required.
func ParseTiling(s string) (Tiling, error) {
	s = strings.TrimSpace(s)
	if !strings.Contains(s, "=") {
		return Named(s)
	}
	var t Tiling
	var seen [6]bool
	for _, kv := range strings.Split(s, ",") {
		kv = strings.TrimSpace(kv)
		if kv == "" {
			continue
		}
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return Tiling{}, fmt.Errorf("dataflow: tiling %q: %q is not key=value", s, kv)
		}
		key := strings.ToLower(strings.TrimSpace(k))
		key = strings.TrimPrefix(key, "t_")
		i := -1
		for j, ck := range customKeys {
			if key == ck {
				i = j
			}
		}
		if i < 0 {
			return Tiling{}, fmt.Errorf("dataflow: tiling %q: unknown key %q (want T_Va, T_N, T_Fa, T_Vc, T_Gc, T_Fc)", s, k)
		}
		if seen[i] {
			return Tiling{}, fmt.Errorf("dataflow: tiling %q: key %q given twice", s, k)
		}
		seen[i] = true
		v = strings.TrimSpace(v)
		if v == "*" {
			if i != 0 && i != 3 {
				return Tiling{}, fmt.Errorf("dataflow: tiling %q: only T_Va and T_Vc may be \"*\"", s)
			}
			continue
		}
		n, err := strconv.Atoi(v)
		if err != nil {
			return Tiling{}, fmt.Errorf("dataflow: tiling %q: %s=%q is not an integer", s, k, v)
		}
		if n < 1 || n > MaxDim {
			return Tiling{}, fmt.Errorf("dataflow: tiling %q: %s=%d, want 1..%d", s, k, n, MaxDim)
		}
		t.custom[i] = n
	}
	for i, ok := range seen {
		if !ok && i != 0 && i != 3 {
			return Tiling{}, fmt.Errorf("dataflow: tiling %q: missing T_%s", s, strings.ToUpper(customKeys[i][:1])+customKeys[i][1:])
		}
	}
	t.name = "custom"
	return t, nil
}

// Name returns "a".."h" for a named tiling and the canonical recipe text
// ("T_Va=*,T_N=2,...") for a custom one.
func (t Tiling) Name() string {
	if t.name != "custom" {
		return t.name
	}
	f := func(v int) string {
		if v == 0 {
			return "*"
		}
		return strconv.Itoa(v)
	}
	c := t.custom
	return fmt.Sprintf("T_Va=%s,T_N=%d,T_Fa=%d,T_Vc=%s,T_Gc=%d,T_Fc=%d", f(c[0]), c[2], c[1], f(c[3]), c[4], c[5])
}

// Resolve returns the tile sizes of the recipe for layer d with aggPEs PEs
// for aggregation and combPEs for combination (equal except for pp).
func (t Tiling) Resolve(d Dims, aggPEs, combPEs int) (Tiles, error) {
	if err := d.Validate(); err != nil {
		return Tiles{}, err
	}
	if aggPEs <= 0 || combPEs <= 0 {
		return Tiles{}, errNoPEs
	}
	var ts Tiles
	switch t.name {
	case "":
		return Tiles{}, fmt.Errorf("dataflow: empty tiling")
	case "custom":
		c := t.custom
		ts = Tiles{Va: c[0], Fa: min(c[1], d.F), N: c[2], Vc: c[3], Gc: min(c[4], d.G), Fc: min(c[5], d.F)}
	default:
		ts = tableTwo(t.name[0], d, aggPEs, combPEs)
	}
	if ts.Fa*ts.N > aggPEs && t.name != "custom" {
		// The reference set's rule: shrink T_N to fit, keep T_Fa.
		ts.NReducedFrom = ts.N
		ts.N = max(1, aggPEs/ts.Fa)
	}
	if ts.Va == 0 {
		ts.Va = max(1, min(d.V, aggPEs/max(1, ts.Fa*ts.N)))
	}
	if ts.Vc == 0 {
		ts.Vc = max(1, min(d.V, combPEs/max(1, ts.Gc*ts.Fc)))
	}
	ts.Va = min(ts.Va, d.V)
	ts.Vc = min(ts.Vc, d.V)
	if err := ts.Validate(aggPEs, combPEs); err != nil {
		return Tiles{}, fmt.Errorf("tiling %s: %w", t.Name(), err)
	}
	return ts, nil
}

// tableTwo returns T_Fa, T_N, T_Gc and T_Fc of Table 2 (T_Va and T_Vc left
// 0 for Resolve to fill in). P is each phase's own PE budget.
func tableTwo(name byte, d Dims, aggP, combP int) Tiles {
	F, V := d.F, d.V
	half := max(1, F/2) // floor(F/2), raised to 1 for F = 1
	var t Tiles
	t.Gc = 1
	switch name {
	case 'a':
		t.Fa, t.N, t.Fc = min(aggP, F), 1, min(combP, F)
	case 'b':
		t.Fa, t.N, t.Fc = min(2, F), half, min(2, F)
	case 'c':
		t.Fa, t.N, t.Fc = min(8, F), half, min(8, F)
	case 'd':
		t.Fa, t.N, t.Fc = 1, 1, 1
	case 'e':
		t.Fa, t.N, t.Fc = min(18, F), half, min(18, F)
	case 'f':
		t.Fa, t.N, t.Fc = 1, min(18, V), 1
	case 'g':
		t.Fa, t.N, t.Fc = min(18, F), 1, min(85, F)
	case 'h':
		t.Fa, t.N, t.Fc = 1, min(18, V), min(85, F)
	}
	// Table 2's T_Fa and T_Fc never exceed the PEs for the budgets of the
	// seed; keep the invariant for tiny budgets too.
	t.Fa = min(t.Fa, aggP)
	t.Fc = min(t.Fc, combP)
	return t
}

// Config resolves the tiling for inter-phase dataflow inter on an array of
// pes PEs. For pp, ppAggPEs of them go to aggregation and the rest to
// combination (ppAggPEs = 0 means half, rounded down), and each phase's
// tiles are resolved from its own share; seq and sp give both phases the
// whole array.
func (t Tiling) Config(inter Inter, d Dims, pes, ppAggPEs int) (Config, error) {
	if pes <= 0 || pes > MaxDim {
		return Config{}, fmt.Errorf("dataflow: %d PEs, want 1..%d", pes, MaxDim)
	}
	aggP, combP := pes, pes
	if inter == PP {
		if ppAggPEs == 0 {
			ppAggPEs = pes / 2
		}
		if ppAggPEs <= 0 || ppAggPEs >= pes {
			return Config{}, fmt.Errorf("dataflow: pp split gives %d of %d PEs to aggregation; each phase needs at least one", ppAggPEs, pes)
		}
		aggP, combP = ppAggPEs, pes-ppAggPEs
	}
	ts, err := t.Resolve(d, aggP, combP)
	if err != nil {
		return Config{}, err
	}
	if int(inter) >= len(interNames) {
		return Config{}, fmt.Errorf("dataflow: unknown inter-phase dataflow %d", inter)
	}
	// Resolve has validated d and the tiles against each phase's PEs, and
	// the split and the default orders are valid by construction: the
	// result passes Config.Validate, which the predictor's hot path would
	// otherwise pay for twice.
	return Config{
		Inter: inter, Tiling: t.Name(), Tiles: ts,
		AggOrder: AggOrder, CombOrder: CombOrder,
		PEs: pes, AggPEs: aggP, CombPEs: combP,
	}, nil
}

// NumConfigs is the number of configurations of seed 002: 3 x 8.
const NumConfigs = len(Inters) * len(TilingNames)

// All returns the 24 configurations of seed 002 for layer d on pes PEs, in
// the order seq-a..seq-h, sp-a..sp-h, pp-a..pp-h (index = inter*8 + tiling).
// ppAggPEs is the pp split as for Tiling.Config.
func All(d Dims, pes, ppAggPEs int) ([NumConfigs]Config, error) {
	var out [NumConfigs]Config
	for i, inter := range Inters {
		for j := range len(TilingNames) {
			c, err := Tiling{name: TilingNames[j : j+1]}.Config(inter, d, pes, ppAggPEs)
			if err != nil {
				return out, err
			}
			out[i*len(TilingNames)+j] = c
		}
	}
	return out, nil
}
