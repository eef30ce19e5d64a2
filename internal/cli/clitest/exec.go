package clitest

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The end-to-end tests run the real command: [Main] turns the test binary
// into queens when QUEENS_TEST_AS_MAIN is set (stringer's endtoend
// pattern), so signals, closed pipes, exit statuses and crashes are the
// real ones.

// Cmd returns the test binary set up to run as queens args in dir.
func Cmd(t *testing.T, dir string, args ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, args...)
	// Temporary files (an external solver's CNF) go to dir too, so that
	// the tests see any left behind.
	cmd.Env = append(os.Environ(), "QUEENS_TEST_AS_MAIN=1", "TMPDIR="+dir)
	cmd.Dir = dir
	return cmd
}

// RunQueens runs queens args in dir and returns stdout, stderr and the
// exit status.
func RunQueens(t *testing.T, dir string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := Cmd(t, dir, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	return out.String(), errb.String(), ExitStatus(cmd.ProcessState)
}

// OnPath puts a command named queens (this test binary) first on PATH,
// for the end-to-end tests, and returns its path.
func OnPath(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Symlink(exe, filepath.Join(dir, "queens")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("QUEENS_TEST_AS_MAIN", "1")
	return filepath.Join(dir, "queens")
}

// ListDir lists the names under dir, recursively, with their sizes.
func ListDir(t *testing.T, dir string) []string {
	t.Helper()
	var names []string
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && path != dir {
			info, _ := d.Info()
			rel, _ := filepath.Rel(dir, path)
			names = append(names, fmt.Sprintf("%s %d", rel, info.Size()))
		}
		return nil
	})
	return names
}

// ExitStatus returns the exit status of a finished command, or 128+N for
// a death by signal N, as a shell shows it.
func ExitStatus(state *os.ProcessState) int {
	if ws, ok := state.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return state.ExitCode()
}

// CheckOneLine checks the stderr contract: exactly one line, "queens: "
// and the problem, no panic or goroutine dump.
func CheckOneLine(t *testing.T, stderr, want string) {
	t.Helper()
	if !strings.HasPrefix(stderr, "queens: ") || strings.Count(stderr, "\n") != 1 ||
		strings.Contains(stderr, "goroutine ") || strings.Contains(stderr, "panic") {
		t.Errorf("stderr %q: want one line 'queens: ...'", stderr)
	}
	if !strings.Contains(stderr, want) {
		t.Errorf("stderr %q does not say %q", stderr, want)
	}
}

// OneLine checks that a failed run says why in one "queens: " line.
func OneLine(t *testing.T, stderr string) {
	t.Helper()
	if !strings.HasPrefix(stderr, "queens: ") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("stderr is not one queens: line: %q", stderr)
	}
}

// StartReady starts cmd (a queens command, or one that runs queens with
// cmd's environment) and returns once queens handles signals: it says so
// by creating the file named in QUEENS_TEST_READY, whose path it returns
// (the test binary's TestMain hands [Main] the application's hook).
func StartReady(t *testing.T, cmd *exec.Cmd) (ready string) {
	t.Helper()
	ready = filepath.Join(t.TempDir(), "ready")
	cmd.Env = append(cmd.Env, "QUEENS_TEST_READY="+ready)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for start := time.Now(); ; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(ready); err == nil {
			return ready
		}
		if time.Since(start) > 20*time.Second {
			cmd.Process.Kill()
			t.Fatal("the command did not start within 20 s")
		}
	}
}

// WaitBounded waits for cmd, started, to exit. If it is still running
// after limit, WaitBounded kills it, waits for it and fails the test
// with the message format and args make.
func WaitBounded(t *testing.T, cmd *exec.Cmd, limit time.Duration, format string, args ...any) {
	t.Helper()
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(limit):
		cmd.Process.Kill()
		<-done
		t.Fatalf(format, args...)
	}
}

// SmallQueens builds queens without cgo and without the GPU loader
// (purego's thread start fails under a small ulimit -v, issue 28 item
// 7, which is not what these tests check) into dir.
func SmallQueens(t *testing.T, dir string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds queens (-short)")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is not installed")
	}
	exe := filepath.Join(dir, "queens")
	cmd := exec.Command("go", "build", "-tags", "nogpu", "-o", exe, Root(t))
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("go build: %v: %s", err, out)
	}
	return exe
}

// OutputQueens runs queens in dir as [RunQueens] does and returns its
// stdout, failing the test unless it exits 0.
func OutputQueens(t *testing.T, dir string, args ...string) string {
	t.Helper()
	stdout, stderr, code := RunQueens(t, dir, args...)
	if code != 0 {
		t.Fatalf("queens %s: exit %d, stderr %q; want 0", strings.Join(args, " "), code, stderr)
	}
	return stdout
}
