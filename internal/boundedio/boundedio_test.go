package boundedio

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestBoundedRead: devices, FIFOs and links to them are refused without
// reading (a FIFO would block, /dev/zero never ends), files above the cap
// are refused by size or while reading (a /proc file's size reads as 0),
// and the error names the file, its kind and the cap.
func TestBoundedRead(t *testing.T) {
	dir := t.TempDir()
	small := Kind{"test", 16}
	ok := filepath.Join(dir, "ok")
	big := filepath.Join(dir, "big")
	if err := os.WriteFile(ok, []byte("0123456789abcdef"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(big, []byte("0123456789abcdefX"), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	link := filepath.Join(dir, "zero")
	if err := os.Symlink("/dev/zero", link); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path string
		is   error
		want string
	}{
		{ok, nil, ""},
		{big, ErrTooLarge, "a test file may hold at most 16 bytes"},
		{"/dev/zero", ErrNotRegular, "a device"},
		{link, ErrNotRegular, "a device"},
		{fifo, ErrNotRegular, "a FIFO"},
		{dir, ErrNotRegular, "a directory"},
		{"/proc/self/status", ErrTooLarge, "at most 16 bytes"},
	} {
		b, err := ReadFile(tc.path, small)
		if tc.is == nil {
			if err != nil || len(b) != 16 {
				t.Errorf("%s: %d bytes, %v", tc.path, len(b), err)
			}
			continue
		}
		if !errors.Is(err, tc.is) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), tc.path) {
			t.Errorf("%s: error %v, want %v containing %q and the path", tc.path, err, tc.is, tc.want)
		}
	}
	if err := CheckRegular(fifo, "Parquet"); !errors.Is(err, ErrNotRegular) {
		t.Errorf("CheckRegular(FIFO) = %v", err)
	}
	if _, err := ReadAll(strings.NewReader(strings.Repeat("x", 17)), "stdin", small); !errors.Is(err, ErrTooLarge) {
		t.Errorf("ReadAll over the cap: %v", err)
	}
}
