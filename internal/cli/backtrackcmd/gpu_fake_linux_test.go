//go:build linux && !android && (amd64 || arm64) && !nogpu

package backtrackcmd_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/queens-dev/queens/internal/cli/clitest"
	"github.com/queens-dev/queens/internal/testutil"
)

// fakeGPUEnv names the folder of the fake libcuda.so.1 in the test
// process that TestMixedFleet starts.
const fakeGPUEnv = "QUEENS_CLI_FAKE_GPU"

// TestMixedFleet merges a count whose shards ran on CPUs and GPUs, the
// GPU's through the real loader and CLI with the fake driver of package
// gpu (gpu/testdata/fakecuda.cpp, the kernel run on the host): it builds
// the driver and reruns this test binary with it on LD_LIBRARY_PATH (the
// driver is loaded once per process). It skips without a C++ compiler.
func TestMixedFleet(t *testing.T) {
	if os.Getenv(fakeGPUEnv) != "" {
		mixedFleet(t)
		return
	}
	clitest.SkipShort(t, "builds a fake GPU driver and counts n = 16 on it")
	dir := testutil.FakeCUDA(t, filepath.Join(clitest.Root(t), "gpu", "testdata", "fakecuda.cpp"), "no fake GPU driver to count GPU shards with")
	cmd := exec.Command(os.Args[0], "-test.run", "^TestMixedFleet$", "-test.v", "-test.count", "1")
	cmd.Env = append(os.Environ(), fakeGPUEnv+"="+dir, "LD_LIBRARY_PATH="+dir)
	out, err := cmd.CombinedOutput()
	t.Logf("child:\n%s", out)
	if err != nil || !strings.Contains(string(out), "--- PASS: TestMixedFleet") {
		t.Fatalf("child: %v", err)
	}
}

// mixedFleet runs in the child: shards 0 and 2 of n = 11 on the (fake)
// GPU, 1 and 3 on the CPU, shard 0 on the CPU too; the merge confirms
// shard 0 by its two engines' lines (their nodes differ, their tallies
// agree), and a recount of every piece agrees with every line.
func mixedFleet(t *testing.T) {
	line := func(i string, gpu bool) string {
		args := []string{"backtrack", "-n", "11", "--count", "--shard", i + "/4", "--json"}
		if gpu {
			args = append(args, "--gpu")
		}
		stdout, stderr, code := clitest.Run(t, "", args...)
		if code != 0 {
			t.Fatalf("%v: exit %d, stderr %q", args, code, stderr)
		}
		return stdout
	}
	gpu0, cpu0 := line("0", true), line("0", false)
	if !strings.Contains(gpu0, `"engine":"gpu"`) || !strings.Contains(cpu0, `"engine":"constellations"`) {
		t.Fatalf("engines: GPU line %s, CPU line %s", gpu0, cpu0)
	}
	nodes := regexp.MustCompile(`"nodes":\d+`)
	t.Logf("shard 0 on the GPU %s, on the CPU %s", nodes.FindString(gpu0), nodes.FindString(cpu0))
	in := gpu0 + line("1", false) + line("2", true) + line("3", false) + cpu0
	stdout, stderr, code := clitest.Run(t, in, "merge", "--verify", "100000", "--seed", "5", "-")
	want := "2680 solutions (341 unique)\nmatches the published count for n = 11\nrecounted 453 of 453 pieces drawn at random (--seed 5): all agree\n"
	if code != 0 || !strings.HasPrefix(stdout, want) || !strings.HasSuffix(stdout, "1 of 4 shards repeated by the same engine with the same result (a repeat, not a confirmation)\n") {
		t.Errorf("merge of a mixed fleet: exit %d, stdout %q, stderr %q; want %q ... and shard 0 repeated (the GPU runs the constellations' search: no confirmation)", code, stdout, stderr, want)
	}
}
