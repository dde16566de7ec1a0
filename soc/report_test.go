package soc

import (
	"reflect"
	"testing"

	"gnnsim/hw"
)

// powered is a unit that is not a *Roofline but offers the capabilities
// DescribeUnits reads (Specified, and Powered at each point): it forwards
// them to the Roofline it wraps.
type powered struct{ r *Roofline }

func (p powered) Name() string                         { return p.r.Name() }
func (p powered) Run(w hw.Work) (hw.Cost, error)       { return p.r.Run(w) }
func (p powered) OperatingPoints() []hw.OperatingPoint { return p.r.OperatingPoints() }
func (p powered) Spec() UnitSpec                       { return p.r.Spec() }
func (p powered) PowerW() (idle, dynamic float64)      { return p.r.PowerW() }
func (p powered) At(op hw.OperatingPoint) (hw.Unit, error) {
	u, err := p.r.At(op)
	if err != nil {
		return nil, err
	}
	return powered{u.(*Roofline)}, nil
}

// TestDescribeUnitsCapabilities: a unit offering Specified and Powered is
// described exactly as the Roofline it stands for (the description used to
// assert *Roofline, so any other unit lost its power figures), and the
// Roofline's figures are its own.
func TestDescribeUnitsCapabilities(t *testing.T) {
	spec := DefaultSpec()
	ref, err := New(spec)
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewShared(ref.Name(), spec.Memory)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range ref.Units() {
		u, _ := ref.Unit(name)
		if err := s.Add(powered{u.(*Roofline)}); err != nil {
			t.Fatal(err)
		}
	}
	want, got := DescribeUnits(ref).Units, DescribeUnits(s).Units
	if !reflect.DeepEqual(got, want) {
		t.Errorf("units offering the capabilities are described as\n%+v\nwant\n%+v", got, want)
	}
	for _, u := range want {
		if u.PeakTFLOPS <= 0 || len(u.Points) == 0 || u.Points[len(u.Points)-1].DynamicW <= 0 {
			t.Errorf("unit %s: %+v: want its peak and its points' power", u.Name, u)
		}
	}
}
