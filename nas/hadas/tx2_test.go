package hadas

import (
	"flag"
	"math"
	"testing"

	"gnnsim/soc"
)

var tx2Fit = flag.Bool("tx2.fit", false, "print the TX2 GPU launch cost and power level that fit HADAS Table III's static energies")

// tx2ModuleMaxW is the Jetson TX2 module's maximum power (datasheet
// DS-08554: 7.5 W Max-Q, up to 15 W Max-P): what the GPU's fitted peak
// power should stay within.
const tx2ModuleMaxW = 15.0

// TestTX2StaticEnergyTableIII: a0's and a6's static energies at MaxN on
// soc.TX2 within 15 % of Table III. tx2.yaml fits two constants on these
// two figures (launch_us on their ratio, the power level on their
// geometric mean), so this holds by construction; it guards the profile
// against drifting from its calibration. With -tx2.fit it redoes the fit
// from the spec's current values and prints the constants.
func TestTX2StaticEnergyTableIII(t *testing.T) {
	spec := soc.TX2Spec()
	mj, ms, err := TX2StaticMJ(spec)
	if err != nil {
		t.Fatal(err)
	}
	for k, i := range []int{0, 6} {
		want := TableIIIStaticMJ[k]
		t.Logf("a%d on TX2 at MaxN: %.2f mJ, %.2f ms (Table III: %.2f mJ)", i, mj[k], ms[k], want)
		if d := math.Abs(mj[k]/want - 1); d > 0.15 {
			t.Errorf("a%d: %.2f mJ, Table III %.2f mJ (%.1f %% off, want <= 15 %%)", i, mj[k], want, 100*d)
		}
	}
	// The profile's peak power is a known shortfall, logged, not asserted:
	// see tx2.yaml's dynamic_w.
	if u := spec.Units[0]; u.IdleW+u.DynamicW > tx2ModuleMaxW {
		t.Logf("warning: TX2 GPU at MAXN draws %.2f + %.2f W while kernels run, above the module's %.0f W maximum", u.IdleW, u.DynamicW, tx2ModuleMaxW)
	}
	if !*tx2Fit {
		return
	}
	// The ratio a6/a0 does not depend on the power level: bisect the
	// launch cost on it (the ratio falls as the fixed per-kernel share
	// grows), then level the power (the idle share kept). Along the
	// ratio's curve the fitted MAXN power stays ~22.7 W whatever the idle
	// share (0.1-0.6 tried), so the module's 15 W bound cannot pick it.
	want := TableIIIStaticMJ[1] / TableIIIStaticMJ[0]
	lo, hi := 1.0, 1000.0
	for hi-lo > 0.5 {
		spec.Units[0].LaunchUS = 0.5 * (lo + hi)
		e, _, err := TX2StaticMJ(spec)
		if err != nil {
			t.Fatal(err)
		}
		if e[1]/e[0] > want {
			lo = spec.Units[0].LaunchUS
		} else {
			hi = spec.Units[0].LaunchUS
		}
	}
	spec.Units[0].LaunchUS = math.Round(0.5 * (lo + hi))
	if spec, err = LevelTX2Power(spec); err != nil {
		t.Fatal(err)
	}
	e, l, err := TX2StaticMJ(spec)
	if err != nil {
		t.Fatal(err)
	}
	u := spec.Units[0]
	t.Logf("fit: launch_us %.0f, idle_w %.3f, dynamic_w %.3f: a0 %.2f mJ %.2f ms, a6 %.2f mJ %.2f ms",
		u.LaunchUS, u.IdleW, u.DynamicW, e[0], l[0], e[1], l[1])
}
