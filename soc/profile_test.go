package soc

import (
	"reflect"
	"strings"
	"testing"
)

// The printed MaGNAS spec parses back to MaGNASSpec, and the profiles
// resolve to their specs; an unknown name is an error naming the choices.
func TestProfiles(t *testing.T) {
	text, err := MaGNASSpecYAML()
	if err != nil {
		t.Fatal(err)
	}
	s, err := ParseSpec(text)
	if err != nil {
		t.Fatal(err)
	}
	// A fixpoint (nil and empty lists print alike), and the constants
	// that make the profile.
	again, err := specYAML(s)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(string(text), string(again)) {
		t.Fatal("MaGNASSpecYAML parses to another spec than MaGNASSpec")
	}
	w := MaGNASSpec()
	if !reflect.DeepEqual(s.CPU, w.CPU) || s.Units[0].PeakFLOPS != w.Units[0].PeakFLOPS || s.Units[0].ElementBytes != w.Units[0].ElementBytes || s.CPU.FrameCycles == 0 {
		t.Errorf("parsed CPU %+v GPU peak %v bytes %v; want %+v, %v, %v", s.CPU, s.Units[0].PeakFLOPS, s.Units[0].ElementBytes, w.CPU, w.Units[0].PeakFLOPS, w.Units[0].ElementBytes)
	}
	for name, want := range map[string]Spec{"default": DefaultSpec(), "": DefaultSpec(), "MaGNAS": MaGNASSpec()} {
		got, err := ProfileSpec(name)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("profile %q: %v", name, err)
		}
	}
	if _, err := ProfileSpec("tx3"); err == nil || !strings.Contains(err.Error(), "magnas") {
		t.Errorf("unknown profile: %v", err)
	}
}
