// Package memavail tells how much memory a process may still use, so that
// a job too large for it (a graph of 10^9 edges, say) fails before it
// starts, with a message naming what it needs and what there is, instead
// of being killed by the kernel half-way with nothing to show.
//
// The memory a process is given is the smallest of: the memory the kernel
// reports available (MemAvailable in /proc/meminfo, which counts the page
// cache it can drop), the room left under a cgroup limit (v2 memory.max
// minus memory.current, or v1 memory.limit_in_bytes minus usage), and the
// Go runtime's soft limit (GOMEMLIMIT or debug.SetMemoryLimit). It leaves
// out swap, and address-space limits (ulimit -v), which the Go runtime's
// reservations make meaningless as a measure of use.
package memavail

import (
	"bufio"
	"bytes"
	"math"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
)

// Available returns the bytes the process may still allocate and the
// source of that bound ("MemAvailable", "cgroup memory.max", "GOMEMLIMIT").
// ok is false when no source could be read (then bytes is math.MaxInt64).
func Available() (bytes int64, source string, ok bool) {
	bytes, source = math.MaxInt64, ""
	take := func(b int64, src string) {
		if b >= 0 && b < bytes {
			bytes, source, ok = b, src, true
		}
	}
	if b, found := memAvailable("/proc/meminfo"); found {
		take(b, "MemAvailable in /proc/meminfo")
	}
	if b, found := cgroupRoom(); found {
		take(b, "the cgroup memory limit")
	}
	if lim := debug.SetMemoryLimit(-1); lim != math.MaxInt64 {
		take(lim, "GOMEMLIMIT")
	}
	return bytes, source, ok
}

// memAvailable reads MemAvailable (kB) from a meminfo file.
func memAvailable(path string) (int64, bool) {
	f, err := os.Open(path)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, rest, ok := strings.Cut(sc.Text(), ":")
		if !ok || name != "MemAvailable" {
			continue
		}
		fs := strings.Fields(rest)
		if len(fs) == 0 {
			return 0, false
		}
		kb, err := strconv.ParseInt(fs[0], 10, 64)
		if err != nil || kb < 0 {
			return 0, false
		}
		return kb << 10, true
	}
	return 0, false
}

// cgroupRoom returns the limit minus the usage of the process's cgroup
// (v2 first, then v1); false when there is no limit.
func cgroupRoom() (int64, bool) {
	for _, p := range [][2]string{
		{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"},
		{"/sys/fs/cgroup/memory/memory.limit_in_bytes", "/sys/fs/cgroup/memory/memory.usage_in_bytes"},
	} {
		limit, ok := readInt(p[0])
		if !ok || limit >= 1<<60 { // "max", or v1's "no limit" page-rounded MaxInt64
			continue
		}
		used, _ := readInt(p[1])
		return max(limit-used, 0), true
	}
	return 0, false
}

func readInt(path string) (int64, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	x, err := strconv.ParseInt(string(bytes.TrimSpace(b)), 10, 64)
	return x, err == nil
}

// GiB formats a byte count in GiB with one decimal, for messages.
func GiB(b int64) string {
	return strconv.FormatFloat(float64(b)/(1<<30), 'f', 1, 64) + " GiB"
}
