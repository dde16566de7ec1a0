package magnas

import (
	"gnnsim/hw"
	"gnnsim/soc"
)

// DSAMemory is the shared memory of the three-DSA SoC of Section 5.7.2.
// MaGNAS gives no figures for it (MAESTRO models no DRAM); these are
// gnnsim's choices: 64 GB/s (a 64-element-per-cycle NoC at 1 GHz, 8-bit
// words), 20 pJ per byte (LPDDR4-class DRAM access energy) and a 1 us
// hand-off per transition.
var DSAMemory = Memory{BytesPerSec: 64e9, EnergyPJPerByte: 20, HandoffPS: 1e6, WordBytes: 1}

// DSAPlatform returns the platform of the DSAs (soc.DefaultDSAs: DSA-k,
// DSA-y, DSA-d) sharing DSAMemory, without DVFS.
func DSAPlatform(dsas []*soc.DSA) *Platform {
	units := make([]hw.Unit, len(dsas))
	names := make([]string, len(dsas))
	for i, d := range dsas {
		units[i], names[i] = d, d.Name()
	}
	return &Platform{Name: "dsa-soc", Units: names, Evaluate: UnitsEvaluator(units, DSAMemory)}
}
