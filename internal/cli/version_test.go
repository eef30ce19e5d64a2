package cli

import (
	"bytes"
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

// TestVersionOf: a clean build is named by its version or commit alone;
// every build that does not name its code (a modified checkout, Go's
// "+dirty" pseudo-versions, no commit stamped) is also named by the hash
// of its executable, so two such builds with different code differ.
func TestVersionOf(t *testing.T) {
	rev := debug.BuildSetting{Key: "vcs.revision", Value: "13c8689abcdef0123456789abcdef0123456789a"}
	mod := debug.BuildSetting{Key: "vcs.modified", Value: "true"}
	clean := debug.BuildSetting{Key: "vcs.modified", Value: "false"}
	tests := []struct {
		name string
		bi   *debug.BuildInfo
		want string
	}{
		{"tag", &debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}, Settings: []debug.BuildSetting{rev, clean}}, "v1.2.3"},
		{"pseudo-version", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261201092733-13c8689abcde"}, Settings: []debug.BuildSetting{rev, clean}},
			"v0.0.0-20261201092733-13c8689abcde"},
		{"dirty pseudo-version", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261201092733-13c8689abcde+dirty"}, Settings: []debug.BuildSetting{rev, mod}},
			"v0.0.0-20261201092733-13c8689abcde+dirty+HASH"},
		{"commit", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{rev, clean}}, "devel-13c8689abcde"},
		{"modified commit", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{rev, mod}}, "devel-13c8689abcde-dirty+HASH"},
		{"not stamped", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "devel+HASH"},
		{"no build info", nil, "devel+HASH"},
	}
	for _, tt := range tests {
		if got := versionOf(tt.bi, func() string { return "HASH" }); got != tt.want {
			t.Errorf("%s: versionOf = %q, want %q", tt.name, got, tt.want)
		}
		a := versionOf(tt.bi, func() string { return "aaaa" })
		b := versionOf(tt.bi, func() string { return "bbbb" })
		if named := strings.Contains(tt.want, "HASH"); named == (a == b) {
			t.Errorf("%s: builds with different executables are named %q and %q", tt.name, a, b)
		}
	}
}

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
	want := "^queens " + regexp.QuoteMeta(version()) + "\nrevision .+\n" + regexp.QuoteMeta(runtime.Version()) + " " + runtime.GOOS + "/" + runtime.GOARCH + "\n$"
	if !regexp.MustCompile(want).MatchString(outs[0]) {
		t.Errorf("queens version printed\n%s\nwant it to match %q", outs[0], want)
	}
	var stdout, stderr bytes.Buffer
	if code := Run([]string{"queens", "version", "extra"}, &stdout, &stderr); code != 2 {
		t.Errorf("queens version extra: exit %d, want 2 (%s)", code, stderr.String())
	}
}

// TestWriteVersionRevision: a stamped build shows its commit, whether the
// tree was modified, and the commit's time.
func TestWriteVersionRevision(t *testing.T) {
	var b bytes.Buffer
	writeVersion(&b, "NAME", &debug.BuildInfo{GoVersion: "go1.25.0", Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "abc123"}, {Key: "vcs.time", Value: "2026-12-01T09:00:00Z"}, {Key: "vcs.modified", Value: "true"}}})
	want := "queens NAME\nrevision abc123 (modified) 2026-12-01T09:00:00Z\ngo1.25.0 " + runtime.GOOS + "/" + runtime.GOARCH + "\n"
	if b.String() != want {
		t.Errorf("writeVersion wrote\n%q\nwant\n%q", b.String(), want)
	}
}
