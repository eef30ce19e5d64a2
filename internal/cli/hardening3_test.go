package cli

import (
	"bytes"
	"compress/gzip"
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
	"github.com/queens-dev/queens/internal/cli/cmdutil"
)

// TestTwoHostsShareADirectory: two runs writing into one directory from
// two machines (PID namespaces, as two hosts sharing storage look to
// each other: the first run's pid is not alive where the second runs)
// both finish; the second removes nothing of the first's.
func TestTwoHostsShareADirectory(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("PID namespaces need root")
	}
	if _, err := exec.LookPath("unshare"); err != nil {
		t.Skip("unshare is not installed")
	}
	dir := t.TempDir()
	parts := filepath.Join(dir, "parts")
	os.Mkdir(parts, 0o755)
	// The first run's solver waits for the file go (or 60 s): its output
	// sits under a temporary name meanwhile. It answers n = 3's true
	// UNSATISFIABLE, which the referee confirms.
	wait := filepath.Join(dir, "wait.sh")
	os.WriteFile(wait, []byte("#!/bin/sh\ni=0\nwhile [ ! -e '"+dir+"/go' ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done\necho 's UNSATISFIABLE'\nexit 20\n"), 0o755)
	exe := clitest.Executable(t)
	// Inside a new PID namespace, the first run gets a pid that is not
	// alive outside it.
	pid := 29999
	for cmdutil.ProcessAlive(pid + 1) {
		pid -= 100
	}
	first := exec.Command("unshare", "--pid", "--fork", "--mount-proc", "sh", "-c",
		`echo `+strconv.Itoa(pid)+` > /proc/sys/kernel/ns_last_pid && "$0" "$@"`,
		exe, "sat", "-n", "3", "--solver", wait, "-o", filepath.Join(parts, "a.txt"))
	first.Env = append(os.Environ(), "QUEENS_TEST_AS_MAIN=1", "TMPDIR="+dir)
	out, err := os.Create(filepath.Join(dir, "first.err"))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	first.Stdout, first.Stderr = out, out
	if err := first.Start(); err != nil {
		t.Skipf("unshare: %v", err)
	}
	defer first.Process.Kill()
	deadline := time.Now().Add(30 * time.Second)
	for {
		names, _ := filepath.Glob(filepath.Join(parts, ".a.txt"+cmdutil.TempSuffix+"*"))
		if len(names) == 1 {
			break
		}
		if time.Now().After(deadline) {
			b := clitest.ReadFile(t, out.Name())
			t.Fatalf("the first run wrote no temporary file: %s", b)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if _, stderr, code := clitest.RunQueens(t, dir, "backtrack", "-n", "4", "-o", filepath.Join(parts, "b.txt")); code != 0 {
		t.Fatalf("second run: exit %d, %s", code, stderr)
	}
	os.WriteFile(filepath.Join(dir, "go"), nil, 0o644)
	err = first.Wait()
	b := clitest.ReadFile(t, out.Name())
	if err != nil {
		t.Fatalf("first run: %v: %s", err, b)
	}
	got := clitest.ListDir(t, parts)
	if want := []string{"a.txt 12", "b.txt 60"}; !slices.Equal(got, want) {
		t.Errorf("parts: %v, want %v", got, want)
	}
}

// TestCheckpointNotOutput: -o naming the checkpoint (or its lock file),
// by any path, link or hard link, is a usage error before anything is
// counted, and the checkpoint is left as it was.
func TestCheckpointNotOutput(t *testing.T) {
	dir := t.TempDir()
	ckpt := filepath.Join(dir, "c.ckpt")
	os.Symlink("c.ckpt", filepath.Join(dir, "link"))
	for _, out := range []string{ckpt, "./c.ckpt", "link", "c.ckpt.lock", "sub/../c.ckpt", "hard"} {
		_, stderr, code := clitest.RunQueens(t, dir, "backtrack", "-n", "8", "--count", "--checkpoint", "c.ckpt", "-o", out)
		if code != 2 {
			t.Errorf("-o %s: exit %d, want 2", out, code)
		}
		clitest.CheckOneLine(t, stderr, "would replace the checkpoint")
		if out == "c.ckpt.lock" {
			// Now the checkpoint exists (an earlier case made it
			// through no run): a hard link to it is refused too.
			os.WriteFile(ckpt, nil, 0o644)
			os.Link(ckpt, filepath.Join(dir, "hard"))
			os.Mkdir(filepath.Join(dir, "sub"), 0o755)
		}
	}
	if b, err := os.ReadFile(ckpt); err != nil || len(b) != 0 {
		t.Errorf("the checkpoint became %q (%v)", b, err)
	}
	if _, stderr, code := clitest.RunQueens(t, dir, "backtrack", "-n", "6", "--count", "--checkpoint", "other.ckpt", "-o", "out.txt"); code != 0 {
		t.Errorf("a checkpoint apart from the output: exit %d, %s", code, stderr)
	}
}

// TestStdoutInherited: -o /dev/stdout writes to the descriptor queens
// inherited, not a new open of the file behind it: as nobody, to a file
// root opened for it, as `su nobody -c '... -o /dev/stdout' > file` does.
func TestStdoutInherited(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("running as nobody needs root")
	}
	dir, err := os.MkdirTemp("", "queens-nobody-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	os.Chmod(dir, 0o755)
	exe := filepath.Join(dir, "queens")
	self := clitest.Executable(t)
	b, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(exe, b, 0o755)
	out := filepath.Join(dir, "out.txt")
	for _, path := range []string{"/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"} {
		f, err := os.OpenFile(out, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644) // root's, 0644
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(exe, "backtrack", "-n", "4", "-o", path)
		cmd.Env = append(os.Environ(), "QUEENS_TEST_AS_MAIN=1")
		cmd.Dir = dir
		cmd.Stdout = f
		var stderr strings.Builder
		cmd.Stderr = &stderr
		cmd.SysProcAttr = clitest.AsUser(65534)
		err = cmd.Run()
		f.Close()
		if err != nil {
			t.Errorf("-o %s as nobody: %v: %s", path, err, stderr.String())
		}
		if b := clitest.ReadFile(t, out); string(b) != board4 {
			t.Errorf("-o %s as nobody wrote %q, want %q", path, b, board4)
		}
	}
}

// TestHostileInputsBounded: inputs that would take gigabytes (/dev/zero,
// a gzip bomb, a sparse 3 GB proof, a header claiming 2^31-2 variables)
// end in one line and exit status 2 within 1.5 GB of address space.
func TestHostileInputsBounded(t *testing.T) {
	dir := t.TempDir()
	exe := clitest.SmallQueens(t, dir)
	write := func(name string, data []byte) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	// 100 MiB of clauses behind a valid header, gzipped to about 200 kB.
	var bomb bytes.Buffer
	zw, err := gzip.NewWriterLevel(&bomb, gzip.BestSpeed)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(zw, "p cnf 64 %d\n", 100<<20/6)
	zw.Write(bytes.Repeat([]byte("1 -2 0\n"), 100<<20/7))
	zw.Close()
	write("bomb.cnf.gz", bomb.Bytes())
	// The same lemmas as a proof (read as they come, and one lemma
	// repeated is kept once): only the input limit stops it.
	bomb.Reset()
	zw.Reset(&bomb)
	zw.Write(bytes.Repeat([]byte("1 -2 0\n"), 100<<20/7))
	zw.Close()
	write("bomb.drat.gz", bomb.Bytes())
	// 200 MB of "v 1 1 1 ..." (issue 33: decode held it all, 860 MB for
	// 40 MB), and a one-line clause of 60 MB of repeats.
	bomb.Reset()
	zw.Reset(&bomb)
	zw.Write([]byte("s SATISFIABLE\nv"))
	zw.Write(bytes.Repeat([]byte(" 1"), 100<<20))
	zw.Close()
	write("v1.txt.gz", bomb.Bytes())
	bomb.Reset()
	zw.Reset(&bomb)
	zw.Write([]byte("p cnf 9 1\n"))
	zw.Write(bytes.Repeat([]byte("1 -2 3 4 5 "), 6<<20))
	zw.Write([]byte("0\n"))
	zw.Close()
	write("clause.cnf.gz", bomb.Bytes())
	sparse := filepath.Join(dir, "sparse.drat")
	f, err := os.Create(sparse)
	if err != nil {
		t.Fatal(err)
	}
	f.Truncate(3 << 30)
	f.Close()
	q3 := clitest.OutputQueens(t, dir, "dimacs", "-n", "3")
	write("q3.cnf", []byte(q3))
	write("unsat", []byte("s UNSATISFIABLE\n"))
	write("huge.cnf", []byte("p cnf 2147483646 2\n1 2147483646 0\n-1 0\n"))
	write("model", []byte("s SATISFIABLE\nv 2 4 5 11 0\n"))
	for _, tc := range []struct {
		args string
		want string
	}{
		{"decode -n 8 --cnf /dev/zero unsat", "a word of more than 64 bytes"},
		{"decode -n 8 /dev/zero", "a word of more than 4096 bytes"},
		{"decode -n 8 --cnf bomb.cnf.gz unsat", "over the input limit of 16 MiB (--max-input)"},
		{"decode -n 3 --cnf q3.cnf --proof /dev/zero unsat", "--proof"},
		{"decode -n 3 --cnf q3.cnf --proof sparse.drat unsat", "over the input limit"},
		{"decode -n 3 --cnf q3.cnf --proof bomb.drat.gz unsat", "over the input limit"},
		{"merge /dev/zero", "longer than a shard line may be (8 MiB)"},
		{"decode -n 2 --cnf huge.cnf model", "invalid model"},
		{"decode -n 8 --max-input 300 v1.txt.gz", "variable 1 given twice"},
		{"decode -n 3 --max-input 100 --cnf clause.cnf.gz model", "invalid model"},
	} {
		t.Run(tc.args, func(t *testing.T) {
			cmd := exec.Command("bash", "-c", `ulimit -v 1500000; exec "$0" "$@"`, exe)
			cmd.Args = append(cmd.Args, strings.Fields(tc.args)...)
			cmd.Dir = dir
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			cmd.Run()
			code := clitest.ExitStatus(cmd.ProcessState)
			if strings.HasSuffix(tc.args, " model") {
				// A failed check, not a crash: n = 2's model of that
				// file.
				if code != 1 {
					t.Errorf("exit %d, want 1: %s", code, stderr.String())
				}
			} else if code != 2 {
				t.Errorf("exit %d, want 2: %s", code, stderr.String())
			}
			clitest.CheckOneLine(t, stderr.String(), tc.want)
			if stderr.Len() > 300 {
				t.Errorf("a message of %d bytes", stderr.Len())
			}
		})
	}
}

// TestBlockedOpensInterruptible: a FIFO that nobody writes, given as
// decode's answer, --cnf or --proof or as merge's input, holds the run
// only until Ctrl-C (exit status 130 at once) or --timeout.
func TestBlockedOpensInterruptible(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := clitest.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	q3 := clitest.OutputQueens(t, dir, "dimacs", "-n", "3")
	os.WriteFile(filepath.Join(dir, "q3.cnf"), []byte(q3), 0o644)
	os.WriteFile(filepath.Join(dir, "unsat"), []byte("s UNSATISFIABLE\n"), 0o644)
	for _, args := range [][]string{
		{"decode", "-n", "3", fifo},
		{"decode", "-n", "3", "--cnf", fifo, "unsat"},
		{"decode", "-n", "3", "--cnf", "q3.cnf", "--proof", fifo, "unsat"},
		{"merge", fifo},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			cmd := clitest.Cmd(t, dir, args...)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			clitest.StartReady(t, cmd)
			time.Sleep(100 * time.Millisecond) // into the open
			cmd.Process.Signal(os.Interrupt)
			clitest.WaitBounded(t, cmd, 5*time.Second, "still waiting 5 s after SIGINT")
			if code := clitest.ExitStatus(cmd.ProcessState); code != 130 {
				t.Errorf("exit %d, want 130: %s", code, stderr.String())
			}
			clitest.CheckOneLine(t, stderr.String(), "interrupted")
		})
	}
}

// TestSolverFilesBounded: a solver that makes its result file a FIFO, or
// its proof a link to /dev/zero, a FIFO or a sparse 3 GB file, fails the
// run at once (exit status 1, one line), and its temporary directory is
// removed.
func TestSolverFilesBounded(t *testing.T) {
	dir := t.TempDir()
	script := func(name, body string) string {
		path := filepath.Join(dir, name)
		os.WriteFile(path, []byte("#!/bin/sh\n"+body+"\n"), 0o755)
		return path
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--solver", script("fifo-result.sh", `mkfifo "$2"; exit 20`), "--solver-output", "file"}, "not a regular file (a FIFO)"},
		{[]string{"--proof", "--solver", script("zero-proof.sh", `ln -s /dev/zero "$1"; echo 's UNSATISFIABLE'; exit 20`) + " {proof}"}, "a symbolic link"},
		{[]string{"--proof", "--solver", script("fifo-proof.sh", `mkfifo "$1"; echo 's UNSATISFIABLE'; exit 20`) + " {proof}"}, "not a regular file (a FIFO)"},
		{[]string{"--proof", "--solver", script("sparse-proof.sh", `truncate -s 3G "$1"; echo 's UNSATISFIABLE'; exit 20`) + " {proof}"}, "over the limit"},
	} {
		t.Run(filepath.Base(tc.args[len(tc.args)-1]), func(t *testing.T) {
			tmp := t.TempDir()
			cmd := clitest.Cmd(t, tmp, append([]string{"sat", "-n", "3", "--timeout", "20s"}, tc.args...)...)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			start := time.Now()
			cmd.Run()
			if code := clitest.ExitStatus(cmd.ProcessState); code != 1 {
				t.Errorf("exit %d, want 1: %s", code, stderr.String())
			}
			if took := time.Since(start); took > 10*time.Second {
				t.Errorf("took %v", took)
			}
			clitest.CheckOneLine(t, stderr.String(), tc.want)
			if left := clitest.ListDir(t, tmp); len(left) > 0 {
				t.Errorf("left behind: %v", left)
			}
		})
	}
}

// TestSolverDiesWithQueens: a solver outlives no queens, even one killed
// by SIGKILL (Linux: the kernel kills it, PR_SET_PDEATHSIG).
func TestSolverDiesWithQueens(t *testing.T) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("needs Linux")
	}
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "solver.pid")
	solver := filepath.Join(dir, "sleepy.sh")
	os.WriteFile(solver, []byte("#!/bin/sh\necho $$ > "+pidFile+".tmp && mv "+pidFile+".tmp "+pidFile+"\nexec sleep 60\n"), 0o755)
	cmd := clitest.Cmd(t, dir, "sat", "-n", "8", "--solver", solver, "--solver-output", "stdout")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var pid int
	for start := time.Now(); pid == 0; time.Sleep(20 * time.Millisecond) {
		if b, err := os.ReadFile(pidFile); err == nil {
			// A half-written pid reads as 0 or an error: try again.
			pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		}
		if time.Since(start) > 20*time.Second {
			cmd.Process.Kill()
			t.Fatal("the solver did not start")
		}
	}
	cmd.Process.Kill()
	cmd.Wait()
	for start := time.Now(); cmdutil.ProcessAlive(pid); time.Sleep(20 * time.Millisecond) {
		// Gone from /proc (reaped) ends the loop through ProcessAlive.
		if b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); strings.Contains(string(b), ") Z ") {
			break // dead, a zombie until its reaper (not us) reaps it
		}
		if time.Since(start) > 5*time.Second {
			clitest.Kill(pid, syscall.SIGKILL)
			t.Fatal("the solver outlived queens by 5 s")
		}
	}
}

// TestMessagesShort: whatever a message quotes (a long argument, a flag
// value, a token of a file or a shard line's host), it is one line of a
// few hundred bytes at most, with control and formatting characters
// escaped.
func TestMessagesShort(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("x", 100000)
	nuls := filepath.Join(dir, "nuls")
	os.WriteFile(nuls, make([]byte, 1<<20), 0o644)
	clause := filepath.Join(dir, "clause.cnf")
	os.WriteFile(clause, []byte("p cnf 2 1\n1 "+strings.Repeat("7", 1<<20)+" 0\n"), 0o644)
	for _, args := range [][]string{
		{"backtrack", "-n", "8", long},
		{"backtrack", "-n", long},
		{"backtrack", "-n", "8", "--place", "\x1b[2J\r\u202e" + long},
		{"backtrack", "-n", "8", "--format", "\x1b]0;pwned\x07"},
		{"decode", "-n", "4", nuls},
		{"decode", "-n", "4", "--cnf", clause, nuls},
		{"check", "-n", "4", "\x1b[31m" + long},
		{"merge", nuls},
	} {
		_, stderr, code := clitest.RunQueens(t, dir, args...)
		if code != 1 && code != 2 {
			t.Errorf("%.40q: exit %d", args, code)
		}
		clitest.CheckOneLine(t, stderr, "")
		if len(stderr) > cmdutil.MaxMessage+40 || strings.ContainsAny(stderr[:len(stderr)-1], "\x00\x1b\r\u202e\x07") {
			t.Errorf("%.40q: %d bytes, %.200q", args, len(stderr), stderr)
		}
	}
}

// TestStdinWaitInterruptible: check and decode waiting on a stdin that
// nobody writes (an open pipe) stop at Ctrl-C, exit status 130.
func TestStdinWaitInterruptible(t *testing.T) {
	for _, args := range [][]string{{"check", "-n", "4"}, {"decode", "-n", "4"}, {"merge", "-"}} {
		t.Run(args[0], func(t *testing.T) {
			cmd := clitest.Cmd(t, t.TempDir(), args...)
			w, err := cmd.StdinPipe() // held open, never written
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			clitest.StartReady(t, cmd)
			time.Sleep(100 * time.Millisecond)
			cmd.Process.Signal(os.Interrupt)
			clitest.WaitBounded(t, cmd, 5*time.Second, "still reading stdin 5 s after SIGINT")
			if code := clitest.ExitStatus(cmd.ProcessState); code != 130 {
				t.Errorf("exit %d, want 130: %s", code, stderr.String())
			}
		})
	}
}

// TestHostileProofsBounded: proofs that took memory by the byte, under
// ulimit -v 1500000: 20 MB of tautologies given to decode --proof (it
// took 28 bytes a byte), and a solver that writes 200 MB of NULs as its
// proof, end in one line, not an out-of-memory crash.
func TestHostileProofsBounded(t *testing.T) {
	dir := t.TempDir()
	exe := clitest.SmallQueens(t, dir)
	q8 := clitest.OutputQueens(t, dir, "dimacs", "-n", "8")
	os.WriteFile(filepath.Join(dir, "q8.cnf"), []byte(q8), 0o644)
	os.WriteFile(filepath.Join(dir, "taut.drat"), bytes.Repeat([]byte("1 -1 0\n"), 20<<20/7), 0o644)
	os.WriteFile(filepath.Join(dir, "unsat"), []byte("s UNSATISFIABLE\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "nul.sh"), []byte("#!/bin/sh\ntruncate -s 200M \"$1\"; echo 's UNSATISFIABLE'; exit 20\n"), 0o755)
	for _, tc := range []struct {
		args string
		want string
	}{
		{"decode -n 8 --cnf q8.cnf --proof taut.drat --max-input 100 unsat", "no conflict reached"},
		{"sat -n 3 --proof --solver ./nul.sh\x00{proof}", "bad literal"},
	} {
		t.Run(strings.Fields(tc.args)[0], func(t *testing.T) {
			cmd := exec.Command("bash", "-c", `ulimit -v 1500000; exec "$0" "$@"`, exe)
			for _, a := range strings.Fields(tc.args) {
				cmd.Args = append(cmd.Args, strings.ReplaceAll(a, "\x00", " "))
			}
			cmd.Dir = dir
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			cmd.Run()
			if code := clitest.ExitStatus(cmd.ProcessState); code != 1 {
				t.Errorf("exit %d, want 1: %s", code, stderr.String())
			}
			clitest.CheckOneLine(t, stderr.String(), tc.want)
			if stderr.Len() > 300 {
				t.Errorf("a message of %d bytes", stderr.Len())
			}
		})
	}
}
