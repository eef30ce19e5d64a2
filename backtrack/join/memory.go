package join

import (
	"errors"
	"os"
	"strconv"
	"strings"
)

// ErrMemory is returned (wrapped) by [Count] when even its smallest parts
// need more memory than Options.Memory allows.
var ErrMemory = errors.New("memory limit too small for the half-board join")

// halfBytes is the memory one half takes while its part is counted: its
// key and pattern as enumerated, and the pattern again sorted by key.
const halfBytes = 4 + 8 + 8

// reserve returns the part of a memory limit of mem bytes kept for what
// is not halves (the program itself, tables, buffers, the Go runtime,
// garbage not yet collected): a quarter of it, at most 64 MiB.
func reserve(mem int64) int64 { return min(mem/4, 64<<20) }

// halvesCap returns the most halves each of threads workers may hold
// within a memory limit of mem bytes, its reserve left out.
func halvesCap(mem int64, threads int) int {
	return int(min((mem-reserve(mem))/int64(max(1, threads))/halfBytes, 1<<40))
}

// HeapLimit returns the soft memory limit of the Go runtime
// (debug.SetMemoryLimit) under which a process that counts with
// Options.Memory mem (0: [DefaultMemory]) stays within mem bytes: half of
// the reserve below mem is left for the program's own code and data and
// for the collector's overshoot. Without a soft limit the collector lets
// the heap grow to twice what is live before it reclaims the buffers a
// part outgrew.
func HeapLimit(mem int64) int64 {
	if mem == 0 {
		mem = DefaultMemory()
	}
	return mem - reserve(mem)/2
}

// MinMemory is the smallest Options.Memory [Count] accepts: the fixed
// buffers of a worker and room for a few halves.
const MinMemory = 1 << 20

// DefaultMemory returns the memory [Count] may use when Options.Memory is
// 0: half of the machine's memory or of the control group's limit,
// whichever is less (1 GiB when neither can be read).
func DefaultMemory() int64 {
	limit := int64(0)
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		for line := range strings.Lines(string(b)) {
			if f := strings.Fields(line); len(f) >= 2 && f[0] == "MemTotal:" {
				if kib, err := strconv.ParseInt(f[1], 10, 64); err == nil && kib > 0 && kib < 1<<50 {
					limit = kib << 10
				}
			}
		}
	}
	for _, path := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		b, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		if v, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil && v > 0 && (limit == 0 || v < limit) {
			limit = v
		}
	}
	if limit == 0 {
		return 1 << 30
	}
	return max(MinMemory, limit/2)
}
