package mergecmd_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/queens-dev/queens/internal/cli/clitest"
)

// TestMergeCompressed merges shard lines from compressed files (by magic
// bytes: one named .jsonl) and from compressed stdin.
func TestMergeCompressed(t *testing.T) {
	dir := t.TempDir()
	lines := clitest.ShardLines(t, 8, 4)
	want := "92 solutions (12 unique)\nmatches the published count for n = 8\n"
	for _, kind := range []string{"gz", "xz"} {
		a := filepath.Join(dir, "a-"+kind+".jsonl")
		b := filepath.Join(dir, "b."+kind)
		os.WriteFile(a, clitest.Compressed(t, kind, []byte(strings.Join(lines[:2], ""))), 0o644)
		os.WriteFile(b, clitest.Compressed(t, kind, []byte(strings.Join(lines[2:], ""))), 0o644)
		if stdout, stderr, code := clitest.Run(t, "", "merge", a, b); code != 0 || stdout != want {
			t.Errorf("merge %s files: exit %d, %q %q", kind, code, stdout, stderr)
		}
		in := string(clitest.Compressed(t, kind, []byte(strings.Join(lines, ""))))
		if stdout, stderr, code := clitest.Run(t, in, "merge", "-"); code != 0 || stdout != want {
			t.Errorf("merge %s stdin: exit %d, %q %q", kind, code, stdout, stderr)
		}
	}
	// A corrupt gzip stream is an input error, not a crash.
	bad := clitest.Compressed(t, "gz", []byte(strings.Join(lines, "")))
	bad[len(bad)-5] ^= 0xff // the CRC/size trailer
	p := filepath.Join(dir, "bad.gz")
	os.WriteFile(p, bad, 0o644)
	if _, stderr, code := clitest.Run(t, "", "merge", p); code == 0 || !strings.Contains(stderr, "queens:") {
		t.Errorf("merge corrupt gzip: exit %d, %q", code, stderr)
	}
}
