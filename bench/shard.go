package bench

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Shard selects a fixed subset of a sweep's work: shard Index of Count
// (0-based). The sweep's graphs are cut into chunks of ChunkGraphs
// consecutive graphs, and chunk c belongs to shard c mod Count. Chunk
// boundaries do not depend on the shard count, so any sharding of a spec
// produces the same part files as an unsharded run, and merging them yields a
// byte-identical dataset.
type Shard struct {
	Index, Count int
}

// All is the whole sweep in one shard.
var All = Shard{0, 1}

// Owns reports whether chunk c belongs to the shard.
func (s Shard) Owns(c int) bool { return c%s.Count == s.Index }

func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// ParseShard reads "i/n" with 0 <= i < n.
func ParseShard(v string) (Shard, error) {
	a, b, ok := strings.Cut(v, "/")
	if !ok {
		return Shard{}, fmt.Errorf("shard %q: want i/n, e.g. 0/4", v)
	}
	i, err1 := strconv.Atoi(strings.TrimSpace(a))
	n, err2 := strconv.Atoi(strings.TrimSpace(b))
	if err1 != nil || err2 != nil {
		return Shard{}, fmt.Errorf("shard %q: want integers i/n", v)
	}
	return newShard(i, n, "shard "+strconv.Quote(v))
}

func newShard(i, n int, what string) (Shard, error) {
	if n < 1 {
		return Shard{}, fmt.Errorf("%s: shard count %d must be at least 1", what, n)
	}
	if i < 0 || i >= n {
		return Shard{}, fmt.Errorf("%s: shard index %d outside [0,%d)", what, i, n)
	}
	return Shard{i, n}, nil
}

// ShardFromEnv reads the shard a cluster scheduler assigned to this process:
// Slurm job arrays (SLURM_ARRAY_TASK_ID with SLURM_ARRAY_TASK_COUNT, and
// SLURM_ARRAY_TASK_MIN subtracted so arrays may start at 1) or Kubernetes
// Indexed Jobs (JOB_COMPLETION_INDEX with GNNSIM_SHARD_COUNT, since
// Kubernetes does not export the completion count). ok is false when neither
// is set.
func ShardFromEnv(getenv func(string) string) (s Shard, ok bool, err error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	atoi := func(k string) (int, error) {
		v, err := strconv.Atoi(strings.TrimSpace(getenv(k)))
		if err != nil {
			return 0, fmt.Errorf("environment %s=%q: not an integer", k, getenv(k))
		}
		return v, nil
	}
	switch {
	case getenv("SLURM_ARRAY_TASK_ID") != "":
		id, err := atoi("SLURM_ARRAY_TASK_ID")
		if err != nil {
			return Shard{}, true, err
		}
		if getenv("SLURM_ARRAY_TASK_COUNT") == "" {
			return Shard{}, true, fmt.Errorf("SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not")
		}
		n, err := atoi("SLURM_ARRAY_TASK_COUNT")
		if err != nil {
			return Shard{}, true, err
		}
		lo := 0
		if getenv("SLURM_ARRAY_TASK_MIN") != "" {
			if lo, err = atoi("SLURM_ARRAY_TASK_MIN"); err != nil {
				return Shard{}, true, err
			}
		}
		s, err := newShard(id-lo, n, "Slurm array task")
		return s, true, err
	case getenv("JOB_COMPLETION_INDEX") != "":
		id, err := atoi("JOB_COMPLETION_INDEX")
		if err != nil {
			return Shard{}, true, err
		}
		if getenv("GNNSIM_SHARD_COUNT") == "" {
			return Shard{}, true, fmt.Errorf("JOB_COMPLETION_INDEX is set but GNNSIM_SHARD_COUNT (the Job's completions) is not")
		}
		n, err := atoi("GNNSIM_SHARD_COUNT")
		if err != nil {
			return Shard{}, true, err
		}
		s, err := newShard(id, n, "Kubernetes indexed job")
		return s, true, err
	}
	return All, false, nil
}
