package servecmd_test

import (
	"strings"
	"testing"

	"github.com/queens-dev/queens/internal/cli/clitest"
)

// TestServeExportFlags checks the refusals of serve --export: with --addr
// or --open (usage, exit 2), an empty name, and a directory that exists
// (exit 1, nothing touched). The export itself is tested, in a browser,
// by internal/serve's TestBrowserExport.
func TestServeExportFlags(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"serve", "--export", dir + "/site", "--addr", "127.0.0.1:0"}, 2, "not with --addr or --open"},
		{[]string{"serve", "--export", dir + "/site", "--open"}, 2, "not with --addr or --open"},
		{[]string{"serve", "--export", ""}, 2, "--export: empty value"},
		{[]string{"serve", "--export", dir}, 1, "exists: give a new directory"},
	} {
		_, errs, code := clitest.Run(t, "", tc.args...)
		if code != tc.code || !strings.Contains(errs, tc.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d %q, want %d %q", tc.args, code, errs, tc.code, tc.want)
		}
	}
}

// TestServeAddr: a port that is no port is a usage error (exit 2), told
// before anything listens.
func TestServeAddr(t *testing.T) {
	for _, addr := range []string{"127.0.0.1:-1", "127.0.0.1:65536", "127.0.0.1:99999999999999999999", "127.0.0.1:no-such-service", "127.0.0.1:\x1b[2J"} {
		_, stderr, code := clitest.RunQueens(t, t.TempDir(), "serve", "--addr", addr)
		if code != 2 {
			t.Errorf("--addr %q: exit %d, want 2", addr, code)
		}
		clitest.CheckOneLine(t, stderr, "--addr")
		if strings.Contains(stderr, "\x1b") {
			t.Errorf("--addr %q: the message has the raw ESC", addr)
		}
	}
}
