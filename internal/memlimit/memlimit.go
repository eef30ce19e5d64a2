// Package memlimit says how much memory the process may use: the least
// of the machine's memory, its control group's limit and, under an
// address-space limit (ulimit -v), what that limit leaves beyond the
// address space the process has already taken (the Go runtime reserves
// about 1.2 GB of it at start). Caps on what a run reads and keeps are
// sized by it, so that an input too large for the process fails with a
// message before it exhausts memory.
package memlimit

import (
	"fmt"
	"io"
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
	cgroups, _ := os.ReadFile("/proc/self/cgroup")
	lower(cgroupLimit("/sys/fs/cgroup", string(cgroups)))
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

// cgroupLimit returns the least memory limit of the control groups that
// cgroups (the text of /proc/self/cgroup) names and their ancestors, read
// under root (/sys/fs/cgroup), or 0 for none. A file that is absent,
// unreadable or holds anything but a positive number below 2^60 ("max",
// v1's huge "no limit", garbage) is no limit.
func cgroupLimit(root, cgroups string) int64 {
	limit := int64(0)
	lower := func(file string) {
		b, err := readSmall(file)
		if err != nil {
			return
		}
		// "max" (v2) and v1's huge "no limit" value parse as no limit.
		if v, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil && v > 0 && v < 1<<60 && (limit == 0 || v < limit) {
			limit = v
		}
	}
	for line := range strings.Lines(cgroups) {
		// "0::/path" (v2) or "N:memory:/path" (v1).
		f := strings.SplitN(strings.TrimSpace(line), ":", 3)
		if len(f) != 3 {
			continue
		}
		dir, file := root, "memory.max"
		switch {
		case f[1] == "":
		case strings.Contains(","+f[1]+",", ",memory,"):
			dir, file = path.Join(root, "memory"), "memory.limit_in_bytes"
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

// readSmall returns the first 64 bytes of a regular file: a limit is a
// number, and a FIFO or a device in its place must not hang or flood the
// reader.
func readSmall(file string) ([]byte, error) {
	if fi, err := os.Stat(file); err != nil || !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", file)
	}
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, 64))
}
