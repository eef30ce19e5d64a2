//go:build unix

package memlimit

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestCgroupLimit reads made-up control groups: the least limit of a
// group and its ancestors, v2 and v1; "max", v1's no-limit value,
// garbage, negative, zero, a number past 64 bits, a huge file, a FIFO and
// absent files are no limit, and a /proc/self/cgroup of garbage names
// none.
func TestCgroupLimit(t *testing.T) {
	root := t.TempDir()
	write := func(name, text string) {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("memory.max", "max\n")
	write("a/memory.max", "3221225472\n")
	write("a/b/memory.max", "max\n")
	write("a/b/c/memory.max", "garbage")
	write("memory/memory.limit_in_bytes", "9223372036854771712\n")
	write("memory/x/memory.limit_in_bytes", "2147483648\n")
	write("n/memory.max", "-5\n")
	write("z/memory.max", "0\n")
	write("big/memory.max", "99999999999999999999999\n")
	write("huge/memory.max", strings.Repeat("1", 1<<20))
	if err := syscall.Mkfifo(filepath.Join(root, "fifo", "memory.max"), 0o644); err != nil {
		os.MkdirAll(filepath.Join(root, "fifo"), 0o755)
		if err := syscall.Mkfifo(filepath.Join(root, "fifo", "memory.max"), 0o644); err != nil {
			t.Logf("no FIFO: %v", err)
		}
	}
	for _, tc := range []struct {
		cgroups string
		want    int64
	}{
		{"0::/a/b/c\n", 3221225472},
		{"0::/a/b/c/../../..\n", 0},
		{"4:memory:/x\n0::/a\n", 2147483648},
		{"4:cpu,memory:/x\n", 2147483648},
		{"4:cpu:/x\n", 0},
		{"0::/n\n0::/z\n0::/big\n0::/huge\n0::/fifo\n0::/absent\n", 0},
		{"garbage\n::\n\x00\n", 0},
		{"", 0},
	} {
		if got := cgroupLimit(root, tc.cgroups); got != tc.want {
			t.Errorf("cgroups %q: %d, want %d", tc.cgroups, got, tc.want)
		}
	}
	if got := cgroupLimit(filepath.Join(root, "absent"), "0::/\n"); got != 0 {
		t.Errorf("no cgroup files: %d", got)
	}
}
