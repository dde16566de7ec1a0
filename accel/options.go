package accel

import (
	"fmt"
	"strings"
)

// Mode selects what a run models.
type Mode uint8

const (
	// Extended (the default) is omega's timing plus the effects Omega leaves
	// out: see Effect. Each can be switched off with Options.Disable; with
	// all of them off a run equals Omega mode.
	Extended Mode = iota
	// Omega reproduces STONNE-Omega's numbers, quirks included: unlimited
	// global buffer, no DRAM, networks as wide as the PE array, no energy.
	Omega
)

// String returns "extended" or "omega".
func (m Mode) String() string {
	switch m {
	case Extended:
		return "extended"
	case Omega:
		return "omega"
	}
	return fmt.Sprintf("Mode(%d)", uint8(m))
}

// ParseMode parses "omega" or "extended", ignoring case.
func ParseMode(s string) (Mode, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "extended", "":
		return Extended, nil
	case "omega":
		return Omega, nil
	}
	return 0, fmt.Errorf("accel: unknown mode %q (want omega or extended)", s)
}

// Effect is a set of extended-mode effects, one bit each.
type Effect uint32

// The effects of extended mode. The first four add hardware limits Omega
// does not model; the Fix effects correct STONNE-Omega's bookkeeping quirks
// (package doc, "Quirks"), which omega mode reproduces.
const (
	// FiniteBuffer: a global buffer of HW.GlobalBufferBytes in front of
	// DRAM. Inputs are loaded from and outputs stored to DRAM, what does not
	// fit spills (the seq intermediate, evicted rows of H), and every
	// transfer streams in HW.DRAMBurstBytes bursts through one DRAM channel
	// of HW.DRAMBytesPerCycle with HW.DRAMLatency, concurrently with the
	// compute that consumes or produces it.
	FiniteBuffer Effect = 1 << iota
	// NoCLimits: the distribution and reduction networks move at most
	// HW.DistributionBW and HW.ReductionBW words per cycle (shared in
	// proportion to the PEs in pp), stretching the work that needs more.
	NoCLimits
	// SharedPorts: in pp both phases share the global buffer's
	// HW.GlobalBufferBW words per cycle; a pipeline step cannot end before
	// its combined traffic has passed.
	SharedPorts
	// Energy: energy per access from HW.Energy (zero otherwise).
	Energy
	// FixLastGroup: a partial last group of T_Va rows costs its slowest
	// row (omega counts only its final row).
	FixLastGroup
	// FixRowTimes: a row's time is its own start-to-start time (omega
	// uses differences of output timestamps, and row 0's absolute finish).
	FixRowTimes
	// FixPPTiles: pp tiles are whole blocks of T_Vp rows on both phases
	// (omega cuts the aggregation at floor(k*T_Vp/T_Va) groups and drops
	// the rows past the last whole group when T_Vp divides V).
	FixPPTiles
	// FixPPStamps: pp uses each combination tile's finish time (omega reads
	// the recorded timestamp of the tile's last row, which for an unpaired
	// reduction root is written halfway through the tile).
	FixPPStamps

	// AllEffects is every effect.
	AllEffects = FiniteBuffer | NoCLimits | SharedPorts | Energy | FixLastGroup | FixRowTimes | FixPPTiles | FixPPStamps
)

var effectNames = []struct {
	e    Effect
	name string
}{
	{FiniteBuffer, "buffer"}, {NoCLimits, "noc"}, {SharedPorts, "ports"}, {Energy, "energy"},
	{FixLastGroup, "fix-last-group"}, {FixRowTimes, "fix-row-times"}, {FixPPTiles, "fix-pp-tiles"}, {FixPPStamps, "fix-pp-stamps"},
}

// String lists the effects by name, comma-separated ("none" when empty).
func (e Effect) String() string {
	if e == 0 {
		return "none"
	}
	var parts []string
	for _, n := range effectNames {
		if e&n.e != 0 {
			parts = append(parts, n.name)
		}
	}
	return strings.Join(parts, ",")
}

// ParseEffects parses a comma-separated list of effect names (as String
// prints them), "all" or "none".
func ParseEffects(s string) (Effect, error) {
	var e Effect
	for _, p := range strings.Split(s, ",") {
		p = strings.ToLower(strings.TrimSpace(p))
		switch p {
		case "", "none":
			continue
		case "all":
			e |= AllEffects
			continue
		}
		found := false
		for _, n := range effectNames {
			if n.name == p {
				e |= n.e
				found = true
			}
		}
		if !found {
			return 0, fmt.Errorf("accel: unknown effect %q (want buffer, noc, ports, energy, fix-last-group, fix-row-times, fix-pp-tiles, fix-pp-stamps, all or none)", p)
		}
	}
	return e, nil
}

// Engine selects how a run is computed.
type Engine uint8

const (
	// Events (the default) runs the model on the sim kernel, one event per
	// row group, combination tile or pipeline step.
	Events Engine = iota
	// Fast computes the same numbers in closed form where that is exact:
	// every run without the FiniteBuffer effect. Runs with it fall back to
	// Events. Results are identical either way (a test checks it).
	Fast
)

// ParseEngine reads an engine name: events or fast (any case).
func ParseEngine(s string) (Engine, error) {
	switch strings.ToLower(s) {
	case "events":
		return Events, nil
	case "fast":
		return Fast, nil
	}
	return Events, fmt.Errorf("unknown engine %q (want events or fast)", s)
}

// Options select the mode, the effects and the engine of a run. The zero
// value is extended mode with every effect, on the event engine.
type Options struct {
	Mode    Mode
	Disable Effect // extended mode: effects to switch off
	Engine  Engine
}

// Effects returns the effects a run with these options models.
func (o Options) Effects() Effect {
	if o.Mode == Omega {
		return 0
	}
	return AllEffects &^ o.Disable
}
