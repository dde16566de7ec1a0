package train

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"gnnsim/graphs"
)

// dataDir returns the Planetoid ind folder of the shared data (env
// GNNSIM_DATA, else ../../shared/data relative to this package), or skips.
func dataDir(tb testing.TB) string {
	tb.Helper()
	dir := os.Getenv("GNNSIM_DATA")
	if dir == "" {
		dir = filepath.Join("..", "..", "shared", "data")
	}
	p := filepath.Join(dir, "planetoid", "ind")
	if _, err := os.Stat(p); err != nil {
		tb.Skipf("real data %s absent (set GNNSIM_DATA to the shared data folder): %v", p, err)
	}
	return p
}

var (
	dataMu    sync.Mutex
	dataCache = map[string]*Data{}
)

// loadData loads and prepares a Planetoid set once per test binary.
func loadData(tb testing.TB, name string) *Data {
	tb.Helper()
	dir := dataDir(tb)
	dataMu.Lock()
	defer dataMu.Unlock()
	if d, ok := dataCache[name]; ok {
		return d
	}
	p, err := graphs.LoadPlanetoid(filepath.Join(dir, name))
	if err != nil {
		tb.Fatal(err)
	}
	d, err := NewData(p)
	if err != nil {
		tb.Fatal(err)
	}
	dataCache[name] = d
	return d
}
