package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"gnnsim/bench"
	"gnnsim/internal/pqio"
)

// toyRow is the row of the toy kind: a point and a cost that depends on it.
type toyRow struct {
	PointID int64 `parquet:"point_id" json:"point_id"`
	Scale   int64 `parquet:"scale" json:"scale"`
	Cycles  int64 `parquet:"cycles" json:"cycles"`
}

// toyCost is the toy kind's model, shared by its sweep and its eval.
func toyCost(point, scale int) toyRow {
	return toyRow{PointID: int64(point), Scale: int64(scale), Cycles: int64(scale * (point*point + 7))}
}

// toyEval is the toy kind's evaluation: --point and --scale become a point.
type toyEval struct{ point, scale int }

func (e *toyEval) OwnFlags(f bench.Flags) { f.Int(&e.point, "point", 0, 0, 10, "design point") }
func (e *toyEval) UnitFlags(f bench.Flags) {
	f.Int(&e.scale, "scale", 1, 1, 100, "cycles per unit of work")
}
func (e *toyEval) Eval(_ context.Context, in *bench.Input) (*bench.Result, error) {
	if in.Unit && in.Graph != "" {
		return nil, fmt.Errorf("--unit toy takes no graph")
	}
	r := toyCost(e.point, e.scale)
	return bench.RowsResult([]toyRow{r}, r, func(w io.Writer) error {
		_, err := fmt.Fprintf(w, "point %d: %d cycles\n", r.PointID, r.Cycles)
		return err
	}), nil
}

// toyKind is a kind declared through the table's entry alone: its points,
// rows and sweep evaluator, and its evaluation command. Nothing in cmd
// names it.
var toyKind = bench.UnitKind{
	Name:   "toy",
	Points: func(*bench.Spec) (int, error) { return 11, nil },
	Table:  func(*bench.Spec) bench.Table { return &bench.RowTable[toyRow]{} },
	Evaluator: func(*bench.Spec) (bench.Evaluator, error) {
		return bench.RowEvaluator(func(dst []toyRow, c bench.Case) ([]toyRow, error) {
			return append(dst, toyCost(c.ID, 1)), nil
		}), nil
	},
	Short: "A toy kind", Long: "A toy kind of the command tests.",
	Command: &bench.Command{
		Use: "eval [--point N] [--scale S]", Short: "Evaluate a toy point", Long: "Evaluate one toy design point.",
		JSONUsage: "print the row as JSON", OutUsage: "also write the row as Parquet",
		Unit: "a toy design point (--scale)\nwith its cycles.",
		Row:  toyRow{},
		New:  func() bench.Evaluation { return &toyEval{} },
	},
}

// runToy runs a command line on a root holding 'eval' over the built-in
// kinds and the toy, and the toy's group, as the table builds them.
func runToy(t *testing.T, args ...string) (string, error) {
	t.Helper()
	root := &cobra.Command{Use: "gnnsim", SilenceUsage: true, SilenceErrors: true}
	root.AddCommand(newEvalCmdOf(append(bench.CommandKinds(), toyKind)), newKindGroup(toyKind))
	root.SetFlagErrorFunc(flagError)
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetArgs(args)
	err := root.Execute()
	return out.String(), err
}

// TestToyKindEval: a kind added through the table alone gets 'eval --unit
// KIND' and 'KIND eval' with its flags (range-checked, refused with
// another unit), --json, text, --out Parquet with the run's metadata, and
// its paragraph and JSON keys in eval's help.
func TestToyKindEval(t *testing.T) {
	out, err := runToy(t, "eval", "--unit", "toy", "--model", "vig-s", "--scale", "3", "--json")
	if err != nil || !strings.Contains(out, `"cycles": 21`) || !strings.Contains(out, `"scale": 3`) {
		t.Errorf("eval --unit toy --json: %v\n%s", err, out)
	}
	out, err = runToy(t, "toy", "eval", "--point", "4", "--scale", "2")
	if want := "point 4: 46 cycles\n"; err != nil || out != want {
		t.Errorf("toy eval: %v, %q, want %q", err, out, want)
	}
	pq := filepath.Join(t.TempDir(), "toy.parquet")
	if _, err := runToy(t, "toy", "eval", "--point", "2", "--out", pq); err != nil {
		t.Fatal(err)
	}
	rows, meta, err := pqio.Read[toyRow](pq)
	if err != nil || len(rows) != 1 || rows[0] != toyCost(2, 1) || meta["gnnsim.command"] != "toy eval" || meta["gnnsim.flags"] != "--point=2" {
		t.Errorf("toy eval --out: %v, %+v, %v", err, rows, meta)
	}
	for _, c := range []struct{ args, err string }{
		{"eval --unit toy --model vig-s --scale 0", "--scale 0: want 1 to 100"},
		{"eval --unit soc --model vig-s --scale 2", "--scale is an option of --unit toy, not soc"},
		{"eval --unit toy --model vig-s --mapping gpu", "--mapping is an option of --unit soc, not toy"},
		{"eval --unit toy --model vig-s --graph g.mtx", "--unit toy takes no graph"},
		{"eval --unit bogus --model vig-s", "want one of omega, soc, fpga, dsa, gcos, toy"},
	} {
		if _, err := runToy(t, strings.Fields(c.args)...); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s: error %v, want %q", c.args, err, c.err)
		}
	}
	help, err := runToy(t, "eval", "--help")
	for _, want := range []string{"--unit toy     a toy design point (--scale)\n                 with its cycles.", "  toy: point_id, scale, cycles", "toy: cycles per unit of work"} {
		if err != nil || !strings.Contains(help, want) {
			t.Errorf("eval --help lacks %q: %v", want, err)
		}
	}
}
