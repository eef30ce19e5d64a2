package cli

import (
	"context"

	"github.com/queens-dev/queens/board"
	"github.com/urfave/cli/v2"
)

// The flags several commands share. Each command takes the ones it needs,
// so that names, usage texts and defaults stay the same everywhere. They are
// functions because urfave/cli flags keep state between runs.
func sizeFlag() cli.Flag {
	// Not Required: urfave/cli prints the help on stdout for a missing
	// required flag; boardSize reports it as a usage error instead.
	return &cli.IntFlag{Name: "n", Usage: "board size `N` (N x N board, N queens; required)"}
}
func placeFlag() cli.Flag {
	return &cli.StringSliceFlag{Name: "place", Usage: "pre-place a queen at `R:C` (1-based row from the top, column from the left); repeatable"}
}
func allFlag() cli.Flag { return &cli.BoolFlag{Name: "all", Usage: "print every solution (a stream)"} }
func countFlag() cli.Flag {
	return &cli.BoolFlag{Name: "count", Usage: "print only the number of solutions"}
}
func limitFlag() cli.Flag {
	return &cli.IntFlag{Name: "limit", Usage: "print at most `K` solutions (0: no limit)"}
}
func outFlag() cli.Flag {
	return &cli.StringFlag{Name: "output", Aliases: []string{"o"}, Value: "-", Usage: "write results to `FILE` (- for stdout); written to a temporary name, then renamed"}
}
func statsFlag() cli.Flag {
	return &cli.BoolFlag{Name: "stats", Usage: "print statistics (nodes, time, ...) on stderr"}
}
func threadsFlag() cli.Flag {
	return &cli.IntFlag{Name: "threads", Value: availableCPUs(), DefaultText: "the CPUs this process may use (affinity, cgroup quota)", Usage: "worker threads `T`"}
}
func timeoutFlag() cli.Flag {
	return &cli.DurationFlag{Name: "timeout", Usage: "give up after `D` (a Go duration such as 30s or 2m; 0: never), exit status 1"}
}

// formatFlag returns a --format flag listing the formats a command accepts.
func formatFlag(names ...string) *cli.StringFlag {
	usage := "output format `F`: "
	for i, n := range names {
		if i > 0 {
			usage += ", "
		}
		usage += n
	}
	return &cli.StringFlag{Name: "format", Value: names[0], Usage: usage}
}

// boardSize reads -n, which must be given, and checks it against the
// command's limit.
func boardSize(c *cli.Context, max int) (int, error) {
	if !c.IsSet("n") {
		return 0, usagef("missing -n N, the board size")
	}
	return c.Int("n"), usageErr(board.CheckSize(c.Int("n"), max))
}

// placements reads the --place flags and checks them against an n×n board.
func placements(c *cli.Context, n int) ([]board.Queen, error) {
	qs, err := board.ParseQueens(c.StringSlice("place"))
	if err == nil {
		err = board.CheckPlacement(n, qs)
	}
	return qs, usageErr(err)
}

// timeoutContext returns the command's context, ending at the --timeout
// deadline if one is set; call cancel when the command is done.
func timeoutContext(c *cli.Context) (ctx context.Context, cancel context.CancelFunc) {
	if d := c.Duration("timeout"); d > 0 {
		return context.WithTimeout(c.Context, d)
	}
	return context.WithCancel(c.Context)
}

// exclusive returns a usage error if more than one of the named flags is set.
func exclusive(c *cli.Context, names ...string) error {
	set := ""
	for _, name := range names {
		if c.IsSet(name) {
			if set != "" {
				return usagef("--%s and --%s cannot be used together", set, name)
			}
			set = name
		}
	}
	return nil
}
