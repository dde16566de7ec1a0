package soc

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gnnsim/hw"
	"gnnsim/workload"
)

func ptr[T any](v T) *T { return &v }

// row returns a table row for every block of a kind on a unit.
func row(block, unit string, mhz, ms, mj float64) TableRow {
	return TableRow{Block: ptr(block), Unit: ptr(unit), FreqMHz: ptr(mhz), LatencyMS: ptr(ms), EnergyMJ: ptr(mj)}
}

const sampleTable = `# measured on a board
block,op,nodes,channels,hidden,k,layers,unit,freq_mhz,emc_mhz,latency_ms,energy_mj
stem,,,,,,,gpu,1377,,0.9,15
grapher,mrconv,196,320,640,,,gpu,1377,,1.1,20
grapher,mrconv,196,320,640,18,,gpu,1377,,1.3,24
ffn,,196,320,1280,,,gpu,1377,2133,0.5,9
ffn,,196,320,1280,,,gpu,1377,1600,0.6,10
cls,,,,,,,gpu,1377,,0.05,1
ffn,,,,,,,gpu,905.25,,0.8,11
`

func TestMeasuredTable(t *testing.T) {
	rows, err := ParseTableCSV(strings.NewReader(sampleTable), "sample")
	if err != nil {
		t.Fatal(err)
	}
	s := Default()
	if err := s.UseTable(rows); err != nil {
		t.Fatal(err)
	}
	gpu, _ := s.Unit("gpu")
	if got := len(gpu.OperatingPoints()); got != 2 {
		t.Errorf("measured gpu has %d operating points, want 2 (905.25, 1377)", got)
	}
	model := vigS(t, workload.MRConv)
	e := mustEvaluator(t, s, model, Blocks)
	n := len(e.Segments())
	r, err := e.Evaluate(MapAll(Blocks, 0, n), nil)
	if err != nil {
		t.Fatal(err)
	}
	// k = 18 only in the last grapher: the more specific row wins there.
	want := 0.9 + 15*1.1 + 1.3 + 16*0.5 + 0.05
	if math.Abs(r.LatencyMS()-want) > 1e-9 {
		t.Errorf("latency %.6f ms, want %.6f", r.LatencyMS(), want)
	}
	slow, err := e.Evaluate(MapAll(Blocks, 0, n), DVFS{"emc": 1600})
	if err != nil {
		t.Fatal(err)
	}
	if d := slow.LatencyMS() - r.LatencyMS(); math.Abs(d-16*0.1) > 1e-9 {
		t.Errorf("EMC 1600 MHz adds %.4f ms, want 1.6 (the ffn rows measured there)", d)
	}
	if _, err := e.Evaluate(MapAll(Blocks, 0, n), DVFS{"gpu": 905.25}); err == nil || !strings.Contains(err.Error(), "no table row for block stem") {
		t.Errorf("missing rows: err = %v", err)
	}
	// The DLA keeps its model but cannot fall back to a measured GPU.
	if _, err := e.Evaluate(MapAll(Blocks, 1, n), nil); err == nil || !strings.Contains(err.Error(), "not a roofline") {
		t.Errorf("DLA falling back to a measured GPU: err = %v", err)
	}

	// Unbound, the unit cannot tell the FFN rows of the two memory clocks.
	if _, err := gpu.Run(hw.BlockWork(model.Blocks[2])); err == nil || !strings.Contains(err.Error(), "both match") {
		t.Errorf("ambiguous rows: err = %v", err)
	}

	// Parquet round trip.
	path := filepath.Join(t.TempDir(), "t.parquet")
	if err := WriteTable(path, rows); err != nil {
		t.Fatal(err)
	}
	back, err := ReadTable(path)
	if err != nil {
		t.Fatal(err)
	}
	m1, err := NewMeasured("gpu", rows)
	if err != nil {
		t.Fatal(err)
	}
	m2, err := NewMeasured("gpu", back)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range []workload.Block{model.Blocks[0], model.Blocks[1], model.Blocks[len(model.Blocks)-1]} {
		c1, err1 := m1.Run(hw.BlockWork(b))
		c2, err2 := m2.Run(hw.BlockWork(b))
		if c1 != c2 || err1 != nil || err2 != nil {
			t.Errorf("%s: CSV %+v %v, Parquet %+v %v", b.Name, c1, err1, c2, err2)
		}
	}
}

func TestBadTables(t *testing.T) {
	head := "block,unit,freq_mhz,latency_ms,energy_mj\n"
	tests := []struct{ name, text, want string }{
		{"empty", "", "no header"},
		{"no rows", head, "no rows"},
		{"unknown column", "block,unit,speed\n", `unknown column "speed"`},
		{"duplicate column", "block,block\n", "appears twice"},
		{"missing unit", "block,freq_mhz,latency_ms,energy_mj\nffn,1377,1,1\n", "unit is required"},
		{"bad kind", head + "attention,gpu,1377,1,1\n", "unknown block kind"},
		{"negative latency", head + "ffn,gpu,1377,-1,1\n", "latency_ms = -1"},
		{"NaN energy", head + "ffn,gpu,1377,1,NaN\n", "energy_mj = NaN"},
		{"not a number", head + "ffn,gpu,fast,1,1\n", `"fast" is not a number`},
		{"ragged row", head + "ffn,gpu\n", "wrong number of fields"},
		{"bad op", "block,op,unit,freq_mhz,latency_ms,energy_mj\ngrapher,conv9,gpu,1377,1,1\n", "unknown layer kind"},
		{"zero clock", head + "ffn,gpu,0,1,1\n", "freq_mhz = 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseTableCSV(strings.NewReader(tt.text), "t")
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want one containing %q", err, tt.want)
			}
		})
	}
	dup := []TableRow{row("ffn", "gpu", 1377, 1, 1), row("ffn", "gpu", 1377, 2, 2)}
	if _, err := NewMeasured("gpu", dup); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Errorf("duplicate rows: err = %v", err)
	}
	dir := t.TempDir()
	junk := filepath.Join(dir, "junk.parquet")
	if err := os.WriteFile(junk, []byte("PAR1 not really"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{junk, filepath.Join(dir, "t.xlsx"), filepath.Join(dir, "missing.csv")} {
		if _, err := ReadTable(p); err == nil {
			t.Errorf("ReadTable(%s) succeeded", p)
		}
	}
}

// FuzzParseTable: any input parses or fails with an error, never a panic,
// and every accepted table prices blocks with finite, non-negative costs.
func FuzzParseTable(f *testing.F) {
	f.Add([]byte(sampleTable))
	f.Add([]byte("block,unit,freq_mhz,latency_ms,energy_mj\nffn,gpu,1e300,1e9,1e12\n"))
	f.Add([]byte("\ufeffblock,k,unit,freq_mhz,latency_ms,energy_mj\ngrapher,-1,gpu,1,1,1\n"))
	f.Add([]byte("block,unit\n\"ffn,gpu\n"))
	ffn := workload.FFNBlock(196, 320, 1280)
	f.Fuzz(func(t *testing.T, data []byte) {
		rows, err := ParseTableCSV(bytes.NewReader(data), "fuzz")
		if err != nil {
			return
		}
		s := Default()
		if err := s.UseTable(rows); err != nil {
			return
		}
		for _, name := range s.Units() {
			u, _ := s.Unit(name)
			for _, p := range u.OperatingPoints() {
				v, err := u.At(p)
				if err != nil {
					t.Fatalf("%s: At its own point %+v: %v", name, p, err)
				}
				c, err := v.Run(hw.BlockWork(ffn))
				if err == nil {
					if err := c.Validate(); err != nil {
						t.Fatalf("%s: %v", name, err)
					}
				}
			}
		}
	})
}
