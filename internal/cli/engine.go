package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/queens-dev/queens/backtrack/join"
	"github.com/queens-dev/queens/board"
	"github.com/urfave/cli/v2"
)

// The boards on which --engine auto counts with the half-board join: the
// sizes where it measured faster than the constellation counter on one
// thread (bench/count.sh; n = 15: 0.33 s against 0.18 s, n = 16: 0.57 s
// against 1.0 s, n = 17: 5.1 s against 7.2 s of CPU time). Below, the
// constellation counter's smaller set-up wins; above, the join's tables
// grow past a few GiB.
const joinAutoMin, joinAutoMax = 16, 18

// engineFlag is --engine of backtrack --count.
func engineFlag() cli.Flag {
	return &cli.StringFlag{Name: "engine", Value: "auto",
		Usage: fmt.Sprintf("--count engine `E`: join (half boards met in the middle), constellations (the bitboard counter) or auto: join for %d <= N <= %d without --place, --gpu or shards, else constellations", joinAutoMin, joinAutoMax)}
}

// countEngine resolves --engine for a count: "join" or "constellations".
// The join counts whole boards only, on the CPU, in one process.
func countEngine(c *cli.Context, n int, place []board.Queen, onGPU bool) (string, error) {
	other := ""
	switch {
	case len(place) > 0:
		other = "--place (completions use the constellation counter)"
	case onGPU:
		other = "--gpu"
	case c.IsSet("shard") || c.IsSet("shard-count") || c.IsSet("checkpoint"):
		other = "--shard and --checkpoint"
	case c.IsSet("strategy") || c.String("order") != "rows":
		other = "--strategy and --order"
	}
	switch e := c.String("engine"); e {
	case "constellations":
		return e, nil
	case "join":
		if other != "" {
			return "", usagef("--engine join does not go with %s", other)
		}
		if n > join.MaxN {
			return "", usagef("-n %d is too large for --engine join (at most %d)", n, join.MaxN)
		}
		return e, nil
	case "auto":
		if other == "" && n >= joinAutoMin && n <= joinAutoMax {
			return "join", nil
		}
		return "constellations", nil
	default:
		return "", usagef("unknown --engine %q: want join, constellations or auto", e)
	}
}

// joinCount runs --count with the half-board join.
func joinCount(ctx context.Context, c *cli.Context, out *output, format board.Format, n int) error {
	mode, _, _ := uniqueOf(c)
	bar := newProgress(c.App.ErrWriter, 0, fmt.Sprintf("counting n=%d", n))
	res, err := join.Count(ctx, n, join.Options{Threads: c.Int("threads"), Unique: mode.on, Progress: bar.Parts})
	bar.Done()
	if err != nil {
		return stoppedErr(ctx, fmt.Sprintf("after %d of %d parts (%s in the parts finished, %v)",
			res.Done, res.Parts, plural(int(res.Total), "solution"), res.Elapsed.Round(time.Millisecond)), err)
	}
	if err := writeUniqueCount(out, format, n, res.Total, mode, res.Unique, res.Rotations); err != nil || !c.Bool("stats") {
		return err
	}
	out.Flush() // the count first, then the statistics about it
	return writeStats(c.App.ErrWriter, format, stat{"n", n}, stat{"algorithm", "counter"}, stat{"engine", "join"}, stat{"solutions", res.Total},
		stat{"halves", res.Halves}, stat{"pairs", res.Pairs}, stat{"parts", res.Done}, stat{"threads", c.Int("threads")}, stat{"seconds", res.Elapsed})
}
