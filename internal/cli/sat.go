package cli

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"strings"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/encode"
	"github.com/queens-dev/queens/sat"
	"github.com/urfave/cli/v2"
)

func encodingFlag() cli.Flag {
	return &cli.StringFlag{Name: "encoding", Value: encode.Auto,
		Usage: "at-most-one encoding `E`: " + strings.Join(encode.Encodings(), ", ") + " or auto (pairwise for small n, commander for large)"}
}

func satCommand() *cli.Command {
	return &cli.Command{
		Name:      "sat",
		Usage:     "solve, enumerate or count as SAT: gini in process, or any DIMACS solver",
		UsageText: "queens sat -n N [--all|--count|--limit K] [--place R:C ...] [--encoding E] [--solver CMD] [--timeout D] [--format F] [-o FILE] [--stats]",
		Description: "Encodes the puzzle as CNF and solves it with gini, or with --solver CMD (a DIMACS\n" +
			"solver and its arguments, e.g. 'cadical -q'; minisat, picosat, cryptominisat5, clasp and\n" +
			"kissat work as they are). With gini, --all, --count and --limit split the board into\n" +
			"cubes (every placement of the top rows), solve only the cubes that are not larger than\n" +
			"their mirror image (without --place), and share them among --threads workers, each with\n" +
			"gini instances of its own; within a cube, each solution is excluded by a blocking clause\n" +
			"over its queens before the next solve. The order of the solutions does not depend on\n" +
			"--threads. An external solver gets the whole CNF with a blocking clause per solution.\n" +
			"For one solution on a large board (n >= 50), gini starts from a random greedy placement\n" +
			"of the top seven eighths of the rows (as assumptions, with a fixed seed) and completes it;\n" +
			"if it cannot, it retries with half of them, down to none.\n\n" +
			fmt.Sprintf("Limits: n <= %d for the first solution with pairwise, %d with seq or commander (auto\n"+
				"picks commander above n = 40); n <= %d with --all, --count or --limit; n <= %d with --solver.\n",
				encode.MaxN("pairwise"), encode.MaxN("commander"), satMaxAll, satMaxExternal) +
			"A run stopped by --timeout, or a failing solver, exits with status 1.",
		Flags: []cli.Flag{sizeFlag(), allFlag(), countFlag(), limitFlag(), placeFlag(), encodingFlag(), threadsFlag(),
			&cli.StringFlag{Name: "solver", Usage: "external DIMACS solver `CMD` with its arguments (default: gini, in process)"},
			timeoutFlag(), formatFlag(solutionFormats...), attacksFlag(), outFlag(), statsFlag()},
		Action: runSat,
	}
}

func runSat(c *cli.Context) error {
	if c.Args().Present() {
		return usagef("sat: unexpected argument %q", c.Args().First())
	}
	if err := exclusive(c, "all", "count", "limit"); err != nil {
		return err
	}
	if c.Int("limit") < 0 {
		return usagef("--limit must be at least 0")
	}
	if c.Int("threads") < 1 {
		return usagef("--threads must be at least 1")
	}
	format, err := solutionFormat(c)
	if err != nil {
		return err
	}
	name, err := encode.Resolve(c.String("encoding"), max(c.Int("n"), 1))
	if err != nil {
		return usageErr(err)
	}
	limit := encode.MaxN(name)
	enumerate := c.Bool("all") || c.Bool("count") || c.IsSet("limit")
	if enumerate {
		limit = min(limit, satMaxAll)
	}
	if c.IsSet("solver") {
		limit = min(limit, satMaxExternal)
	}
	n, err := boardSize(c, limit)
	if err != nil {
		return err
	}
	placed, err := placements(c, n)
	if err != nil {
		return err
	}
	if c.IsSet("solver") {
		// Before the encoding, which takes seconds on a large board.
		if err := sat.LookSolver(c.String("solver")); err != nil {
			return usageErr(err)
		}
	}
	// --timeout covers everything from here: encoding and loading a
	// large board take seconds, as long as the solve itself.
	ctx, cancel := timeoutContext(c)
	defer cancel()
	out, err := openSolutions(c, n, placed)
	if err != nil {
		return err
	}
	out.slow = true // each solution a solve, or a solver run
	cnf, err := encodeQueens(ctx, n, name, placed)
	if err != nil {
		out.Abort() // nothing written yet
		return satError(err, c.Duration("timeout"))
	}
	// A progress bar only for --count: a stream of solutions on the same
	// terminal would tear it.
	var bar *progress
	if c.Bool("count") {
		bar = newProgress(c.App.ErrWriter, 0, fmt.Sprintf("sat n=%d", n))
	}
	solver, err := detached(ctx, func() (engine, error) {
		switch {
		case c.IsSet("solver"):
			x, err := sat.NewExternal(cnf, c.String("solver"))
			return sequential{x}, err
		case enumerate:
			return sat.NewParallel(cnf, sat.Options{Threads: c.Int("threads"), Progress: bar.Parts})
		}
		// A fixed seed: the same flags print the same board.
		x, err := sat.NewSeeded(cnf, 1)
		return sequential{x}, err
	})
	if err != nil {
		if errors.Is(err, sat.ErrSolverNotFound) {
			err = usageErr(err)
		} else if ctx.Err() != nil {
			err = fmt.Errorf("interrupted while loading n = %d into the solver: %w", n, err)
		}
		out.Abort() // nothing written yet
		return satError(err, c.Duration("timeout"))
	}
	// gini takes seconds to notice a stop on a large board: the run
	// returns at once and leaves it to the exit (detachedSeq); finished
	// says when its statistics can be read.
	finished := func() bool { return true }
	switch {
	case c.Bool("count"):
		var total uint64
		total, err = solver.Count(ctx)
		bar.Done()
		if err == nil {
			err = checkPublished(n, placed, total, 0)
		}
		if err == nil {
			err = writeCount(out, format, n, total, nil)
		}
	default:
		max := c.Int("limit")
		if !enumerate {
			max = 1
		}
		var found int
		all := solver.All(ctx)
		if !c.IsSet("solver") {
			// Not an external solver: it must be killed and its files
			// removed before the exit, which its stop does.
			all, finished = detachedSeq(ctx, all)
		}
		seq, bar := counted(c, all, n, placed, false, max)
		found, err = writeSolutions(out, format, n, seq, max)
		bar.Done()
		if err == nil {
			err = checkPublished(n, placed, uint64(found), uint64(max))
		}
	}
	if c.Bool("stats") && finished() {
		out.Flush() // the results first, then the statistics about them
		st := solver.Stats()
		writeStats(c.App.ErrWriter, format, stat{"n", n}, stat{"encoding", name}, stat{"vars", st.Vars},
			stat{"clauses", st.Clauses}, stat{"cubes", st.Cubes}, stat{"solves", st.Solves},
			stat{"solutions", st.Solutions}, stat{"seconds", st.Elapsed})
	}
	return out.finish(satError(err, c.Duration("timeout")))
}

// checkPublished checks the number of solutions a solver found for an
// n×n board against the published count (without pre-placed queens,
// n <= 27): all of them, or limit of them (0: no limit). Fewer means a
// solver that answered UNSATISFIABLE wrongly, more one that repeated
// itself: a failed run, exit status 1, rather than a wrong answer.
func checkPublished(n int, placed []board.Queen, found, limit uint64) error {
	known, ok := board.Known(n)
	if !ok || len(placed) > 0 {
		return nil
	}
	want := known.Total
	if limit > 0 {
		want = min(want, limit)
	}
	if found != want {
		return failf("sat: the solver found %d solutions, but n = %d has %d (published counts): a solver bug", found, n, known.Total)
	}
	return nil
}

// engine is what runSat needs of a [sat.Solver] (first solution,
// external solver) or a [sat.Parallel] (gini enumeration).
type engine interface {
	All(ctx context.Context) iter.Seq2[board.Solution, error]
	Count(ctx context.Context) (uint64, error)
	Stats() sat.Stats
}

// sequential is a [sat.Solver] as an engine: one solver, each solution
// blocked once found.
type sequential struct{ *sat.Solver }

func (s sequential) All(ctx context.Context) iter.Seq2[board.Solution, error] {
	return s.Remaining(ctx)
}

// satError maps the errors of a solve to the documented exit statuses.
func satError(err error, timeout interface{ String() string }) error {
	var e *exitError
	switch {
	case err == nil:
		return nil
	case errors.Is(err, context.DeadlineExceeded):
		return failf("sat: no answer within --timeout %s", timeout)
	case errors.Is(err, context.Canceled), errors.As(err, &e):
		return err
	}
	return failf("%v", err)
}
