package memlimit

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// TestUsable: the machine's memory bounds Usable, and under ulimit -v
// 1500000 (1.5 GB of address space) a process may take less than 1.5 GB
// but still some.
func TestUsable(t *testing.T) {
	if os.Getenv("MEMLIMIT_PRINT") != "" {
		fmt.Println(Usable())
		return
	}
	u := Usable()
	if kib, ok := procField("/proc/meminfo", "MemTotal:"); ok && (u <= 0 || u > kib<<10) {
		t.Errorf("Usable() = %d, the machine has %d KiB", u, kib)
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is not installed")
	}
	if _, ok := procField("/proc/self/status", "VmSize:"); !ok {
		t.Skip("no /proc/self/status")
	}
	cmd := exec.Command("bash", "-c", `ulimit -v 1500000 && exec "$0" -test.run '^TestUsable$'`, os.Args[0])
	cmd.Env = append(os.Environ(), "MEMLIMIT_PRINT=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("under ulimit -v: %v: %s", err, out)
	}
	first, _, _ := strings.Cut(string(out), "\n")
	v, err := strconv.ParseInt(first, 10, 64)
	if err != nil {
		t.Fatalf("under ulimit -v: %q", out)
	}
	if v <= 0 || v >= 1500000<<10 {
		t.Errorf("under ulimit -v 1500000: Usable() = %d, want more than 0 and less than 1.5 GB", v)
	}
	t.Logf("Usable() = %d, under ulimit -v 1500000 %d", u, v)
}
