// Package cli is the command line of queens: the urfave/cli application
// (Run, the command list, the signals that stop a run) over a package
// per command, internal/cli/NAMEcmd (backtrackcmd, satcmd, dimacscmd,
// decodecmd, tracecmd, comparecmd, mergecmd, boardcmd, checkcmd,
// servecmd, versioncmd), and one layer they share, cmdutil: the one error
// type that carries the exit status, the flag readers, every limit, the
// input, the output files. main.go at the module root only calls [Run];
// the commands, flags, formats and exit statuses are documented there. A
// command imports cmdutil and the library, never another command
// (TestCommandsApart).
//
// Every command with flags has one shape: newXCommand(run) builds it,
// its action reads the flags once into xOptions (the one place that
// looks them up by name), checks them (xOptions.check: every usage error
// that needs no work) and hands them to run, which does the work without
// a *cli.Context. Tests pass a run of their own to check the flags
// without running the command (clitest.RunCommand); TestShape keeps
// every function under internal/cli within 60 lines.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/queens-dev/queens/internal/cli/backtrackcmd"
	"github.com/queens-dev/queens/internal/cli/boardcmd"
	"github.com/queens-dev/queens/internal/cli/checkcmd"
	"github.com/queens-dev/queens/internal/cli/cmdutil"
	"github.com/queens-dev/queens/internal/cli/comparecmd"
	"github.com/queens-dev/queens/internal/cli/decodecmd"
	"github.com/queens-dev/queens/internal/cli/dimacscmd"
	"github.com/queens-dev/queens/internal/cli/mergecmd"
	"github.com/queens-dev/queens/internal/cli/satcmd"
	"github.com/queens-dev/queens/internal/cli/servecmd"
	"github.com/queens-dev/queens/internal/cli/tracecmd"
	"github.com/queens-dev/queens/internal/cli/versioncmd"
	"github.com/queens-dev/queens/internal/libc"
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
	out := &cmdutil.StdoutWriter{W: stdout}
	app := newApp(out, stderr)
	helpFor := ""
	app.CommandNotFound = func(_ *cli.Context, name string) { helpFor = name }
	err := app.RunContext(ctx, args)
	if err == nil && helpFor != "" {
		err = cmdutil.Usagef("no help for %q: no such command (see queens help)", helpFor)
	}
	if err == nil && out.Err != nil {
		err = cmdutil.Failf("write stdout: %v", cmdutil.UnwrapPath(out.Err))
	}
	if err == nil {
		return cmdutil.ExitOK
	}
	code := cmdutil.ExitCode(err)
	if st := cmdutil.Status(0); errors.As(err, &st) && ctx.Err() == nil {
		return code // the answer is on stdout: no message
	}
	msg := strings.TrimSpace(err.Error())
	if ctx.Err() != nil {
		// Interrupted: the commands say how far they got ("interrupted
		// after 1200 solutions"); the cause adds nothing.
		code = cmdutil.ExitInterrupted
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
	msg = quote.Line(msg, cmdutil.MaxMessage)
	fmt.Fprintf(stderr, "queens: %s\n", msg)
	return code
}

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
			"\"verified\": false in its JSON); 10 and 20 the answers of sat --format competition\n" +
			"(SATISFIABLE, UNSATISFIABLE); 130 interrupted.",
		Writer:          stdout,
		ErrWriter:       stderr,
		HideVersion:     true,
		ExitErrHandler:  func(*cli.Context, error) {},
		OnUsageError:    cmdutil.OnUsageError,
		Commands:        commands(),
		CommandNotFound: func(*cli.Context, string) {}, // Run reports it
		Flags:           []cli.Flag{versionFlag()},
		Action: func(c *cli.Context) error {
			if c.Args().Present() {
				return cmdutil.Usagef("unknown command %q (see queens help)", c.Args().First())
			}
			if c.Bool("version") {
				bi, _ := debug.ReadBuildInfo()
				cmdutil.WriteVersion(c.App.Writer, cmdutil.Version(), bi)
				return nil
			}
			return cli.ShowAppHelp(c)
		},
	}
	for _, cmd := range app.Commands {
		cmdutil.SetUsageErrors(cmd)
	}
	return app
}

// commands lists the subcommands; each lives in the package named after
// it (backtrackcmd, satcmd, ...).
func commands() []*cli.Command {
	return []*cli.Command{backtrackcmd.Command(), satcmd.Command(), dimacscmd.Command(), decodecmd.Command(), tracecmd.Command(), comparecmd.Command(), mergecmd.Command(), boardcmd.Command(), checkcmd.Command(), servecmd.Command(), versioncmd.Command()}
}

// versionFlag is queens --version, which prints what queens version does.
func versionFlag() cli.Flag {
	return &cli.BoolFlag{Name: "version", Usage: "print the version, the VCS revision and the Go version (as queens version)"}
}
