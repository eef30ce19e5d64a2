package gpu

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestDeviceCheckScript runs gpu/device-check.sh without a GPU: with a
// binary missing it must say how to build it and exit 2 before anything
// else, and with both there, --dry-run must plan every step (tests, the
// table of both designs, the mixed merge, the CPU's join paths) within the
// command's 600 s.
func TestDeviceCheckScript(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash on PATH")
	}
	dir := t.TempDir()
	elf := filepath.Join(dir, "gpu.test")
	if err := os.WriteFile(elf, []byte("\x7fELF stand-in"), 0o755); err != nil {
		t.Fatal(err)
	}
	script := func(env ...string) (string, int) {
		cmd := exec.Command(bash, "device-check.sh", "--dry-run")
		cmd.Env = append(os.Environ(), append([]string{"OUT=" + dir, "PATH=/usr/bin:/bin"}, env...)...)
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return string(out), code
	}
	out, code := script("GPU_TEST="+elf, "QUEENS="+filepath.Join(dir, "queens"))
	if code != 2 || !strings.Contains(out, "CGO_ENABLED=0 go build -o queens .") || strings.Contains(out, "=== ") {
		t.Errorf("queens missing: exit %d, output:\n%s\nwant exit 2 and how to build it, before any step", code, out)
	}
	out, code = script("GPU_TEST="+elf, "QUEENS="+elf)
	if code != 0 {
		t.Fatalf("dry run: exit %d\n%s", code, out)
	}
	limit := 0
	for _, want := range []string{"-test.run ^TestDeviceTable$ -table 16-21", "-table-sweep 19,20", "CountPieces|CountKnown",
		"--shard 1/4 --gpu -o", "--shard 2/4 --gpu --gpu-kernel loop -o", "merge shard-*.json", "bench/count.sh"} {
		if !strings.Contains(out, want) {
			t.Errorf("dry run does not plan %q:\n%s", want, out)
		}
	}
	for _, line := range strings.Split(out, "\n") {
		var s int
		if _, err := fmtSscanf(line, &s); err == nil {
			limit += s
		}
	}
	if limit == 0 || limit > 580 {
		t.Errorf("the steps' limits add up to %d s, want within the 600 s of one device command", limit)
	}
}

// fmtSscanf reads the limit of a dry run's "would run (limit Ns): ..." line.
func fmtSscanf(line string, s *int) (int, error) {
	return fmt.Sscanf(line, "would run (limit %ds):", s)
}
