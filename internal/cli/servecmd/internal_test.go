package servecmd

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/queens-dev/queens/internal/cli/clitest"
)

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
