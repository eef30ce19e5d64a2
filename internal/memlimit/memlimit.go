// Package memlimit says how much memory the process may use: the least
// of the machine's memory, its control group's limit and, under an
// address-space limit (ulimit -v), what that limit leaves beyond the
// address space the process has already taken (the Go runtime reserves
// about 1.2 GB of it at start). Caps on what a run reads and keeps are
// sized by it, so that an input too large for the process fails with a
// message before it exhausts memory.
package memlimit

import (
	"os"
	"path"
	"strconv"
	"strings"
)

// Unknown is what Usable returns where nothing bounds memory that it can
// read (no /proc, no limits).
const Unknown = 1 << 30

// Usable returns the bytes of memory the process may still take: the
// least of MemTotal (/proc/meminfo), the memory limit of its control
// group and its ancestors (cgroup v2 memory.max, v1
// memory.limit_in_bytes), and RLIMIT_AS less the address space in use
// (VmSize). It is Unknown where none of these can be read, and never
// less than 0.
func Usable() int64 {
	limit := int64(0)
	lower := func(v int64) {
		if v > 0 && (limit == 0 || v < limit) {
			limit = v
		}
	}
	if kib, ok := procField("/proc/meminfo", "MemTotal:"); ok {
		lower(kib << 10)
	}
	lower(cgroupLimit())
	if as, ok := addressLimit(); ok {
		used := int64(0)
		if kib, ok := procField("/proc/self/status", "VmSize:"); ok {
			used = kib << 10
		}
		if as <= used {
			return 0
		}
		lower(as - used)
	}
	if limit == 0 {
		return Unknown
	}
	return limit
}

// procField reads the number of kibibytes after name in a /proc file of
// "Name: value kB" lines.
func procField(file, name string) (int64, bool) {
	b, err := os.ReadFile(file)
	if err != nil {
		return 0, false
	}
	for line := range strings.Lines(string(b)) {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == name {
			if kib, err := strconv.ParseInt(f[1], 10, 64); err == nil && kib > 0 && kib < 1<<50 {
				return kib, true
			}
		}
	}
	return 0, false
}

// cgroupLimit returns the least memory limit of the process's control
// group and its ancestors, or 0 for none.
func cgroupLimit() int64 {
	limit := int64(0)
	lower := func(file string) {
		b, err := os.ReadFile(file)
		if err != nil {
			return
		}
		// "max" (v2) and v1's huge "no limit" value parse as no limit.
		if v, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil && v > 0 && v < 1<<60 && (limit == 0 || v < limit) {
			limit = v
		}
	}
	b, _ := os.ReadFile("/proc/self/cgroup")
	for line := range strings.Lines(string(b)) {
		// "0::/path" (v2) or "N:memory:/path" (v1).
		f := strings.SplitN(strings.TrimSpace(line), ":", 3)
		if len(f) != 3 {
			continue
		}
		dir, file := "/sys/fs/cgroup", "memory.max"
		switch {
		case f[1] == "":
		case strings.Contains(","+f[1]+",", ",memory,"):
			dir, file = "/sys/fs/cgroup/memory", "memory.limit_in_bytes"
		default:
			continue
		}
		for p := path.Clean("/" + f[2]); ; p = path.Dir(p) {
			lower(path.Join(dir, p, file))
			if p == "/" {
				break
			}
		}
	}
	return limit
}
