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
