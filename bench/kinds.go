package bench

// kinds is the table of the hardware kinds a sweep runs, in the order
// specs, errors and help list them ('gnnsim eval --help' too). Each kind's file holds its spec
// block, points, evaluator and row type; adding a kind is that file and
// one line here. RegisterUnit adds kinds from outside the package (tests,
// programs that embed bench) after these.
var kinds = []UnitKind{
	omegaKind(), // the Omega-style accelerator over graphs (the default)
	socKind(),   // zoo models mapped onto a SoC's units x DVFS grid
	fpgaKind(),  // FGNAS's FPGA pipeline over a design grid
	dsaKind(),   // one MAESTRO-priced DSA running zoo models
	gcosKind(),  // G-CoS designs x model files x data sets
}
