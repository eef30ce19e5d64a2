package cli

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/queens-dev/queens/internal/cli/clitest"
)

// badInputs is every command and flag given bad input: the message it
// must name, and the exit status (2 usage or input, 1 a failed check, a
// failing solver or --timeout). $DIR is the test's directory; the files
// set up there are listed in setupHostile.
var badInputs = []struct {
	args  string // split at spaces; $DIR replaced
	stdin string // "" for an empty stdin (/dev/null)
	code  int
	want  string
}{
	// the app
	{"nosuchcommand", "", 2, `unknown command "nosuchcommand"`},
	{"--nosuchflag", "", 2, "flag provided but not defined"},

	// backtrack
	{"backtrack", "", 2, "missing -n"},
	{"backtrack -n", "", 2, "flag needs an argument"},
	{"backtrack -n abc", "", 2, `invalid value "abc"`},
	{"backtrack -n 99999999999999999999", "", 2, "value out of range"},
	{"backtrack -n 8 --unique=bogus", "", 2, `queens: unknown --unique mode "bogus": want`},
	{"sat -n 6 --solver no-such-solver-xyz", "", 2, "SAT solver not found"},
	{"sat -n 6 --count --counter no-such-counter-xyz", "", 2, "SAT solver not found"},
	{"backtrack -n 0", "", 2, "board size out of range"},
	{"backtrack -n -3", "", 2, "board size out of range"},
	{"backtrack -n 5001", "", 2, "5000"},
	{"backtrack -n 28 --all", "", 2, "too large for --all"},
	{"backtrack -n 28 --count", "", 2, "too large for --count"},
	{"backtrack -n 49 --strategy lex", "", 2, "too large for --strategy lex"},
	{"backtrack -n 8 --all --count", "", 2, "--all and --count cannot be used together"},
	{"backtrack -n 8 --count --limit 3", "", 2, "cannot be used together"},
	{"backtrack -n 8 --limit -1", "", 2, "--limit"},
	{"backtrack -n 8 --limit x", "", 2, `invalid value "x"`},
	{"backtrack -n 8 --threads 0", "", 2, "--threads"},
	{"backtrack -n 8 --timeout soon", "", 2, `invalid value "soon"`},
	{"backtrack -n 8 --place 9:1", "", 2, "off the 8x8 board"},
	{"backtrack -n 8 --place 1:1 --place 2:2", "", 2, "bad pre-placed queen"},
	{"backtrack -n 8 --place \x01\xff", "", 2, "bad pre-placed queen"},
	{"backtrack -n 8 --format xml", "", 2, "xml"},
	{"backtrack -n 257 --format svg", "", 2, "up to n = 256"},
	{"backtrack -n 4 --format fen", "", 2, "n = 8 only"},
	{"backtrack -n 8 --all --format png -o $DIR/q.png", "", 2, "one solution"},
	{"backtrack -n 8 extra", "", 2, `unexpected argument "extra"`},
	{"backtrack -n 8 -o $DIR/missing/out.txt", "", 2, "does not exist"},
	{"backtrack -n 8 -o $DIR/file/out.txt", "", 2, "not a directory"},
	{"backtrack -n 8 -o $DIR", "", 2, "is a directory"},
	{"backtrack -n 8 -o $DIR/readonly/out.txt", "", 2, "permission denied"},
	{"backtrack -n 40 --strategy lex --timeout 200ms -o $DIR/out.txt", "", 1, "--timeout"},

	// sat
	{"sat", "", 2, "missing -n"},
	{"sat -n 17 --count", "", 2, "board size out of range"},
	{"sat -n 201 --solver cat", "", 2, "board size out of range"},
	{"sat -n 8 --all --count", "", 2, "cannot be used together"},
	{"sat -n 8 --encoding nosuch", "", 2, "nosuch"},
	{"sat -n 8 --threads 0 --all", "", 2, "--threads"},
	{"sat -n 8 --solver", "", 2, "flag needs an argument"},
	{"sat -n 8 --solver no-such-solver-xyz", "", 2, "not found"},
	{"sat -n 8 --solver $DIR/noexec", "", 2, "permission denied"},
	{"sat -n 8 --solver $DIR", "", 2, "is a directory"},
	{"sat -n 8 --all -o $DIR/missing/out.txt", "", 2, "does not exist"},
	{"sat -n 8 --all -o $DIR/readonly/out.txt", "", 2, "permission denied"},
	{"sat -n 8 --all extra", "", 2, "unexpected argument"},

	// sat with a failing solver (see solverScripts): exit status 1
	{"sat -n 8 --solver $DIR/crash", "", 1, "SAT solver failed: crash: signal: segmentation fault: boom"},
	{"sat -n 8 --solver $DIR/killed", "", 1, "signal: killed"},
	{"sat -n 8 --solver $DIR/exit3", "", 1, "exit status 3: cannot parse"},
	{"sat -n 8 --solver $DIR/silent", "", 1, "no answer (no s line, no model)"},
	{"sat -n 8 --solver $DIR/garbage", "", 1, `unexpected "hello world"`},
	{"sat -n 8 --solver $DIR/binary", "", 1, "SAT solver failed: binary: solver output line 1"},
	{"sat -n 8 --solver $DIR/invalid", "", 1, "the model falsifies clause"},
	{"sat -n 8 --solver $DIR/partial", "", 1, "the model falsifies clause"},
	{"sat -n 8 --solver $DIR/unknown", "", 1, "answered UNKNOWN"},
	{"sat -n 8 --solver $DIR/liar", "", 1, "liar answered UNSATISFIABLE (no solution), but an explicit construction gives a solution"},
	{"sat -n 8 --count --solver $DIR/liar", "", 1, "liar answered UNSATISFIABLE (no solution), but the published count is 92"},
	{"sat -n 8 --all -o $DIR/out.txt --solver $DIR/liar", "", 1, "but the published count is 92"},
	{"sat -n 8 --solver $DIR/hang --timeout 300ms", "", 1, "no answer within --timeout 300ms"},

	// dimacs
	{"dimacs", "", 2, "missing -n"},
	{"dimacs -n 0", "", 2, "board size out of range"},
	{"dimacs -n 201 --encoding pairwise", "", 2, "board size out of range"},
	{"dimacs -n 1000000000 --encoding commander", "", 2, "board size out of range"},
	{"dimacs -n 8 --encoding nosuch", "", 2, "nosuch"},
	{"dimacs -n 8 --place 0:0", "", 2, "rows and columns count from 1"},
	{"dimacs -n 8 extra", "", 2, "unexpected argument"},
	{"dimacs -n 8 -o $DIR/missing/q.cnf", "", 2, "does not exist"},
	{"dimacs -n 8 -o $DIR/readonly/q.cnf", "", 2, "permission denied"},
	{"dimacs -n 8 -o $DIR", "", 2, "is a directory"},

	// decode
	{"decode", "", 2, "missing -n"},
	{"decode -n 2001", "", 2, "board size out of range"},
	{"decode -n 4", "", 2, "no answer"},
	{"decode -n 4 -", "\x00\x01\x02\xff\xfe garbage\n", 2, "unexpected"},
	{"decode -n 4 $DIR/empty", "", 2, "no answer"},
	{"decode -n 4 $DIR/binary.out", "", 2, "solver output line 1"},
	{"decode -n 4 $DIR/nosuch", "", 2, "no such file"},
	{"decode -n 4 $DIR", "", 2, "is a directory"},
	{"decode -n 4 a b", "", 2, "at most one FILE"},
	{"decode -n 4", "v 99999999999 0\n", 2, "out of range"},
	{"decode -n 4", "s SATISFIABLE\n", 2, "no model"},
	{"decode -n 4", "s SATISFIABLE\nv 1 0\n", 1, "no queen in row 2"}, // only true literals: the others are false
	{"decode -n 4", "s SATISFIABLE\nv 1 -2 0\n", 2, "model does not cover the board"},
	{"decode -n 5", "s SATISFIABLE\nv -1 2 -3 -4 -5 -6 -7 8 -9 -10 -11 -12 -13 -14 -15 16 0\n", 2, "n = 5"},
	{"decode -n 4", "s SATISFIABLE\nv 1 2 -3 -4 -5 -6 -7 -8 -9 -10 -11 -12 -13 -14 -15 -16 0\n", 1, "invalid model"},
	{"decode -n 4", "s UNKNOWN\n", 1, "no answer (UNKNOWN)"},
	{"decode -n 4 --cnf $DIR/nosuch", "", 2, "no such file"},
	{"decode -n 4 --cnf $DIR/empty", "", 2, `no "p cnf" line`},
	{"decode -n 4 --cnf $DIR/binary.out", "", 2, "DIMACS line 1"},
	{"decode -n 4 --cnf $DIR/huge-header.cnf", "", 2, "1000000000000 variables, at most"},
	{"decode -n 4 --cnf $DIR/many-clauses.cnf", "", 2, "1 clauses, header says 1000000000000000"},

	// trace
	{"trace", "", 2, "missing -n"},
	{"trace -n 33", "", 2, "board size out of range"},
	{"trace -n 4 --format xml", "", 2, "xml"},
	{"trace -n 4 --max-steps -1", "", 2, "cannot be negative"},
	{"trace -n 4 --gif $DIR/missing/t.gif", "", 2, "does not exist"},
	{"trace -n 4 --gif $DIR/readonly/t.gif", "", 2, "permission denied"},
	{"trace -n 4 extra", "", 2, "extra"},

	// compare
	{"compare", "", 2, "missing -n"},
	{"compare -n 0", "", 2, "board size out of range"},
	{"compare -n 1-100", "", 2, "board size out of range"},
	{"compare -n 4-x", "", 2, "bad range"},
	{"compare -n 8 --engines nosuch", "", 2, `unknown engine "nosuch"`},
	{"compare -n 8 --solver no-such-solver-xyz", "", 2, "not found"},
	{"compare -n 8 --solver $DIR/noexec", "", 2, "permission denied"},
	{"compare -n 8 --timeout x", "", 2, `invalid value "x"`},
	{"compare -n 5 --engines backtrack --solver $DIR/crash", "", 1, "compare found 1 problems"},
	{"compare -n 5 --engines backtrack --solver $DIR/liar", "", 1, "compare found"},
	{"compare -n 5 --engines backtrack --solver $DIR/hang --timeout 300ms", "", 1, "stopped by --timeout 300ms at n = 5"},
}

// solverScripts stand in for SAT solvers that fail in every way one can.
// Each writes its pid, and hang a child's, to a file, so that the test
// can check that none outlives the run.
var solverScripts = map[string]string{
	"crash":   "echo boom >&2; kill -SEGV $$",
	"killed":  "kill -KILL $$",
	"exit3":   "echo 'cannot parse' >&2; exit 3",
	"silent":  "exit 0",
	"garbage": "echo 'hello world'; exit 10",
	"binary":  `printf '\001\002\377\376\n'; exit 10`,
	"invalid": "echo 's SATISFIABLE'; echo 'v 1 2 3 4 5 6 7 8 0'; exit 10",
	"partial": "echo 's SATISFIABLE'; echo 'v -1 -2 0'; exit 10",
	"unknown": "echo 's UNKNOWN'; exit 0",
	"liar":    "echo 's UNSATISFIABLE'; exit 20",
	"hang":    "sleep 60 & echo $! >> PIDS; wait",
}

// setupHostile fills dir with the files the bad inputs use.
func setupHostile(t *testing.T, dir string) {
	t.Helper()
	files := map[string]string{
		"empty":              "",
		"file":               "not a directory",
		"binary.out":         "\x7fELF\x00\x01\x02\xff\xfe\n\x00",
		"huge-header.cnf":    "p cnf 1000000000000 1\n1 0\n",
		"many-clauses.cnf":   "p cnf 1 1000000000000000\n1 0\n",
		"missing-clause.cnf": "p cnf 3 2\n1 2 0\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pids := filepath.Join(dir, "pids")
	for name, body := range solverScripts {
		body = "#!/bin/sh\necho $$ >> " + pids + "\n" + strings.ReplaceAll(body, "PIDS", pids) + "\n"
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "noexec"), []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "readonly"), 0o555); err != nil {
		t.Fatal(err)
	}
}

// TestBadInputs runs every bad command line of badInputs as the real
// command: one line "queens: ..." on stderr naming the problem, the
// documented exit status, nothing on stdout, no file left behind, and no
// Solver process left running.
func TestBadInputs(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh for the solver scripts")
	}
	root := os.Geteuid() == 0
	for _, tt := range badInputs {
		t.Run(strings.ReplaceAll(tt.args, "/", "|"), func(t *testing.T) {
			t.Parallel()
			if root && strings.Contains(tt.args, "readonly") {
				t.Skip("root writes into read-only directories")
			}
			dir := t.TempDir()
			setupHostile(t, dir)
			before := clitest.ListDir(t, dir)
			var args []string
			for _, a := range strings.Fields(tt.args) {
				args = append(args, strings.ReplaceAll(a, "$DIR", dir))
			}
			cmd := clitest.Cmd(t, dir, args...)
			cmd.Stdin = strings.NewReader(tt.stdin)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			var ee *exec.ExitError
			if err != nil && !errors.As(err, &ee) {
				t.Fatal(err)
			}
			if code := clitest.ExitStatus(cmd.ProcessState); code != tt.code {
				t.Errorf("exit status %d, want %d", code, tt.code)
			}
			clitest.CheckOneLine(t, stderr.String(), tt.want)
			if out := stdout.String(); out != "" && !strings.HasPrefix(tt.args, "compare") {
				t.Errorf("stdout %q, want nothing", out)
			}
			after := slices.DeleteFunc(clitest.ListDir(t, dir), func(s string) bool { return strings.HasPrefix(s, "pids ") })
			before = slices.DeleteFunc(before, func(s string) bool { return strings.HasPrefix(s, "pids ") })
			if !slices.Equal(before, after) {
				t.Errorf("the directory changed:\nbefore %v\nafter  %v", before, after)
			}
			checkReaped(t, filepath.Join(dir, "pids"))
		})
	}
}

// checkReaped checks that none of the processes whose pids the solver
// scripts wrote to file is still running (killed and reaped within 10 s:
// time enough on a busy machine).
func checkReaped(t *testing.T, file string) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		return // no solver ran
	}
	for _, f := range strings.Fields(string(data)) {
		pid, _ := strconv.Atoi(f)
		deadline := time.Now().Add(10 * time.Second)
		for pid > 0 && processRunning(pid) {
			if time.Now().After(deadline) {
				clitest.Kill(pid, syscall.SIGKILL)
				t.Errorf("solver process %d outlived queens", pid)
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// processRunning reports whether pid exists and is not a zombie.
func processRunning(pid int) bool {
	if clitest.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	i := bytes.LastIndexByte(stat, ')')
	return i < 0 || i+2 >= len(stat) || stat[i+2] != 'Z'
}

// TestClosedStdin: decode with stdin closed (not merely empty) reports it
// in one line, exit status 2.
func TestClosedStdin(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("sh", "-c", `exec "$0" decode -n 4 <&-`, exe)
	cmd.Env = append(os.Environ(), "QUEENS_TEST_AS_MAIN=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.Run()
	if code := clitest.ExitStatus(cmd.ProcessState); code != 2 || stdout.Len() > 0 {
		t.Errorf("exit status %d, stdout %q; want 2, nothing", code, stdout.String())
	}
	clitest.CheckOneLine(t, stderr.String(), "decode")
}

// TestClosedStdout: "queens backtrack -n 12 --all | head -1" ends
// quietly. A write to a closed pipe on stdout ends the process by SIGPIPE,
// as it would a C program: exit status 141 in a shell, nothing on stderr.
func TestClosedStdout(t *testing.T) {
	for _, args := range [][]string{
		{"backtrack", "-n", "12", "--all"},
		{"backtrack", "-n", "12", "--all", "--format", "perm"},
		{"sat", "-n", "10", "--all"},
		{"dimacs", "-n", "60"},
		{"compare", "-n", "1-9", "--engines", "backtrack"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			cmd := clitest.Cmd(t, t.TempDir(), args...)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			pipe, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			if _, err := bufio.NewReader(pipe).ReadString('\n'); err != nil {
				t.Fatal(err)
			}
			pipe.Close() // head -1 exits
			cmd.Wait()
			if code := clitest.ExitStatus(cmd.ProcessState); code != 128+int(syscall.SIGPIPE) && code != 0 {
				t.Errorf("exit status %d, want %d (SIGPIPE) or 0", code, 128+int(syscall.SIGPIPE))
			}
			if stderr.Len() > 0 {
				t.Errorf("stderr %q, want nothing", stderr.String())
			}
		})
	}
}

// TestInterrupt sends SIGINT, SIGTERM or SIGQUIT to long runs: each stops within
// a second or two, says in one line how far it got, exits with status
// 130, and leaves no file (not even a temporary one) behind.
func TestInterrupt(t *testing.T) {
	tests := []struct {
		sig   syscall.Signal
		args  string
		want  string
		known string // a known defect in a file this change may not touch
	}{
		{syscall.SIGINT, "backtrack -n 18 --count", "interrupted after ", ""},
		{syscall.SIGTERM, "backtrack -n 16 --all -o OUT", "interrupted after", ""},
		{syscall.SIGINT, "backtrack -n 16 --all --format perm", "interrupted after", ""},
		{syscall.SIGINT, "sat -n 14 --all -o OUT", "interrupted after", ""},
		{syscall.SIGTERM, "sat -n 14 --count", "interrupted", ""},
		{syscall.SIGINT, "dimacs -n 200 --encoding pairwise -o OUT", "interrupted", ""},
		{syscall.SIGINT, "compare -n 1-14", "interrupted at n = ", ""},
		{syscall.SIGINT, "sat -n 150 --solver cadical", "interrupted", ""},
		// Ctrl-\ (SIGQUIT): the same cleanup, not Go's goroutine dump
		// and exit status 2.
		{syscall.SIGQUIT, "backtrack -n 16 --all -o OUT", "interrupted after", ""},
	}
	for _, tt := range tests {
		t.Run(tt.sig.String()+" "+tt.args, func(t *testing.T) {
			if i := strings.Index(tt.args, "--solver "); i >= 0 {
				if _, err := exec.LookPath(strings.Fields(tt.args[i:])[1]); err != nil {
					t.Skipf("%s not installed", strings.Fields(tt.args[i:])[1])
				}
			}
			dir := t.TempDir()
			args := strings.Fields(strings.ReplaceAll(tt.args, "OUT", filepath.Join(dir, "out")))
			cmd := clitest.Cmd(t, dir, args...)
			var stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = nil, &stderr
			clitest.StartReady(t, cmd)
			time.Sleep(300 * time.Millisecond) // well into the work
			cmd.Process.Signal(tt.sig)
			sent := time.Now()
			clitest.WaitBounded(t, cmd, 10*time.Second, "still running 10 s after %v", tt.sig)
			t.Logf("stopped %v after the signal: %s", time.Since(sent).Round(time.Millisecond), strings.TrimSpace(stderr.String()))
			if code := clitest.ExitStatus(cmd.ProcessState); code != 130 {
				t.Errorf("exit status %d, want 130", code)
			}
			if files := clitest.ListDir(t, dir); len(files) > 0 {
				t.Errorf("left behind: %v", files)
			}
			lines := strings.SplitAfter(stderr.String(), "\n")
			if last := lines[max(len(lines)-2, 0)]; !strings.HasPrefix(last, "queens: "+tt.want) {
				t.Errorf("last line %q, want 'queens: %s ...'", last, tt.want)
			}
			if tt.known != "" && strings.Count(stderr.String(), "\n") != 1 {
				t.Skip(tt.known)
			}
			clitest.CheckOneLine(t, stderr.String(), tt.want)
		})
	}
}
