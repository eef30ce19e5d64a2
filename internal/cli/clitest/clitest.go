// Package clitest holds what the tests of the command line share: running
// the whole application in-process ([Run]) or as a process of its own
// (the test binary standing in for queens, [Main] and [Cmd]), running one
// command's flag checks ([RunCommand]), and the checks of the stderr
// contract. Only tests import it. It imports the shared layer, cmdutil,
// and no command nor the application: a test binary hands [Main] the
// application's Run, so that the tests inside a command's package (which
// the application imports) can use clitest too.
package clitest

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/internal/cli/cmdutil"
	"github.com/urfave/cli/v2"
)

// run is the application's Run, as the test binary's TestMain handed it
// to Main.
var run func(args []string, stdout, stderr io.Writer) int

// Main is the body of a test binary's TestMain. It lets the binary
// stand in for the queens command (as stringer's end-to-end test does):
// with QUEENS_TEST_AS_MAIN=1 it runs the application, runApp, instead of
// the tests. caught, if not nil, is the application's hook called once
// it handles signals: with QUEENS_TEST_READY set, it creates that file
// (see [StartReady]).
func Main(m *testing.M, runApp func(args []string, stdout, stderr io.Writer) int, caught *func()) {
	run = runApp
	if os.Getenv("QUEENS_TEST_AS_MAIN") == "1" {
		if ready := os.Getenv("QUEENS_TEST_READY"); ready != "" && caught != nil {
			// Tell TestInterrupt when signals are handled: a signal
			// before that would kill the process (a slow start, under
			// -race or on a loaded machine).
			*caught = func() { os.WriteFile(ready, nil, 0o644) }
		}
		os.Exit(runApp(os.Args, os.Stdout, os.Stderr))
	}
	// Under -race this binary, run as queens by the end-to-end tests,
	// would sleep a second at each exit (the race detector's default
	// atexit_sleep_ms) and a README line that starts 64 of them would
	// take over a minute. A race is still reported (exit status 66).
	if _, set := os.LookupEnv("GORACE"); !set {
		os.Setenv("GORACE", "atexit_sleep_ms=0")
	}
	os.Exit(m.Run())
}

// Run runs the app in-process, as the command line would, with stdin
// set to in (if not empty).
func Run(t *testing.T, in string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	if run == nil {
		t.Fatal("clitest.Run: no application (the test binary's TestMain calls clitest.Main)")
	}
	if in != "" {
		old := os.Stdin
		f, err := os.CreateTemp(t.TempDir(), "stdin")
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(in)
		f.Seek(0, 0)
		os.Stdin = f
		defer func() { os.Stdin = old; f.Close() }()
	}
	var out, errb bytes.Buffer
	code = run(append([]string{"queens"}, args...), &out, &errb)
	return out.String(), errb.String(), code
}

// WithPlace appends --place p to args for each p of place, and returns
// the longer args and the queens place names (as the flag reads them).
func WithPlace(args, place []string) ([]string, []board.Queen) {
	var placed []board.Queen
	for _, p := range place {
		args = append(args, "--place", p)
		q, _ := board.ParseQueen(p)
		placed = append(placed, q)
	}
	return args, placed
}

// SkipShort skips a test that takes more than a few seconds (what in
// why) under go test -short, the quick loop.
func SkipShort(t *testing.T, why string) {
	t.Helper()
	if testing.Short() {
		t.Skipf("-short: this test is slow (%s)", why)
	}
}

// Refused reports unless err is a usage error (exit status 2) that says
// want and the command did not run (ran false): a case of flags that
// check must refuse.
func Refused(t *testing.T, cmd string, args []string, err error, ran bool, want string) {
	t.Helper()
	if err == nil || !strings.Contains(err.Error(), want) || cmdutil.ExitCode(err) != cmdutil.ExitUsage || ran {
		t.Errorf("%s %s: %v (ran: %v); want a usage error with %q", cmd, strings.Join(args, " "), err, ran, want)
	}
}

// RunCommand runs cmd in an app set up as the command line's (usage
// errors returned, not printed; see [cmdutil.SetUsageErrors]) and returns
// run's error: with a cmd whose run only records its options, the flags
// are parsed and checked without running the command.
func RunCommand(t *testing.T, cmd *cli.Command, args ...string) error {
	t.Helper()
	app := &cli.App{Name: "queens", Writer: io.Discard, ErrWriter: io.Discard, HideVersion: true,
		ExitErrHandler: func(*cli.Context, error) {}, OnUsageError: cmdutil.OnUsageError, Commands: []*cli.Command{cmd}}
	cmdutil.SetUsageErrors(cmd)
	return app.Run(append([]string{"queens", cmd.Name}, args...))
}

// Root returns the path of the module's root directory from the working
// directory (a test's: its package's), "../.." from internal/cli: the
// nearest directory above with a go.mod.
func Root(t testing.TB) string {
	t.Helper()
	root, err := rootDir()
	if err != nil {
		t.Fatal(err)
	}
	return root
}

func rootDir() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	rel := "."
	for dir := wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return rel, nil
		}
		if filepath.Dir(dir) == dir {
			return "", fmt.Errorf("no go.mod above %s", wd)
		}
		rel = filepath.Join(rel, "..")
	}
}

// Output runs the app in-process as [Run] does and returns its stdout,
// failing the test unless it exits 0.
func Output(t *testing.T, in string, args ...string) string {
	t.Helper()
	stdout, stderr, code := Run(t, in, args...)
	if code != 0 {
		t.Fatalf("queens %s: exit %d, stderr %q; want 0", strings.Join(args, " "), code, stderr)
	}
	return stdout
}

// ReadFile returns the contents of the file name, failing the test when
// it cannot be read.
func ReadFile(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// Executable returns the path of the test binary, failing the test when
// the system cannot say it.
func Executable(t testing.TB) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

// Known returns the published count of the n×n board, failing the test
// when the table has none.
func Known(t testing.TB, n int) board.Counts {
	t.Helper()
	c, ok := board.Known(n)
	if !ok {
		t.Fatalf("no published count for n = %d", n)
	}
	return c
}
