package cli

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/queens-dev/queens/gpu"
	"github.com/queens-dev/queens/internal/cli/clitest"
)

// TestSplitShards counts n = 12 in 3 shards of sub-parts (--split 5), one
// of them resumed from a checkpoint, and merges them with a recount of
// every piece: the published count. --split out of range, without a
// shard or with --gpu is a usage error.
func TestSplitShards(t *testing.T) {
	dir := t.TempDir()
	var lines strings.Builder
	for i, shard := range []string{"0/3", "1/3", "2/3"} {
		args := []string{"backtrack", "-n", "12", "--count", "--shard", shard, "--split", "5", "--json"}
		if i == 1 {
			args = append(args, "--checkpoint", filepath.Join(dir, "1.ckpt"))
		}
		stdout, stderr, code := clitest.Run(t, "", args...)
		if code != 0 || !strings.Contains(stdout, `"scheme":"round-robin-split","split":5,`) {
			t.Fatalf("shard %s: exit %d, %q, %q", shard, code, stdout, stderr)
		}
		lines.WriteString(stdout)
	}
	// The line written, the checkpoint and its lock are spent, and gone.
	for _, f := range []string{"1.ckpt", "1.ckpt.lock"} {
		if _, err := os.Stat(filepath.Join(dir, f)); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s after the shard's line was written: %v; want it removed", f, err)
		}
	}
	stdout, stderr, code := clitest.Run(t, lines.String(), "merge", "--verify", "1000", "-")
	if code != 0 || !strings.HasPrefix(stdout, "14200 solutions") || !strings.Contains(stdout, "recounted") {
		t.Errorf("merge --verify: exit %d, %q, %q", code, stdout, stderr)
	}
	two := strings.Join(strings.SplitAfter(lines.String(), "\n")[:2], "")
	if _, stderr, code := clitest.Run(t, two, "merge", "-"); code == 0 || !strings.Contains(stderr, "QUEENS_N=12 QUEENS_SHARDS=3 QUEENS_SPLIT=5 sbatch --array=2 ") {
		t.Errorf("merge missing shard 2: exit %d, stderr %q; want the resubmission with QUEENS_SPLIT", code, stderr)
	}
	for _, args := range [][]string{
		{"-n", "12", "--count", "--shard", "0/3", "--split", "1"},
		{"-n", "12", "--count", "--shard", "0/3", "--split", "65537"},
		{"-n", "12", "--count", "--shard", "0/3", "--split", "many"},
		{"-n", "12", "--count", "--split", "4"},
		{"-n", "28", "--count", "--shard", "0/1", "--split", "auto"},
	} {
		_, stderr, code := clitest.Run(t, "", append([]string{"backtrack"}, args...)...)
		if code != 2 || !strings.HasPrefix(stderr, "queens: ") || strings.Count(stderr, "\n") != 1 {
			t.Errorf("backtrack %v: exit %d, stderr %q; want a one-line usage error", args, code, stderr)
		}
	}
	defer SetGPU(func() error { return nil }, gpu.Reference)()
	_, stderr, code = clitest.Run(t, "", "backtrack", "-n", "12", "--count", "--shard", "0/3", "--split", "4", "--gpu")
	if code != 2 || !strings.Contains(stderr, "--gpu counts whole constellations") {
		t.Errorf("--split with --gpu: exit %d, stderr %q", code, stderr)
	}
	if stdout, stderr, code := clitest.Run(t, "", "backtrack", "-n", "12", "--count", "--shard", "0/3", "--split", "0", "--gpu", "--json"); code != 0 || !strings.Contains(stdout, `"scheme":"round-robin",`) {
		t.Errorf("--split 0 with --gpu: exit %d, %q, %q", code, stdout, stderr)
	}
}
