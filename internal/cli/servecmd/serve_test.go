package servecmd_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/queens-dev/queens/internal/cli/clitest"
)

// TestServeExportFlags checks the refusals of serve --export, each a
// usage error (exit 2, one line, as -o's), told before anything is built
// and nothing touched: with --addr or --open, an empty name, a directory
// that exists (".", with a trailing slash too), a file, a FIFO, a link and
// a dangling one, a missing parent or a parent that is a file (issue 42
// item 8: these exited 1, and "site/" failed on a stat). The export
// itself is tested, in a browser, by internal/serve's TestBrowserExport.
func TestServeExportFlags(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	os.WriteFile(file, []byte("x"), 0o644)
	fifo := filepath.Join(dir, "fifo")
	if err := clitest.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	link, dangling := filepath.Join(dir, "link"), filepath.Join(dir, "dangling")
	os.Symlink(dir, link)
	os.Symlink(filepath.Join(dir, "nothing"), dangling)
	t.Chdir(dir)
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"serve", "--export", dir + "/site", "--addr", "127.0.0.1:0"}, 2, "not with --addr or --open"},
		{[]string{"serve", "--export", dir + "/site", "--open"}, 2, "not with --addr or --open"},
		{[]string{"serve", "--export", ""}, 2, "--export: empty value"},
		{[]string{"serve", "--export", dir}, 2, "exists (a directory): give a new directory"},
		{[]string{"serve", "--export", dir + "/"}, 2, "exists (a directory)"},
		{[]string{"serve", "--export", "."}, 2, "exists (a directory)"},
		{[]string{"serve", "--export", file}, 2, "exists (a file)"},
		{[]string{"serve", "--export", fifo}, 2, "exists (a FIFO)"},
		{[]string{"serve", "--export", link}, 2, "exists (a link)"},
		{[]string{"serve", "--export", dangling}, 2, "exists (a link)"},
		{[]string{"serve", "--export", dir + "/no/site"}, 2, "is not an existing directory"},
		{[]string{"serve", "--export", file + "/site"}, 2, "is not an existing directory"},
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
