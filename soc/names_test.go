package soc

import (
	"strings"
	"testing"

	"gnnsim/hw"
)

// TestUnitNamesAddressable: a unit --mapping and --dvfs could not address
// is refused when it joins the SoC, and two power modes may not share an
// id (issue 38 item 11: a DSA "a,b", "a=b", or "g" taking over the G
// shorthand was accepted; duplicate mode ids too).
func TestUnitNamesAddressable(t *testing.T) {
	for _, tc := range []struct {
		name, want string // want: part of the error, "" for none
	}{
		{"dsa0", ""}, {"my_dsa-2", ""},
		{"a,b", "separator"}, {"a=b", "separator"}, {"a b", "separator"}, {"x:y", "separator"}, {"a/b", "separator"},
		{"g", "prefix"}, {"d", "prefix"}, {"GPU", "prefix"}, {"gpu2", "prefix"}, {"em", "prefix"},
	} {
		c := DefaultDSAConfigs()[0]
		c.Name = tc.name
		c.Points = []hw.OperatingPoint{{FreqHz: c.ClockHz, Volts: DefaultDSANomVolts}}
		d, err := NewScalableDSA(c)
		if err != nil {
			t.Fatalf("%q: %v", tc.name, err)
		}
		err = Default().Add(d)
		if (err == nil) != (tc.want == "") || err != nil && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("DSA %q: %v, want %q", tc.name, err, tc.want)
		}
	}
	spec := DefaultSpec()
	spec.PowerModes = append(spec.PowerModes, spec.PowerModes[1])
	spec.PowerModes[len(spec.PowerModes)-1].Name = "MODE_OTHER"
	if _, err := New(spec); err == nil || !strings.Contains(err.Error(), "share id") {
		t.Errorf("two power modes with id %d: %v", spec.PowerModes[1].ID, err)
	}
}
