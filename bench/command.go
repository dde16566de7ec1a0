package bench

import (
	"context"
	"io"
	"reflect"
	"slices"
	"strings"

	"gnnsim/internal/pqio"
	"gnnsim/workload"
)

// This file is the part of a kind's table entry that the command line
// turns into commands: 'gnnsim KIND eval' and 'gnnsim eval --unit KIND'
// are built from a kind's Command alone (cmd/gnnsim has no per-kind
// code for them), so a kind added to the table gets both. A Command
// declares the options through Flags, which the command line implements
// with its range-checked flags; the evaluation turns them into a point,
// evaluates it, and hands back a Result the command prints or writes.

// Flags is how a kind's evaluation declares its command-line options. The
// command line implements it with range-checked flags (a value outside
// its range is refused while the line is parsed, naming the flag), so a
// kind states each option's name, default, range and help once.
type Flags interface {
	String(p *string, name, def, usage string)
	Bool(p *bool, name string, def bool, usage string)
	Int(p *int, name string, def int, lo, hi int64, usage string)
	Int64(p *int64, name string, def, lo, hi int64, usage string)
	// Float registers a finite float in [lo, hi], (lo, hi] when open.
	Float(p *float64, name string, def, lo, hi float64, open bool, usage string)
	// Data registers --data (default def, help usage) and --data-dir, the
	// folder --data names are looked up in.
	Data(data, dir *string, def, usage string)
	// Required marks a flag the command refuses to run without.
	Required(name string)
}

// Command is a kind's evaluation command. Its help is the kind's own
// prose; cmd/gnnsim adds --json and --out (with the usage given) and
// routes the options.
type Command struct {
	// Use, Short, Long and Example are 'gnnsim KIND eval's help.
	Use, Short, Long, Example string
	// JSONUsage and OutUsage are its --json and --out help.
	JSONUsage, OutUsage string
	// Unit is the kind's paragraph of 'gnnsim eval --help' (lines
	// joined by newlines, no indentation).
	Unit string
	// Row is the type of what --json prints (a value of it); 'eval
	// --help' lists its JSON keys.
	Row any
	// New returns a fresh evaluation, its options at their defaults.
	New func() Evaluation
}

// Evaluation is one run of a kind's evaluation command: its options, then
// its result.
type Evaluation interface {
	// UnitFlags registers the kind's options, shared by 'KIND eval'
	// and 'eval --unit KIND'.
	UnitFlags(f Flags)
	// OwnFlags registers what 'KIND eval' takes beyond them (its
	// model, its data set), which 'eval --unit' gives as Input.
	OwnFlags(f Flags)
	// Eval turns the options into a point and evaluates it.
	Eval(ctx context.Context, in *Input) (*Result, error)
}

// Input is what the command line hands an evaluation besides its options.
type Input struct {
	// Unit is set for 'eval --unit KIND': the model and graph are then
	// eval's flags below, not the evaluation's own.
	Unit bool
	// Model is --model as given and Spec the model it resolves to
	// (workload.ResolveModelSpec).
	Model string
	Spec  *workload.ModelSpec
	// Graph, Data and DataDir are eval's --graph, --data and --data-dir;
	// Features its --features, FeaturesSet whether it was given.
	Graph, Data, DataDir string
	Features             int
	FeaturesSet          bool
	// Changed reports whether the flag name was given.
	Changed func(name string) bool
	// Stderr takes notes (a deprecated spelling); Progress the
	// display of long runs (nil: none).
	Stderr, Progress io.Writer
}

// Result is an evaluation's outcome in the command's three forms.
type Result struct {
	// JSON is what --json prints (indented), unless WriteJSON prints it.
	JSON      any
	WriteJSON func(w io.Writer) error
	// Text prints the human-readable form.
	Text func(w io.Writer) error
	// Parquet writes the rows of --out with the run's metadata.
	Parquet func(path string, meta map[string]string) error
	// Fail, when set, is the command's error once the result is printed
	// and written (a validation with rows it could not score).
	Fail error
}

// RowsResult is the Result of rows (--out writes rows, named by their Go
// type R in the schema) printed as json and text.
func RowsResult[R any](rows []R, json any, text func(w io.Writer) error) *Result {
	return &Result{JSON: json, Text: text,
		Parquet: func(path string, meta map[string]string) error { return pqio.Write(path, rows, meta) }}
}

// SpecFiles are a kind's spec files ('gnnsim KIND spec'): the group's
// help and one command per built-in file.
type SpecFiles struct {
	Short, Long string
	Files       []BuiltinSpec
}

// BuiltinSpec is a built-in spec file: 'gnnsim KIND spec NAME' prints it.
type BuiltinSpec struct {
	Use, Short, Long, Example string
	// Text returns the file.
	Text func() ([]byte, error)
}

// Kinds returns the registered kinds, in table order.
func Kinds() []UnitKind {
	unitsMu.RLock()
	defer unitsMu.RUnlock()
	return slices.Clone(units)
}

// CommandKinds returns the registered kinds that have an evaluation
// command, in table order.
func CommandKinds() []UnitKind {
	return slices.DeleteFunc(Kinds(), func(u UnitKind) bool { return u.Command == nil })
}

// KeyList lists, per kind (each with a Command), the JSON keys of its
// result, wrapped at 76 columns: the help's column lists come from the row
// types, so they follow them.
func KeyList(kinds []UnitKind) string {
	var b strings.Builder
	for _, k := range kinds {
		line := "  " + k.Name + ":"
		for i, key := range jsonKeys(reflect.TypeOf(k.Command.Row)) {
			sep := " "
			if i > 0 {
				line += ","
			}
			if len(line)+len(sep)+len(key) > 76 {
				b.WriteString(line + "\n")
				line, sep = "   ", " "
			}
			line += sep + key
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}

// jsonKeys names the JSON keys of struct type t; a list of structs is
// named with its keys, key(k1 k2 ...).
func jsonKeys(t reflect.Type) []string {
	var keys []string
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" {
			continue
		}
		if e := f.Type; e.Kind() == reflect.Slice && e.Elem().Kind() == reflect.Struct {
			name += "(" + strings.Join(jsonKeys(e.Elem()), " ") + ")"
		}
		keys = append(keys, name)
	}
	return keys
}
