package mergecmd_test

import (
	"fmt"
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

// TestMergeDirMixed merges a directory whose files are compressed each
// its own way or not at all, one shard a file: every file is read through
// the same buffers, reset to it, so none may see another's bytes.
func TestMergeDirMixed(t *testing.T) {
	dir := t.TempDir()
	lines := clitest.ShardLines(t, 8, 4)
	for i, kind := range []string{"gz", "", "xz", "zst"} {
		b := []byte(lines[i])
		if kind != "" {
			b = clitest.Compressed(t, kind, b)
		}
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("%d.jsonl", i)), b, 0o644)
	}
	want := "92 solutions (12 unique)\nmatches the published count for n = 8\n"
	if stdout, stderr, code := clitest.Run(t, "", "merge", dir); code != 0 || stdout != want {
		t.Errorf("merge of mixed files: exit %d, %q %q", code, stdout, stderr)
	}
}
