package cli

import (
	"runtime/debug"

	"github.com/queens-dev/queens/internal/cli/cmdutil"
	"github.com/urfave/cli/v2"
)

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
				return cmdutil.Usagef("version: unexpected argument %q", c.Args().First())
			}
			bi, _ := debug.ReadBuildInfo()
			cmdutil.WriteVersion(c.App.Writer, cmdutil.Version(), bi)
			return nil
		},
	}
}
