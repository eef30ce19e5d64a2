package cmdutil

import (
	"bytes"
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

// TestWriteVersionRevision: a stamped build shows its commit, whether the
// tree was modified, and the commit's time.
func TestWriteVersionRevision(t *testing.T) {
	var b bytes.Buffer
	WriteVersion(&b, "NAME", &debug.BuildInfo{GoVersion: "go1.25.0", Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "abc123"}, {Key: "vcs.time", Value: "2026-12-01T09:00:00Z"}, {Key: "vcs.modified", Value: "true"}}})
	want := "queens NAME\nrevision abc123 (modified) 2026-12-01T09:00:00Z\ngo1.25.0 " + runtime.GOOS + "/" + runtime.GOARCH + "\n"
	if b.String() != want {
		t.Errorf("writeVersion wrote\n%q\nwant\n%q", b.String(), want)
	}
}
