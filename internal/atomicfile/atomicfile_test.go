package atomicfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.txt")
	if err := WriteFile(p, []byte("one")); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := Write(p, func(w io.Writer) error {
		w.Write([]byte("partial"))
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "one" {
		t.Fatalf("failed write changed the target: %q", b)
	}
	if left, _ := filepath.Glob(TempPattern(p)); len(left) != 0 {
		t.Fatalf("temp files left: %v", left)
	}
	if err := WriteFile(filepath.Join(dir, "no", "dir"), nil); err == nil {
		t.Fatal("missing directory accepted")
	}
}

func TestWriteTargets(t *testing.T) {
	dir := t.TempDir()
	reg := filepath.Join(dir, "reg.txt")
	if err := os.WriteFile(reg, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(dir, "target.txt")
	if err := os.WriteFile(target, []byte("old"), 0o640); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.txt")
	if err := os.Symlink("target.txt", link); err != nil {
		t.Fatal(err)
	}
	dangling := filepath.Join(dir, "dangling.txt")
	if err := os.Symlink("made-by-write.txt", dangling); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	haveFIFO := mkfifo(fifo) == nil
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name, path string
		ok         bool
		wantIn     string      // error text (failure) or file that must hold "new" (success)
		perm       fs.FileMode // permission bits of wantIn after success
	}{
		{"new file", filepath.Join(dir, "new.txt"), true, filepath.Join(dir, "new.txt"), 0o666 &^ umask},
		{"regular file keeps its mode", reg, true, reg, 0o600},
		{"symlink written through", link, true, target, 0o640},
		{"dangling symlink creates its target", dangling, true, filepath.Join(dir, "made-by-write.txt"), 0o666 &^ umask},
		{"directory", sub, false, "is a directory", 0},
		{"device", os.DevNull, false, "not a regular file (a device)", 0},
		{"missing parent", filepath.Join(dir, "nope", "f.txt"), false, "directory " + filepath.Join(dir, "nope") + " does not exist", 0},
		{"empty path", "", false, "no output path", 0},
	}
	if haveFIFO {
		tests = append(tests, struct {
			name, path string
			ok         bool
			wantIn     string
			perm       fs.FileMode
		}{"fifo", fifo, false, "not a regular file (a FIFO)", 0})
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name == "device" {
				if fi, err := os.Lstat(os.DevNull); err != nil || fi.Mode()&fs.ModeDevice == 0 {
					t.Skip("no device file here")
				}
			}
			err := WriteFile(tc.path, []byte("new"))
			if !tc.ok {
				if err == nil || !strings.Contains(err.Error(), tc.wantIn) {
					t.Fatalf("err = %v, want it to contain %q", err, tc.wantIn)
				}
				if strings.Contains(err.Error(), ".tmp-") {
					t.Errorf("error names the temp file: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(tc.wantIn)
			if err != nil || string(b) != "new" {
				t.Fatalf("%s holds %q, %v", tc.wantIn, b, err)
			}
			fi, _ := os.Stat(tc.wantIn)
			if fi.Mode().Perm() != tc.perm {
				t.Errorf("mode %v, want %v", fi.Mode().Perm(), tc.perm)
			}
			if tc.name == "symlink written through" {
				if fi, _ := os.Lstat(link); fi.Mode()&fs.ModeSymlink == 0 {
					t.Error("the symlink was replaced")
				}
			}
		})
	}
	if fi, err := os.Lstat(os.DevNull); err == nil && fi.Mode()&fs.ModeDevice == 0 {
		t.Errorf("%s is no longer a device", os.DevNull)
	}
	if umask == 0o022 && (0o666&^umask) != 0o644 {
		t.Error("umask 022 must give 0644")
	}
}

// TestRemoveStale: a temp file a killed writer left (nobody holds its lock)
// is removed by the next Write of the target, while the temp file of a
// writer still running is kept (issue 17, class 6: a rerun must not
// delete another run's in-flight files, and no stale temp file survives a
// rerun).
func TestRemoveStale(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "graphs.parquet")
	stale := filepath.Join(dir, ".graphs.parquet.tmp-123")
	if err := os.WriteFile(stale, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	// A live writer: Write blocks inside its callback until released.
	inFlight := make(chan string)
	release := make(chan struct{})
	done := make(chan error)
	go func() {
		done <- Write(path, func(w io.Writer) error {
			inFlight <- w.(*os.File).Name()
			<-release
			_, err := w.Write([]byte("first"))
			return err
		})
	}()
	live := <-inFlight
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("stale temp file survived a Write: %v", err)
	}
	// A second writer of the same target must leave the live temp alone.
	if err := WriteFile(path, []byte("second")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(live); err != nil {
		t.Fatalf("a concurrent Write removed the live writer's temp file: %v", err)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatalf("the first writer failed: %v", err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*tmp-*")); len(left) != 0 {
		t.Errorf("temp files left: %v", left)
	}
}

// TestConcurrentWriters: many writers of one target at once never remove
// each other's finished temp files (each Write cleans stale temps first).
func TestConcurrentWriters(t *testing.T) {
	path := filepath.Join(t.TempDir(), "spec.yaml")
	errs := make(chan error)
	const writers, rounds = 8, 200
	for w := range writers {
		go func() {
			var err error
			for range rounds {
				if e := WriteFile(path, []byte{byte(w)}); e != nil && err == nil {
					err = e
				}
			}
			errs <- err
		}()
	}
	for range writers {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}
