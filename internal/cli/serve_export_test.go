package cli

import (
	"context"
	"io"
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

// TestServeFlags checks how serve reads and checks its flags, without
// serving.
func TestServeFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		addr string
		err  string
	}{
		{nil, "127.0.0.1:8080", ""},
		{[]string{"--addr", "localhost:0", "--open"}, "localhost:0", ""},
		{[]string{"--addr", "[::1]:http"}, "[::1]:http", ""},
		{[]string{"--export", "site"}, "127.0.0.1:8080", ""},
		{[]string{"x"}, "", `unexpected argument "x"`},
		{[]string{"--addr", "8080"}, "", "want HOST:PORT"},
		{[]string{"--addr", "127.0.0.1:"}, "", "want HOST:PORT"},
		{[]string{"--addr", "127.0.0.1:70000"}, "", "the port must be 0 to 65535"},
		{[]string{"--export", "site", "--open"}, "", "not with --addr or --open"},
	} {
		var got *serveOptions
		err := clitest.RunCommand(t, newServeCommand(func(_ context.Context, o serveOptions, _ io.Writer) error {
			got = &o
			return nil
		}), tc.args...)
		what := strings.Join(tc.args, " ")
		if tc.err != "" {
			clitest.Refused(t, "serve", tc.args, err, got != nil, tc.err)
			continue
		}
		if err != nil || got == nil || got.addr != tc.addr {
			t.Errorf("serve %s: %+v, %v; want addr %q", what, got, err, tc.addr)
		}
	}
}
