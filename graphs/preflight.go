package graphs

import (
	"fmt"

	"gnnsim/internal/memavail"
)

// minMemoryCheck is the estimate from which a command checks that it fits
// in the memory available: smaller jobs start whatever the estimate.
const minMemoryCheck = 256 << 20

// CheckMemory returns an error naming the job, the memory it needs and the
// memory available when need exceeds it, before any work starts (so
// nothing is written).
func CheckMemory(what string, need int64) error {
	if need < minMemoryCheck {
		return nil
	}
	avail, source, ok := memavail.Available()
	if !ok || need <= avail {
		return nil
	}
	return fmt.Errorf("%s needs about %s of memory at its peak, but %s are available (%s); nothing was started or written: make the graph smaller or free memory",
		what, memavail.GiB(need), memavail.GiB(avail), source)
}

// CheckGenMemory is CheckMemory for generating the graphs of spec.
func CheckGenMemory(spec GenSpec, mode FeatureMode) error {
	need, n, m := GenPeakBytes(spec, mode)
	return CheckMemory(fmt.Sprintf("an R-MAT graph of %d draws on %d nodes", m, n), need)
}

// CheckReadMemory is CheckMemory for reading (and simulating) the graph
// set at path, sized from its feature columns without decoding the CSR.
func CheckReadMemory(path string) error {
	es, _, err := ReadSetFeatures(path)
	if err != nil {
		return nil // ReadSet reports it
	}
	var nnz, nodes int64
	for _, e := range es {
		nnz += 2 * int64(e.Edges)
		if e.SelfLoops {
			nnz += int64(e.Nodes)
		}
		nodes += int64(e.Nodes)
	}
	return CheckMemory(fmt.Sprintf("reading %s (%d graphs, %d stored entries)", path, len(es), nnz), ReadPeakBytes(nnz, nodes))
}
