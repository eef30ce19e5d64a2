package cli

import (
	"fmt"
	"net"

	"github.com/queens-dev/queens/internal/quote"
	"github.com/queens-dev/queens/internal/serve"
	"github.com/urfave/cli/v2"
)

func serveCommand() *cli.Command {
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
			if c.Args().Present() {
				return usagef("serve: unexpected argument %q", c.Args().First())
			}
			if c.IsSet("export") {
				if c.IsSet("addr") || c.IsSet("open") {
					return usagef("serve: --export writes files and serves nothing: not with --addr or --open")
				}
				res, err := serve.Export(c.Context, c.String("export"))
				if err := c.Context.Err(); err != nil {
					return fmt.Errorf("serve --export stopped: %w", err)
				}
				if err != nil {
					return failf("serve: %v", err)
				}
				fmt.Fprintf(c.App.ErrWriter, "queens serve: exported %d files, %.1f MB (queens.wasm %.1f MB) to %s: serve it with any static web server, e.g. python3 -m http.server -d %s\n",
					len(res.Files), float64(res.Bytes)/1e6, float64(res.Wasm)/1e6, c.String("export"), c.String("export"))
				return nil
			}
			if _, port, err := net.SplitHostPort(c.String("addr")); err != nil || port == "" {
				return usagef("serve: --addr %s: want HOST:PORT, such as 127.0.0.1:8080", quote.Token(c.String("addr")))
			} else if _, err := net.LookupPort("tcp", port); err != nil {
				return usagef("serve: --addr %s: the port must be 0 to 65535 (0: any free one) or a service name", quote.Token(c.String("addr")))
			}
			if err := serve.Run(c.Context, c.String("addr"), c.Bool("open"), c.App.ErrWriter); err != nil {
				return failf("%v", err)
			}
			if err := c.Context.Err(); err != nil {
				// Stopped by SIGINT, SIGTERM or SIGHUP, the only way it
				// ends: exit 130, as for every command a signal stops.
				return fmt.Errorf("serve stopped: %w", err)
			}
			return nil
		},
	}
}
