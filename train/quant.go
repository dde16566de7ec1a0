package train

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Fixed is a signed fixed-point format with Int integer bits and Frac
// fraction bits (and a sign bit, 1+Int+Frac bits in all). FGNAS Eq. 7-8:
// a real x is stored as clip(round(x/D)*D, -2^Int, 2^Int - D), D = 2^-Frac.
type Fixed struct {
	Int, Frac int
}

// maxFixedBits bounds Int and Frac: beyond 30 fraction bits a float64
// quantiser is exact for every value a layer produces anyway.
const maxFixedBits = 30

// Validate checks that both bit counts lie in [0, 30].
func (f Fixed) Validate() error {
	if f.Int < 0 || f.Frac < 0 || f.Int > maxFixedBits || f.Frac > maxFixedBits {
		return fmt.Errorf("train: fixed-point format %d.%d: integer and fraction bits must lie in [0, %d]", f.Int, f.Frac, maxFixedBits)
	}
	return nil
}

// Quantize rounds x to the format (round half away from zero; the paper
// writes a floor bracket but calls it rounding to integers) and clips it
// to the representable range. NaN stays NaN.
func (f Fixed) Quantize(x float64) float64 {
	d := math.Ldexp(1, -f.Frac)
	lim := math.Ldexp(1, f.Int)
	return min(max(math.Round(x/d)*d, -lim), lim-d)
}

// quantizeAll quantises xs in place.
func (f Fixed) quantizeAll(xs []float64) {
	d := math.Ldexp(1, -f.Frac)
	lim := math.Ldexp(1, f.Int)
	for i, x := range xs {
		xs[i] = min(max(math.Round(x/d)*d, -lim), lim-d)
	}
}

// String prints "I.F", the form ParseFixed reads.
func (f Fixed) String() string { return strconv.Itoa(f.Int) + "." + strconv.Itoa(f.Frac) }

// Bits are one layer's formats (FGNAS 3.4: wi, wf for the weights, ai, af
// for the activations): W for its weights, attention vectors and bias, A
// for everything it computes and passes on (see Model.Evaluate).
type Bits struct {
	W, A Fixed
}

// Validate checks both formats.
func (b Bits) Validate() error {
	if err := b.W.Validate(); err != nil {
		return err
	}
	return b.A.Validate()
}

// String prints "w=I.F,a=I.F", the form ParseBits reads.
func (b Bits) String() string { return "w=" + b.W.String() + ",a=" + b.A.String() }

// ParseFixed reads "I.F": I integer bits, F fraction bits.
func ParseFixed(s string) (Fixed, error) {
	is, fs, ok := strings.Cut(strings.TrimSpace(s), ".")
	i, err1 := strconv.Atoi(is)
	f, err2 := strconv.Atoi(fs)
	if !ok || err1 != nil || err2 != nil {
		return Fixed{}, fmt.Errorf("train: fixed-point format %q: want INT.FRAC, e.g. 1.5 for 1 integer and 5 fraction bits", s)
	}
	x := Fixed{Int: i, Frac: f}
	if i+f < 1 && x.Validate() == nil {
		return Fixed{}, fmt.Errorf("train: fixed-point format %q has no integer or fraction bit: want at least one", s)
	}
	return x, x.Validate()
}

// ParseBits reads per-layer formats: "w=I.F,a=I.F" for every layer, or
// one such group per layer joined by "/" ("w=1.5,a=2.4/w=2.6,a=3.4").
func ParseBits(s string) ([]Bits, error) {
	var out []Bits
	for _, group := range strings.Split(s, "/") {
		var b Bits
		var seen [2]bool
		for _, kv := range strings.Split(group, ",") {
			k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
			idx := strings.Index("wa", strings.ToLower(k))
			if !ok || len(k) != 1 || idx < 0 || seen[idx] {
				return nil, fmt.Errorf("train: bits %q: want w=INT.FRAC,a=INT.FRAC", group)
			}
			seen[idx] = true
			f, err := ParseFixed(v)
			if err != nil {
				return nil, err
			}
			if idx == 0 {
				b.W = f
			} else {
				b.A = f
			}
		}
		if !seen[0] || !seen[1] {
			return nil, fmt.Errorf("train: bits %q: both w= and a= are needed", group)
		}
		out = append(out, b)
	}
	return out, nil
}

// bitsKey is the canonical text of per-layer formats (empty: float).
func bitsKey(bits []Bits) string {
	parts := make([]string, len(bits))
	for i, b := range bits {
		parts[i] = b.String()
	}
	return strings.Join(parts, "/")
}

// expandBits returns one format per layer: bits as is when it has one
// entry per layer, its single entry repeated, or nil for nil.
func expandBits(bits []Bits, layers int) ([]Bits, error) {
	switch len(bits) {
	case 0:
		return nil, nil
	case 1:
		out := make([]Bits, layers)
		for i := range out {
			out[i] = bits[0]
		}
		bits = out
	case layers:
	default:
		return nil, fmt.Errorf("train: %d bit formats for %d layers (want 1 or %d)", len(bits), layers, layers)
	}
	for _, b := range bits {
		if err := b.Validate(); err != nil {
			return nil, err
		}
	}
	return bits, nil
}
