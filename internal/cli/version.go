package cli

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/urfave/cli/v2"
)

// versionFlag is queens --version, which prints what queens version does.
func versionFlag() cli.Flag {
	return &cli.BoolFlag{Name: "version", Usage: "print the version, the VCS revision and the Go version (as queens version)"}
}

func versionCommand() *cli.Command {
	return &cli.Command{
		Name:      "version",
		Usage:     "print the version, the VCS revision and the Go version",
		UsageText: "queens version   (or queens --version)",
		Description: "Prints the version queens writes into shard results and checkpoints (merge refuses to\n" +
			"mix versions): the module version the go command stamped, or devel and the commit; a build\n" +
			"from a modified checkout, or one with no commit stamped (go run, -buildvcs=false), is also\n" +
			"named by the start of the SHA-256 of the executable. Then the VCS revision and time, and\n" +
			"the Go version and platform the binary was built with, as go version -m reports them.",
		Action: func(c *cli.Context) error {
			if c.Args().Present() {
				return usagef("version: unexpected argument %q", c.Args().First())
			}
			bi, _ := debug.ReadBuildInfo()
			writeVersion(c.App.Writer, version(), bi)
			return nil
		},
	}
}

// writeVersion writes the version report: name, revision, Go.
func writeVersion(w io.Writer, name string, bi *debug.BuildInfo) {
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
