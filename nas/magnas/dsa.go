package magnas

import (
	"fmt"

	"gnnsim/hw"
	"gnnsim/soc"
)

// DSAMemory is the shared memory of the three-DSA SoC of Section 5.7.2
// (soc.DSAMemory, where its figures are explained).
var DSAMemory = soc.DSAMemory

// fixedDSA is a DSA without DVFS as an hw.Scalable of one operating point,
// its own clock, so that it plugs into a soc.SoC.
type fixedDSA struct{ *soc.DSA }

func (f fixedDSA) OperatingPoints() []hw.OperatingPoint {
	return []hw.OperatingPoint{{FreqHz: f.ClockHz(), Volts: soc.DefaultDSANomVolts}}
}

func (f fixedDSA) At(p hw.OperatingPoint) (hw.Unit, error) {
	if p != f.OperatingPoints()[0] {
		return nil, fmt.Errorf("magnas: %s: %+v is not its operating point", f.Name(), p)
	}
	return f.DSA, nil
}

// DSASoC returns the SoC of the DSAs (soc.DefaultDSAs: DSA-k, DSA-y,
// DSA-d) sharing DSAMemory.
func DSASoC(dsas []*soc.DSA) (*soc.SoC, error) {
	s, err := soc.NewShared("dsa-soc", DSAMemory)
	if err != nil {
		return nil, err
	}
	for _, d := range dsas {
		if d == nil {
			return nil, fmt.Errorf("magnas: nil DSA")
		}
		if err := s.Add(fixedDSA{d}); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// DSAPlatform returns the platform of DSASoC(dsas), priced by soc's
// Evaluator (SoCPlatform), without DVFS.
func DSAPlatform(dsas []*soc.DSA) (*Platform, error) {
	s, err := DSASoC(dsas)
	if err != nil {
		return nil, err
	}
	return SoCPlatform(s.Name(), s, nil)
}
