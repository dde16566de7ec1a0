package seed002

import (
	"strings"
	"testing"

	"gnnsim/predict"
)

// settingsRows groups by PE count, F and G in order and gives R / O of the
// optimal choice; the verdict names the settings at or above 10x and says
// so when there are none.
func TestSettingsRows(t *testing.T) {
	mk := func(pes, f, g int, lat ...float64) predict.Sample {
		s := predict.Sample{F: f, G: g, Hardware: predict.PEArray{PEs: pes}}
		for i := range s.Latency {
			s.Latency[i] = 1
		}
		copy(s.Latency[:], lat)
		return s
	}
	// One graph, one config 1 cycle and 23 at 20: R = (1 + 23*20)/24.
	samples := []predict.Sample{mk(8192, 16, 16, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 1), mk(512, 16, 16)}
	rows, err := settingsRows(samples, "omega", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0].PEs != 512 || rows[1].PEs != 8192 {
		t.Fatalf("rows %+v", rows)
	}
	if want := (1 + 23*20.0) / 24; rows[1].RandomOverOptimal < want*0.999 || rows[1].RandomOverOptimal > want*1.001 || rows[0].RandomOverOptimal != 1 {
		t.Errorf("R/O %v and %v, want %v and 1", rows[1].RandomOverOptimal, rows[0].RandomOverOptimal, want)
	}
	v := settingsVerdict(rows)
	if !strings.Contains(v, "8192 PEs") || !strings.Contains(v, "no F, G in the grid") {
		t.Errorf("verdict: %s", v)
	}
	if v := settingsVerdict(rows[:1]); !strings.Contains(v, "No setting of the grid reaches 10x") {
		t.Errorf("verdict without a wide setting: %s", v)
	}
}
