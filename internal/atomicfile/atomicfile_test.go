package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
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
