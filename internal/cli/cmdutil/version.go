package cmdutil

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
)

// Version is the version of queens written into shard results and
// checkpoints, so that results of different builds are not merged
// (versionOf of the binary's build information).
var Version = sync.OnceValue(func() string {
	bi, _ := debug.ReadBuildInfo()
	return versionOf(bi, executableHash)
})

// versionOf names the build bi describes: the module version the go
// command stamps (a tag, or a pseudo-version naming the commit), else
// "devel" with the commit the binary was built from. A build that names
// no code by itself is also named by hash, the start of the SHA-256 of the
// executable, so that two different builds never share a name: one with
// no commit stamped (go run, go test, -buildvcs=false, a build outside a
// repository) is "devel+HASH", and one from a modified checkout (Go's
// "+dirty" pseudo-versions, or vcs.modified) gets "+HASH" after its name.
func versionOf(bi *debug.BuildInfo, hash func() string) string {
	if bi == nil {
		return "devel+" + hash()
	}
	rev, dirty := "", false
	for _, s := range bi.Settings {
		switch {
		case s.Key == "vcs.revision":
			rev = "-" + s.Value[:min(12, len(s.Value))]
		case s.Key == "vcs.modified" && s.Value == "true":
			dirty = true
		}
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		if dirty || strings.HasSuffix(v, "+dirty") {
			// A modified tree: the commit does not name the code.
			return v + "+" + hash()
		}
		return v
	}
	switch {
	case rev != "" && !dirty:
		return "devel" + rev
	case rev != "":
		return "devel" + rev + "-dirty+" + hash()
	}
	return "devel+" + hash()
}

// executableHash returns the first 12 hex digits of the SHA-256 of the
// running executable, or "unknown" if it cannot be read.
func executableHash() string {
	path, err := os.Executable()
	if err != nil {
		return "unknown"
	}
	f, err := os.Open(path)
	if err != nil {
		return "unknown"
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "unknown"
	}
	return hex.EncodeToString(h.Sum(nil))[:12]
}

// WriteVersion writes the version report: name, revision, Go.
func WriteVersion(w io.Writer, name string, bi *debug.BuildInfo) {
	fmt.Fprintf(w, "queens %s\n", name)
	rev, at, modified := "", "", false
	goVersion := runtime.Version()
	if bi != nil {
		goVersion = bi.GoVersion
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.time":
				at = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
	}
	switch {
	case rev == "":
		fmt.Fprintln(w, "revision unknown (not stamped: go run, go test, -buildvcs=false or no repository)")
	default:
		if modified {
			rev += " (modified)"
		}
		if at != "" {
			rev += " " + at
		}
		fmt.Fprintf(w, "revision %s\n", rev)
	}
	fmt.Fprintf(w, "%s %s/%s\n", goVersion, runtime.GOOS, runtime.GOARCH)
}
