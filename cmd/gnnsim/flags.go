package main

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// This file holds the one mechanism every count, size and budget flag goes
// through: intFlag registers an integer flag with its allowed range, states
// the range in --help, and refuses a value outside it while the command
// line is parsed, before any work starts. flagError turns every flag
// parsing error into a message in the user's terms.

// rangeError is a flag value outside its range.
type rangeError struct {
	flag, value string
	lo, hi      int64
	note        string // what lo means, when it is special ("0: one per CPU")
	syntax      bool   // value is not a number at all
}

func (e *rangeError) Error() string {
	if e.syntax {
		return fmt.Sprintf("--%s %s: not an integer (want %d to %d)", e.flag, cut(e.value), e.lo, e.hi)
	}
	if e.note != "" {
		return fmt.Sprintf("--%s %s: want %d (%s) to %d", e.flag, cut(e.value), e.lo, e.note, e.hi)
	}
	return fmt.Sprintf("--%s %s: want %d to %d", e.flag, cut(e.value), e.lo, e.hi)
}

// boundedInt is a pflag.Value holding an integer in [lo, hi].
type boundedInt[T int | int64] struct {
	p      *T
	name   string
	lo, hi int64
	note   string
}

func (b *boundedInt[T]) String() string { return strconv.FormatInt(int64(*b.p), 10) }
func (b *boundedInt[T]) Type() string   { return "int" }

func (b *boundedInt[T]) Set(s string) error {
	re := &rangeError{flag: b.name, value: s, lo: b.lo, hi: b.hi, note: b.note}
	v, err := strconv.ParseInt(strings.TrimSpace(s), 0, 64)
	if err != nil {
		// 1e12 is a count too: parse it to say it is out of range rather
		// than "invalid syntax".
		f, ferr := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if ferr != nil && !errors.Is(ferr, strconv.ErrRange) || math.IsNaN(f) || f != math.Trunc(f) {
			re.syntax = true
			return re
		}
		if f < math.MinInt64 || f >= math.MaxInt64 {
			return re
		}
		v = int64(f)
	}
	if v < b.lo || v > b.hi {
		return re
	}
	*b.p = T(v)
	return nil
}

// intFlag registers the int flag name on fs with default def and allowed
// range [lo, hi]; note, if not empty, says what lo means ("0: the default").
func intFlag[T int | int64](fs *pflag.FlagSet, p *T, name string, def T, lo, hi int64, usage string) {
	*p = def
	fs.Var(&boundedInt[T]{p: p, name: name, lo: lo, hi: hi}, name, fmt.Sprintf("%s (%d to %d)", usage, lo, hi))
}

// workersFlag registers --workers: 0 (one per CPU) to MaxWorkers, the same
// bound and message in every command.
func workersFlag(fs *pflag.FlagSet, p *int, def int, usage string) {
	*p = def
	fs.Var(&boundedInt[int]{p: p, name: "workers", lo: 0, hi: MaxWorkers, note: "one per CPU"}, "workers",
		fmt.Sprintf("%s (0 to %d)", usage, MaxWorkers))
}

// flagError is the root's flag error function: a range error is returned
// as is; a value that does not parse is named with its flag and the type
// wanted, without Go's strconv wording.
func flagError(cmd *cobra.Command, err error) error {
	if cmd.Annotations[groupAnnotation] != "" {
		if args := cmd.Flags().Args(); len(args) > 0 {
			return unknownSubcommand(cmd, args)
		}
	}
	var re *rangeError
	if errors.As(err, &re) {
		return re
	}
	var fe *floatRangeError
	if errors.As(err, &fe) {
		return fe
	}
	var le *listError
	if errors.As(err, &le) {
		return le
	}
	var pe *pathError
	if errors.As(err, &pe) {
		return pe.err
	}
	var ive *pflag.InvalidValueError
	if errors.As(err, &ive) {
		f := ive.GetFlag()
		var ne *strconv.NumError
		if errors.As(err, &ne) {
			want := "a number"
			switch f.Value.Type() {
			case "int", "int64", "int32", "uint64", "uint", "uint32":
				want = "an integer"
			case "bool":
				want = "true or false"
			}
			if errors.Is(ne.Err, strconv.ErrRange) {
				return fmt.Errorf("--%s %s: out of range (want %s of type %s)", f.Name, cut(ive.GetValue()), want, f.Value.Type())
			}
			return fmt.Errorf("--%s %s: not %s", f.Name, cut(ive.GetValue()), want)
		}
		return fmt.Errorf("--%s %s: %v", f.Name, cut(ive.GetValue()), errors.Unwrap(err))
	}
	return err
}

// maxEcho is the longest piece of user input quoted back in an error.
const maxEcho = 80

// cut shortens s to maxEcho characters for an error message, so a huge
// token is never echoed whole.
func cut(s string) string {
	if len(s) <= maxEcho {
		return s
	}
	r := []rune(s)
	if len(r) <= maxEcho {
		return s
	}
	return string(r[:maxEcho]) + fmt.Sprintf("... (%d bytes)", len(s))
}

// boundedFloat is a pflag.Value holding a finite float64 in [lo, hi]
// (lo excluded when open).
type boundedFloat struct {
	p      *float64
	name   string
	lo, hi float64
	open   bool
}

func (b *boundedFloat) String() string { return strconv.FormatFloat(*b.p, 'g', -1, 64) }
func (b *boundedFloat) Type() string   { return "float" }

func (b *boundedFloat) Set(s string) error {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v < b.lo || v > b.hi || (b.open && v == b.lo) {
		return &floatRangeError{b.name, s, b.rangeText()}
	}
	*b.p = v
	return nil
}

func (b *boundedFloat) rangeText() string {
	if b.open {
		return fmt.Sprintf("a finite number above %g, at most %g", b.lo, b.hi)
	}
	return fmt.Sprintf("a finite number from %g to %g", b.lo, b.hi)
}

// floatRangeError is a float flag value outside its range, NaN or Inf.
type floatRangeError struct{ flag, value, want string }

func (e *floatRangeError) Error() string {
	return fmt.Sprintf("--%s %s: want %s", e.flag, cut(e.value), e.want)
}

// floatFlag registers the float flag name with default def and allowed
// range [lo, hi], or (lo, hi] when open; NaN and Inf are refused.
func floatFlag(fs *pflag.FlagSet, p *float64, name string, def, lo, hi float64, open bool, usage string) {
	*p = def
	b := &boundedFloat{p: p, name: name, lo: lo, hi: hi, open: open}
	fs.Var(b, name, fmt.Sprintf("%s (%s)", usage, b.rangeText()))
}

// Bounds of the count, size and budget flags that have no bound of their
// own package. Each is far above what the seeds' experiments use and low
// enough that the command cannot exhaust a workstation's memory before its
// first result; README's "Limits" lists them with how to go past them.
const (
	maxNodes           = 1<<31 - 1 // configs --V: int32 node ids
	maxBlock           = 1 << 16   // fpga eval --block: nodes per pipeline block (the papers use 64)
	maxFPGAResource    = 1 << 30   // --lut, --dsp: far above the largest FPGA (~9M LUTs)
	maxLatencyMS       = 3.6e6     // --latency-ms: one hour
	maxEpisodes        = 1_000_000 // search fgnas --episodes (the paper runs 2,000)
	maxTrained         = 100_000   // search fgnas --trained: each is a training
	maxGcosEvaluations = 1_000_000 // search gcos --evaluations (the paper runs 1,000)
	maxPool            = 10_000    // search gcos --pool and --top (the paper's p_max is 50)
	maxRuns            = 1_000     // repro seed004 --runs (the paper runs 5)
	maxFrames          = 1_000_000 // soc eval --frames
	maxInFlight        = 1_024     // soc eval --in-flight
	maxIntervalMS      = 3.6e6     // soc eval --interval-ms: one hour
)

// listValue is a comma-separated (and repeatable) string list flag that
// refuses an empty entry and a repeated one: running a data set, a policy
// or a directory twice is a typo, never a request.
type listValue struct {
	p       *[]string
	name    string
	changed bool
	key     func(string) string // identity of an entry for the duplicate check
}

func (l *listValue) String() string { return "[" + strings.Join(*l.p, ",") + "]" }
func (l *listValue) Type() string   { return "strings" }

func (l *listValue) Set(s string) error {
	if !l.changed {
		*l.p = nil // the first use replaces the default
		l.changed = true
	}
	for _, v := range strings.Split(s, ",") {
		v = strings.TrimSpace(v)
		if v == "" {
			return &listError{l.name, s, "an empty entry"}
		}
		for _, w := range *l.p {
			if l.key(w) == l.key(v) {
				return &listError{l.name, s, fmt.Sprintf("%s given twice", cut(v))}
			}
		}
		*l.p = append(*l.p, v)
	}
	return nil
}

// listError is a list flag with an empty or repeated entry.
type listError struct{ flag, value, what string }

func (e *listError) Error() string {
	return fmt.Sprintf("--%s %s: %s (give each entry once, comma-separated)", e.flag, cut(e.value), e.what)
}

// listFlag registers a list flag of names (compared case-insensitively).
func listFlag(fs *pflag.FlagSet, p *[]string, name string, def []string, usage string) {
	*p = def
	fs.Var(&listValue{p: p, name: name, key: strings.ToLower}, name, usage)
}

// pathListFlag registers a list flag of paths (compared cleaned).
func pathListFlag(fs *pflag.FlagSet, p *[]string, name string, def []string, usage string) {
	*p = def
	fs.Var(&listValue{p: p, name: name, key: filepath.Clean}, name, usage)
}

// pathValue is an output path flag checked while the command line is
// parsed: an empty value is refused (it would otherwise mean "the
// default" in one command and "the current directory" in another), and
// the path must be writable as a directory (dir) or a file.
type pathValue struct {
	p    *string
	name string
	dir  bool
}

func (v *pathValue) String() string { return *v.p }
func (v *pathValue) Type() string {
	if v.dir {
		return "dir"
	}
	return "file"
}

func (v *pathValue) Set(s string) error {
	check := checkOutFile
	if v.dir {
		check = checkOutDir
	}
	if err := check(v.name, s); err != nil {
		return &pathError{err}
	}
	*v.p = s
	return nil
}

// pathError is an output path flag refused by checkOutDir or checkOutFile,
// whose message already names the flag.
type pathError struct{ err error }

func (e *pathError) Error() string { return e.err.Error() }
func (e *pathError) Unwrap() error { return e.err }

// outDirFlag registers an output directory flag (see pathValue).
func outDirFlag(fs *pflag.FlagSet, p *string, name, def, usage string) {
	*p = def
	fs.Var(&pathValue{p: p, name: name, dir: true}, name, usage)
}

// outFileFlag registers an output file flag (see pathValue).
func outFileFlag(fs *pflag.FlagSet, p *string, name, def, usage string) {
	*p = def
	fs.Var(&pathValue{p: p, name: name}, name, usage)
}

// longRun matches what cutMessage shortens outside quotes: a run without
// spaces long enough to be a pasted value.
var longRun = regexp.MustCompile(`[^\s"]{256,}`)

// cutMessage shortens the pieces of user input an error quotes, wherever
// in the code it was raised: a quoted string beyond maxEcho characters,
// or any run of 256 characters without a space, so that a huge token is
// never echoed whole. Quotes are paired left to right (an escaped quote
// does not count), so the text between two quoted pieces is never taken
// for one (it cut "unknown directive "X" ... "Q"" in the middle).
func cutMessage(msg string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(msg, '"')
		if i < 0 {
			b.WriteString(longRun.ReplaceAllStringFunc(msg, cut))
			return b.String()
		}
		j := closingQuote(msg, i+1)
		if j < 0 { // an unpaired quote: the rest is plain text
			b.WriteString(longRun.ReplaceAllStringFunc(msg, cut))
			return b.String()
		}
		b.WriteString(longRun.ReplaceAllStringFunc(msg[:i], cut))
		b.WriteString(`"` + cut(msg[i+1:j]) + `"`)
		msg = msg[j+1:]
	}
}

// closingQuote returns the index of the first unescaped '"' in s from
// start, or -1.
func closingQuote(s string, start int) int {
	for k := start; k < len(s); k++ {
		switch s[k] {
		case '\\':
			k++
		case '"':
			return k
		}
	}
	return -1
}

// Bounds of repro seed004's search-length flags.
const (
	maxEpisodesFlag = 10_000_000 // --max-episodes
	maxScreen       = 1_000_000  // --screen: uniform hardware draws per architecture
)
