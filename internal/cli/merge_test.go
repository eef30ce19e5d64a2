package cli

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/shard"
)

// TestMain lets the test binary stand in for the queens command (as
// stringer's end-to-end test does): with QUEENS_TEST_AS_MAIN=1 it runs
// the CLI instead of the tests.
func TestMain(m *testing.M) {
	if os.Getenv("QUEENS_TEST_AS_MAIN") == "1" {
		if ready := os.Getenv("QUEENS_TEST_READY"); ready != "" {
			// Tell TestInterrupt when signals are handled: a signal
			// before that would kill the process (a slow start, under
			// -race or on a loaded machine).
			signalsCaught = func() { os.WriteFile(ready, nil, 0o644) }
		}
		os.Exit(Run(os.Args, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// queensOnPath puts a command named queens (this test binary) first on
// PATH, for the end-to-end tests.
func queensOnPath(t *testing.T) string {
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

// shardLines runs every shard of n split k ways through the CLI and
// returns their output lines.
func shardLines(t *testing.T, n, k int, extra ...string) []string {
	t.Helper()
	var lines []string
	for i := range k {
		args := append([]string{"backtrack", "-n", fmt.Sprint(n), "--count", "--shard", fmt.Sprintf("%d/%d", i, k), "--json"}, extra...)
		stdout, stderr, code := runCLI(t, "", args...)
		if code != 0 || strings.Count(stdout, "\n") != 1 {
			t.Fatalf("queens %s: exit %d, stdout %q, stderr %q", strings.Join(args, " "), code, stdout, stderr)
		}
		lines = append(lines, stdout)
	}
	return lines
}

func TestShardMergeCLI(t *testing.T) {
	for _, n := range []int{1, 6, 10, 12} {
		for _, k := range []int{1, 2, 7, 64} {
			lines := shardLines(t, n, k, "--threads", "2")
			stdout, stderr, code := runCLI(t, strings.Join(lines, ""), "merge", "-")
			want, _ := board.Known(n)
			wantOut := fmt.Sprintf("%d solutions (%d unique)\nmatches the published count for n = %d\n", want.Total, want.Unique, n)
			if code != 0 || stdout != wantOut || stderr != "" {
				t.Errorf("n=%d K=%d: merge: exit %d, stdout %q, stderr %q; want %q", n, k, code, stdout, stderr, wantOut)
			}
		}
	}
}

// TestMergeRefusesCLI checks that merge names each problem, exit status 1.
func TestMergeRefusesCLI(t *testing.T) {
	good := shardLines(t, 10, 4)
	n9 := shardLines(t, 9, 4)
	k5 := shardLines(t, 10, 5)
	tampered := regexp.MustCompile(`"total24":(\d)`).ReplaceAllString(good[1], `"total24":9$1`)
	with := func(i int, l string) []string {
		c := append([]string(nil), good...)
		c[i] = l
		return c
	}
	cases := []struct {
		name  string
		lines []string
		want  string
	}{
		{"missing", good[1:], "missing shard: 1 of 4 shards absent (0-based: 0)"},
		{"duplicate", append(good[:4:4], good[3]), "duplicate shard: shard 3 of 4 appears twice"},
		{"tampered", with(1, tampered), "stdin:2: parse shard result"},
		{"mixed-n", with(2, n9[2]), "shards of different work: shard 0 has n 10, shard 2 has 9"},
		{"mixed-K", with(2, k5[2]), "shards of different work: shard 0 has shard count 4, shard 2 has 5"},
		{"garbage", with(3, "14200 solutions\n"), "stdin:4: parse shard result: not a shard result"},
		{"empty", []string{"\n"}, "missing shard: no shard results"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := strings.Join(c.lines, "")
			if in == good[1] {
				t.Fatal("tampering failed")
			}
			stdout, stderr, code := runCLI(t, in, "merge", "-")
			if code != 1 || stdout != "" || !strings.HasPrefix(stderr, "queens: merge: ") || !strings.Contains(stderr, c.want) || strings.Count(stderr, "\n") != 1 {
				t.Errorf("merge: exit %d, stdout %q, stderr %q; want exit 1 and %q", code, stdout, stderr, c.want)
			}
		})
	}
	if tampered == good[1] {
		t.Error("the tampered line is not tampered")
	}
}

// TestMergeVerdict checks what merge says of the published table, in text
// and JSON: a true count matches; a count that differs (a forged line with a
// valid checksum, as a buggy build would write) is printed, named and fails
// with exit status 1.
func TestMergeVerdict(t *testing.T) {
	lines := shardLines(t, 8, 2)
	forged, err := shard.Parse([]byte(lines[1]))
	if err != nil {
		t.Fatal(err)
	}
	forged.Total24 += 24 // one more solution
	bad := []string{lines[0], string(forged.AppendLine(nil))}
	cases := []struct {
		lines  []string
		format string
		out    string
		code   int
	}{
		{lines, "text", "92 solutions (12 unique)\nmatches the published count for n = 8\n", 0},
		{lines, "json", `{"n":8,"total":92,"unique":12,"published":"matches"}` + "\n", 0},
		{bad, "text", "93 solutions (12 unique)\nDIFFERS from the published count for n = 8: 92 solutions (12 unique)\n", 1},
		{bad, "json", `{"n":8,"total":93,"unique":12,"published":"differs"}` + "\n", 1},
	}
	for _, c := range cases {
		stdout, stderr, code := runCLI(t, strings.Join(c.lines, ""), "merge", "--format", c.format, "-")
		if code != c.code || stdout != c.out {
			t.Errorf("merge --format %s: exit %d, stdout %q, stderr %q; want exit %d, stdout %q", c.format, code, stdout, stderr, c.code, c.out)
		}
		if c.code == 1 && stderr != "queens: merge: the count of n = 8 differs from the published one\n" {
			t.Errorf("merge --format %s: stderr %q", c.format, stderr)
		}
	}
}

// TestShardEnv checks where the shard index and count come from.
func TestShardEnv(t *testing.T) {
	cases := []struct {
		env   map[string]string
		args  []string
		shard int // -1: usage error
	}{
		{nil, []string{"--shard", "2/5"}, 2},
		{nil, []string{"--shard", "3/5", "--shard-base", "1"}, 2},
		{nil, []string{"--shard", "2", "--shard-count", "5"}, 2},
		{nil, []string{"--shard", "5/5"}, -1},
		{nil, []string{"--shard", "0/5", "--shard-base", "1"}, -1},
		{nil, []string{"--shard", "2/5", "--shard-count", "4"}, -1},
		{nil, []string{"--shard", "2"}, -1},
		{nil, []string{"--shard", "x/5"}, -1},
		{nil, []string{"--shard", "1/"}, -1},
		{nil, []string{"--shard", "0/0"}, -1},
		{nil, []string{"--shard-count", "5"}, -1},
		{map[string]string{"JOB_COMPLETION_INDEX": "4"}, []string{"--shard-count", "5"}, 4},
		{map[string]string{"JOB_COMPLETION_INDEX": "4"}, []string{"--shard", "1/5"}, 1},
		{map[string]string{"JOB_COMPLETION_INDEX": "5"}, []string{"--shard-count", "5"}, -1},
		{map[string]string{"SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "5"}, []string{"--shard-count", "5"}, 4},
		{map[string]string{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "5"}, []string{"--shard-count", "5"}, 3},
		{map[string]string{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "5"}, []string{"--shard", "3"}, 3},
		{map[string]string{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "1"}, []string{"--shard-count", "5", "--shard-base", "0"}, 3},
		{map[string]string{"SLURM_ARRAY_TASK_ID": "x"}, []string{"--shard-count", "5"}, -1},
	}
	for _, c := range cases {
		t.Run(fmt.Sprint(c.env, c.args), func(t *testing.T) {
			for _, name := range []string{"JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_COUNT"} {
				t.Setenv(name, c.env[name])
				if _, ok := c.env[name]; !ok {
					os.Unsetenv(name)
				}
			}
			args := append([]string{"backtrack", "-n", "8", "--count", "--json"}, c.args...)
			stdout, stderr, code := runCLI(t, "", args...)
			if c.shard < 0 {
				if code != 2 || stdout != "" || !strings.HasPrefix(stderr, "queens: ") {
					t.Errorf("exit %d, stdout %q, stderr %q; want a usage error", code, stdout, stderr)
				}
				return
			}
			if want := fmt.Sprintf(`"shard":%d,"shards":5,`, c.shard); code != 0 || !strings.Contains(stdout, want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want %s", code, stdout, stderr, want)
			}
		})
	}
}

// TestCheckpointCLI counts with a checkpoint, counts again from it, and
// refuses a checkpoint of other work or one that was changed.
func TestCheckpointCLI(t *testing.T) {
	path := filepath.Join(t.TempDir(), "n12.ckpt")
	want := "14200 solutions (1787 unique)\n"
	pieces, _ := backtrack.Subproblems(12)
	for i, wantStats := range []string{" resumed=0 ", fmt.Sprintf(" resumed=%d ", len(pieces))} {
		stdout, stderr, code := runCLI(t, "", "backtrack", "-n", "12", "--count", "--unique", "--checkpoint", path, "--stats")
		if code != 0 || stdout != want || !strings.Contains(stderr, wantStats) {
			t.Errorf("run %d: exit %d, stdout %q, stderr %q; want %q and %s", i+1, code, stdout, stderr, want, wantStats)
		}
	}
	for _, args := range [][]string{
		{"backtrack", "-n", "11", "--count", "--checkpoint", path},
		{"backtrack", "-n", "12", "--count", "--checkpoint", path, "--shard", "0/2"},
	} {
		stdout, stderr, code := runCLI(t, "", args...)
		if code != 2 || stdout != "" || !strings.Contains(stderr, "bad checkpoint") {
			t.Errorf("queens %s: exit %d, stdout %q, stderr %q; want exit 2, bad checkpoint", strings.Join(args, " "), code, stdout, stderr)
		}
	}
	data, _ := os.ReadFile(path)
	os.WriteFile(path, []byte(strings.Replace(string(data), `"total24":1`, `"total24":2`, 1)), 0o644)
	stdout, stderr, code := runCLI(t, "", "backtrack", "-n", "12", "--count", "--checkpoint", path)
	if code != 2 || stdout != "" || !strings.Contains(stderr, "checksum does not match") {
		t.Errorf("changed checkpoint: exit %d, stdout %q, stderr %q; want exit 2, checksum", code, stdout, stderr)
	}
}

// TestCheckpointInterrupt interrupts a checkpointed count with SIGINT once
// a piece is recorded (exit status 130, pieces kept), then finishes it.
func TestCheckpointInterrupt(t *testing.T) {
	queens := queensOnPath(t)
	path := filepath.Join(t.TempDir(), "n15.ckpt")
	args := []string{"backtrack", "-n", "15", "--count", "--unique", "--threads", "1", "--checkpoint", path}
	cmd := exec.Command(queens, args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) {
		if data, _ := os.ReadFile(path); strings.Count(string(data), "\n") >= 3 {
			break
		}
	}
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 130 {
		t.Fatalf("interrupted count: %v, stderr %q; want exit status 130", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "run the same command again to continue") {
		t.Errorf("interrupted count: stderr %q does not say how to continue", stderr.String())
	}
	cmd = exec.Command(queens, append(args, "--stats", "--threads", "2")...)
	out, err := cmd.Output()
	want, _ := board.Known(15)
	if err != nil || string(out) != fmt.Sprintf("%d solutions (%d unique)\n", want.Total, want.Unique) {
		t.Fatalf("resumed count: %q, %v; want %d solutions (%d unique)", out, err, want.Total, want.Unique)
	}
}

// TestParallelREADME runs the GNU parallel line of the README's Scaling
// out section as it stands, and checks its output against the README's.
func TestParallelREADME(t *testing.T) {
	if _, err := exec.LookPath("parallel"); err != nil {
		t.Skip("GNU parallel is not installed (Debian package parallel); skipping the README's parallel line")
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	// The command is the line starting "$ parallel", the output what
	// follows up to a blank line.
	var line, want string
	sc := bufio.NewScanner(strings.NewReader(string(readme)))
	for sc.Scan() {
		text := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasPrefix(text, "$ parallel "):
			line = strings.TrimPrefix(text, "$ ")
		case line != "" && text == "":
			if want != "" {
				goto found
			}
		case line != "":
			want += text + "\n"
		}
	}
	t.Fatal("no '$ parallel ...' example with output in README.md")
found:
	queensOnPath(t)
	cmd := exec.Command("bash", "-c", line)
	cmd.Dir = t.TempDir()
	out, err := cmd.CombinedOutput()
	if err != nil || string(out) != want {
		t.Fatalf("%s:\n%s(%v)\nwant (README):\n%s", line, out, err, want)
	}
}
