package accel

import "gnnsim/dataflow"

// Result is the outcome of running one layer under one configuration.
type Result struct {
	Config dataflow.Config
	Mode   Mode
	Effect Effect // the effects modelled

	// Cycles is the layer's latency. AggCycles and CombCycles are what each
	// phase takes on its own PEs without waiting for the other or for
	// memory (STONNE-Omega's agg and comb cycles): for seq they add up to
	// the seq latency in omega mode.
	Cycles, AggCycles, CombCycles int64
	// StallCycles = Stalls.Pipeline + Stalls.Memory + Stalls.Ports.
	StallCycles int64
	Stalls      Stalls

	MACs int64 // multiply-accumulates the layer needs (E*F + V*F*G for GCN)
	// Utilization = MACs / (PEs * Cycles): the fraction of PE-cycles that
	// did useful work.
	Utilization float64

	GB, DRAM, NoC Traffic
	// SpillBytes and RefetchBytes are the parts of DRAM.Bytes that do not
	// fit the global buffer (FiniteBuffer): the inter-phase buffer written
	// out and read back, and rows of H fetched again.
	SpillBytes, RefetchBytes int64
	Energy                   EnergyBreakdown

	Events uint64 // kernel events executed (0 from the closed form)
}

// Stalls break down the cycles lost to waiting.
type Stalls struct {
	// Pipeline: pp cycles in which one phase had finished its step and
	// waited for the other (summed over both phases).
	Pipeline int64
	// Memory: cycles compute waited for DRAM data: for a unit's first
	// burst, and beyond its compute time when the data arrived more slowly
	// than compute consumed them.
	Memory int64
	// Ports: pp cycles steps were stretched by shared global-buffer ports.
	Ports int64
}

// Traffic counts accesses of one word and the bytes they move.
type Traffic struct {
	Reads, Writes int64
	Bytes         int64
}

// Accesses returns Reads + Writes.
func (t Traffic) Accesses() int64 { return t.Reads + t.Writes }

// EnergyBreakdown is energy by component, in pJ.
type EnergyBreakdown struct {
	MAC, RF, NoC, GB, DRAM float64
}

// Total returns the sum over components.
func (e EnergyBreakdown) Total() float64 { return e.MAC + e.RF + e.NoC + e.GB + e.DRAM }

// Seconds converts the cycles at clock hz to seconds.
func (r Result) Seconds(hz float64) float64 { return float64(r.Cycles) / hz }
