package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/board"
	"github.com/urfave/cli/v2"
)

func backtrackCommand() *cli.Command {
	return &cli.Command{
		Name:      "backtrack",
		Usage:     "solve, enumerate or count with the native backtracker",
		UsageText: "queens backtrack -n N [--all | --count | --limit K] [--unique] [--place R:C ...] [--format F] [-o FILE] [--stats]",
		Description: fmt.Sprintf(`Without --all, --count or --limit it prints the first solution as a board.

--strategy chooses the search order. lex fills rows top to bottom and tries columns
left to right (the textbook order; solutions come out sorted). heuristic fills the
row with the fewest free squares first and tries central columns first; it finds a
first solution of a 1000x1000 board in milliseconds. auto (the default) runs lex for
N <= %d and heuristic above. --count always uses the bitboard counter.

--unique lists (with --all or --limit) only the canonical solution of each class of
solutions that differ by a rotation or reflection; with --count it adds the number
of such classes. It cannot be combined with --place.

Limits: a first solution or --limit K: N <= %d (N <= %d with --strategy lex);
--all, --unique: N <= %d; --count: N <= %d.`, backtrack.AutoLexMax, maxFirstN, maxLexFirstN, maxAllN, maxCountN),
		Flags: []cli.Flag{
			sizeFlag(), allFlag(), countFlag(), limitFlag(),
			&cli.BoolFlag{Name: "unique", Usage: "only solutions distinct up to rotation and reflection (see below)"},
			placeFlag(), formatFlag(solutionFormats...), attacksFlag(), outFlag(), statsFlag(), threadsFlag(), timeoutFlag(),
			&cli.StringFlag{Name: "strategy", Value: "auto", Usage: "search order `S`: auto, lex or heuristic (see below)"},
			shardFlag(), shardCountFlag(), shardBaseFlag(), checkpointFlag(), jsonFlag(),
		},
		Action: backtrackAction,
	}
}

func backtrackAction(c *cli.Context) error {
	if c.Args().Present() {
		return usagef("backtrack: unexpected argument %q", c.Args().First())
	}
	if err := exclusive(c, "all", "count", "limit"); err != nil {
		return err
	}
	if err := exclusive(c, "unique", "place"); err != nil {
		return err
	}
	limit := c.Int("limit")
	if limit < 0 {
		return usagef("--limit must be at least 0, not %d", limit)
	}
	strategy, err := backtrack.ParseStrategy(c.String("strategy"))
	if err != nil {
		return usageErr(err)
	}
	format, err := solutionFormat(c)
	if err != nil {
		return err
	}
	maxN, mode := maxFirstN, "a first solution"
	switch {
	case c.Bool("count"):
		maxN, mode = maxCountN, "--count"
	case c.Bool("all") || c.Bool("unique"):
		maxN, mode = maxAllN, "--all and --unique"
	case strategy == backtrack.Lex:
		maxN, mode = maxLexFirstN, "--strategy lex"
	}
	n := c.Int("n")
	if n > maxN && n <= board.MaxN {
		return usagef("-n %d is too large for %s (at most %d)", n, mode, maxN)
	}
	if _, err := boardSize(c, maxN); err != nil {
		return err
	}
	place, err := placements(c, n)
	if err != nil {
		return err
	}
	if c.Int("threads") < 1 {
		return usagef("--threads must be at least 1, not %d", c.Int("threads"))
	}
	ctx, cancel := timeoutContext(c)
	defer cancel()
	out, err := openSolutions(c, n, place)
	if err != nil {
		return err
	}
	if c.Bool("count") {
		return out.finish(countCommand(ctx, c, out.output, format, n, place))
	}
	opt := backtrack.Options{Place: place, Strategy: strategy, Unique: c.Bool("unique")}
	if !c.Bool("all") && !c.IsSet("limit") {
		limit = 1
	}
	var stats backtrack.Stats
	var serr error
	seq := func(yield func(board.Solution, error) bool) {
		stats, serr = backtrack.Search(ctx, n, opt, func(s board.Solution) bool { return yield(s, nil) })
	}
	seq, bar := counted(c, seq, n, place, opt.Unique, limit)
	written, err := writeSolutions(out, format, n, seq, limit)
	bar.Done()
	if err == nil {
		err = timeoutErr(ctx, serr)
	}
	if c.Bool("stats") {
		out.Flush() // the results first, then the statistics about them
		writeStats(c.App.ErrWriter, format, stat{"n", n}, stat{"strategy", strategy.Resolve(n).String()},
			stat{"nodes", stats.Nodes}, stat{"backtracks", stats.Backtracks}, stat{"solutions", stats.Solutions},
			stat{"printed", written}, stat{"seconds", stats.Elapsed})
	}
	return out.finish(err)
}

// backtrackCount runs --count.
func backtrackCount(ctx context.Context, c *cli.Context, out *output, format board.Format, n int, place []board.Queen) error {
	unique := c.Bool("unique")
	bar := newProgress(c.App.ErrWriter, 0, fmt.Sprintf("counting n=%d", n))
	res, err := backtrack.Count(ctx, n, backtrack.CountOptions{Threads: c.Int("threads"), Unique: unique, Place: place, Progress: bar.Parts})
	bar.Done()
	if err != nil {
		return stoppedErr(ctx, fmt.Sprintf("after %d of %d parts (%d solutions in the parts finished, %v)",
			res.Done, res.Parts, res.Total, res.Elapsed.Round(time.Millisecond)), err)
	}
	var u *uint64
	if unique {
		u = &res.Unique
	}
	if err := writeCount(out, format, n, res.Total, u); err != nil || !c.Bool("stats") {
		return err
	}
	out.Flush() // the count first, then the statistics about it
	return writeStats(c.App.ErrWriter, format, stat{"n", n}, stat{"solutions", res.Total}, stat{"nodes", res.Nodes},
		stat{"parts", res.Done}, stat{"threads", c.Int("threads")}, stat{"seconds", res.Elapsed})
}

// stoppedErr says how far a count cut short got (far, e.g. "after 3 of 92
// parts"), in the one line run prints: stopped by --timeout is a failed
// run (exit 1), a signal an interruption (run makes it 130), anything
// else the error itself.
func stoppedErr(ctx context.Context, far string, err error) error {
	switch ctx.Err() {
	case context.DeadlineExceeded:
		return failf("stopped by --timeout %s", far)
	case nil:
		return fmt.Errorf("count stopped %s: %w", far, err)
	}
	return fmt.Errorf("interrupted %s: %w", far, ctx.Err())
}

// timeoutErr turns a search ended by --timeout into a failed run (exit 1);
// other errors pass through (Ctrl-C becomes 130 in run).
func timeoutErr(ctx context.Context, err error) error {
	if err != nil && ctx.Err() == context.DeadlineExceeded {
		return failf("stopped by --timeout: %v", err)
	}
	return err
}
