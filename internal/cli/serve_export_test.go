package cli

import (
	"strings"
	"testing"
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
		_, errs, code := runCLI(t, "", tc.args...)
		if code != tc.code || !strings.Contains(errs, tc.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d %q, want %d %q", tc.args, code, errs, tc.code, tc.want)
		}
	}
}
