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
		UsageText: "queens serve [--addr HOST:PORT] [--open]\n\n" +
			"Serves one page (built into the binary; nothing is fetched from elsewhere) and its JSON API\n" +
			"on HOST:PORT, 127.0.0.1:8080 by default (port 0: any free one), until Ctrl-C. Another\n" +
			"address than a loopback one prints a warning: anyone who can reach it can use the server.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "addr", Value: "127.0.0.1:8080", Usage: "listen on `HOST:PORT`"},
			&cli.BoolFlag{Name: "open", Usage: "open the page in the desktop's browser (xdg-open)"},
		},
		Action: func(c *cli.Context) error {
			if c.Args().Present() {
				return usagef("serve: unexpected argument %q", c.Args().First())
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
