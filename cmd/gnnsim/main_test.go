package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// The tests run gnnsim in-process, each command line on a fresh tree from
// newRootCmd, so no flag value leaks from one run into the next. One test
// re-executes the test binary as gnnsim (see TestMain) to check main's exit
// status.

// runMainEnv makes the test binary behave as the gnnsim command.
const runMainEnv = "GNNSIM_CMD_TEST_RUN_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(runMainEnv) == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// run executes one gnnsim command line and returns what it printed to
// stdout and stderr and its error. A panic fails the test.
func run(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	root := newRootCmd()
	var out, errOut bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errOut)
	root.SetArgs(append([]string{}, args...))
	func() {
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("gnnsim %s: panic: %v\n%s", strings.Join(args, " "), r, debug.Stack())
			}
		}()
		err = root.Execute()
	}()
	return out.String(), errOut.String(), err
}

// mustRun is run for command lines that must succeed; it returns stdout.
func mustRun(t *testing.T, args ...string) string {
	t.Helper()
	out, errOut, err := run(t, args...)
	if err != nil {
		t.Fatalf("gnnsim %s: %v\nstderr:\n%s", strings.Join(args, " "), err, errOut)
	}
	return out
}

// lastLine is the last non-empty line of s.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return lines[len(lines)-1]
}

// decodeObjects decodes a JSON array of objects, keeping each value raw.
func decodeObjects(t *testing.T, s string) []map[string]json.RawMessage {
	t.Helper()
	var objs []map[string]json.RawMessage
	if err := json.Unmarshal([]byte(s), &objs); err != nil {
		t.Fatalf("output is not a JSON array of objects: %v\n%s", err, s)
	}
	return objs
}

// checkKeys fails unless every object has exactly the keys want.
func checkKeys(t *testing.T, objs []map[string]json.RawMessage, want []string) {
	t.Helper()
	want = slices.Sorted(slices.Values(want))
	for i, o := range objs {
		var got []string
		for k := range o {
			got = append(got, k)
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("object %d has keys %v, want exactly %v", i, got, want)
		}
	}
}

// sameFiles fails unless every regular file of dir a has a byte-identical
// twin in dir b and the directories hold the same names.
func sameFiles(t *testing.T, a, b string, names ...string) {
	t.Helper()
	if len(names) == 0 {
		entries, err := os.ReadDir(a)
		if err != nil {
			t.Fatal(err)
		}
		others, err := os.ReadDir(b)
		if err != nil {
			t.Fatal(err)
		}
		if len(entries) != len(others) {
			t.Errorf("%s holds %d entries, %s %d", a, len(entries), b, len(others))
		}
		for _, e := range entries {
			if e.Type().IsRegular() {
				names = append(names, e.Name())
			}
		}
	}
	for _, n := range names {
		x, err := os.ReadFile(filepath.Join(a, n))
		if err != nil {
			t.Fatal(err)
		}
		y, err := os.ReadFile(filepath.Join(b, n))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(x, y) {
			t.Errorf("%s differs between %s and %s", n, a, b)
		}
	}
}

func walkCommands(c *cobra.Command, f func(*cobra.Command)) {
	f(c)
	for _, s := range c.Commands() {
		walkCommands(s, f)
	}
}

// TestHelp checks that every command explains itself and every flag, and
// that --help of every command prints every one of its flags.
func TestHelp(t *testing.T) {
	var paths [][]string
	walkCommands(newRootCmd(), func(c *cobra.Command) {
		name := c.CommandPath()
		if strings.TrimSpace(c.Short) == "" {
			t.Errorf("%s: no Short help", name)
		}
		if strings.TrimSpace(c.Long) == "" {
			t.Errorf("%s: no Long help", name)
		}
		check := func(f *pflag.Flag) {
			if strings.TrimSpace(f.Usage) == "" {
				t.Errorf("%s --%s: no usage string", name, f.Name)
			}
		}
		c.LocalFlags().VisitAll(check)
		c.InheritedFlags().VisitAll(check)
		paths = append(paths, strings.Fields(name)[1:])
	})
	if len(paths) < 20 {
		t.Fatalf("walked only %d commands", len(paths))
	}
	for _, p := range paths {
		out := mustRun(t, append(p, "--help")...)
		var c *cobra.Command
		walkCommands(newRootCmd(), func(x *cobra.Command) {
			if slices.Equal(strings.Fields(x.CommandPath())[1:], p) {
				c = x
			}
		})
		if first, _, _ := strings.Cut(c.Long, "\n"); !strings.Contains(out, first) {
			t.Errorf("gnnsim %s --help does not print the Long help", strings.Join(p, " "))
		}
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			if !f.Hidden && !strings.Contains(out, "--"+f.Name) {
				t.Errorf("gnnsim %s --help does not mention --%s", strings.Join(p, " "), f.Name)
			}
		})
	}
}

// TestBadCommandLines checks that malformed command lines fail with an
// error that says what is wrong, and do not panic.
func TestBadCommandLines(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing")
	tests := []struct {
		name string
		args []string
		want string // in the error message
	}{
		{"unknown command", []string{"bogus"}, `unknown command "bogus"`},
		{"unknown subcommand", []string{"graphs", "bogus"}, `unknown command "bogus" for "gnnsim graphs"`},
		{"misspelt subcommand", []string{"predict", "trian"}, `unknown command "trian" for "gnnsim predict"`},
		{"unknown flag", []string{"simulate", "--graphs", missing, "--bogus"}, "unknown flag: --bogus"},
		{"flag without value", []string{"simulate", "--graphs"}, "flag needs an argument"},
		{"flag of wrong type", []string{"graphs", "gen", "--generator", "er", "--out", missing, "--count", "x"}, "--count x: not an integer (want 1 to 1000000)"},
		{"gen without generator", []string{"graphs", "gen", "--out", missing}, `required flag(s) "generator" not set`},
		{"gen without out", []string{"graphs", "gen", "--generator", "er"}, `required flag(s) "out" not set`},
		{"load without out", []string{"graphs", "load", missing}, `required flag(s) "out" not set`},
		{"info without file", []string{"graphs", "info"}, "accepts 1 arg(s), received 0"},
		{"info of missing file", []string{"graphs", "info", missing}, "missing"},
		{"simulate without graphs", []string{"simulate"}, "no graph: give --graphs PATH or --data NAME|PATH"},
		{"simulate positional", []string{"simulate", "--graphs", missing, "extra"}, "unknown command"},
		{"sweep without spec", []string{"sweep"}, "accepts 1 arg(s), received 0"},
		{"sweep of missing spec", []string{"sweep", missing, "--out", dir}, "missing"},
		{"merge without dirs", []string{"merge"}, "requires at least 1 arg(s)"},
		{"merge of empty dir", []string{"merge", dir, "--out", filepath.Join(dir, "m")}, "not a sweep directory"},
		{"train without data", []string{"predict", "train", "--out", missing}, "--data and --out are required"},
		{"eval without models", []string{"predict", "eval", "--data", missing}, "--models and --data are required"},
		{"eval of missing models", []string{"predict", "eval", "--models", missing, "--data", missing}, "missing"},
		{"predict graph without graph", []string{"predict", "graph", "--models", missing}, "--models, --graphs and --graph are required"},
		{"schedule without data", []string{"schedule"}, "--data is required"},
		{"validate bad engine", []string{"validate", "omega", "--reference", missing, "--engine", "x"}, "--engine"},
		{"validate missing reference", []string{"validate", "omega", "--reference", missing}, "missing"},
		{"nsga2 without problem", []string{"search", "nsga2"}, `required flag(s) "problem" not set`},
		{"nsga2 unknown problem", []string{"search", "nsga2", "--problem", "zdt9"}, "zdt9"},
		{"hv without ref", []string{"search", "hv", missing}, "--ref is required"},
		{"repro missing data", []string{"repro", "seed002", "--data", missing, "--out", dir}, "not a directory"},
		{"dataset bad preset", []string{"dataset", "graphlaxy", "--preset", "huge", "--out", dir}, "huge"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := run(t, tt.args...)
			if err == nil {
				t.Fatalf("gnnsim %s: no error", strings.Join(tt.args, " "))
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("gnnsim %s: error %q does not contain %q", strings.Join(tt.args, " "), err, tt.want)
			}
		})
	}
}

// TestExitStatus runs the real main in a child process: errors go to stderr
// with the "gnnsim:" prefix and exit status 1; success exits 0.
func TestExitStatus(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Skipf("cannot re-execute the test binary: %v", err)
	}
	tests := []struct {
		args       []string
		wantCode   int
		wantStderr string
		wantStdout string
	}{
		{[]string{"bogus"}, 1, `gnnsim: unknown command "bogus" for "gnnsim"`, ""},
		{[]string{"simulate"}, 1, "gnnsim: no graph: give --graphs PATH or --data NAME|PATH", ""},
		{[]string{"--version"}, 0, "", "gnnsim version "},
	}
	for _, tt := range tests {
		cmd := exec.Command(exe, tt.args...)
		cmd.Env = append(os.Environ(), runMainEnv+"=1")
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err := cmd.Run()
		code := 0
		if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != tt.wantCode {
			t.Errorf("gnnsim %v: exit status %d, want %d; stderr:\n%s", tt.args, code, tt.wantCode, errOut.String())
		}
		if !strings.Contains(errOut.String(), tt.wantStderr) || !strings.Contains(out.String(), tt.wantStdout) {
			t.Errorf("gnnsim %v: stdout %q, stderr %q; want them to contain %q and %q", tt.args, out.String(), errOut.String(), tt.wantStdout, tt.wantStderr)
		}
		if strings.Contains(errOut.String(), "panic") {
			t.Errorf("gnnsim %v panicked:\n%s", tt.args, errOut.String())
		}
	}
}
