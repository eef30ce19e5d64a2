// Queens solves, enumerates and counts N-Queens placements two independent
// ways and checks one against the other: a native backtracker (with a fast
// bitboard counter) and a CNF encoding solved by the gini SAT solver or any
// DIMACS solver.
//
// Usage:
//
//	queens COMMAND [flags]
//
// Commands:
//
//	backtrack  solve, enumerate or count with the native backtracker
//	sat        solve, enumerate or count as SAT (gini, or --solver CMD)
//	dimacs     write the puzzle as a DIMACS CNF (--encoding E)
//	decode     read a SAT solver's output, draw and verify the board
//	trace      the backtracking search step by step: text, boards, JSON
//	           Lines or an animated GIF (--gif FILE)
//	compare    cross-check the engines, external solvers and published counts
//	merge      sum the results of backtrack --count --shard I/K, checked
//
// Run "queens help COMMAND" for a command's flags. Shared flags:
//
//	-n N            board size (each command states its own upper limit)
//	--place R:C     a pre-placed queen, 1-based row (from the top) and
//	                column (from the left); repeatable
//	--all           every solution, as a stream
//	--count         the number of solutions only
//	--limit K       at most K solutions
//	--unique        only solutions distinct up to rotation and reflection
//	                (with --count: also the number of those classes)
//	--format F      board, matrix, coords, perm, json, svg, png or fen
//	--attacks       with svg or png, shade the squares the queens attack
//	-o FILE         write the result to FILE (written to a temporary name
//	                and renamed, so an interrupted run leaves no half file)
//	--stats         statistics on stderr, after the results (one JSON
//	                object with --format json)
//	--threads T     worker threads (default: all cores)
//	--timeout D     give up after D (a Go duration), exit status 1
//
// Counting across machines (backtrack --count):
//
//	--shard I/K     count shard I of K (0-based; --shard-base 1 for 1-based);
//	                the index may also come from JOB_COMPLETION_INDEX or
//	                SLURM_ARRAY_TASK_ID, K from --shard-count or
//	                SLURM_ARRAY_TASK_COUNT; prints one JSON line for merge
//	--checkpoint F  record finished pieces in F; the same command again
//	                continues where an interrupted run stopped
//
// Output formats (results on stdout, everything else on stderr):
//
//	board    the board drawn with Q and ., rows and columns labelled from 1
//	matrix   the 0/1 matrix, one row per line
//	coords   1-based ROW:COL of each queen on one line: 1:2 2:4 3:1 4:3
//	perm     1-based column of the queen in each row:   2 4 1 3
//	json     JSON Lines, 0-based: {"n":4,"queens":[1,3,0,2]}
//	fen      n = 8 only: a chess FEN, white queens, one line per solution:
//	         Q7/4Q3/7Q/5Q2/2Q5/6Q1/1Q6/3Q4 w - - 0 1
//	svg      a picture of the board (checkerboard, labels, queens; pre-placed
//	png      queens in blue; --attacks shades attacked squares), n <= 256.
//	         One solution per picture: to stdout or -o FILE with --limit 1
//	         (or without --all), or -o DIR/ for one file per solution,
//	         DIR/queens-N-0001.svg, ... (at most 10000 files). A PNG is not
//	         written to a terminal.
//
// Block formats (board, matrix) separate solutions with a blank line. A
// count prints "T solutions", or "T solutions (U unique)" with --unique;
// in JSON, {"n":8,"total":92,"unique":12}. No solution (n = 2 or 3, or
// pre-placed queens that cannot be completed) is an answer: "no solution",
// exit status 0.
//
// Exit status: 0 success (including "no solution"); 1 a failed check, a
// run stopped by --timeout or a failing external solver; 2 a usage or input
// error (bad flag, bad file, n out of range, a --solver that is not
// installed); 130 interrupted (Ctrl-C or SIGTERM: the run says how far it
// got and leaves no file). When stdout is closed early (queens ... | head),
// the process ends silently by SIGPIPE (141 in a shell).
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/urfave/cli/v2"
)

func main() { os.Exit(run(os.Args, os.Stdout, os.Stderr)) }

// signalsCaught is called once run catches SIGINT and SIGTERM; the
// end-to-end tests set it to learn when a signal will be handled.
var signalsCaught = func() {}

// run runs the command line args (args[0] is the program name) and returns
// the exit status. It is the only place that prints errors.
func run(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	signalsCaught()
	err := newApp(stdout, stderr).RunContext(ctx, args)
	if err == nil {
		return 0
	}
	code := exitCode(err)
	msg := strings.TrimSpace(err.Error())
	if ctx.Err() != nil {
		// Interrupted: the commands say how far they got ("interrupted
		// after 1200 solutions"); the cause adds nothing.
		code = 130
		msg = strings.TrimSuffix(msg, ": "+context.Canceled.Error())
		if msg == context.Canceled.Error() {
			msg = "interrupted"
		}
	}
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i] // the contract is one line
	}
	fmt.Fprintf(stderr, "queens: %s\n", msg)
	return code
}

// newApp builds the command-line application writing to stdout and stderr.
func newApp(stdout, stderr io.Writer) *cli.App {
	app := &cli.App{
		Name:      "queens",
		Usage:     "solve, enumerate and count N-Queens placements, natively and as SAT",
		UsageText: "queens COMMAND [flags]   (queens help COMMAND for its flags)",
		Description: "queens solves the N-Queens puzzle two independent ways, a native backtracker and a CNF\n" +
			"encoding solved with the gini SAT solver (or any DIMACS solver), and checks one against\n" +
			"the other and against the published counts (OEIS A000170, A002562).\n\n" +
			"Exit status: 0 success (including \"no solution\"); 1 a failed check, a run stopped by\n" +
			"--timeout or a failing external solver; 2 a usage or input error; 130 interrupted.",
		Writer:          stdout,
		ErrWriter:       stderr,
		HideVersion:     true,
		ExitErrHandler:  func(*cli.Context, error) {},
		OnUsageError:    onUsageError,
		Commands:        commands(),
		CommandNotFound: func(c *cli.Context, name string) {},
		Action: func(c *cli.Context) error {
			if c.Args().Present() {
				return usagef("unknown command %q (see queens help)", c.Args().First())
			}
			return cli.ShowAppHelp(c)
		},
	}
	for _, cmd := range app.Commands {
		setUsageErrors(cmd)
	}
	return app
}

// commands lists the subcommands; each lives in its own cmd_*.go file.
func commands() []*cli.Command {
	return []*cli.Command{backtrackCommand(), satCommand(), dimacsCommand(), decodeCommand(), traceCommand(), compareCommand(), mergeCommand()}
}

// setUsageErrors makes flag errors of cmd and its subcommands come back to
// run as usage errors instead of being printed by urfave/cli (subcommands
// do not inherit the App's handler).
func setUsageErrors(cmd *cli.Command) {
	cmd.OnUsageError = onUsageError
	for _, sub := range cmd.Subcommands {
		setUsageErrors(sub)
	}
}

func onUsageError(c *cli.Context, err error, isSubcommand bool) error {
	return &exitError{code: 2, err: err}
}

// exitError carries an exit status to run.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// usagef returns a usage or input error: exit status 2.
func usagef(format string, args ...any) error {
	return &exitError{code: 2, err: fmt.Errorf(format, args...)}
}

// usageErr marks err as a usage or input error: exit status 2.
func usageErr(err error) error {
	if err == nil {
		return nil
	}
	return &exitError{code: 2, err: err}
}

// failf returns a failed check or run: exit status 1.
func failf(format string, args ...any) error {
	return &exitError{code: 1, err: fmt.Errorf(format, args...)}
}

// exitCode maps an error to the documented exit status.
func exitCode(err error) int {
	var e *exitError
	if errors.As(err, &e) {
		return e.code
	}
	if errors.Is(err, context.Canceled) {
		return 130
	}
	if isInputError(err) {
		return 2
	}
	// urfave/cli's own complaints (missing required flag, bad value) are
	// usage errors too; they come back as plain errors.
	if msg := err.Error(); strings.HasPrefix(msg, "Required flag") || strings.HasPrefix(msg, "invalid value") ||
		strings.HasPrefix(msg, "flag provided but not defined") {
		return 2
	}
	return 1
}
