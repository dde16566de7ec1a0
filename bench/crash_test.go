package bench

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// crashSpec has many small chunks so a kill lands mid-sweep.
const crashSpec = `
name: crash
seed: 11
graphs:
  - generator: graphlaxy
    count: 400
    edges: [200, 3000]
chunk_graphs: 5
`

// TestMain lets the test binary double as the sweep child the crash test
// kills.
func TestMain(m *testing.M) {
	if dir := os.Getenv("GNNSIM_BENCH_CHILD"); dir != "" {
		text := crashSpec
		switch os.Getenv("GNNSIM_BENCH_CHILD_SPEC") {
		case "fpga":
			text = fpgaCrashSpec
		case "soc":
			text = socCrashSpec
		case "dsa":
			text = dsaCrashSpec
		case "gcos":
			text = gcosCrashSpec
		}
		s, err := ParseSpec([]byte(text))
		if err == nil {
			var p *Plan
			if p, err = NewPlan(s); err == nil {
				// Shards come from the environment, as on a cluster.
				var sh Shard
				if sh, _, err = ShardFromEnv(nil); err == nil {
					_, err = p.Run(context.Background(), dir, Options{Workers: 1, Shard: sh})
				}
			}
		}
		if err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(2)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// fpgaCrashSpec is an fpga design sweep of many small chunks.
var fpgaCrashSpec = fpgaGrid(10, 30, 30) + "chunk_points: 60\n"

// socCrashSpec is the example soc sweep (1,008 points) in chunks of 8.
var socCrashSpec = regexp.MustCompile(`(?m)^chunk_points: \d+`).ReplaceAllString(socExample, "chunk_points: 8")

// exampleText returns an example spec's text, read when the test binary
// starts (also as the crash test's child, which has no *testing.T).
func exampleText(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// dsaCrashSpec is the example dsa sweep over more PE counts (126
// points), one point per chunk.
var dsaCrashSpec = strings.NewReplacer("chunk_points: 8", "chunk_points: 1", "pes: [64, 256, 1024]", "pes: [16, 32, 64, 128, 256, 512, 1024]").Replace(exampleText("testdata/dsa.yaml"))

// A sweep killed with SIGKILL mid-run and restarted produces the same final
// dataset as an uninterrupted run: a graph sweep, an fpga and a soc design
// sweep.
func TestSweepKilledAndResumed(t *testing.T) {
	if testing.Short() {
		t.Skip("kills a child process; skipped with -short")
	}
	t.Run("omega", func(t *testing.T) { killAndResume(t, "", crashSpec) })
	t.Run("fpga", func(t *testing.T) { killAndResume(t, "fpga", fpgaCrashSpec) })
	t.Run("dsa", func(t *testing.T) {
		if n := mustPlan(t, dsaCrashSpec).NumChunks(); n != 126 {
			t.Fatalf("the dsa crash spec has %d chunks, want 126", n)
		}
		killAndResume(t, "dsa", dsaCrashSpec)
	})
	t.Run("soc", func(t *testing.T) {
		if n := mustPlan(t, socCrashSpec).NumChunks(); n != 126 {
			t.Fatalf("the soc crash spec has %d chunks, want 1,008 points in chunks of 8", n)
		}
		killAndResume(t, "soc", socCrashSpec)
	})
	t.Run("gcos", func(t *testing.T) { killAndResume(t, "gcos", gcosCrashSpec) })
}

func killAndResume(t *testing.T, name, spec string) {
	base := t.TempDir()
	killed := filepath.Join(base, "killed")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "GNNSIM_BENCH_CHILD="+killed, "GNNSIM_BENCH_CHILD_SPEC="+name)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := mustPlan(t, spec)
	// Wait for a few finished chunks, then kill without warning.
	deadline := time.Now().Add(60 * time.Second)
	for {
		n := 0
		for c := range p.NumChunks() {
			if p.chunkDone(killed, c) {
				n++
			}
		}
		if n >= 3 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("child made no progress")
		}
		time.Sleep(5 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	if _, err := os.Stat(filepath.Join(killed, RunsFile)); err == nil {
		t.Skip("child finished before the kill; machine too fast for this spec")
	}

	sum, err := p.Run(context.Background(), killed, Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if sum.ChunksReused < 3 || !sum.Complete {
		t.Fatalf("resume did not reuse the finished chunks: %+v", sum)
	}
	clean := filepath.Join(base, "clean")
	if _, err := mustPlan(t, spec).Run(context.Background(), clean, Options{Workers: 2}); err != nil {
		t.Fatal(err)
	}
	if !p.points {
		if a, b := readBoth(t, killed), readBoth(t, clean); !bytes.Equal(a[0], b[0]) {
			t.Fatal("killed-and-resumed sweep's graphs differ from an uninterrupted one's")
		}
	}
	if !bytes.Equal(readRunsFile(t, killed), readRunsFile(t, clean)) {
		t.Fatal("killed-and-resumed sweep differs from an uninterrupted one")
	}
	left, _ := filepath.Glob(filepath.Join(killed, partsDir, p.Spec.Hash(), ".*"))
	if len(left) != 0 {
		t.Fatalf("temp files left behind: %v", left)
	}
}

// Three shards run as three processes (with Slurm's environment, as the job
// array of docs/cluster.md does) and merged equal an unsharded run.
func TestShardProcessesMerge(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes; skipped with -short")
	}
	base := t.TempDir()
	shared := filepath.Join(base, "shared") // one output directory, as on a cluster file system
	var cmds []*exec.Cmd
	for i := 1; i <= 3; i++ { // Slurm arrays often start at 1: --array=1-3
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "GNNSIM_BENCH_CHILD="+shared,
			"SLURM_ARRAY_TASK_ID="+string(rune('0'+i)), "SLURM_ARRAY_TASK_COUNT=3", "SLURM_ARRAY_TASK_MIN=1")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	for _, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatalf("shard process: %v: %s", err, c.Stderr)
		}
	}
	// The last shard to finish may already have assembled the final tables
	// (every chunk was present); merging again must give the same bytes.
	if _, err := Merge([]string{shared}, shared); err != nil {
		t.Fatal(err)
	}
	clean := filepath.Join(base, "clean")
	if _, err := mustPlan(t, crashSpec).Run(context.Background(), clean, Options{Workers: 2}); err != nil {
		t.Fatal(err)
	}
	a, b := readBoth(t, shared), readBoth(t, clean)
	if !bytes.Equal(a[0], b[0]) || !bytes.Equal(a[1], b[1]) {
		t.Fatal("3 merged shard processes differ from an unsharded run")
	}
}
