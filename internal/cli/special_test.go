package cli

import (
	"bufio"
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/queens-dev/queens/internal/cli/clitest"
	"github.com/queens-dev/queens/internal/cli/cmdutil"
)

// hostileValues are flag values that must be usage errors (or, for
// --timeout, a failed run): every one given as a separate argument, so
// that empty values can be written.
var hostileValues = []struct {
	args []string
	code int
	want string
}{
	// numbers are decimal, in range
	{[]string{"backtrack", "-n", "0x10"}, 2, "want a decimal integer"},
	{[]string{"backtrack", "-n", "1_0"}, 2, "want a decimal integer"},
	{[]string{"backtrack", "-n", " 8"}, 2, "want a decimal integer"},
	{[]string{"backtrack", "-n", ""}, 2, "want a decimal integer"},
	{[]string{"backtrack", "-n", "9223372036854775808"}, 2, "value out of range"},
	{[]string{"backtrack", "-n", "8", "--threads", "1000000000"}, 2, "--threads must be 1 to 1024"},
	{[]string{"backtrack", "-n", "8", "--count", "--threads", "-1"}, 2, "--threads must be at least 1"},
	{[]string{"sat", "-n", "8", "--all", "--threads", "1025"}, 2, "--threads must be 1 to 1024"},
	{[]string{"sat", "-n", "8", "--limit", "-5"}, 2, "--limit cannot be negative"},
	{[]string{"trace", "-n", "4", "--max-steps", "0x10"}, 2, "want a decimal integer"},
	{[]string{"backtrack", "-n", "8", "--count", "--shard", "0/2", "--shard-base", "0x1"}, 2, "want a decimal integer"},
	{[]string{"backtrack", "-n", "8", "--count", "--shard", "0", "--shard-count", "1e3"}, 2, "want a decimal integer"},
	// durations
	{[]string{"backtrack", "-n", "8", "--timeout", "-1s"}, 2, "--timeout -1s: cannot be negative"},
	{[]string{"sat", "-n", "8", "--timeout", "-1ns"}, 2, "cannot be negative"},
	{[]string{"compare", "-n", "8", "--timeout", "-5m"}, 2, "cannot be negative"},
	{[]string{"trace", "-n", "4", "--delay", "-1s"}, 2, "cannot be negative"},
	{[]string{"trace", "-n", "4", "--delay", "656s", "--gif", "$DIR/t.gif"}, 2, "want 0s to 10m55.35s"},
	{[]string{"backtrack", "-n", "8", "--timeout", ""}, 2, "invalid value"},
	// empty values
	{[]string{"backtrack", "-n", "8", "--count", "--checkpoint", ""}, 2, "--checkpoint: empty value"},
	{[]string{"sat", "-n", "8", "--encoding", ""}, 2, "--encoding: empty value"},
	{[]string{"dimacs", "-n", "8", "--encoding", ""}, 2, "--encoding: empty value"},
	{[]string{"backtrack", "-n", "8", "-o", ""}, 2, "--output: empty value"},
	{[]string{"dimacs", "-n", "8", "--output", ""}, 2, "--output: empty value"},
	{[]string{"backtrack", "-n", "8", "--format", ""}, 2, "--format: empty value"},
	{[]string{"backtrack", "-n", "8", "--strategy", ""}, 2, "--strategy: empty value"},
	{[]string{"backtrack", "-n", "8", "--place", ""}, 2, "--place: empty value"},
	{[]string{"backtrack", "-n", "8", "--count", "--shard", ""}, 2, "--shard: empty value"},
	{[]string{"sat", "-n", "8", "--solver", ""}, 2, "--solver: empty value"},
	{[]string{"decode", "-n", "4", "--cnf", ""}, 2, "--cnf: empty value"},
	{[]string{"trace", "-n", "4", "--gif", ""}, 2, "--gif: empty value"},
	{[]string{"compare", "-n", ""}, 2, "-n: empty value"},
	{[]string{"compare", "-n", "8", "--engines", ""}, 2, "--engines: empty value"},
	{[]string{"merge", "--format", ""}, 2, "--format: empty value"},
	// help
	{[]string{"help", "bogus"}, 2, `no help for "bogus"`},
	// limits before work: no table header, no directory, no file
	{[]string{"compare", "-n", "1-15", "--engines", "sat/seq"}, 2, "engine sat/seq takes n <= 14"},
	{[]string{"backtrack", "-n", "12", "--all", "--format", "svg", "-o", "$DIR/pics/"}, 2, "n = 12 has 14200 solutions, more than the 10000"},
	{[]string{"backtrack", "-n", "12", "--all", "--place", "1:1", "--format", "svg", "-o", "$DIR/pics/"}, 2, "may have up to 14200"},
	{[]string{"backtrack", "-n", "8", "--limit", "10001", "--format", "svg", "-o", "$DIR/pics/"}, 2, "--limit 10001 is more than the 10000"},
	{[]string{"sat", "-n", "12", "--limit", "0", "--format", "png", "-o", "$DIR/pics/"}, 2, "more than the 10000"},
	{[]string{"sat", "-n", "200", "--encoding", "pairwise", "--solver", "no-such-solver-xyz"}, 2, "not found"},
	// --timeout covers encoding and loading (before: 18 s)
	{[]string{"sat", "-n", "1000", "--timeout", "300ms"}, 1, "no answer within --timeout 300ms"},
}

// TestHostileValues runs every line of hostileValues as the real
// command: the exit status, one line on stderr naming the problem,
// nothing on stdout and nothing written, at once (no work before the
// check: each within a few seconds even under -race).
func TestHostileValues(t *testing.T) {
	for _, tt := range hostileValues {
		t.Run(strings.ReplaceAll(strings.Join(tt.args, " "), "/", "|"), func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			var args []string
			for _, a := range tt.args {
				args = append(args, strings.ReplaceAll(a, "$DIR", dir))
			}
			start := time.Now()
			stdout, stderr, code := clitest.RunQueens(t, dir, args...)
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("took %v: the check comes after work", d.Round(time.Millisecond))
			}
			if code != tt.code {
				t.Errorf("exit status %d, want %d", code, tt.code)
			}
			clitest.CheckOneLine(t, stderr, tt.want)
			if stdout != "" {
				t.Errorf("stdout %q, want nothing", stdout)
			}
			if files := clitest.ListDir(t, dir); len(files) > 0 {
				t.Errorf("left behind: %v", files)
			}
		})
	}
}

// TestDecimalFlags: numbers are read in base 10 (010 is ten, not octal
// eight), a false boolean does not count as given, and the defaults and
// ranges hold.
func TestDecimalFlags(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"backtrack", "-n", "010", "--count"}, "724 solutions\n"},
		{[]string{"backtrack", "-n", "+8", "--count", "--threads", "01"}, "92 solutions\n"},
		{[]string{"backtrack", "-n", "8", "--all=false", "--count"}, "92 solutions\n"},
		{[]string{"backtrack", "-n", "8", "--count=false", "--limit", "010", "--format", "perm"}, ""},
		{[]string{"sat", "-n", "6", "--count", "--threads", "1024"}, "4 solutions\n"},
		{[]string{"trace", "-n", "4", "--max-steps", "03", "--format", "json"}, ""},
	} {
		stdout, stderr, code := clitest.Run(t, "", tt.args...)
		if code != 0 {
			t.Errorf("queens %s: exit %d, stderr %q", strings.Join(tt.args, " "), code, stderr)
			continue
		}
		switch {
		case tt.want != "" && stdout != tt.want:
			t.Errorf("queens %s = %q, want %q", strings.Join(tt.args, " "), stdout, tt.want)
		case slices.Contains(tt.args, "--limit") && strings.Count(stdout, "\n") != 10:
			t.Errorf("queens %s: %d lines, want 10", strings.Join(tt.args, " "), strings.Count(stdout, "\n"))
		case slices.Contains(tt.args, "--max-steps") && strings.Count(stdout, "\n") != 4:
			t.Errorf("queens %s: %d lines, want 3 steps and the summary", strings.Join(tt.args, " "), strings.Count(stdout, "\n"))
		}
	}
}

// specialFile makes a stand-in for the device /dev/NAME (null or full) in
// dir: the device itself (mknod, as root) or a link to it. Either way a
// regression that replaces it replaces only the stand-in.
func specialFile(t *testing.T, dir, name string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	minor := map[string]int{"null": 3, "full": 7}[name]
	if err := clitest.Mknod(path, syscall.S_IFCHR|0o666, 1, minor); err != nil {
		if err := os.Symlink("/dev/"+name, path); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

// checkSpecial checks that the stand-in path is still what specialFile
// made.
func checkSpecial(t *testing.T, path string) {
	t.Helper()
	st, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode()&(fs.ModeCharDevice|fs.ModeSymlink) == 0 {
		t.Errorf("%s was replaced: now %v", path, st.Mode())
	}
}

// TestOutputSpecialFiles writes -o to a device, a FIFO, links and
// existing files: a device or FIFO is written directly and stays what it
// is, /dev/full fails with exit 1, a link is followed, an existing file
// keeps its permission bits, a new one gets those of the umask, and a
// temporary file left by a killed run is removed by the next.
func TestOutputSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		test func(t *testing.T, dir string)
	}{
		{"null", outputNull},
		{"full", outputFull},
		{"block device", outputBlockDevice},
		{"fifo", outputFIFO},
		{"link", outputLink},
		{"umask", outputUmask},
		{"read-only file", outputReadOnly},
		{"stdout appended", outputStdoutAppended},
		{"stale temporary", outputStaleTemporary},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.test(t, dir) })
	}
}

// board4 is what backtrack -n 4 writes by default: its first solution,
// drawn as a board.
const board4 = "    1 2 3 4\n 1  . Q . .\n 2  . . . Q\n 3  Q . . .\n 4  . . Q .\n"

// outputNull: a device is written directly and stays what it is.
func outputNull(t *testing.T, dir string) {
	null := specialFile(t, dir, "null")
	if _, stderr, code := clitest.RunQueens(t, dir, "backtrack", "-n", "8", "-o", null); code != 0 {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	checkSpecial(t, null)
}

// outputFull: a full device fails with exit 1 and one line, and stays what it is.
func outputFull(t *testing.T, dir string) {
	full := specialFile(t, dir, "full")
	for _, args := range [][]string{
		{"backtrack", "-n", "8", "-o", full},
		{"backtrack", "-n", "10", "--all", "--format", "perm", "-o", full},
		{"dimacs", "-n", "8", "-o", full},
	} {
		stdout, stderr, code := clitest.RunQueens(t, dir, args...)
		if code != 1 || stdout != "" {
			t.Errorf("%v: exit %d, stdout %q; want 1, nothing", args, code, stdout)
		}
		clitest.CheckOneLine(t, stderr, "no space left on device")
		checkSpecial(t, full)
	}
}

// outputBlockDevice: a block device is refused before it is opened.
func outputBlockDevice(t *testing.T, dir string) {
	disk := filepath.Join(dir, "disk")
	// loop device 7:250, made here: refused before it is opened.
	if err := clitest.Mknod(disk, syscall.S_IFBLK|0o600, 7, 250); err != nil {
		t.Skip("cannot make a block device (not root):", err)
	}
	stdout, stderr, code := clitest.RunQueens(t, dir, "backtrack", "-n", "4", "-o", disk)
	if code != 2 || stdout != "" {
		t.Errorf("exit %d, stdout %q; want 2, nothing", code, stdout)
	}
	clitest.CheckOneLine(t, stderr, "is a block device")
	if st, err := os.Lstat(disk); err != nil || st.Mode()&fs.ModeDevice == 0 {
		t.Errorf("the block device was replaced")
	}
}

// outputFIFO: a FIFO is written directly and stays a FIFO.
func outputFIFO(t *testing.T, dir string) {
	fifo := filepath.Join(dir, "fifo")
	if err := clitest.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFO:", err)
	}
	got := make(chan string, 1)
	go func() {
		b, err := os.ReadFile(fifo) // opens when the writer does
		if err != nil {
			b = []byte("read the FIFO: " + err.Error())
		}
		got <- string(b)
	}()
	if _, stderr, code := clitest.RunQueens(t, dir, "backtrack", "-n", "4", "-o", fifo); code != 0 {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	select {
	case s := <-got:
		if s != board4 {
			t.Errorf("read %q from the FIFO, want %q", s, board4)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("nothing came through the FIFO")
	}
	if st, err := os.Lstat(fifo); err != nil || st.Mode()&fs.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced: %v %v", st.Mode(), err)
	}
}

// outputLink: a link is followed and stays a link; a dangling one names the file to create.
func outputLink(t *testing.T, dir string) {
	sub := filepath.Join(dir, "sub")
	os.Mkdir(sub, 0o755)
	target := filepath.Join(sub, "target.txt")
	os.WriteFile(target, []byte("old\n"), 0o640)
	os.Chmod(target, 0o640)
	link := filepath.Join(dir, "link.txt")
	os.Symlink("sub/target.txt", link)
	if _, stderr, code := clitest.RunQueens(t, dir, "backtrack", "-n", "4", "-o", link); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("the link was replaced by a file")
	}
	if b := clitest.ReadFile(t, target); string(b) != board4 {
		t.Errorf("target holds %q, want the board", b)
	}
	if st, err := os.Stat(target); err != nil || st.Mode().Perm() != 0o640 {
		t.Errorf("target: %v, %v; want mode -rw-r----- (kept)", st, err)
	}
	if files := clitest.ListDir(t, sub); len(files) != 1 {
		t.Errorf("%s holds %v, want the target alone", sub, files)
	}
	// A dangling link names the file to create.
	dangling := filepath.Join(dir, "dangling")
	os.Symlink("created.txt", dangling)
	if _, stderr, code := clitest.RunQueens(t, dir, "backtrack", "-n", "4", "-o", dangling); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if b := clitest.ReadFile(t, filepath.Join(dir, "created.txt")); string(b) != board4 {
		t.Errorf("created.txt holds %q, want the board", b)
	}
}

// outputUmask: a new file gets the permission bits of the umask.
func outputUmask(t *testing.T, dir string) {
	exe := clitest.Executable(t)
	out := filepath.Join(dir, "umask.txt")
	cmd := exec.Command("sh", "-c", `umask 077 && exec "$0" backtrack -n 4 -o "$1"`, exe, out)
	cmd.Env = append(os.Environ(), "QUEENS_TEST_AS_MAIN=1")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	if st, err := os.Stat(out); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("new file under umask 077: mode %v (%v), want -rw-------", st.Mode().Perm(), err)
	}
}

// outputReadOnly: a read-only file is refused (written, bits kept, as root) and kept.
func outputReadOnly(t *testing.T, dir string) {
	ro := filepath.Join(dir, "ro.txt")
	os.WriteFile(ro, []byte("keep\n"), 0o444)
	os.Chmod(ro, 0o444)
	stdout, stderr, code := clitest.RunQueens(t, dir, "backtrack", "-n", "4", "-o", ro)
	if os.Geteuid() == 0 {
		// root may write it, as the shell's > would; the bits stay.
		if st, err := os.Stat(ro); code != 0 || err != nil || st.Mode().Perm() != 0o444 {
			t.Errorf("as root: exit %d (%q), %v, %v; want 0, mode -r--r--r--", code, stderr, st, err)
		}
		return
	}
	if code != 2 || stdout != "" {
		t.Errorf("exit %d, want 2", code)
	}
	clitest.CheckOneLine(t, stderr, "permission denied")
	if b := clitest.ReadFile(t, ro); string(b) != "keep\n" {
		t.Errorf("the read-only file was replaced: %q", b)
	}
}

// outputStdoutAppended: -o /dev/fd/1 opened with >> is appended to.
func outputStdoutAppended(t *testing.T, dir string) {
	// -o /dev/fd/1 is the shell's stdout, opened with >>: appended to,
	// not replaced (/dev/fd/1 rather than /dev/stdout: a regression
	// could not replace it).
	exe := clitest.Executable(t)
	out := filepath.Join(dir, "appended.txt")
	os.WriteFile(out, []byte("before\n"), 0o644)
	cmd := exec.Command("sh", "-c", `exec "$0" backtrack -n 4 -o /dev/fd/1 >> "$1"`, exe, out)
	cmd.Env = append(os.Environ(), "QUEENS_TEST_AS_MAIN=1")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	if b := clitest.ReadFile(t, out); string(b) != "before\n"+board4 {
		t.Errorf("got %q, want the line before and the board", b)
	}
}

// outputStaleTemporary: the temporary file of a dead run is removed by the next, the others kept.
func outputStaleTemporary(t *testing.T, dir string) {
	sub := filepath.Join(dir, "stale")
	os.Mkdir(sub, 0o755)
	// A pid that is not running: one past the highest there can be.
	dead := 4194305
	if b, err := os.ReadFile("/proc/sys/kernel/pid_max"); err == nil {
		if max, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
			dead = max + 1
		}
	}
	// Names of this machine's runs (the test's process runs where
	// the command does): one dead, one alive.
	here := cmdutil.ThisMachine().Tag
	stale := filepath.Join(sub, ".out.txt"+cmdutil.TempSuffix+here+"-"+strconv.Itoa(dead)+"-0123456789abcdef")
	aliveName := ".other.txt" + cmdutil.TempSuffix + here + "-" + strconv.Itoa(os.Getpid()) + "-0123456789abcdef"
	alive := filepath.Join(sub, aliveName)
	other := filepath.Join(sub, ".out.txt.tmp123")
	for _, f := range []string{stale, alive, other} {
		os.WriteFile(f, []byte("half"), 0o644)
	}
	if _, stderr, code := clitest.RunQueens(t, dir, "backtrack", "-n", "4", "-o", filepath.Join(sub, "out.txt")); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	got := clitest.ListDir(t, sub)
	want := []string{aliveName + " 4", ".out.txt.tmp123 4", "out.txt 60"}
	if !slices.Equal(got, want) {
		t.Errorf("after the run: %v, want %v (the dead run's temporary removed, the others kept)", got, want)
	}
}

// TestLostStdout: every command, help included, reports a failed write
// to stdout (stdout is /dev/full) in one line, exit status 1.
func TestLostStdout(t *testing.T) {
	dir := t.TempDir()
	full := specialFile(t, dir, "full")
	cnf := filepath.Join(dir, "q4.cnf")
	if _, stderr, code := clitest.RunQueens(t, dir, "dimacs", "-n", "4", "-o", cnf); code != 0 {
		t.Fatal(stderr)
	}
	model := filepath.Join(dir, "model")
	os.WriteFile(model, []byte("s SATISFIABLE\nv -1 2 -3 -4 -5 -6 -7 8 9 -10 -11 -12 -13 -14 15 -16 0\n"), 0o644)
	for _, args := range [][]string{
		{"help"},
		{"help", "backtrack"},
		{"backtrack", "--help"},
		{},
		{"backtrack", "-n", "8"},
		{"backtrack", "-n", "8", "--count"},
		{"backtrack", "-n", "8", "--all", "--format", "json"},
		{"sat", "-n", "8"},
		{"sat", "-n", "6", "--count"},
		{"dimacs", "-n", "4"},
		{"decode", "-n", "4", model},
		{"trace", "-n", "4"},
		{"trace", "-n", "4", "--format", "json"},
		{"compare", "-n", "1-6", "--engines", "backtrack"},
		{"compare", "-n", "4", "--engines", "backtrack", "--json"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			f, err := os.OpenFile(full, os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			cmd := clitest.Cmd(t, dir, args...)
			var stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = f, &stderr
			cmd.Run()
			if code := clitest.ExitStatus(cmd.ProcessState); code != 1 {
				t.Errorf("exit status %d, want 1", code)
			}
			clitest.CheckOneLine(t, stderr.String(), "no space left on device")
		})
	}
	checkSpecial(t, full)
}

// startSignalled starts queens args in dir, waits until it handles
// signals and has worked for a while, sends sig and returns how long it
// took to exit after it, its stderr and its exit status.
func startSignalled(t *testing.T, dir string, sig syscall.Signal, args ...string) (time.Duration, string, int) {
	t.Helper()
	cmd := clitest.Cmd(t, dir, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	clitest.StartReady(t, cmd)
	time.Sleep(500 * time.Millisecond) // well into the work
	cmd.Process.Signal(sig)
	sent := time.Now()
	clitest.WaitBounded(t, cmd, 10*time.Second, "still running 10 s after %v", sig)
	return time.Since(sent), stderr.String(), clitest.ExitStatus(cmd.ProcessState)
}

// TestSignalsBite: SIGHUP stops a run as SIGTERM does (exit 130, no
// file left), and SIGINT stops sat while it encodes or loads a large
// board, which cannot be stopped half-way, at once.
func TestSignalsBite(t *testing.T) {
	for _, tt := range []struct {
		sig  syscall.Signal
		args string
		want string
	}{
		{syscall.SIGHUP, "backtrack -n 16 --all -o OUT", "interrupted after"},
		{syscall.SIGHUP, "sat -n 14 --all -o OUT", "interrupted after"},
		{syscall.SIGINT, "sat -n 2000", "interrupted while"},
		{syscall.SIGINT, "sat -n 2000 -o OUT", "interrupted while"},
		// a FIFO nobody reads: the open blocks
		{syscall.SIGTERM, "backtrack -n 8 -o FIFO", "interrupted while waiting for a reader of"},
	} {
		t.Run(tt.sig.String()+" "+tt.args, func(t *testing.T) {
			if signal.Ignored(tt.sig) {
				// Under nohup the child inherits the ignore and keeps it
				// (TestIgnoredHangup).
				t.Skipf("%v is ignored by this test process (nohup?), and so by the queens it starts", tt.sig)
			}
			dir := t.TempDir()
			fifo := filepath.Join(t.TempDir(), "fifo")
			if strings.Contains(tt.args, "FIFO") {
				if err := clitest.Mkfifo(fifo, 0o644); err != nil {
					t.Skip("no FIFO:", err)
				}
			}
			args := strings.Fields(strings.ReplaceAll(strings.ReplaceAll(tt.args, "OUT", filepath.Join(dir, "out")), "FIFO", fifo))
			took, stderr, code := startSignalled(t, dir, tt.sig, args...)
			t.Logf("stopped %v after the signal: %s", took.Round(time.Millisecond), strings.TrimSpace(stderr))
			if code != 130 {
				t.Errorf("exit status %d, want 130", code)
			}
			if took > 10*time.Second {
				t.Errorf("took %v to stop", took.Round(time.Millisecond))
			}
			clitest.CheckOneLine(t, stderr, tt.want)
			if files := clitest.ListDir(t, dir); len(files) > 0 {
				t.Errorf("left behind: %v", files)
			}
		})
	}
}

// TestIgnoredHangup: under nohup (SIGHUP ignored) a hangup does not stop
// the run: catching SIGHUP must not undo the ignore.
func TestIgnoredHangup(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("sh", "-c", `trap "" HUP; exec "$0" backtrack -n 15 --count`, exe)
	cmd.Env = append(os.Environ(), "QUEENS_TEST_AS_MAIN=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	clitest.StartReady(t, cmd)
	cmd.Process.Signal(syscall.SIGHUP)
	cmd.Wait()
	if code := clitest.ExitStatus(cmd.ProcessState); code != 0 || stdout.String() != "2279184 solutions\n" {
		t.Errorf("exit status %d, stdout %q, stderr %q; want 0, the count", code, stdout.String(), stderr.String())
	}
}

// TestFirstSolutionFlushed: "queens sat --all --solver X | head -1" sees
// the first solution as soon as the solver finds it, not when the output
// buffer fills or the run ends. The stand-in solver answers its first
// call at once and then takes a minute per solve.
func TestFirstSolutionFlushed(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh for the solver script")
	}
	dir := t.TempDir()
	solver := filepath.Join(dir, "slow")
	calls := filepath.Join(dir, "calls")
	script := "#!/bin/sh\necho x >> " + calls + "\n" +
		"if [ $(wc -l < " + calls + ") -gt 1 ]; then sleep 60 & wait; exit 0; fi\n" +
		"echo 's SATISFIABLE'; echo 'v -1 2 -3 -4 -5 -6 -7 8 9 -10 -11 -12 -13 -14 15 -16 0'; exit 10\n"
	if err := os.WriteFile(solver, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := clitest.Cmd(t, dir, "sat", "-n", "4", "--all", "--format", "perm", "--solver", solver, "--solver-output", "stdout") // no probe: call 1 is the first solve
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cmd.Process.Signal(syscall.SIGTERM) // queens kills its solver
		cmd.Wait()
	}()
	line := make(chan string, 1)
	go func() {
		s, err := bufio.NewReader(pipe).ReadString('\n')
		if err != nil {
			s += "(read: " + err.Error() + ")"
		}
		line <- s
	}()
	select {
	case s := <-line:
		if s != "2 4 1 3\n" {
			t.Errorf("first line %q, want 2 4 1 3", s)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("no solution on stdout within 20 s: it waits in a buffer")
	}
}

// TestTraceDelayInterruptible: trace --delay 10m in a terminal (a pty
// made by script(1)) stops at Ctrl-C, not ten minutes later.
func TestTraceDelayInterruptible(t *testing.T) {
	if _, err := exec.LookPath("script"); err != nil {
		t.Skip("no script(1) for a terminal")
	}
	if _, err := os.Stat("/proc/self/environ"); err != nil {
		t.Skip("no /proc to find the process by")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("script", "-qefc", "'"+exe+"' trace -n 8 --all --delay 10m", "/dev/null")
	cmd.Env = append(os.Environ(), "QUEENS_TEST_AS_MAIN=1")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	ready := clitest.StartReady(t, cmd)
	defer cmd.Process.Kill()
	time.Sleep(300 * time.Millisecond) // the first step shown, then the wait
	// queens runs under script's shell, in a session of its own: find it
	// by the ready file in its environment.
	pid := 0
	procs, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range procs {
		env, err := os.ReadFile(filepath.Join("/proc", p.Name(), "environ"))
		if n, perr := strconv.Atoi(p.Name()); perr == nil && err == nil && n != cmd.Process.Pid &&
			bytes.Contains(env, []byte("QUEENS_TEST_READY="+ready+"\x00")) &&
			bytes.Contains(env, []byte("QUEENS_TEST_AS_MAIN=1")) {
			// A process may end between ReadDir and here: no
			// cmdline, so not one of ours.
			cmdline, _ := os.ReadFile(filepath.Join("/proc", p.Name(), "cmdline"))
			if bytes.Contains(cmdline, []byte("trace")) && !bytes.HasPrefix(cmdline, []byte("script")) &&
				!bytes.Contains(cmdline, []byte("-c\x00")) {
				pid = n
			}
		}
	}
	if pid == 0 {
		t.Fatal("queens not found under script")
	}
	clitest.Kill(pid, syscall.SIGINT)
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatalf("still waiting 10 s after Ctrl-C: %q", out.String())
	}
	if code := clitest.ExitStatus(cmd.ProcessState); code != 130 {
		t.Errorf("exit status %d, want 130", code)
	}
	if !strings.Contains(out.String(), "queens: interrupted after ") {
		t.Errorf("the output does not end with 'queens: interrupted after ...': %q", out.String()[max(0, out.Len()-300):])
	}
}
