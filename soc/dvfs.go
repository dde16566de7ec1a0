package soc

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"gnnsim/hw"
)

// pointTolMHz is how close a requested clock must be to a table entry to
// name it: the tables hold values such as 1395.2 and 665.6 MHz that users
// round.
const pointTolMHz = 0.5

// findPoint returns the index of the operating point of pts (MHz) at mhz.
func findPoint(what string, pts []float64, mhz float64) (int, error) {
	if !(mhz > 0) || math.IsInf(mhz, 0) {
		return 0, fmt.Errorf("soc: %s: operating point %v MHz, want a positive clock", what, mhz)
	}
	for i, p := range pts {
		if math.Abs(p-mhz) <= pointTolMHz {
			return i, nil
		}
	}
	return 0, fmt.Errorf("soc: %s: %v MHz is not an operating point (have %s MHz)", what, mhz, joinMHz(pts))
}

func joinMHz(pts []float64) string {
	s := make([]string, len(pts))
	for i, p := range pts {
		s[i] = strconv.FormatFloat(p, 'g', -1, 64)
	}
	return strings.Join(s, ", ")
}

// volts returns the supply at point i of pts: linear in the clock between
// vmin at the lowest point and vmax at the highest.
func volts(pts []float64, i int, vmin, vmax float64) float64 {
	lo, hi := pts[0], pts[len(pts)-1]
	if hi == lo {
		return vmax
	}
	return vmin + (vmax-vmin)*(pts[i]-lo)/(hi-lo)
}

// operatingPoints returns the hw form of a DVFS table.
func operatingPoints(pts []float64, vmin, vmax float64) []hw.OperatingPoint {
	ops := make([]hw.OperatingPoint, len(pts))
	for i, p := range pts {
		ops[i] = hw.OperatingPoint{FreqHz: p * 1e6, Volts: volts(pts, i, vmin, vmax)}
	}
	return ops
}

// pointIndex finds p among ops by clock (within pointTolMHz) and, when p
// gives a voltage, by voltage too.
func pointIndex(name string, ops []hw.OperatingPoint, p hw.OperatingPoint) (int, error) {
	mhz := make([]float64, len(ops))
	for i, o := range ops {
		mhz[i] = o.FreqHz / 1e6
	}
	i, err := findPoint(name, mhz, p.FreqHz/1e6)
	if err != nil {
		return 0, err
	}
	if p.Volts != 0 && math.Abs(p.Volts-ops[i].Volts) > 1e-6 {
		return 0, fmt.Errorf("soc: %s: %v MHz runs at %.4g V, not %v V", name, mhz[i], ops[i].Volts, p.Volts)
	}
	return i, nil
}

// dynamicW returns the dynamic power C V^2 f at point i, C being fixed by
// dynW at the highest point.
func dynamicW(pts []float64, i int, vmin, vmax, dynW float64) float64 {
	top := len(pts) - 1
	vt := volts(pts, top, vmin, vmax)
	c := dynW / (vt * vt * pts[top])
	v := volts(pts, i, vmin, vmax)
	return c * v * v * pts[i]
}

// DVFS picks an operating point per clock domain: clocks in MHz keyed by
// unit name, or by the memory's name ("emc") for the shared memory. A
// domain left out runs at its highest point (MAXN).
type DVFS map[string]float64

// ParseDVFS parses "gpu=1377,emc=2133" (spaces allowed, empty = all at
// their highest points).
func ParseDVFS(s string) (DVFS, error) {
	d := DVFS{}
	for part := range strings.SplitSeq(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		name, val, ok := strings.Cut(part, "=")
		name = strings.TrimSpace(name)
		if !ok || name == "" {
			return nil, fmt.Errorf("soc: dvfs: %q is not name=MHz", part)
		}
		f, err := strconv.ParseFloat(strings.TrimSpace(val), 64)
		if err != nil {
			return nil, fmt.Errorf("soc: dvfs: %s: %q is not a clock in MHz", name, val)
		}
		if _, dup := d[name]; dup {
			return nil, fmt.Errorf("soc: dvfs: %s given twice", name)
		}
		d[name] = f
	}
	return d, nil
}

// String formats d as ParseDVFS reads it, names in sorted order.
func (d DVFS) String() string {
	keys := make([]string, 0, len(d))
	for k := range d {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + strconv.FormatFloat(d[k], 'g', -1, 64)
	}
	return strings.Join(parts, ",")
}
