package main

import (
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"gnnsim/internal/cliflag"
)

// Every count, size and budget flag goes through package cliflag: it
// registers an integer flag with its allowed range, states the range in
// --help, and refuses a value outside it while the command line is
// parsed, before any work starts. flagError turns every flag parsing
// error into a message in the user's terms.

// The flag constructors and checks every command uses (package cliflag).
func intFlag[T int | int64](fs *pflag.FlagSet, p *T, name string, def T, lo, hi int64, usage string) {
	cliflag.Int(fs, p, name, def, lo, hi, usage)
}

var (
	workersFlag  = cliflag.Workers
	floatFlag    = cliflag.Float
	listFlag     = cliflag.List
	pathListFlag = cliflag.PathList
	outDirFlag   = cliflag.OutDir
	outFileFlag  = cliflag.OutFile
	checkOutDir  = cliflag.CheckOutDir
	checkWorkers = cliflag.CheckWorkers
	cut          = cliflag.Cut
	cutMessage   = cliflag.CutMessage
)

// MaxWorkers bounds every --workers flag.
const MaxWorkers = cliflag.MaxWorkers

// flagError is the root's flag error function: in a command that only
// groups subcommands, an argument is an unknown subcommand; otherwise
// cliflag.Explain says what was wrong with the value.
func flagError(cmd *cobra.Command, err error) error {
	if cmd.Annotations[groupAnnotation] != "" {
		if args := cmd.Flags().Args(); len(args) > 0 {
			return unknownSubcommand(cmd, args)
		}
	}
	return cliflag.Explain(err)
}

// Bounds of the count, size and budget flags that have no bound of their
// own package. Each is far above what the seeds' experiments use and low
// enough that the command cannot exhaust a workstation's memory before its
// first result; README's "Limits" lists them with how to go past them.
const (
	maxNodes           = 1<<31 - 1 // configs --V: int32 node ids
	maxFPGAResource    = 1 << 30   // --lut, --dsp: far above the largest FPGA (~9M LUTs)
	maxLatencyMS       = 3.6e6     // --latency-ms: one hour
	maxEpisodes        = 1_000_000 // search fgnas --episodes (the paper runs 2,000)
	maxTrained         = 100_000   // search fgnas --trained: each is a training
	maxGcosEvaluations = 1_000_000 // search gcos --evaluations (the paper runs 1,000)
	maxPool            = 10_000    // search gcos --pool and --top (the paper's p_max is 50)
	maxRuns            = 1_000     // repro seed004 --runs (the paper runs 5)
)

// Bounds of repro seed004's search-length flags.
const (
	maxEpisodesFlag = 10_000_000 // --max-episodes
	maxScreen       = 1_000_000  // --screen: uniform hardware draws per architecture
)
