package servecmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"

	"github.com/queens-dev/queens/internal/cli/cmdutil"
	"github.com/queens-dev/queens/internal/quote"
	"github.com/queens-dev/queens/internal/serve"
	"github.com/urfave/cli/v2"
)

// Command returns queens serve.
func Command() *cli.Command { return newServeCommand(runServe) }

// newServeCommand returns the serve command; its action reads the flags
// into serveOptions and hands them to run (tests pass their own).
func newServeCommand(run func(ctx context.Context, o serveOptions, stderr io.Writer) error) *cli.Command {
	return &cli.Command{
		Name:  "serve",
		Usage: "the interactive board in a browser: place queens, see the attacks, solve, count, step through the search",
		UsageText: "queens serve [--addr HOST:PORT] [--open]\n" +
			"       queens serve --export DIR\n\n" +
			"Serves one page (built into the binary; nothing is fetched from elsewhere) and its JSON API\n" +
			"on HOST:PORT, 127.0.0.1:8080 by default (port 0: any free one), until Ctrl-C. Another\n" +
			"address than a loopback one prints a warning: anyone who can reach it can use the server.\n\n" +
			"--export DIR writes the page instead as a static site to the new directory DIR, its\n" +
			"engines compiled to WebAssembly (queens.wasm, about 8 MB, 2.3 MB gzipped) and started by\n" +
			"the Go distribution's wasm_exec.js: put DIR on any static web host, and students need\n" +
			"nothing installed. The export compiles with the go command on PATH, in a checkout of\n" +
			"queens (the source is what it compiles); the site then needs neither.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "addr", Value: "127.0.0.1:8080", Usage: "listen on `HOST:PORT`"},
			&cli.BoolFlag{Name: "open", Usage: "open the page in the desktop's browser (xdg-open)"},
			&cli.StringFlag{Name: "export", Usage: "write the page as a static site (engines in WebAssembly) to the new directory `DIR` instead of serving"},
		},
		Action: func(c *cli.Context) error {
			o := serveOptions{args: c.Args().Slice(), addr: c.String("addr"), addrSet: c.IsSet("addr"), open: c.Bool("open"),
				openSet: c.IsSet("open"), export: c.String("export"), exportSet: c.IsSet("export")}
			if err := o.check(); err != nil {
				return err
			}
			return run(c.Context, o, c.App.ErrWriter)
		},
	}
}

// serveOptions are the flags of queens serve.
type serveOptions struct {
	args      []string // none allowed
	addr      string
	addrSet   bool
	open      bool
	openSet   bool
	export    string // --export DIR
	exportSet bool
}

// Check checks the options (usage errors, exit status 2).
func (o serveOptions) check() error {
	if len(o.args) > 0 {
		return cmdutil.Usagef("serve: unexpected argument %q", o.args[0])
	}
	if o.exportSet {
		if o.addrSet || o.openSet {
			return cmdutil.Usagef("serve: --export writes files and serves nothing: not with --addr or --open")
		}
		return checkExportDir(o.export)
	}
	if _, port, err := net.SplitHostPort(o.addr); err != nil || port == "" {
		return cmdutil.Usagef("serve: --addr %s: want HOST:PORT, such as 127.0.0.1:8080", quote.Token(o.addr))
	} else if _, err := net.LookupPort("tcp", port); err != nil {
		return cmdutil.Usagef("serve: --addr %s: the port must be 0 to 65535 (0: any free one) or a service name", quote.Token(o.addr))
	}
	return nil
}

// runServe serves the page until ctx ends, or with --export writes it
// as a static site.
func runServe(ctx context.Context, o serveOptions, stderr io.Writer) error {
	if o.exportSet {
		res, err := serve.Export(ctx, filepath.Clean(o.export))
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("serve --export stopped: %w", err)
		}
		if err != nil {
			return cmdutil.Failf("serve: %v", err)
		}
		fmt.Fprintf(stderr, "queens serve: exported %d files, %.1f MB (queens.wasm %.1f MB) to %s: serve it with any static web server, e.g. python3 -m http.server -d %s\n",
			len(res.Files), float64(res.Bytes)/1e6, float64(res.Wasm)/1e6, o.export, o.export)
		return nil
	}
	if err := serve.Run(ctx, o.addr, o.open, stderr); err != nil {
		return cmdutil.Failf("%v", err)
	}
	if err := ctx.Err(); err != nil {
		// Stopped by SIGINT, SIGTERM or SIGHUP, the only way it
		// ends: exit 130, as for every command a signal stops.
		return fmt.Errorf("serve stopped: %w", err)
	}
	return nil
}

// checkExportDir refuses, as usage errors (exit status 2, as -o's
// refusals), an --export DIR that already exists in any form (a directory,
// ".", a file, a FIFO, a device, a link, a dangling one included) or whose
// parent is not an existing directory, before anything is built. A
// trailing slash names the same directory ("site/" is "site").
func checkExportDir(dir string) error {
	if dir == "" {
		return cmdutil.Usagef("serve: --export: empty value: give a new directory")
	}
	clean := filepath.Clean(dir)
	parent := filepath.Dir(clean)
	if st, err := os.Stat(parent); err != nil || !st.IsDir() {
		return cmdutil.Usagef("serve: --export %s: its parent %s is not an existing directory", quote.Line(dir, 1024), quote.Line(parent, 1024))
	}
	if st, err := os.Lstat(clean); err == nil {
		what := "a directory"
		switch m := st.Mode(); {
		case m&fs.ModeSymlink != 0:
			what = "a link"
		case m.IsRegular():
			what = "a file"
		case m&fs.ModeNamedPipe != 0:
			what = "a FIFO"
		case !m.IsDir():
			what = "a special file"
		}
		return cmdutil.Usagef("serve: --export %s exists (%s): give a new directory", quote.Line(dir, 1024), what)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return cmdutil.Usagef("serve: --export %s: %v", quote.Line(dir, 1024), err)
	}
	return nil
}
