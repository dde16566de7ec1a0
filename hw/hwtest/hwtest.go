// Package hwtest is the conformance suite of the hw.Unit contract: every
// hardware model's tests call Conformance with the works it supports.
package hwtest

import (
	"fmt"
	"testing"

	"gnnsim/hw"
	"gnnsim/workload"
)

// Conformance checks the contract of u on works (each must be work u can
// run):
//
//   - zero work (no layers, or no nodes) costs nothing;
//   - costs are finite and non-negative, and time is positive when there
//     are MACs;
//   - Cost.MACs equals the MACs of the work's kernels;
//   - two runs of the same work cost the same;
//   - a Clocked unit's time is its cycles at its clock;
//   - work with an invalid layer is an error, not a panic;
//   - a Scalable unit's operating points each give a conforming unit, and
//     a higher frequency is never slower;
//   - a Budgeted unit's usage and budget are non-negative.
func Conformance(t *testing.T, u hw.Unit, works []hw.Work) {
	t.Helper()
	if u.Name() == "" {
		t.Errorf("unit has an empty name")
	}
	if len(works) == 0 {
		t.Fatalf("%s: conformance needs at least one work", u.Name())
	}
	checkWorks(t, u, works)
	checkZero(t, u, works[0])
	checkBad(t, u, works[0])
	if s, ok := u.(hw.Scalable); ok {
		checkScalable(t, s, works)
	}
	if b, ok := u.(hw.Budgeted); ok {
		for _, r := range []hw.Resources{b.Usage(), b.Budget()} {
			if r.LUT < 0 || r.FF < 0 || r.DSP < 0 || r.BRAM < 0 || r.OnChipBytes < 0 {
				t.Errorf("%s: negative resources %+v", u.Name(), r)
			}
		}
	}
}

func checkWorks(t *testing.T, u hw.Unit, works []hw.Work) {
	t.Helper()
	for i, w := range works {
		c, err := run(u, w)
		if err != nil {
			t.Errorf("%s: work %d (%s): %v", u.Name(), i, w.Block.Name, err)
			continue
		}
		if err := c.Validate(); err != nil {
			t.Errorf("%s: work %d: %v", u.Name(), i, err)
		}
		ks, err := w.Kernels()
		if err != nil {
			t.Errorf("%s: work %d: kernels: %v", u.Name(), i, err)
			continue
		}
		macs, _, _ := workload.Totals(ks)
		if c.MACs != macs {
			t.Errorf("%s: work %d: cost has %d MACs, the kernels %d", u.Name(), i, c.MACs, macs)
		}
		if macs > 0 && c.TimePS <= 0 {
			t.Errorf("%s: work %d: %d MACs in %d ps", u.Name(), i, macs, c.TimePS)
		}
		again, err := run(u, w)
		if err != nil || again != c {
			t.Errorf("%s: work %d: second run gave %+v, %v; first %+v", u.Name(), i, again, err, c)
		}
		if ck, ok := u.(hw.Clocked); ok {
			if want := hw.PS(c.Cycles, ck.ClockHz()); c.TimePS != want {
				t.Errorf("%s: work %d: %d cycles at %g Hz is %d ps, cost says %d", u.Name(), i, c.Cycles, ck.ClockHz(), want, c.TimePS)
			}
		}
	}
}

func checkZero(t *testing.T, u hw.Unit, w hw.Work) {
	t.Helper()
	noLayers := hw.Work{Block: workload.Block{Name: "empty", Kind: w.Block.Kind, In: w.Block.In}}
	noNodes := hw.Work{Block: workload.Block{Name: "no-nodes", Kind: w.Block.Kind, Layers: w.Block.Layers}}
	for _, z := range []hw.Work{noLayers, noNodes} {
		c, err := run(u, z)
		if err != nil || c != (hw.Cost{}) {
			t.Errorf("%s: %s work cost %+v, %v; want zero", u.Name(), z.Block.Name, c, err)
		}
	}
}

func checkBad(t *testing.T, u hw.Unit, w hw.Work) {
	t.Helper()
	bad := w
	bad.Block.Layers = append([]workload.Layer(nil), w.Block.Layers...)
	if len(bad.Block.Layers) == 0 {
		return
	}
	bad.Block.Layers[0].F = -1
	if _, err := run(u, bad); err == nil {
		t.Errorf("%s: a layer with F = -1 ran without error", u.Name())
	}
}

func checkScalable(t *testing.T, s hw.Scalable, works []hw.Work) {
	t.Helper()
	pts := s.OperatingPoints()
	if len(pts) == 0 {
		t.Errorf("%s: scalable unit without operating points", s.Name())
		return
	}
	for _, w := range works {
		var prevF float64
		var prevT int64
		for i, p := range pts {
			v, err := s.At(p)
			if err != nil {
				t.Errorf("%s: At(%+v): %v", s.Name(), p, err)
				continue
			}
			c, err := run(v, w)
			if err != nil {
				t.Errorf("%s at %g Hz: %v", s.Name(), p.FreqHz, err)
				continue
			}
			if i > 0 && p.FreqHz > prevF && c.TimePS > prevT {
				t.Errorf("%s: %s is slower at %g Hz (%d ps) than at %g Hz (%d ps)", s.Name(), w.Block.Name, p.FreqHz, c.TimePS, prevF, prevT)
			}
			prevF, prevT = p.FreqHz, c.TimePS
		}
	}
	if _, err := s.At(hw.OperatingPoint{FreqHz: -1}); err == nil {
		t.Errorf("%s: At accepted an operating point of -1 Hz", s.Name())
	}
}

// run calls u.Run, turning a panic into an error so one bad model does not
// hide the rest of the suite.
func run(u hw.Unit, w hw.Work) (c hw.Cost, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return u.Run(w)
}
