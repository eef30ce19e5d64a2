// Package cli is the command line of queens: the urfave/cli application,
// one file per command, the output files (output.go), every limit
// (limits.go) and the one error type that carries the exit status
// (errors.go). main.go at the module root only calls [Run]; the commands,
// flags, formats and exit statuses are documented there.
//
// Every command with flags has one shape: newXCommand(run) builds it,
// its action reads the flags once into xOptions (the one place that
// looks them up by name), checks them (xOptions.check: every usage error
// that needs no work) and hands them to run, which does the work without
// a *cli.Context. Tests pass a run of their own to check the flags
// without running the command (runCommand); TestShape keeps every
// function within 60 lines.
package cli

import (
	"context"
	"fmt"
	"github.com/queens-dev/queens/internal/libc"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/queens-dev/queens/internal/quote"
	"github.com/queens-dev/queens/sat/external"
	"github.com/urfave/cli/v2"
)

// signalsCaught is called once run catches SIGINT, SIGTERM, SIGHUP and SIGQUIT; the
// end-to-end tests set it to learn when a signal will be handled.
var signalsCaught = func() {}

// Run runs the command line args (args[0] is the program name) and returns
// the exit status. It is the only place that prints errors. SIGHUP (the
// terminal closed) and SIGQUIT (Ctrl-\) stop a run as SIGINT and SIGTERM
// do: cleaned up, exit status 130, not Go's goroutine dump. A failed write
// to stdout, which a command may not see (help, a table), is a failed
// run: exit status 1.
func Run(args []string, stdout, stderr io.Writer) int {
	libc.Fit() // before the counters start their threads
	// The command line runs external solvers: what one leaves behind is
	// reaped here, not left to init (a library user opts in the same way).
	external.BecomeSubreaper()
	ctx, stop := signal.NotifyContext(context.Background(), stopSignals()...)
	defer stop()
	// The first signal stops the run cleanly (it says how far it got,
	// exit 130); after it the signals are no longer caught, so that a
	// second one ends a run that does not stop at once.
	go func() { <-ctx.Done(); stop() }()
	signalsCaught()
	out := &stdoutWriter{w: stdout}
	app := newApp(out, stderr)
	helpFor := ""
	app.CommandNotFound = func(_ *cli.Context, name string) { helpFor = name }
	err := app.RunContext(ctx, args)
	if err == nil && helpFor != "" {
		err = usagef("no help for %q: no such command (see queens help)", helpFor)
	}
	if err == nil && out.err != nil {
		err = failf("write stdout: %v", unwrapPath(out.err))
	}
	if err == nil {
		return exitOK
	}
	code := exitCode(err)
	msg := strings.TrimSpace(err.Error())
	if ctx.Err() != nil {
		// Interrupted: the commands say how far they got ("interrupted
		// after 1200 solutions"); the cause adds nothing.
		code = exitInterrupted
		msg = strings.TrimSuffix(msg, ": "+context.Canceled.Error())
		if msg == context.Canceled.Error() {
			msg = "interrupted"
		}
	}
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i] // the contract is one line
	}
	// And a short one, with nothing raw in it for the terminal: what a
	// message quotes whole (a flag parser's "invalid value", a long
	// argument) is escaped and cut here.
	msg = quote.Line(msg, maxMessage)
	fmt.Fprintf(stderr, "queens: %s\n", msg)
	return code
}

// maxMessage bounds the bytes of the one line an error prints.
const maxMessage = 400

// stopSignals are the signals that stop a run: SIGTERM, and SIGINT,
// SIGHUP and SIGQUIT unless they are ignored (nohup, a background job of
// a script): catching an ignored signal would undo what the caller asked
// for.
func stopSignals() []os.Signal {
	sigs := []os.Signal{syscall.SIGTERM}
	for _, sig := range []os.Signal{os.Interrupt, syscall.SIGHUP, syscall.SIGQUIT} {
		if !signal.Ignored(sig) {
			sigs = append(sigs, sig)
		}
	}
	return sigs
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
			"--timeout or a failing external solver; 2 a usage or input error; 3 an answer printed\n" +
			"but verified by no referee and no proof (\"queens: unverified: ...\" on stderr, and\n" +
			"\"verified\": false in its JSON); 130 interrupted.",
		Writer:          stdout,
		ErrWriter:       stderr,
		HideVersion:     true,
		ExitErrHandler:  func(*cli.Context, error) {},
		OnUsageError:    onUsageError,
		Commands:        commands(),
		CommandNotFound: func(*cli.Context, string) {}, // Run reports it
		Flags:           []cli.Flag{versionFlag()},
		Action: func(c *cli.Context) error {
			if c.Args().Present() {
				return usagef("unknown command %q (see queens help)", c.Args().First())
			}
			if c.Bool("version") {
				bi, _ := debug.ReadBuildInfo()
				writeVersion(c.App.Writer, version(), bi)
				return nil
			}
			return cli.ShowAppHelp(c)
		},
	}
	for _, cmd := range app.Commands {
		setUsageErrors(cmd)
	}
	return app
}

// commands lists the subcommands; each lives in the file named after it
// (backtrack.go, sat.go, ...).
func commands() []*cli.Command {
	return []*cli.Command{backtrackCommand(), satCommand(), dimacsCommand(), decodeCommand(), traceCommand(), compareCommand(), mergeCommand(), boardCommand(), checkCommand(), serveCommand(), versionCommand()}
}

// setUsageErrors makes flag errors of cmd and its subcommands come back to
// run as usage errors instead of being printed by urfave/cli (subcommands
// do not inherit the App's handler), refuses empty flag values
// (checkEmpty), and reads every integer flag in base 10 (decimalFlag).
func setUsageErrors(cmd *cli.Command) {
	cmd.OnUsageError = onUsageError
	if before := cmd.Before; before != nil {
		cmd.Before = func(c *cli.Context) error {
			if err := checkEmpty(c); err != nil {
				return err
			}
			return before(c)
		}
	} else {
		cmd.Before = checkEmpty
	}
	for i, f := range cmd.Flags {
		cmd.Flags[i] = decimalFlag(f)
	}
	for _, sub := range cmd.Subcommands {
		setUsageErrors(sub)
	}
}

func onUsageError(c *cli.Context, err error, isSubcommand bool) error {
	if bad := badUnique(c.Command); bad != nil {
		// Not the flag parser's "invalid value ... for flag": --unique
		// parses like a boolean, and its own error says what it takes.
		err = bad
	}
	if !isSubcommand {
		// A flag before any command (queens -n 8): say that a command
		// comes first.
		err = fmt.Errorf("%w: a command comes first, e.g. queens backtrack -n 8 (queens help lists them)", err)
	}
	return &exitError{code: exitUsage, err: err}
}

// stdoutWriter is stdout as the commands see it: it keeps the first
// write error, which Run reports even where a command ignores it (help
// text, compare's table), and fails every write after it.
type stdoutWriter struct {
	w   io.Writer
	err error
}

func (s *stdoutWriter) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	n, err := s.w.Write(p)
	if err != nil {
		s.err = err
	}
	return n, err
}

// writeErr returns the first write error of stdout (nil for any other
// writer).
func writeErr(w io.Writer) error {
	if s, ok := w.(*stdoutWriter); ok {
		return s.err
	}
	return nil
}

// file returns the *os.File under w, if there is one (stdout is wrapped
// in a stdoutWriter).
func file(w io.Writer) *os.File {
	if s, ok := w.(*stdoutWriter); ok {
		w = s.w
	}
	f, _ := w.(*os.File)
	return f
}
