package memavail

import (
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"
)

func TestMemAvailable(t *testing.T) {
	p := filepath.Join(t.TempDir(), "meminfo")
	os.WriteFile(p, []byte("MemTotal:       24000000 kB\nMemFree:  1 kB\nMemAvailable:   2048 kB\n"), 0o644)
	if b, ok := memAvailable(p); !ok || b != 2048<<10 {
		t.Errorf("memAvailable = %d, %v; want %d", b, ok, 2048<<10)
	}
	os.WriteFile(p, []byte("MemTotal: 5 kB\n"), 0o644)
	if _, ok := memAvailable(p); ok {
		t.Error("found MemAvailable in a file without it")
	}
}

// TestAvailableGOMEMLIMIT checks that a soft memory limit below what the
// machine has bounds Available, and names itself.
func TestAvailableGOMEMLIMIT(t *testing.T) {
	prev := debug.SetMemoryLimit(1 << 20)
	defer debug.SetMemoryLimit(prev)
	b, src, ok := Available()
	if !ok || b != 1<<20 || src != "GOMEMLIMIT" {
		t.Errorf("Available = %d, %q, %v; want 1 MiB from GOMEMLIMIT", b, src, ok)
	}
	debug.SetMemoryLimit(math.MaxInt64)
	if b, _, ok := Available(); ok && b <= 0 {
		t.Errorf("Available = %d", b)
	}
}

func TestGiB(t *testing.T) {
	if s := GiB(3 << 29); s != "1.5 GiB" {
		t.Errorf("GiB = %q", s)
	}
}
