package cli

import (
	"bytes"
	"regexp"
	"runtime"
	"testing"

	"github.com/queens-dev/queens/internal/cli/cmdutil"
)

// TestVersionCommand: queens --version and queens version print the same
// three lines: the name merge compares, the revision, the Go version.
func TestVersionCommand(t *testing.T) {
	var outs []string
	for _, args := range [][]string{{"queens", "--version"}, {"queens", "version"}} {
		var stdout, stderr bytes.Buffer
		if code := Run(args, &stdout, &stderr); code != 0 || stderr.Len() > 0 {
			t.Fatalf("%v: exit %d, stderr %q", args, code, stderr.String())
		}
		outs = append(outs, stdout.String())
	}
	if outs[0] != outs[1] {
		t.Errorf("--version and version differ:\n%s\n%s", outs[0], outs[1])
	}
	want := "^queens " + regexp.QuoteMeta(cmdutil.Version()) + "\nrevision .+\n" + regexp.QuoteMeta(runtime.Version()) + " " + runtime.GOOS + "/" + runtime.GOARCH + "\n$"
	if !regexp.MustCompile(want).MatchString(outs[0]) {
		t.Errorf("queens version printed\n%s\nwant it to match %q", outs[0], want)
	}
	var stdout, stderr bytes.Buffer
	if code := Run([]string{"queens", "version", "extra"}, &stdout, &stderr); code != 2 {
		t.Errorf("queens version extra: exit %d, want 2 (%s)", code, stderr.String())
	}
}
