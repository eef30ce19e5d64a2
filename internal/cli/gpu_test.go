package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/queens-dev/queens/gpu"
	"github.com/queens-dev/queens/internal/cli/clitest"
)

// TestGPUFlag runs backtrack --count --gpu through the GPU path with the
// CPU twin of the kernel (gpu.Reference) standing in for the device: the
// counts, plain and sharded, must be the published ones; without a device
// --gpu is a usage error and --gpu=auto counts on the CPU.
func TestGPUFlag(t *testing.T) {
	defer SetGPU(func() error { return gpu.ErrNoDevice }, gpu.Count)()
	if stdout, stderr, code := clitest.Run(t, "", "backtrack", "-n", "8", "--count", "--gpu"); code != 2 || stdout != "" || !strings.Contains(stderr, "--gpu: no CUDA device") {
		t.Errorf("--gpu without a device: exit %d, stdout %q, stderr %q; want 2", code, stdout, stderr)
	}
	if stdout, _, code := clitest.Run(t, "", "backtrack", "-n", "8", "--count", "--gpu=auto"); code != 0 || stdout != "92 solutions\n" {
		t.Errorf("--gpu=auto without a device: exit %d, stdout %q", code, stdout)
	}

	SetGPU(func() error { return nil }, gpu.Reference)
	if stdout, stderr, code := clitest.Run(t, "", "backtrack", "-n", "10", "--count", "--unique", "--gpu"); code != 0 || stdout != "724 solutions (92 unique)\n" {
		t.Errorf("--gpu (reference): exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	var designs []gpu.Design
	SetGPU(func() error { return nil }, func(ctx context.Context, n int, opt gpu.Options) (gpu.Result, error) {
		designs = append(designs, opt.Design)
		return gpu.Reference(ctx, n, opt)
	})
	// A mixed count: one shard on the CPU, one with each GPU kernel.
	var lines []string
	for _, shard := range [][]string{{"0/3"}, {"1/3", "--gpu"}, {"2/3", "--gpu", "--gpu-kernel", "loop"}} {
		stdout, stderr, code := clitest.Run(t, "", append([]string{"backtrack", "-n", "11", "--count", "--json", "--shard"}, shard...)...)
		if code != 0 {
			t.Fatalf("--shard %s: exit %d, stderr %q", shard, code, stderr)
		}
		lines = append(lines, stdout)
	}
	if len(designs) != 2 || designs[0] != gpu.DesignTask || designs[1] != gpu.DesignLoop {
		t.Errorf("the GPU shards ran designs %v, want [task loop]", designs)
	}
	if stdout, stderr, code := clitest.Run(t, strings.Join(lines, ""), "merge", "-"); code != 0 || !strings.HasPrefix(stdout, "2680 solutions (341 unique)\nmatches") {
		t.Errorf("merge of CPU and GPU shards: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	for _, args := range [][]string{
		{"backtrack", "-n", "8", "--gpu"},
		{"backtrack", "-n", "8", "--count", "--gpu", "--place", "1:1"},
		{"backtrack", "-n", "8", "--count", "--gpu", "--strategy", "lex"},
		{"backtrack", "-n", "8", "--count", "--gpu=maybe"},
		{"backtrack", "-n", "8", "--count", "--gpu", "--gpu-kernel", "warp"},
		{"backtrack", "-n", "8", "--count", "--gpu-kernel", "loop"},
	} {
		if _, stderr, code := clitest.Run(t, "", args...); code != 2 {
			t.Errorf("%v: exit %d, stderr %q; want 2", args, code, stderr)
		}
	}
}
