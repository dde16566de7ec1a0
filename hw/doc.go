// Package hw is the hardware contract of gnnsim: what every hardware model
// offers and every search loop, scheduler and sweep consumes, as gonum's
// graph interfaces are for its graph implementations.
//
//	u, err := accel.NewUnit(accel.DefaultHW(), accel.Options{}) // or a soc, fpga or gcos unit
//	...
//	cost, err := u.Run(hw.LayerWork(g, workload.Layer{Kind: workload.GCN, F: 64, G: 16}))
//	fmt.Println(cost.TimePS, cost.EnergyPJ, cost.MACs)
//
// A Work is a block of layers (workload.Block) on an input size, and
// optionally the concrete graph they run on (units that model per-row
// behaviour, such as the Omega accelerator, need it; analytical units read
// only the sizes). A Cost is what running it takes: time in picoseconds, so
// that units with different clocks and DVFS operating points add up; cycles
// at the unit's own clock; energy in pJ; DRAM or shared-memory bytes; MACs.
//
// The optional capabilities are interfaces a unit may also satisfy:
//
//   - Mapper[M]: the unit has a mapping space (Omega dataflow
//     configurations, FPGA group sizes, sub-accelerator tilings) that a search
//     enumerates and runs one by one; Run uses the unit's default mapping.
//   - Scalable: the unit has DVFS operating points; At returns the unit at one.
//   - Budgeted: the unit uses resources (LUT, FF, DSP, BRAM, on-chip bytes)
//     against a budget; a design over any budget is infeasible.
//   - Clocked: the unit runs at one clock, so its time is its cycles divided
//     by that clock.
//
// Works are built with LayerWork and GraphWork (layers on a concrete graph)
// or BlockWork (a block on a size, such as a ViG block of the model zoo in
// package workload). accel.Unit, the Omega-style accelerator, is a
// Mapper[dataflow.Config] and Clocked unit; it needs the graph.
//
// Package hw/hwtest holds the conformance suite every model runs: zero work
// costs nothing, costs are finite and non-negative, MACs equal the workload's
// kernels, runs are deterministic, time = cycles / clock, bad work is an
// error and never a panic.
//
// What hw leaves out: how a unit computes its cost (that is each model's
// package), and how units are combined (package soc composes units that
// share a memory; searches compose costs into fitness).
package hw
